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
  sftpHostKeyOf,
  type ValidSftpConnectionInput,
} from '../../domain/integrations';
import type { SftpConnectionDTO } from '../../domain/integration-types';
import type { SftpTransferRuleDTO } from '../../domain/graph-types';
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
  /** The pinned host key's SHA256 fingerprint; null: not pinned yet. */
  host_key: string | null;
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
  hostKey: r.host_key,
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
    host_key: sftpHostKeyOf(input, stored && { ...stored, hostKey: stored.host_key }),
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

/**
 * Trust on first use: records `fingerprint` as the connection's host key unless one is pinned already or the
 * row no longer points at the server that presented it. Returns the pin the row has afterwards (null when
 * the row is gone or now points elsewhere).
 */
export async function pinSftpHostKey(
  knex: Knex,
  conn: Pick<SftpConnectionRow, 'id' | 'address' | 'port'>,
  fingerprint: string,
): Promise<string | null> {
  await knex('sftp_connections')
    .where({ id: conn.id, address: conn.address, port: conn.port })
    .whereNull('host_key')
    .update({ host_key: fingerprint });
  const row = await knex('sftp_connections')
    .where({ id: conn.id, address: conn.address, port: conn.port })
    .first('host_key');
  return row?.host_key ?? null;
}

/** Deleting a connection removes the transfer rules that read from it (foreign key cascade). */
export async function deleteSftpConnection(knex: Knex, id: number): Promise<boolean> {
  return (await knex('sftp_connections').where({ id }).delete()) > 0;
}

// --- transfer rules of SFTP upload nodes ---

/** The transfer rules of the nodes, by node (each node listed, possibly with none), rules by id. */
export async function transferRulesOfNodes(
  knex: Knex,
  nodeIds: readonly number[],
): Promise<Map<number, SftpTransferRuleDTO[]>> {
  const out = new Map<number, SftpTransferRuleDTO[]>(nodeIds.map((id) => [id, []]));
  if (!nodeIds.length) return out;
  const rules = await knex('sftp_transfer_rules')
    .whereIn('node_id', [...nodeIds])
    .orderBy('id');
  for (const r of rules)
    out.get(Number(r.node_id))!.push({
      id: r.id,
      name: r.name,
      sourceId: r.source_id,
      targetId: r.target_id,
      deleteAfterTransfer: r.delete_after_transfer,
    });
  return out;
}

export async function transferRuleIds(knex: Knex, nodeId: number): Promise<number[]> {
  return knex('sftp_transfer_rules').where('node_id', nodeId).pluck('id');
}

/** The node's SFTP connections, stored (credentials sealed), by id. */
export async function sftpConnectionsOfNode(knex: Knex, nodeId: number): Promise<SftpConnectionRow[]> {
  return knex('sftp_connections').where('node_id', nodeId).orderBy('id');
}

export async function sftpConnectionIds(knex: Knex, nodeId: number): Promise<number[]> {
  return knex('sftp_connections').where('node_id', nodeId).pluck('id');
}

/** Makes the node's transfer rules exactly `rules` (ids null: new rows). */
export async function saveTransferRules(
  trx: Knex.Transaction,
  nodeId: number,
  rules: readonly SftpTransferRuleDTO[],
): Promise<void> {
  const keep = rules.flatMap((r) => (r.id ? [r.id] : []));
  await trx('sftp_transfer_rules').where('node_id', nodeId).whereNotIn('id', keep).del();
  for (const r of rules) {
    const row = {
      name: r.name ?? null,
      source_id: r.sourceId,
      target_id: r.targetId ?? null,
      delete_after_transfer: r.deleteAfterTransfer ?? false,
    };
    if (r.id) await trx('sftp_transfer_rules').where({ id: r.id, node_id: nodeId }).update(row);
    else await trx('sftp_transfer_rules').insert({ ...row, node_id: nodeId });
  }
}
