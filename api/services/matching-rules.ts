/**
 * Matching rules of NER tag types (docs/api-graph.md): the reads and writes are the table's
 * (db/queries/matching-rules.ts); the batch answers the app error `error.idinvalid` when an id it deletes or
 * updates is not a rule of the request's tag type.
 */
import type { Knex } from 'knex';
import { applyRuleBatch, type BatchValues } from '../../db/queries/matching-rules';
import { appError } from '../errors';

export {
  findRule,
  findRulesOfTagTypes,
  listRulesOfNode,
  toRuleDTO,
  updateRule,
  type BatchValues,
  type RuleValues,
} from '../../db/queries/matching-rules';

export async function applyBatch(knex: Knex, batch: BatchValues): Promise<void> {
  if (!(await applyRuleBatch(knex, batch))) throw appError('error.idinvalid', 'matchingRule', 'idinvalid');
}
