/**
 * Connecting an ssh2-sftp-client with the host key verified (issue 25), for the worker (SFTP poller,
 * SEND_TO_SFTP) and the API's connection test alike: the client goes to an address the net guard already
 * checked, with the key or the password, no retries and a ready timeout, and ssh2's `hostVerifier` compares
 * the server's host key with the pinned OpenSSH SHA256 fingerprint. A pinned key that differs refuses the
 * connection before any credential is sent (HostKeyMismatch); without a pin any key is accepted and its
 * fingerprint returned, for the caller to pin (worker) or to show (connection test).
 */
import crypto from 'node:crypto';
import type SftpClient from 'ssh2-sftp-client';

export const SFTP_CONNECT_TIMEOUT_MS = 10_000;

/** The OpenSSH SHA256 fingerprint of a host key blob (as `ssh-keygen -lf key.pub -E sha256` prints it). */
export const hostKeyFingerprint = (key: Buffer): string =>
  `SHA256:${crypto.createHash('sha256').update(key).digest('base64').replace(/=+$/, '')}`;

/** The server presented another host key than the pinned one: permanent until someone changes the pin. */
export class HostKeyMismatch extends Error {
  constructor(
    readonly connection: string,
    readonly where: string,
    readonly expected: string,
    readonly presented: string,
  ) {
    super(
      `SFTP connection "${connection}": the host key of ${where} does not match the pinned one ` +
        `(expected ${expected}, presented ${presented}); connection refused. If the server's key was ` +
        `changed on purpose, pin the new fingerprint on the connection.`,
    );
    this.name = 'HostKeyMismatch';
  }
}

export interface SftpLogin {
  /** The connection's name, for messages. */
  name: string;
  /** The address as configured (for messages); the client connects to `connectTo`. */
  address: string;
  port: number;
  username: string | null;
  useKey: boolean;
  password: string | null;
  privateKey: string | null;
  /** The pinned fingerprint; null: not pinned. */
  hostKey: string | null;
}

/**
 * Connects `client` to `connectTo` (an IP the net guard checked) and returns the fingerprint of the host key
 * the server presented. Throws HostKeyMismatch when it is not the pinned one, else ssh2's error.
 * `onHostKey` hears the fingerprint as soon as the server presents it (also when the login then fails).
 */
export async function connectVerified(
  client: SftpClient,
  login: SftpLogin,
  connectTo: string,
  {
    timeoutMs = SFTP_CONNECT_TIMEOUT_MS,
    onHostKey,
  }: { timeoutMs?: number; onHostKey?: (fingerprint: string) => void } = {},
): Promise<string> {
  let presented: string | null = null;
  const hostVerifier = (key: Buffer): boolean => {
    presented = hostKeyFingerprint(key);
    onHostKey?.(presented);
    return login.hostKey === null || presented === login.hostKey;
  };
  try {
    await client.connect({
      host: connectTo,
      port: login.port,
      username: login.username ?? '',
      ...(login.useKey ? { privateKey: login.privateKey ?? '' } : { password: login.password ?? '' }),
      readyTimeout: timeoutMs,
      retries: 0,
      hostVerifier,
    });
  } catch (err) {
    const seen: string | null = presented;
    if (login.hostKey !== null && seen !== null && seen !== login.hostKey)
      throw new HostKeyMismatch(login.name, `${login.address}:${login.port}`, login.hostKey, seen);
    throw err;
  }
  if (presented === null) throw new Error('the server presented no host key'); // ssh2 always verifies
  return presented;
}
