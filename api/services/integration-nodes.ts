/**
 * The node a connection belongs to, as the integration routes need it: existence (an unknown id answers like
 * one the caller cannot reach: 403, 404 for an administrator), its process for
 * the access checks, and its activity type (connections exist for certain node types only).
 */
import type { Knex } from 'knex';
import { nodeRef, type NodeRef } from '../../db/queries/nodes';
import { assertNodeMode, assertProcessMode, unreachable, type AuthUser } from '../auth';
import { appError } from '../errors';

export async function requireOwnerNode(knex: Knex, user: AuthUser, id: number): Promise<NodeRef> {
  const node = await nodeRef(knex, id);
  if (!node) throw unreachable(user, 'node');
  return node;
}

/** Reading a node's connections: READ on the node (the higher of node and process mode). */
export const assertCanRead = (user: AuthUser, node: NodeRef) =>
  assertNodeMode(user, node.id, node.processId, 'READ');

/** Changing a node's configuration: ADMIN on its process. */
export const assertCanChange = (user: AuthUser, node: NodeRef) =>
  assertProcessMode(user, node.processId, 'ADMIN');

/** A connection kind attached to a node of another type is a request the UI never makes. */
export function assertNodeType(node: NodeRef, types: readonly string[], entityName: string): void {
  if (!types.includes(node.activityType)) throw appError('error.dataValidationUnexpectedError', entityName);
}
