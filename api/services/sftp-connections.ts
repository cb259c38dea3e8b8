/**
 * SFTP connections of SFTP_UPLOAD and SEND_TO_SFTP nodes. Credentials form the "password object" of the
 * DTO; the password and the private key are never returned (masked), and an update or a test sending null
 * or the mask uses the stored ones. Both are stored sealed (db/crypto.ts): rows read here carry the
 * ciphertext, opened only to connect (the test), and a kept secret keeps its stored ciphertext.
 */
import type { Knex } from 'knex';
import {
  DEFAULT_SFTP_FOLDER,
  DEFAULT_SFTP_PORT,
  keepOrReplaceSecret,
  maskSecret,
} from '../../domain/integrations';
import type { SftpConnectionDTO } from '../../domain/integration-types';
import { openValue, sealValue, UnreadableCredential } from '../../db/crypto';
import type { SftpConnectionRow } from '../../server/sftp-connections';
import { appError } from '../errors';

export interface SftpConnectionInput {
  name: string;
  address: string;
  port?: number | null;
  folder?: string | null;
  password?: {
    useKey?: boolean | null;
    username?: string | null;
    password?: string | null;
    publicKey?: string | null;
    privateKey?: string | null;
  } | null;
}

/** Plain connection settings with the secrets resolved (for connecting, never for a response). */
export interface SftpTarget {
  address: string;
  port: number;
  folder: string;
  useKey: boolean;
  username: string | null;
  password: string | null;
  privateKey: string | null;
}

export const toSftpConnectionDTO = (r: SftpConnectionRow): SftpConnectionDTO => ({
  id: r.id,
  nodeId: r.node_id,
  name: r.name,
  address: r.address,
  port: r.port,
  folder: r.folder,
  password: {
    id: r.id,
    useKey: r.use_key,
    username: r.username,
    password: maskSecret(r.password),
    publicKey: r.public_key,
    privateKey: maskSecret(r.private_key),
  },
});

const trimOrNull = (v: string | null | undefined) => (v && v.trim() ? v.trim() : null);

/**
 * The connection the input describes, secrets resolved against the stored row. The credentials of the
 * mode not in use are dropped, so switching from password to key forgets the password.
 */
export function resolveSftpInput(input: SftpConnectionInput, stored?: SftpConnectionRow): SftpTarget {
  const creds = input.password ?? {};
  const useKey = !!creds.useKey;
  return {
    address: input.address.trim(),
    port: input.port ?? DEFAULT_SFTP_PORT,
    folder: trimOrNull(input.folder) ?? DEFAULT_SFTP_FOLDER,
    useKey,
    username: trimOrNull(creds.username),
    password: useKey ? null : keepOrReplaceSecret(creds.password, open(stored, 'password')),
    privateKey: useKey ? keepOrReplaceSecret(creds.privateKey, open(stored, 'private_key')) : null,
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

/** The stored ciphertext when the input keeps the secret, else the new value sealed. */
function keptOrSealed(incoming: string | null | undefined, stored: string | null, column: string) {
  const replaced = keepOrReplaceSecret(incoming, null);
  return replaced === null ? stored : sealValue('sftp_connections', column, replaced);
}

function columns(input: SftpConnectionInput, stored?: SftpConnectionRow) {
  const creds = input.password ?? {};
  const useKey = !!creds.useKey;
  return {
    name: input.name.trim(),
    address: input.address.trim(),
    port: input.port ?? DEFAULT_SFTP_PORT,
    folder: trimOrNull(input.folder) ?? DEFAULT_SFTP_FOLDER,
    use_key: useKey,
    username: trimOrNull(creds.username),
    password: useKey ? null : keptOrSealed(creds.password, stored?.password ?? null, 'password'),
    public_key: useKey ? (input.password?.publicKey ?? null) : null,
    private_key: useKey ? keptOrSealed(creds.privateKey, stored?.private_key ?? null, 'private_key') : null,
  };
}

export async function listSftpConnections(knex: Knex, nodeId: number): Promise<SftpConnectionDTO[]> {
  return (await knex('sftp_connections').where({ node_id: nodeId }).orderBy('id')).map(toSftpConnectionDTO);
}

export async function findSftpConnection(knex: Knex, id: number): Promise<SftpConnectionRow | undefined> {
  return knex('sftp_connections').where({ id }).first();
}

export async function createSftpConnection(
  knex: Knex,
  nodeId: number,
  input: SftpConnectionInput,
): Promise<SftpConnectionDTO> {
  const [row] = await knex('sftp_connections')
    .insert({ node_id: nodeId, ...columns(input) })
    .returning('*');
  return toSftpConnectionDTO(row);
}

export async function updateSftpConnection(
  knex: Knex,
  stored: SftpConnectionRow,
  input: SftpConnectionInput,
): Promise<SftpConnectionDTO> {
  const [row] = await knex('sftp_connections')
    .where({ id: stored.id })
    .update(columns(input, stored))
    .returning('*');
  return toSftpConnectionDTO(row);
}

/** Deleting a connection removes the transfer rules that read from it (foreign key cascade). */
export async function deleteSftpConnection(knex: Knex, id: number): Promise<boolean> {
  return (await knex('sftp_connections').where({ id }).delete()) > 0;
}
