/**
 * The drive_connections table: cloud-drive connections of GDU_UPLOAD and SEND_TO_GOOGLE_DRIVE nodes (one per node). A change arrives as
 * one batch (deleted ids, updated and new connections); codes are exchanged before the transaction so no
 * row changes when the provider refuses. Tokens are stored sealed (db/crypto.ts) and never returned.
 */
import type { Knex } from 'knex';
import type { DriveConnectionDTO } from '../../domain/integration-types';
import type { GrantedTokens } from '../../domain/integration-types';
import { sealValue } from '../crypto';

/** A stored connection; its tokens sealed (db/crypto.ts) until activities/drive-client.ts opens them. */
export interface DriveConnectionRow {
  id: number;
  node_id: number;
  name: string;
  folder_id: string;
  refresh_token: string | null;
  access_token: string | null;
  token_expiry: Date | null;
  granted_scope: string | null;
  authorized: boolean;
}

const toDTO = (
  r: Pick<DriveConnectionRow, 'id' | 'name' | 'folder_id' | 'authorized'>,
): DriveConnectionDTO => ({
  id: r.id,
  name: r.name,
  folderId: r.folder_id,
  authorized: r.authorized,
});

const tokenColumns = (t: GrantedTokens) => ({
  access_token: sealValue('drive_connections', 'access_token', t.accessToken),
  refresh_token: sealValue('drive_connections', 'refresh_token', t.refreshToken),
  token_expiry: t.expiresAt,
  granted_scope: t.scope,
  authorized: true,
});

export async function listDriveConnections(knex: Knex, nodeId: number): Promise<DriveConnectionDTO[]> {
  return (
    await knex('drive_connections')
      .where({ node_id: nodeId })
      .orderBy('id')
      .select('id', 'node_id', 'name', 'folder_id', 'authorized')
  ).map(toDTO);
}

export async function driveConnectionIds(knex: Knex, nodeId: number): Promise<number[]> {
  return (await knex('drive_connections').where({ node_id: nodeId }).pluck('id')) as number[];
}

/** The node's connections as stored (tokens sealed), by id. */
export async function driveConnectionsOfNode(knex: Knex, nodeId: number): Promise<DriveConnectionRow[]> {
  return knex('drive_connections').where('node_id', nodeId).orderBy('id');
}

/** Stores the tokens of a refresh, sealed. */
export async function saveDriveTokens(
  knex: Knex,
  id: number,
  t: { accessToken: string; refreshToken: string | null; tokenExpiry: Date | null },
): Promise<void> {
  await knex('drive_connections')
    .where('id', id)
    .update({
      access_token: sealValue('drive_connections', 'access_token', t.accessToken),
      token_expiry: t.tokenExpiry,
      refresh_token: sealValue('drive_connections', 'refresh_token', t.refreshToken),
    });
}

export interface DriveChange {
  nodeId: number;
  deletedIds: number[];
  updated: { id: number; name: string; folderId: string; tokens: GrantedTokens | null }[];
  created: { name: string; folderId: string; tokens: GrantedTokens }[];
}

export async function applyDriveChange(knex: Knex, change: DriveChange): Promise<DriveConnectionDTO[]> {
  await knex.transaction(async (trx) => {
    if (change.deletedIds.length)
      await trx('drive_connections')
        .where({ node_id: change.nodeId })
        .whereIn('id', change.deletedIds)
        .delete();
    for (const u of change.updated) {
      await trx('drive_connections')
        .where({ id: u.id, node_id: change.nodeId })
        .update({
          name: u.name.trim(),
          folder_id: u.folderId.trim(),
          ...(u.tokens ? tokenColumns(u.tokens) : {}),
        });
    }
    for (const c of change.created) {
      await trx('drive_connections').insert({
        node_id: change.nodeId,
        name: c.name.trim(),
        folder_id: c.folderId.trim(),
        ...tokenColumns(c.tokens),
      });
    }
  });
  return listDriveConnections(knex, change.nodeId);
}
