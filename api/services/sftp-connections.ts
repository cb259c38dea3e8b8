/**
 * SFTP connections of SFTP_UPLOAD and SEND_TO_SFTP nodes. Credentials form the "password object" of the
 * DTO; the password and the private key are never returned (masked), and an update or a test sending null
 * or the mask uses the stored ones. Both are stored sealed (db/queries/sftp-connections.ts); here they are
 * opened only to connect (the test).
 */
import {
  DEFAULT_SFTP_FOLDER,
  DEFAULT_SFTP_PORT,
  keepOrReplaceSecret,
  sftpHostKeyOf,
  type ValidSftpConnectionInput,
} from '../../domain/integrations';
import { openValue, UnreadableCredential } from '../../db/crypto';
import { trimOrNull, type SftpConnectionRow } from '../../db/queries/sftp-connections';
import { appError } from '../errors';

// The reads and writes are the table's (db/queries/sftp-connections.ts); the routes reach them here.
export {
  createSftpConnection,
  deleteSftpConnection,
  findSftpConnection,
  listSftpConnections,
  toSftpConnectionDTO,
  updateSftpConnection,
} from '../../db/queries/sftp-connections';
export type { ValidSftpConnectionInput };

/** Plain connection settings with the secrets resolved (for connecting, never for a response). */
export interface SftpTarget {
  name: string;
  address: string;
  port: number;
  folder: string;
  useKey: boolean;
  username: string | null;
  password: string | null;
  privateKey: string | null;
  /** The pin the connection would have once saved (null: not pinned). */
  hostKey: string | null;
}

/**
 * The connection the input describes, secrets resolved against the stored row. The credentials of the
 * mode not in use are dropped, so switching from password to key forgets the password.
 */
export function resolveSftpInput(input: ValidSftpConnectionInput, stored?: SftpConnectionRow): SftpTarget {
  const creds = input.password ?? {};
  const useKey = !!creds.useKey;
  return {
    name: input.name.trim(),
    address: input.address.trim(),
    port: input.port ?? DEFAULT_SFTP_PORT,
    folder: trimOrNull(input.folder) ?? DEFAULT_SFTP_FOLDER,
    useKey,
    username: trimOrNull(creds.username),
    password: useKey ? null : keepOrReplaceSecret(creds.password, open(stored, 'password')),
    privateKey: useKey ? keepOrReplaceSecret(creds.privateKey, open(stored, 'private_key')) : null,
    hostKey: sftpHostKeyOf(input, stored && { ...stored, hostKey: stored.host_key }),
  };
}

/** The stored secret in clear; one that cannot be decrypted fails the test with the reason (a 400). */
function open(stored: SftpConnectionRow | undefined, column: 'password' | 'private_key') {
  try {
    return stored ? openValue('sftp_connections', column, stored[column]) : null;
  } catch (err) {
    if (!(err instanceof UnreadableCredential)) throw err;
    const e = appError('error.sftpConnectionFailed', 'sftpConnection');
    e.body.detail = err.message;
    throw e;
  }
}
