import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { makeCa, makeLeaf } from '../scripts/lib/certs';
import { checkDatabaseUrl, DatabaseSettingError, settingOfFailure } from './database-connection';

describe('DATABASE_URL TLS parameters', () => {
  let dir: string;
  let ca: { cert: string; key: string };
  let client: { cert: string; key: string };
  const url = (query: string) => `postgres://app:secret@db.example.org:6432/workbench${query}`;

  beforeAll(() => {
    dir = fs.mkdtempSync(path.join(os.tmpdir(), 'database-connection-'));
    ca = makeCa(path.join(dir, 'ca'), 'ca', '/CN=DB CA');
    client = makeLeaf(path.join(dir, 'ca'), ca, 'client', { commonName: 'app', usage: 'client' });
  });
  afterAll(() => fs.rmSync(dir, { recursive: true, force: true }));

  const errorOf = (databaseUrl: string): DatabaseSettingError => {
    try {
      checkDatabaseUrl(databaseUrl);
    } catch (err) {
      expect(err).toBeInstanceOf(DatabaseSettingError);
      expect((err as Error).message).not.toContain('\n');
      expect((err as Error).message).not.toContain('secret');
      return err as DatabaseSettingError;
    }
    throw new Error('no error');
  };

  it('reads verify-full with a CA file as TLS to host:port, and a plain URL as no TLS', () => {
    expect(checkDatabaseUrl(url(`?sslmode=verify-full&sslrootcert=${ca.cert}`))).toEqual({
      address: 'db.example.org:6432',
      host: 'db.example.org',
      tls: true,
      sslmode: 'verify-full',
      rootCert: ca.cert,
      clientCert: null,
    });
    expect(checkDatabaseUrl('postgres://app@localhost/workbench')).toMatchObject({
      address: 'localhost:5432',
      tls: false,
    });
    expect(checkDatabaseUrl(url(`?sslmode=disable&sslrootcert=${ca.cert}`)).tls).toBe(false);
    expect(checkDatabaseUrl(url(`?sslcert=${client.cert}&sslkey=${client.key}`))).toMatchObject({
      tls: true,
      clientCert: client.cert,
    });
  });

  it('names sslrootcert when its file is missing or holds no certificate', () => {
    const missing = path.join(dir, 'nowhere.pem');
    expect(errorOf(url(`?sslmode=verify-full&sslrootcert=${missing}`)).message).toBe(
      `PostgreSQL connection: DATABASE_URL's sslrootcert: cannot read ${missing} (ENOENT)`,
    );
    const e = errorOf(url(`?sslmode=verify-full&sslrootcert=${ca.key}`));
    expect(e.setting).toBe(`DATABASE_URL's sslrootcert (${ca.key})`);
    expect(e.message).toContain('no PEM certificate in it');
  });

  it('refuses an sslmode node-postgres does not know, and a client certificate without its key', () => {
    expect(errorOf(url('?sslmode=allow')).message).toBe(
      `PostgreSQL connection: DATABASE_URL's sslmode: "allow" is not one of disable, prefer, require, verify-ca, verify-full, no-verify`,
    );
    expect(errorOf(url(`?sslcert=${client.cert}`)).setting).toBe("DATABASE_URL's sslkey");
    expect(errorOf('not a url').message).toBe(
      'PostgreSQL connection: DATABASE_URL: not a URL (postgres://user:password@host:5432/database)',
    );
    expect(errorOf('mysql://app:secret@db/x').setting).toBe('DATABASE_URL');
  });

  it('points a failed first connection at the parameter that caused it, and nothing at a server that is down', () => {
    const t = checkDatabaseUrl(url(`?sslmode=verify-full&sslrootcert=${ca.cert}`));
    const tlsError = (code: string, message: string) => Object.assign(new Error(message), { code });
    expect(
      settingOfFailure(
        tlsError('SELF_SIGNED_CERT_IN_CHAIN', 'self-signed certificate in certificate chain'),
        t,
      )?.message,
    ).toBe(
      `PostgreSQL connection: DATABASE_URL's sslrootcert: ${ca.cert} did not sign the certificate of the server at db.example.org:6432: self-signed certificate in certificate chain (SELF_SIGNED_CERT_IN_CHAIN)`,
    );
    expect(
      settingOfFailure(tlsError('ERR_TLS_CERT_ALTNAME_INVALID', 'Hostname/IP does not match'), t)?.setting,
    ).toBe('DATABASE_URL host');
    expect(settingOfFailure(new Error('The server does not support SSL connections'), t)?.setting).toBe(
      "DATABASE_URL's sslmode",
    );
    expect(
      settingOfFailure(tlsError('28P01', 'password authentication failed for user "app"'), t)?.setting,
    ).toBe('DATABASE_URL');
    expect(settingOfFailure(tlsError('ECONNREFUSED', 'connect ECONNREFUSED'), t)).toBeNull();
  });
});
