/**
 * The SFTP connection shared by the send-to-SFTP node and the SFTP upload poller: an ssh2-sftp-client
 * connected to an address the net guard already checked (never to the name again), with the stored
 * connection's key or password, no retries, a ready timeout and the host key verified
 * (server/sftp-connect.ts). A connection without a pinned host key pins the one its server presents on the
 * first successful login (trust on first use); later connections must meet the same key. `openSftp` does
 * the whole sequence for the poller: credentials present, net guard, connect; its errors name the
 * connection and can be shown to users.
 */
import type { Knex } from 'knex';
import SftpClient from 'ssh2-sftp-client';
import { OutboundRefused, resolveOutbound } from '../server/net-guard';
import { connectVerified, HostKeyMismatch, SFTP_CONNECT_TIMEOUT_MS } from '../server/sftp-connect';
import type { SftpConnectionRow } from '../db/queries/sftp-connections';
import { pinSftpHostKey } from '../db/queries/sftp-connections';
import { openRow, UnreadableCredential } from '../db/crypto';
import { refusalMessage } from './actions/context';

export { HostKeyMismatch };

/**
 * Connects `client` to `address` (already checked by the net guard) with the opened row's key or password,
 * verifying the host key against the row's pin, or pinning the presented one when the row has none.
 * Throws HostKeyMismatch (permanent) when the key is not the pinned one.
 */
export async function connectSftp(
  knex: Knex,
  client: SftpClient,
  conn: SftpConnectionRow,
  address: string,
  timeoutMs = SFTP_CONNECT_TIMEOUT_MS,
): Promise<void> {
  const login = {
    name: conn.name,
    address: conn.address,
    port: conn.port,
    username: conn.username,
    useKey: conn.use_key,
    password: conn.password,
    privateKey: conn.private_key,
    hostKey: conn.host_key ?? null,
  };
  const presented = await connectVerified(client, login, address, { timeoutMs });
  if (login.hostKey !== null) return;
  // Pinned only after a successful login: a server that does not let us in is not trusted.
  const pinned = await pinSftpHostKey(knex, conn, presented);
  if (pinned !== null && pinned !== presented) {
    // Another worker pinned a different key meanwhile: one of the two servers is not the right one.
    await client.end().catch(() => undefined);
    throw new HostKeyMismatch(conn.name, `${conn.address}:${conn.port}`, pinned, presented);
  }
}

/** ssh2 messages are prefixed with the client method ("connect: ..."); keep the readable part. */
export const describeSftpError = (err: unknown): string =>
  ((err as Error)?.message ?? String(err)).replace(/^[a-zA-Z]+:\s*/, '').trim() || 'failed';

/**
 * The stored row with its password and private key opened (they are stored sealed, db/crypto.ts). Throws
 * an UnreadableCredential naming the connection when one cannot be decrypted.
 */
export function openSftpCredentials(conn: SftpConnectionRow): SftpConnectionRow {
  try {
    return openRow('sftp_connections', conn);
  } catch (err) {
    if (!(err instanceof UnreadableCredential)) throw err;
    throw new UnreadableCredential(`password or key of the SFTP connection "${conn.name}"`, err.reason);
  }
}

/** What is missing for the connection to log in, or null. */
export function missingCredential(conn: SftpConnectionRow): string | null {
  if (!conn.username) return `The SFTP connection "${conn.name}" has no username`;
  if (conn.use_key ? !conn.private_key : !conn.password)
    return `The SFTP connection "${conn.name}" has no ${conn.use_key ? 'private key' : 'password'}`;
  return null;
}

/**
 * A client connected to the stored connection, or an Error whose message says which connection failed and
 * why (missing credentials, refused address, unknown host, authentication, timeout, a host key that is not
 * the pinned one: HostKeyMismatch).
 */
export async function openSftp(
  knex: Knex,
  stored: SftpConnectionRow,
  allowlist: readonly string[],
  clientName: string,
): Promise<SftpClient> {
  const missing = missingCredential(stored);
  if (missing) throw new Error(missing);
  const conn = openSftpCredentials(stored);
  const where = `${conn.address}:${conn.port}`;
  let address: string;
  try {
    address = (await resolveOutbound(conn.address, allowlist)).address;
  } catch (err) {
    const why =
      err instanceof OutboundRefused
        ? refusalMessage(err)
        : `the host ${conn.address} could not be resolved (${describeSftpError(err)})`;
    throw new Error(`SFTP connection "${conn.name}": ${why}`, { cause: err });
  }
  const client = new SftpClient(clientName);
  try {
    await connectSftp(knex, client, conn, address);
  } catch (err) {
    await client.end().catch(() => undefined);
    if (err instanceof HostKeyMismatch) throw err;
    throw new Error(
      `SFTP connection "${conn.name}": connecting to ${where} failed: ${describeSftpError(err)}`,
      {
        cause: err,
      },
    );
  }
  return client;
}
