/**
 * Edge predicates: trees of COMPLEX (AND / OR) and simple CLF / NER conditions, read with the names of
 * their node and label joined in, written after the domain's predicate rules (domain/graph.ts) against the
 * edge's predicate-eligible previous nodes and the chosen node's labels.
 */
import type { Knex } from 'knex';
import { Predicate } from '../../db/models/Predicate';
import type { Edge } from '../../db/models/Edge';
import { normalizePredicate, predicateNodes, predicateRules, type PredicateDraft } from '../../domain/graph';
import type { PredicateDTO } from '../../domain/graph-types';
import { appError, fieldErrors } from '../errors';
import { processGraph } from '../../db/queries/graph';

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
export async function listPredicates(
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

export async function findPredicate(knex: Knex, id: number): Promise<Predicate | undefined> {
  return Predicate.query(knex).findById(id);
}

/** Ids of a predicate and of all predicates below it. */
async function subtreeIds(knex: Knex, id: number): Promise<number[]> {
  const { rows } = await knex.raw(
    `with recursive t(id) as (select ?::bigint union select p.id from predicates p join t on p.parent_id = t.id)
     select id from t`,
    [id],
  );
  return rows.map((r: { id: number }) => r.id);
}

/** Throws the field errors of a predicate about to be stored on `edge` (400 notAllowed: no eligible node). */
async function validate(knex: Knex, edge: Edge, p: PredicateDraft, selfId: number | null): Promise<void> {
  const graph = await processGraph(knex, edge.processId);
  const eligible = predicateNodes(graph, edge);
  if (eligible.length === 0)
    throw appError('soaApp.predicate.notAllowed', 'predicate', 'predicateNotAllowed');
  const mandatory = new Map<number, boolean>(
    (
      await knex('nodes')
        .whereIn(
          'id',
          eligible.map((n) => n.id),
        )
        .select('id', 'mandatory')
    ).map((r: { id: number; mandatory: boolean }) => [r.id, r.mandatory]),
  );
  const labelTable = p.predicateType === 'CLF' ? 'classifier_types' : 'ner_tag_types';
  const labelIds: number[] =
    p.nodeId !== null && p.predicateType !== 'COMPLEX'
      ? await knex(labelTable).where('node_id', p.nodeId).pluck('id')
      : [];
  const parent = p.parentId !== null ? await findPredicate(knex, p.parentId) : null;
  const violations = predicateRules(p, {
    nodes: eligible.map((n) => ({ ...n, mandatory: mandatory.get(n.id) })),
    labelIds,
    parent: parent ?? null,
    ownSubtreeIds: selfId !== null ? await subtreeIds(knex, selfId) : undefined,
  });
  if (violations.length) throw fieldErrors('predicate', violations);
}

const columns = (p: PredicateDraft) => ({
  edgeId: p.edgeId,
  parentId: p.parentId,
  predicateType: p.predicateType,
  logicalOperator: p.logicalOperator,
  nodeId: p.nodeId,
  equal: p.equal,
  clfTypeId: p.clfTypeId,
  nerTagTypeId: p.nerTagTypeId,
});

async function dtoOf(knex: Knex, edgeId: number, id: number): Promise<PredicateDTO> {
  const find = (list: PredicateDTO[]): PredicateDTO | undefined => {
    for (const d of list) {
      if (d.id === id) return d;
      const inner = find(d.predicates);
      if (inner) return inner;
    }
    return undefined;
  };
  return find(await listPredicates(knex, { edgeId }))!;
}

export async function createPredicate(
  knex: Knex,
  edge: Edge,
  input: Parameters<typeof normalizePredicate>[0],
): Promise<PredicateDTO> {
  const draft = normalizePredicate({ ...input, edgeId: edge.id });
  await validate(knex, edge, draft, null);
  const created = await Predicate.query(knex).insert(columns(draft));
  return dtoOf(knex, edge.id, created.id);
}

/** Replaces a predicate's fields; it stays on its edge. */
export async function updatePredicate(
  knex: Knex,
  edge: Edge,
  stored: Predicate,
  input: Parameters<typeof normalizePredicate>[0],
): Promise<PredicateDTO> {
  const draft = normalizePredicate({ ...input, edgeId: edge.id });
  await validate(knex, edge, draft, stored.id);
  await Predicate.query(knex).findById(stored.id).patch(columns(draft));
  return dtoOf(knex, edge.id, stored.id);
}

/** Deletes a predicate and (by cascade) its children. */
export async function deletePredicate(knex: Knex, id: number): Promise<void> {
  await Predicate.query(knex).deleteById(id);
}
