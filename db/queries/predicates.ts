/**
 * Predicates of edges: as the document engine evaluates them (domain/predicate-eval.ts), and the API's
 * predicate trees with the names of their node and labels joined in, and its writes.
 */
import type { Knex } from 'knex';
import type { PredicateDraft } from '../../domain/graph';
import type { PredicateDTO } from '../../domain/graph-types';
import type { ClassifierTagRef, EvalPredicate, NerTagRef } from '../../domain/predicate-eval';
import type { DryRunDocument } from '../../domain/predicate-dry-run';
import { qualify } from './columns';

export const EVAL_PREDICATE_COLUMNS = [
  'id',
  'edge_id as edgeId',
  'parent_id as parentId',
  'predicate_type as predicateType',
  'logical_operator as logicalOperator',
  'node_id as nodeId',
  'equal',
  'clf_type_id as clfTypeId',
  'ner_tag_type_id as nerTagTypeId',
];

/** The predicates of every edge of a process by id. */
export async function processPredicates(knex: Knex, processId: number): Promise<EvalPredicate[]> {
  return knex('predicates as p')
    .join('edges as e', 'e.id', 'p.edge_id')
    .where('e.process_id', processId)
    .orderBy('p.id')
    .select(qualify('p', EVAL_PREDICATE_COLUMNS));
}

interface PredicateRow {
  id: number;
  edge_id: number;
  parent_id: number | null;
  predicate_type: PredicateDTO['predicateType'];
  logical_operator: PredicateDTO['logicalOperator'];
  node_id: number | null;
  node_name: string | null;
  equal: boolean;
  clf_type_id: number | null;
  clf_type_name: string | null;
  ner_tag_type_id: number | null;
  ner_tag_type_name: string | null;
}

const toDTO = (r: PredicateRow): PredicateDTO => ({
  id: r.id,
  edgeId: r.edge_id,
  parentId: r.parent_id,
  predicateType: r.predicate_type,
  logicalOperator: r.logical_operator,
  nodeId: r.node_id,
  nodeName: r.node_name,
  equal: r.equal,
  clfTypeId: r.clf_type_id,
  clfTypeName: r.clf_type_name,
  nerTagTypeId: r.ner_tag_type_id,
  nerTagTypeName: r.ner_tag_type_name,
  predicates: [],
});

/** The predicates of an edge or of every edge of a process, as trees (roots in id order). */
export async function predicateTrees(
  knex: Knex,
  where: { edgeId: number } | { processId: number },
): Promise<PredicateDTO[]> {
  const q = knex('predicates as p')
    .leftJoin('nodes as n', 'n.id', 'p.node_id')
    .leftJoin('classifier_types as ct', 'ct.id', 'p.clf_type_id')
    .leftJoin('ner_tag_types as nt', 'nt.id', 'p.ner_tag_type_id')
    .select('p.*', 'n.name as node_name', 'ct.name as clf_type_name', 'nt.name as ner_tag_type_name')
    .orderBy('p.id');
  if ('edgeId' in where) q.where('p.edge_id', where.edgeId);
  else q.join('edges as e', 'e.id', 'p.edge_id').where('e.process_id', where.processId);
  const dtos = ((await q) as PredicateRow[]).map(toDTO);
  const byId = new Map(dtos.map((d) => [d.id, d]));
  const roots: PredicateDTO[] = [];
  for (const d of dtos) {
    const parent = d.parentId !== null ? byId.get(d.parentId) : undefined;
    if (parent) parent.predicates.push(d);
    else roots.push(d);
  }
  return roots;
}

/** A predicate as stored. */
export type PredicateRecord = EvalPredicate;

export async function predicateById(knex: Knex, id: number): Promise<PredicateRecord | undefined> {
  return knex('predicates').where('id', id).first(EVAL_PREDICATE_COLUMNS);
}

/** Ids of a predicate and of all predicates below it. */
export async function predicateSubtreeIds(knex: Knex, id: number): Promise<number[]> {
  const { rows } = await knex.raw(
    `with recursive t(id) as (select ?::bigint union select p.id from predicates p join t on p.parent_id = t.id)
     select id from t`,
    [id],
  );
  return rows.map((r: { id: number }) => r.id);
}

const columns = (p: PredicateDraft) => ({
  edge_id: p.edgeId,
  parent_id: p.parentId,
  predicate_type: p.predicateType,
  logical_operator: p.logicalOperator,
  node_id: p.nodeId,
  equal: p.equal,
  clf_type_id: p.clfTypeId,
  ner_tag_type_id: p.nerTagTypeId,
});

/** Inserts a predicate; its id. */
export async function insertPredicate(knex: Knex, p: PredicateDraft): Promise<number> {
  const [row] = await knex('predicates').insert(columns(p)).returning('id');
  return Number(row.id);
}

export async function updatePredicateRow(knex: Knex, id: number, p: PredicateDraft): Promise<void> {
  await knex('predicates').where('id', id).update(columns(p));
}

/** Deletes a predicate and (by cascade) its children. */
export async function deletePredicateRow(knex: Knex, id: number): Promise<void> {
  await knex('predicates').where('id', id).del();
}

/**
 * The process's last `limit` documents (by id) with their tags of the given nodes only, as the predicates
 * test them (a predicate's dry run, domain/predicate-dry-run.ts): three queries, bounded by `limit`.
 */
export async function recentDocumentsWithTags(
  knex: Knex,
  processId: number,
  limit: number,
  nodeIds: readonly number[],
): Promise<DryRunDocument[]> {
  const docs: { id: number; name: string }[] = await knex('documents')
    .where('process_id', processId)
    .orderBy('id', 'desc')
    .limit(limit)
    .select('id', 'filename as name');
  const ids = docs.map((d) => d.id);
  if (ids.length === 0 || nodeIds.length === 0)
    return docs.map((d) => ({ ...d, tags: { classifier: [], ner: [] } }));
  const [classifier, ner] = await Promise.all([
    knex('classifier_tags')
      .whereIn('document_id', ids)
      .whereIn('node_id', nodeIds)
      .distinct('document_id as documentId', 'node_id as nodeId', 'classifier_type_id as classifierTypeId'),
    knex('ner_tags as t')
      .join('ner_tag_types as tt', 'tt.id', 't.ner_tag_type_id')
      .whereIn('t.document_id', ids)
      .whereIn('tt.node_id', nodeIds)
      .distinct('t.document_id as documentId', 'tt.node_id as nodeId', 't.ner_tag_type_id as nerTagTypeId'),
  ]);
  const byDoc = new Map(
    docs.map((d) => [d.id, { ...d, tags: { classifier: [] as ClassifierTagRef[], ner: [] as NerTagRef[] } }]),
  );
  for (const c of classifier)
    byDoc
      .get(Number(c.documentId))
      ?.tags.classifier.push({ nodeId: c.nodeId, classifierTypeId: c.classifierTypeId });
  for (const n of ner)
    byDoc.get(Number(n.documentId))?.tags.ner.push({ nodeId: n.nodeId, nerTagTypeId: n.nerTagTypeId });
  return [...byDoc.values()];
}

/** The edges leaving a node with their predicates (as the engine evaluates them), by edge id. */
export async function outgoingEdgesWithPredicates(
  knex: Knex,
  fromId: number,
): Promise<{ id: number; toId: number; predicates: EvalPredicate[] }[]> {
  const edges: { id: number; toId: number }[] = await knex('edges')
    .where('from_id', fromId)
    .orderBy('id')
    .select('id', 'to_id as toId');
  if (edges.length === 0) return [];
  const predicates: EvalPredicate[] = await knex('predicates')
    .whereIn(
      'edge_id',
      edges.map((e) => e.id),
    )
    .orderBy('id')
    .select(EVAL_PREDICATE_COLUMNS);
  return edges.map((e) => ({ ...e, predicates: predicates.filter((p) => p.edgeId === e.id) }));
}
