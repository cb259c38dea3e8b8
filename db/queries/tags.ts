/**
 * A document's tags: classifier tags (a node's classes of the document) and NER tags (spans or token tags of
 * a node's tag types), written by the executors and by users' steps, read by the document engine (which
 * evaluates predicates on them), the wildcards and training.
 */
import type { Knex } from 'knex';
import type { DocumentTags } from '../../domain/predicate-eval';
import { only, qualify } from './columns';

const CLASSIFIER_TAG_COLUMNS = ['node_id as nodeId', 'classifier_type_id as classifierTypeId'];

/** The document's tags as the predicates test them: which node gave which class or tag type. */
export async function documentTags(knex: Knex, documentId: number): Promise<DocumentTags> {
  const [classifier, ner] = await Promise.all([
    knex('classifier_tags').where('document_id', documentId).select(CLASSIFIER_TAG_COLUMNS),
    knex('ner_tags as t')
      .join('ner_tag_types as tt', 'tt.id', 't.ner_tag_type_id')
      .where('t.document_id', documentId)
      .distinct('tt.node_id as nodeId', 't.ner_tag_type_id as nerTagTypeId'),
  ]);
  return { classifier, ner };
}

export interface ClassifierTagRow {
  nodeId: number;
  /** The classifier type's id and name. */
  id: number;
  name: string;
}

/** The document's classifier tags (of one node, or of all) with their type's name, by type id. */
export async function classifierTags(
  knex: Knex,
  documentId: number,
  nodeId?: number,
): Promise<ClassifierTagRow[]> {
  const q = knex('classifier_tags as c')
    .join('classifier_types as t', 't.id', 'c.classifier_type_id')
    .where('c.document_id', documentId)
    .orderBy('t.id')
    .select([...qualify('c', only(CLASSIFIER_TAG_COLUMNS, 'nodeId')), 't.id', 't.name']);
  if (nodeId !== undefined) q.where('c.node_id', nodeId);
  return q;
}
