/**
 * The users assigned to a document (and the block of one of them, `documents.blocked_by_id`): set by the
 * API's document routes, and by the workflow's projection when a user starts working on a step.
 */
import type { Knex } from 'knex';
import { setBlockedBy, unblockBy, unblockUnless } from './documents';
import { qualify } from './columns';
import { USER_REF_COLUMNS, type UserRef } from './users';

/** The document's assignees, ordered by user id or by login. */
export async function documentAssignees(
  knex: Knex,
  documentId: number,
  orderBy: 'id' | 'login',
): Promise<UserRef[]> {
  return knex('document_assignees as a')
    .join('users as u', 'u.id', 'a.user_id')
    .where('a.document_id', documentId)
    .orderBy(`u.${orderBy}`)
    .select(qualify('u', USER_REF_COLUMNS));
}

/** Adds an assignee (nothing when already one). */
export async function addAssignee(knex: Knex, documentId: number, userId: number): Promise<void> {
  await knex('document_assignees')
    .insert({ document_id: documentId, user_id: userId })
    .onConflict(['document_id', 'user_id'])
    .ignore();
}

/** Blocks the document for a user, who becomes (or stays) an assignee. */
export async function blockDocument(knex: Knex, documentId: number, userId: number): Promise<void> {
  await knex.transaction(async (trx) => {
    await setBlockedBy(trx, documentId, userId);
    await addAssignee(trx, documentId, userId);
  });
}

/** Removes an assignee; removing the one who blocks the document unblocks it first. */
export async function removeAssignee(knex: Knex, documentId: number, userId: number): Promise<void> {
  await knex.transaction(async (trx) => {
    await unblockBy(trx, documentId, userId);
    await trx('document_assignees').where({ document_id: documentId, user_id: userId }).delete();
  });
}

/** Replaces the assignees; a blocking user left out of the list no longer blocks the document. */
export async function replaceAssignees(
  knex: Knex,
  documentId: number,
  userIds: readonly number[],
): Promise<void> {
  const ids = [...new Set(userIds)];
  await knex.transaction(async (trx) => {
    await unblockUnless(trx, documentId, ids);
    await trx('document_assignees').where('document_id', documentId).delete();
    if (ids.length) {
      await trx('document_assignees').insert(ids.map((user_id) => ({ document_id: documentId, user_id })));
    }
  });
}
