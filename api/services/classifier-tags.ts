/**
 * Classifier tags of documents for the workspace (issue 11 section 3; domain/tags.ts): one set per node and
 * document, as the predicates read them. Writes go through the caller's editable step of the node
 * (./tag-steps.ts), in a transaction holding the document row. The reads are the table's
 * (db/queries/tags.ts); the label a write names is `classifierTypeLabel` (db/queries/labels.ts).
 */
import type { Knex } from 'knex';
import type { AuthUser } from '../auth';
import type { ClassifierTagDTO } from '../../domain/tags';
import type { LabelRef } from '../../db/queries/labels';
import {
  classifierTagDTO,
  deleteClassifierTagRow,
  insertUserClassifierTag,
  type ClassifierTagRef,
} from '../../db/queries/tags';
import { nodeSteps } from '../../db/queries/steps';
import { assertStepEditable, stepForWrite } from './tag-steps';

export { classifierTypeLabel } from '../../db/queries/labels';
export { findClassifierTag, listClassifierTags, type ClassifierTagRef } from '../../db/queries/tags';

// --- classifier tag writes ---

/** Sets a classifier type on the document (per node; see domain/tags.ts). */
export async function addClassifierTag(
  knex: Knex,
  user: AuthUser,
  type: LabelRef,
  documentId: number,
  wantedStepId?: number | null,
): Promise<{ tag: ClassifierTagDTO; created: boolean }> {
  const { id, created } = await knex.transaction(async (trx) => {
    const stepId = await stepForWrite(trx, user, type, documentId, wantedStepId);
    return insertUserClassifierTag(trx, {
      documentId,
      stepId,
      nodeId: type.nodeId,
      classifierTypeId: type.id,
      createdById: user.id,
    });
  });
  return { tag: await classifierTagDTO(knex, id), created };
}

/**
 * Removes a classifier tag: a tag of one of its node's steps needs that very step editable by the caller (on a
 * multiprocessed node each annotator removes only their own); a tag written by no step of the node (a model's)
 * needs an editable step of the node.
 */
export async function deleteClassifierTag(knex: Knex, user: AuthUser, tag: ClassifierTagRef): Promise<void> {
  await knex.transaction(async (trx) => {
    const ofNodeStep =
      tag.stepId !== null &&
      (await nodeSteps(trx, tag.documentId, tag.nodeId)).some((s) => s.id === tag.stepId);
    if (ofNodeStep) await assertStepEditable(trx, user, tag, tag.documentId, tag.stepId);
    else await stepForWrite(trx, user, tag, tag.documentId, null);
    await deleteClassifierTagRow(trx, tag.id);
  });
}
