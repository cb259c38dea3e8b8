/**
 * Relation graphs between a document's NER tags (migration 014; rules in domain/relations.ts): the graphs
 * with their relations, what the rules need to know of the tags, nodes and relation types concerned, and
 * whether a tag takes part in a relation.
 */
import type { Knex } from 'knex';
import { qualify } from './columns';
import type {
  NerTagRelationDTO,
  RelationGraphDTO,
  RelationInput,
  RelationNode,
  RelationRuleType,
  RelationTag,
} from '../../domain/relations';

const GRAPH_COLUMNS = ['id', 'document_id as documentId', 'step_id as stepId', 'node_id as nodeId'];
const RELATION_COLUMNS = [
  'id',
  'graph_id as relationGraphId',
  'from_id as fromId',
  'to_id as toId',
  'relation_type_id as relationTypeId',
];

const num = (v: unknown) => Number(v);
const nullableNum = (v: unknown) => (v === null || v === undefined ? null : Number(v));

function toRelation(r: Record<string, unknown>): NerTagRelationDTO {
  return {
    id: num(r.id),
    relationGraphId: num(r.relationGraphId),
    fromId: num(r.fromId),
    toId: num(r.toId),
    relationTypeId: num(r.relationTypeId),
  };
}

/** A graph's relations as read: with their type's name and colour (what the workspace draws). */
const relationsWithType = (knex: Knex) =>
  knex('ner_tag_relations as r')
    .join('ner_relation_types as rt', 'rt.id', 'r.relation_type_id')
    .orderBy('r.id')
    .select([...qualify('r', RELATION_COLUMNS), 'rt.name as typeName', 'rt.color as typeColor']);

const toReadRelation = (r: Record<string, unknown>): NerTagRelationDTO => ({
  ...toRelation(r),
  relationType: { id: num(r.relationTypeId), name: String(r.typeName), color: String(r.typeColor) },
});

/** The document's graphs (of the given steps when any are given) with their relations, by id. */
export async function listGraphs(
  knex: Knex,
  documentId: number,
  stepIds: readonly number[] | null,
): Promise<RelationGraphDTO[]> {
  const q = knex('ner_tag_relation_graphs')
    .where('document_id', documentId)
    .orderBy('id')
    .select(GRAPH_COLUMNS);
  if (stepIds) q.whereIn('step_id', [...stepIds]);
  const graphs: Record<string, unknown>[] = await q;
  if (!graphs.length) return [];
  const relations: Record<string, unknown>[] = await relationsWithType(knex).whereIn(
    'r.graph_id',
    graphs.map((g) => g.id as number),
  );
  const byGraph = new Map<number, NerTagRelationDTO[]>();
  for (const r of relations.map(toReadRelation))
    byGraph.set(r.relationGraphId, [...(byGraph.get(r.relationGraphId) ?? []), r]);
  return graphs.map((g) => ({
    id: num(g.id),
    documentId: num(g.documentId),
    stepId: nullableNum(g.stepId),
    nodeId: num(g.nodeId),
    relations: byGraph.get(num(g.id)) ?? [],
  }));
}

export async function graphById(knex: Knex, id: number): Promise<RelationGraphDTO | undefined> {
  const g = await knex('ner_tag_relation_graphs').where('id', id).first(GRAPH_COLUMNS);
  if (!g) return undefined;
  const relations: Record<string, unknown>[] = await relationsWithType(knex).where('r.graph_id', id);
  return {
    id: num(g.id),
    documentId: num(g.documentId),
    stepId: nullableNum(g.stepId),
    nodeId: num(g.nodeId),
    relations: relations.map(toReadRelation),
  };
}

/** A graph with the process of its node (the access checks). */
export async function graphRef(
  knex: Knex,
  id: number,
): Promise<
  { id: number; documentId: number; stepId: number | null; nodeId: number; processId: number } | undefined
> {
  const r = await knex('ner_tag_relation_graphs as g')
    .join('nodes as n', 'n.id', 'g.node_id')
    .where('g.id', id)
    .first([...qualify('g', GRAPH_COLUMNS), 'n.process_id as processId']);
  return (
    r && {
      ...r,
      id: num(r.id),
      documentId: num(r.documentId),
      stepId: nullableNum(r.stepId),
      nodeId: num(r.nodeId),
      processId: num(r.processId),
    }
  );
}

/** What the rules need: the document's tags among `tagIds`, their nodes, the nodes' relation types and tag types. */
export async function ruleContext(knex: Knex, documentId: number, tagIds: readonly number[]) {
  const tagRows: Record<string, unknown>[] = tagIds.length
    ? await knex('ner_tags as t')
        .join('ner_tag_types as tt', 'tt.id', 't.ner_tag_type_id')
        .where('t.document_id', documentId)
        .whereIn('t.id', [...tagIds])
        .select('t.id', 't.ner_tag_type_id as nerTagTypeId', 'tt.node_id as nodeId')
    : [];
  const tags: RelationTag[] = tagRows.map((r) => ({
    id: num(r.id),
    nerTagTypeId: num(r.nerTagTypeId),
    nodeId: num(r.nodeId),
  }));
  const nodeIds = [...new Set(tags.map((t) => t.nodeId))];
  const [nodeRows, typeRows, tagTypeRows] = nodeIds.length
    ? await Promise.all([
        knex('nodes')
          .whereIn('id', nodeIds)
          .select('id', 'process_id as processId', 'handles_relations as handlesRelations', 'settings'),
        knex('ner_relation_types')
          .whereIn('node_id', nodeIds)
          .select(
            'id',
            'node_id as nodeId',
            'name',
            'color',
            'priority',
            'from_id as fromId',
            'to_id as toId',
            'strict',
            'merge',
          ),
        knex('ner_tag_types').whereIn('node_id', nodeIds).select('id', 'parent_id as parentId'),
      ])
    : [[], [], []];
  const nodes: (RelationNode & { processId: number })[] = nodeRows.map((n: Record<string, any>) => ({
    id: num(n.id),
    processId: num(n.processId),
    handlesRelations: Boolean(n.handlesRelations),
    relationPriorityMode: n.settings?.relationPriorityMode === true,
  }));
  const types: (RelationRuleType & { color: string })[] = typeRows.map((r: Record<string, any>) => ({
    id: num(r.id),
    nodeId: num(r.nodeId),
    name: r.name,
    color: r.color,
    priority: Number(r.priority),
    fromId: nullableNum(r.fromId),
    toId: nullableNum(r.toId),
    strict: Boolean(r.strict),
    merge: Boolean(r.merge),
  }));
  return {
    tags: new Map(tags.map((t) => [t.id, t])),
    nodes: new Map(nodes.map((n) => [n.id, n])),
    types: new Map(types.map((t) => [t.id, t])),
    parents: new Map<number, number | null>(
      tagTypeRows.map((r: Record<string, unknown>) => [num(r.id), nullableNum(r.parentId)]),
    ),
  };
}

/** Creates a graph with its relations. */
export async function insertGraph(
  trx: Knex.Transaction,
  graph: { documentId: number; stepId: number; nodeId: number; userId: number },
  relations: readonly RelationInput[],
): Promise<number> {
  const [row] = await trx('ner_tag_relation_graphs')
    .insert({
      document_id: graph.documentId,
      step_id: graph.stepId,
      node_id: graph.nodeId,
      created_by_id: graph.userId,
    })
    .returning('id');
  await insertRelations(trx, num(row.id), relations);
  return num(row.id);
}

async function insertRelations(trx: Knex.Transaction, graphId: number, relations: readonly RelationInput[]) {
  if (!relations.length) return;
  await trx('ner_tag_relations').insert(
    relations.map((r) => ({
      graph_id: graphId,
      from_id: r.fromId,
      to_id: r.toId,
      relation_type_id: r.relationTypeId,
    })),
  );
}

/** Replaces a graph's relations: the relations kept keep their ids. */
export async function replaceRelations(
  trx: Knex.Transaction,
  graphId: number,
  relations: readonly RelationInput[],
  userId: number,
): Promise<void> {
  const key = (r: RelationInput) => `${r.fromId}:${r.toId}:${r.relationTypeId}`;
  const existing: Record<string, unknown>[] = await trx('ner_tag_relations')
    .where('graph_id', graphId)
    .select(RELATION_COLUMNS);
  const wanted = new Set(relations.map(key));
  const have = new Set(existing.map((r) => key(toRelation(r))));
  const gone = existing.map(toRelation).filter((r) => !wanted.has(key(r)));
  if (gone.length)
    await trx('ner_tag_relations')
      .whereIn(
        'id',
        gone.map((r) => r.id),
      )
      .delete();
  await insertRelations(
    trx,
    graphId,
    relations.filter((r) => !have.has(key(r))),
  );
  await trx('ner_tag_relation_graphs')
    .where('id', graphId)
    .update({ last_modified_by_id: userId, last_modified_date: new Date() });
}

export async function deleteGraph(trx: Knex.Transaction, graphId: number): Promise<void> {
  await trx('ner_tag_relation_graphs').where('id', graphId).delete();
}

/** How many relations the tag takes part in. */
export async function relationCountOfTag(knex: Knex, tagId: number): Promise<number> {
  const r = await knex('ner_tag_relations')
    .where('from_id', tagId)
    .orWhere('to_id', tagId)
    .count<{ count: string }[]>('id as count');
  return Number(r[0]?.count ?? 0);
}
/** True when the document has a relation graph (then no token may be deleted: spec 2 section 5). */
export async function hasRelationGraphs(knex: Knex, documentId: number): Promise<boolean> {
  return Boolean(await knex('ner_tag_relation_graphs').where('document_id', documentId).first('id'));
}
