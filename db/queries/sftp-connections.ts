/**
 * The sftp_connections table: SFTP connections of SFTP_UPLOAD and SEND_TO_SFTP nodes, read by the API's
 * connection routes and by the worker's SFTP poller and SEND_TO_SFTP action. The password and the private
 * key are stored sealed (db/crypto.ts): rows read here carry the ciphertext, a kept secret keeps its stored
 * ciphertext and a new one is sealed here; the DTO masks both.
 */
import type { Knex } from 'knex';
import {
  DEFAULT_SFTP_FOLDER,
  DEFAULT_SFTP_PORT,
  keepOrReplaceSecret,
  maskSecret,
  type ValidSftpConnectionInput,
} from '../../domain/integrations';
import type { SftpConnectionDTO } from '../../domain/integration-types';
import { sealValue } from '../crypto';

/** The row as stored (password and private key sealed). */
export interface SftpConnectionRow {
  id: number;
  node_id: number;
  name: string;
  address: string;
  port: number;
  folder: string;
  use_key: boolean;
  username: string | null;
  password: string | null;
  public_key: string | null;
  private_key: string | null;
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

export const trimOrNull = (v: string | null | undefined) => (v && v.trim() ? v.trim() : null);

/** The stored ciphertext when the input keeps the secret, else the new value sealed. */
function keptOrSealed(incoming: string | null | undefined, stored: string | null, column: string) {
  const replaced = keepOrReplaceSecret(incoming, null);
  return replaced === null ? stored : sealValue('sftp_connections', column, replaced);
}

function columns(input: ValidSftpConnectionInput, stored?: SftpConnectionRow) {
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
  input: ValidSftpConnectionInput,
): Promise<SftpConnectionDTO> {
  const [row] = await knex('sftp_connections')
    .insert({ node_id: nodeId, ...columns(input) })
    .returning('*');
  return toSftpConnectionDTO(row);
}

export async function updateSftpConnection(
  knex: Knex,
  stored: SftpConnectionRow,
  input: ValidSftpConnectionInput,
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
