/**
 * The node a connection belongs to, as the integration routes need it: existence (404), its process for
 * the access checks, and its activity type (connections exist for certain node types only).
 */
import type { Knex } from 'knex';
import { assertNodeMode, assertProcessMode, type AuthUser } from '../auth';
import { appError, notFound } from '../errors';

export interface OwnerNode {
  id: number;
  processId: number;
  name: string;
  activityType: string;
}

export async function findOwnerNode(knex: Knex, id: number): Promise<OwnerNode | undefined> {
  const row = await knex('nodes').where({ id }).first('id', 'process_id', 'name', 'activity_type');
  return row
    ? { id: row.id, processId: row.process_id, name: row.name, activityType: row.activity_type }
    : undefined;
}

export async function requireOwnerNode(knex: Knex, id: number): Promise<OwnerNode> {
  const node = await findOwnerNode(knex, id);
  if (!node) throw notFound('node');
  return node;
}

/** Reading a node's connections: READ on the node (the higher of node and process mode). */
export const assertCanRead = (user: AuthUser, node: OwnerNode) =>
  assertNodeMode(user, node.id, node.processId, 'READ');

/** Changing a node's configuration: ADMIN on its process. */
export const assertCanChange = (user: AuthUser, node: OwnerNode) =>
  assertProcessMode(user, node.processId, 'ADMIN');

/** A connection kind attached to a node of another type is a request the UI never makes. */
export function assertNodeType(node: OwnerNode, types: readonly string[], entityName: string): void {
  if (!types.includes(node.activityType)) throw appError('error.dataValidationUnexpectedError', entityName);
}
