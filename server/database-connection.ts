/**
 * How every process here reaches PostgreSQL (the API, the worker, migrations, the scripts): DATABASE_URL, with
 * TLS set by libpq's URL parameters as node-postgres reads them (pg-connection-string; knex parses the URL with
 * its own copy and hands node-postgres the result, so the statistics and export cursors, which run in knex
 * transactions, use the same connection settings as every other query):
 *
 * - `sslmode=verify-full&sslrootcert=/path/ca.pem`: the server's chain must end at that CA and its certificate
 *   must name the URL's host (node-postgres passes the host to Node's `tls.checkServerIdentity`: a DNS name is
 *   checked against the certificate's DNS names, an IP address against its IP addresses).
 * - `sslcert` / `sslkey`: a client certificate, for a server whose pg_hba.conf asks for one.
 * - `sslmode=disable`, or no ssl parameter: no TLS.
 *
 * Decisions: node-postgres 8 treats `prefer`, `require` and `verify-ca` as `verify-full` (it verifies more than
 * libpq would: such a URL with a private CA needs its sslrootcert); `no-verify` encrypts without checking the
 * server and is documented as unsafe. Any other sslmode (libpq's `allow`) is refused here, since node-postgres
 * would quietly verify in full. Without sslrootcert the server must chain to a CA Node trusts (its bundled list,
 * plus NODE_EXTRA_CA_CERTS).
 *
 * The files are read and checked before any connection (`checkDatabaseUrl`, before knex would read them and fail
 * with a bare ENOENT); a TLS failure
 * of the first connection (a CA that did not sign the server, a certificate for another host, a server without
 * TLS) is told apart from a server that is merely down by `probeDatabase`. Both throw a DatabaseSettingError
 * naming the parameter, which the entry points print as one line (server/setting-error.ts).
 */
import fs from 'node:fs';
import knexFactory, { type Knex } from 'knex';
import { createKnex } from '../db/connection';
import { codeOf, pemCertificates, SettingError } from './setting-error';

export class DatabaseSettingError extends SettingError {
  constructor(setting: string, problem: string) {
    super(setting, `PostgreSQL connection: ${setting}: ${problem}`);
    this.name = 'DatabaseSettingError';
  }
}

/** The sslmode values node-postgres knows (see the module header for what each does here). */
export const SSL_MODES = ['disable', 'prefer', 'require', 'verify-ca', 'verify-full', 'no-verify'] as const;

export interface DatabaseTarget {
  /** host:port as the URL gives them (the port defaults to 5432). */
  address: string;
  host: string;
  /** Whether node-postgres will use TLS. */
  tls: boolean;
  sslmode: string | null;
  /** The CA file (sslrootcert), when given. */
  rootCert: string | null;
  clientCert: string | null;
}

const param = (p: string) => `DATABASE_URL's ${p}`;

/** Reads and checks DATABASE_URL's TLS files; throws a DatabaseSettingError naming the parameter. */
export function checkDatabaseUrl(url: string, now = new Date()): DatabaseTarget {
  let u: URL;
  try {
    u = new URL(url);
  } catch {
    // The URL holds the password: it is not repeated.
    throw new DatabaseSettingError('DATABASE_URL', 'not a URL (postgres://user:password@host:5432/database)');
  }
  if (u.protocol !== 'postgres:' && u.protocol !== 'postgresql:')
    throw new DatabaseSettingError(
      'DATABASE_URL',
      `the scheme is ${u.protocol} (postgres:// or postgresql://)`,
    );
  const p = u.searchParams;
  const sslmode = p.get('sslmode');
  if (sslmode !== null && !(SSL_MODES as readonly string[]).includes(sslmode))
    throw new DatabaseSettingError(param('sslmode'), `"${sslmode}" is not one of ${SSL_MODES.join(', ')}`);
  const read = (key: string): Buffer | null => {
    const file = p.get(key);
    if (file === null) return null;
    try {
      return fs.readFileSync(file);
    } catch (err) {
      throw new DatabaseSettingError(param(key), `cannot read ${file} (${codeOf(err)})`);
    }
  };
  const fail = (setting: string, problem: string) => new DatabaseSettingError(setting, problem);
  for (const key of ['sslrootcert', 'sslcert']) {
    const bytes = read(key);
    if (bytes) pemCertificates({ bytes, setting: `${param(key)} (${p.get(key)})` }, now, fail);
  }
  if (p.has('sslcert') !== p.has('sslkey'))
    throw new DatabaseSettingError(
      param(p.has('sslcert') ? 'sslkey' : 'sslcert'),
      `not set while ${p.has('sslcert') ? 'sslcert' : 'sslkey'} is: a client certificate needs both`,
    );
  read('sslkey');
  const anySsl = ['sslmode', 'sslrootcert', 'sslcert', 'sslkey'].some((k) => p.has(k));
  const host = decodeURIComponent(u.hostname.replace(/^\[|\]$/g, '')) || 'localhost';
  return {
    address: `${host}:${u.port || 5432}`,
    host,
    tls: sslmode !== 'disable' && (anySsl || p.get('ssl') === 'true' || p.get('ssl') === '1'),
    sslmode,
    rootCert: p.get('sslrootcert'),
    clientCert: p.get('sslcert'),
  };
}

/** PostgreSQL's answers that a setting caused: password, pg_hba.conf (no entry, client certificate), no database. */
const REFUSALS = new Set(['28000', '28P01', '3D000']);

/** The setting a failed first connection points at, or null when it is not a setting's fault. */
export function settingOfFailure(err: unknown, t: DatabaseTarget): DatabaseSettingError | null {
  const e = err as NodeJS.ErrnoException & { reason?: string };
  const code = e.code ?? '';
  const reason = (e.reason ?? (e.message ?? String(err)).split('\n')[0]).replace(/[\s:]+$/, '');
  const detail = `${reason}${code ? ` (${code})` : ''}`;
  if (/does not support SSL/i.test(e.message ?? ''))
    return new DatabaseSettingError(
      param('sslmode'),
      `the server at ${t.address} does not support TLS (sslmode=${t.sslmode ?? 'not set'}; its ssl setting is off)`,
    );
  if (code === 'ERR_TLS_CERT_ALTNAME_INVALID')
    return new DatabaseSettingError(
      'DATABASE_URL host',
      `the server's certificate is not for ${t.host}: ${detail}; use the name the certificate gives`,
    );
  if (/CERT|ISSUER|SIGNATURE/.test(code) && !/ALERT/.test(code))
    return new DatabaseSettingError(
      param('sslrootcert'),
      t.rootCert
        ? `${t.rootCert} did not sign the certificate of the server at ${t.address}: ${detail}`
        : `not set, and the certificate of the server at ${t.address} does not chain to a CA Node trusts: ${detail}`,
    );
  if (/ALERT/.test(code))
    return new DatabaseSettingError(
      param('sslcert'),
      `the server at ${t.address} refused the TLS connection${t.clientCert ? '' : ' (no client certificate is set)'}: ${detail}`,
    );
  if (REFUSALS.has(code))
    return new DatabaseSettingError('DATABASE_URL', `the server at ${t.address} refused: ${detail}`);
  return null;
}

/**
 * One query at a process's start, to tell a setting that cannot work (throws a DatabaseSettingError naming it)
 * from a server that is down, slow or failing otherwise (false: the pool connects again as queries come, and
 * readiness reports the database DOWN meanwhile). It runs on a pool of its own, configured as createKnex's but
 * with knex's warnings off: knex would print each failed connection's stack, and the refusal is to be one line.
 */
export async function probeDatabase(databaseUrl: string, timeoutMs = 10000): Promise<boolean> {
  const target = checkDatabaseUrl(databaseUrl);
  const quiet = () => {};
  const probe = knexFactory({
    client: 'pg',
    connection: databaseUrl,
    pool: { min: 0, max: 1 },
    acquireConnectionTimeout: timeoutMs,
    log: { warn: quiet, error: quiet, debug: quiet, deprecate: quiet },
  });
  try {
    await probe.raw('select 1');
    return true;
  } catch (err) {
    const refusal = settingOfFailure(err, target);
    if (refusal) throw refusal;
    return false;
  } finally {
    await probe.destroy();
  }
}

/**
 * The pool of a process's start (API, worker, migrations): DATABASE_URL's files checked, then one query that
 * stops the start on a setting that cannot work. A server that is down does not stop it (see probeDatabase).
 */
export async function openDatabase(
  databaseUrl: string,
  pool?: { min: number; max: number },
): Promise<{ knex: Knex; reachable: boolean }> {
  const reachable = await probeDatabase(databaseUrl);
  return { knex: createKnex(databaseUrl, pool), reachable };
}
