/**
 * Totals of the document lists at a million documents (issue 13 section 2): a count that stops at
 * EXACT_COUNT_LIMIT + 1 rows (so a large tab never counts every row per request); beyond the limit the
 * planner's row estimate of the same query, never less than the limit + 1 (`exact: false`; the UI says
 * "about N"). Used by the document-info list and the document search.
 */
import type { Knex } from 'knex';

/** Up to this many matching rows are counted exactly; beyond, the planner's estimate is the total. */
export const EXACT_COUNT_LIMIT = 1_000;

export interface BoundedCount {
  total: number;
  exact: boolean;
}

/** `rows()` builds the filtered query afresh each time (it is selected from twice). */
export async function boundedCount(knex: Knex, rows: () => Knex.QueryBuilder): Promise<BoundedCount> {
  const probe = rows()
    .select(knex.raw('1'))
    .limit(EXACT_COUNT_LIMIT + 1);
  const row = await knex.from(probe.as('x')).count<{ count: string }[]>('* as count').first();
  const counted = Number(row?.count ?? 0);
  if (counted <= EXACT_COUNT_LIMIT) return { total: counted, exact: true };
  const { sql, bindings } = rows().select(knex.raw('1')).toSQL();
  const { rows: plan } = await knex.raw(`explain (format json) ${sql}`, bindings as Knex.RawBinding[]);
  const top = (plan as { 'QUERY PLAN': [{ Plan: { 'Plan Rows': number } }] }[])[0]['QUERY PLAN'][0].Plan;
  return { total: Math.max(EXACT_COUNT_LIMIT + 1, Math.round(top['Plan Rows'])), exact: false };
}
