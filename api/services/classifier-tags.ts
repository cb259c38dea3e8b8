/**
 * Classifier tags of documents for the workspace (issue 11 section 3; domain/tags.ts): one set per node and
 * document, as the predicates read them. Writes go through the caller's editable step of the node
 * (./tag-steps.ts), in a transaction holding the document row.
 */
import type { Knex } from 'knex';
import type { AuthUser } from '../auth';
import type { ClassifierTagDTO, TagOrigin } from '../../domain/tags';
import { stepForWrite } from './tag-steps';
import type { LabelRef, Row } from './tags';

const CLASSIFIER_COLUMNS = [
  'c.id',
  'c.document_id',
  'c.step_id',
  'c.node_id',
  'c.classifier_type_id',
  'c.origin',
  'c.created_by_id',
  'ct.name as ct_name',
  'ct.background_color as ct_background_color',
];

const toClassifierDTO = (r: Row): ClassifierTagDTO => ({
  id: r.id,
  documentId: r.document_id,
  stepId: r.step_id,
  nodeId: r.node_id,
  classifierTypeId: r.classifier_type_id,
  classifierType: {
    id: r.classifier_type_id,
    name: r.ct_name,
    backgroundColor: r.ct_background_color,
    nodeId: r.node_id,
  },
  origin: r.origin,
  createdById: r.created_by_id,
});

const classifierQuery = (knex: Knex) =>
  knex('classifier_tags as c')
    .join('classifier_types as ct', 'ct.id', 'c.classifier_type_id')
    .select(CLASSIFIER_COLUMNS);

export async function listClassifierTags(knex: Knex, documentId: number): Promise<ClassifierTagDTO[]> {
  return (await classifierQuery(knex).where('c.document_id', documentId).orderBy('c.id')).map(
    toClassifierDTO,
  );
}

export async function findClassifierType(knex: Knex, id: number): Promise<LabelRef | undefined> {
  const r = await knex('classifier_types as ct')
    .join('nodes as n', 'n.id', 'ct.node_id')
    .where('ct.id', id)
    .first(
      'ct.id',
      'ct.name',
      'n.id as nodeId',
      'n.process_id as processId',
      'n.activity_type as activityType',
    );
  return r ? { ...r, selectable: true } : undefined;
}

export interface ClassifierTagRef {
  id: number;
  documentId: number;
  nodeId: number;
  processId: number;
}

export async function findClassifierTag(knex: Knex, id: number): Promise<ClassifierTagRef | undefined> {
  return knex('classifier_tags as c')
    .join('nodes as n', 'n.id', 'c.node_id')
    .where('c.id', id)
    .first('c.id', 'c.document_id as documentId', 'n.id as nodeId', 'n.process_id as processId');
}

/** The document, if it belongs to the process (a document of another process is not found). */
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
    const [row] = await trx('classifier_tags')
      .insert({
        document_id: documentId,
        step_id: stepId,
        node_id: type.nodeId,
        classifier_type_id: type.id,
        origin: 'USER' satisfies TagOrigin,
        created_by_id: user.id,
      })
      .onConflict(['document_id', 'node_id', 'classifier_type_id'])
      .ignore()
      .returning('id');
    if (row) return { id: Number(row.id), created: true };
    const had = await trx('classifier_tags')
      .where({ document_id: documentId, node_id: type.nodeId, classifier_type_id: type.id })
      .first('id');
    return { id: Number(had.id), created: false };
  });
  return { tag: toClassifierDTO(await classifierQuery(knex).where('c.id', id).first()), created };
}

/** Removes a classifier tag: the caller needs an editable step of its node in the document. */
export async function deleteClassifierTag(knex: Knex, user: AuthUser, tag: ClassifierTagRef): Promise<void> {
  await knex.transaction(async (trx) => {
    await stepForWrite(trx, user, tag, tag.documentId, null);
    await trx('classifier_tags').where('id', tag.id).delete();
  });
}
