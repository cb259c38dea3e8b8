/**
 * Edge predicates: trees of COMPLEX (AND / OR) and simple CLF / NER conditions, read with the names of
 * their node and label joined in, written after the domain's predicate rules (domain/graph.ts) against the
 * edge's predicate-eligible previous nodes and the chosen node's labels.
 */
import type { Knex } from 'knex';
import { normalizePredicate, predicateNodes, predicateRules, type PredicateDraft } from '../../domain/graph';
import type { EdgeDTO, PredicateDTO } from '../../domain/graph-types';
import { appError, fieldErrors } from '../errors';
import { processGraph } from '../../db/queries/graph';
import { labelIdsOfNode } from '../../db/queries/labels';
import { mandatoryOfNodes } from '../../db/queries/nodes';
import {
  deletePredicateRow,
  insertPredicate,
  predicateById,
  predicateSubtreeIds,
  predicateTrees,
  updatePredicateRow,
  type PredicateRecord,
} from '../../db/queries/predicates';

type Edge = EdgeDTO;

export {
  predicateById as findPredicate,
  predicateTrees as listPredicates,
} from '../../db/queries/predicates';

/** Throws the field errors of a predicate about to be stored on `edge` (400 notAllowed: no eligible node). */
async function validate(knex: Knex, edge: Edge, p: PredicateDraft, selfId: number | null): Promise<void> {
  const graph = await processGraph(knex, edge.processId);
  const eligible = predicateNodes(graph, edge);
  if (eligible.length === 0)
    throw appError('soaApp.predicate.notAllowed', 'predicate', 'predicateNotAllowed');
  const mandatory = await mandatoryOfNodes(
    knex,
    eligible.map((n) => n.id),
  );
  const labelIds =
    p.nodeId !== null && p.predicateType !== 'COMPLEX'
      ? await labelIdsOfNode(knex, p.predicateType === 'CLF' ? 'CLF' : 'NER', p.nodeId)
      : [];
  const parent = p.parentId !== null ? await predicateById(knex, p.parentId) : null;
  const violations = predicateRules(p, {
    nodes: eligible.map((n) => ({ ...n, mandatory: mandatory.get(n.id) })),
    labelIds,
    parent: parent ?? null,
    ownSubtreeIds: selfId !== null ? await predicateSubtreeIds(knex, selfId) : undefined,
  });
  if (violations.length) throw fieldErrors('predicate', violations);
}

async function dtoOf(knex: Knex, edgeId: number, id: number): Promise<PredicateDTO> {
  const find = (list: PredicateDTO[]): PredicateDTO | undefined => {
    for (const d of list) {
      if (d.id === id) return d;
      const inner = find(d.predicates);
      if (inner) return inner;
    }
    return undefined;
  };
  return find(await predicateTrees(knex, { edgeId }))!;
}

export async function createPredicate(
  knex: Knex,
  edge: Edge,
  input: Parameters<typeof normalizePredicate>[0],
): Promise<PredicateDTO> {
  const draft = normalizePredicate({ ...input, edgeId: edge.id });
  await validate(knex, edge, draft, null);
  return dtoOf(knex, edge.id, await insertPredicate(knex, draft));
}

/** Replaces a predicate's fields; it stays on its edge. */
export async function updatePredicate(
  knex: Knex,
  edge: Edge,
  stored: PredicateRecord,
  input: Parameters<typeof normalizePredicate>[0],
): Promise<PredicateDTO> {
  const draft = normalizePredicate({ ...input, edgeId: edge.id });
  await validate(knex, edge, draft, stored.id);
  await updatePredicateRow(knex, stored.id, draft);
  return dtoOf(knex, edge.id, stored.id);
}

/** Deletes a predicate and (by cascade) its children. */
export async function deletePredicate(knex: Knex, id: number): Promise<void> {
  await deletePredicateRow(knex, id);
}
