/**
 * Predicates as the document engine evaluates them (domain/predicate-eval.ts). The API's predicate DTOs,
 * with the names of their node and labels, are read by api/services/predicates.ts through db/models/Predicate.ts.
 */
import type { Knex } from 'knex';
import type { EvalPredicate } from '../../domain/predicate-eval';
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
