/**
 * Statistics at 1,000,000 documents (issue 16 section 1: < 200 ms p99): UTC-day rollups beside the 15-minute
 * buckets of migration 023, kept by the same statement triggers (the trigger functions are replaced: each
 * bucket delta also goes to its UTC day). A year query then reads 365 day rows per key instead of 35,040
 * buckets; a day of the caller's zone is its UTC day corrected by the buckets between UTC midnight and the
 * zone's midnight (db/queries/statistics.ts, `zoneDaySums`): exact in every zone, DST days included.
 *
 * - `stat_work_days` (seconds per node, UTC day, user), `stat_tag_days` (tags per node, UTC day, user; user 0:
 *   no person), `stat_node_days` (step finishes per node and UTC day).
 */
import type { Knex } from 'knex';
import {
  applyDeltas,
  DOCUMENT_TAGS,
  fn,
  NODE_BUCKETS,
  ROLLUPS_023,
  rollupFunctions,
  TAG_BUCKETS,
  WORK_BUCKETS,
  type Rollup,
  type StatRollups,
} from './023_statistics';

/** The UTC-day rollup of a bucket rollup: the same keys with `day` for `bucket`. */
function daysOf(r: Rollup, table: string): Rollup {
  const keys = r.keys.map((k) => (k === 'bucket' ? 'day' : k));
  const columns = r.keys.map((k) => (k === 'bucket' ? `(bucket at time zone 'UTC')::date as day` : k));
  return {
    ...r,
    table,
    keys,
    of: (deltas) => `select ${columns.join(', ')}, n from (${deltas}) y`,
  };
}

export const TAG_DAYS = daysOf(TAG_BUCKETS, 'stat_tag_days');
export const WORK_DAYS = daysOf(WORK_BUCKETS, 'stat_work_days');
export const NODE_DAYS = daysOf(NODE_BUCKETS, 'stat_node_days');

export const ROLLUPS_025: StatRollups = {
  tags: [TAG_BUCKETS, TAG_DAYS, DOCUMENT_TAGS],
  work: [WORK_BUCKETS, WORK_DAYS],
  nodes: [NODE_BUCKETS, NODE_DAYS],
};

export async function up(knex: Knex): Promise<void> {
  for (const [r, user] of [
    [WORK_DAYS, true],
    [TAG_DAYS, true],
    [NODE_DAYS, false],
  ] as const) {
    await knex.schema.createTable(r.table, (t) => {
      t.bigInteger('node_id').notNullable().references('nodes.id').onDelete('CASCADE');
      t.date('day').notNullable();
      if (user) t.bigInteger('user_id').notNullable();
      if (r.type === 'int') t.integer(r.value).notNullable();
      else t.double(r.value).notNullable();
      t.primary(r.keys);
    });
  }
  // the days of what exists (the buckets are exact), then the triggers keep both
  for (const [days, buckets] of [
    [WORK_DAYS, WORK_BUCKETS],
    [TAG_DAYS, TAG_BUCKETS],
    [NODE_DAYS, NODE_BUCKETS],
  ] as const)
    await knex.raw(
      applyDeltas(days, `select ${buckets.keys.join(', ')}, ${buckets.value} as n from ${buckets.table}`),
    );
  for (const [name, body] of rollupFunctions(ROLLUPS_025)) await knex.raw(fn(name, body));
}

export async function down(knex: Knex): Promise<void> {
  for (const [name, body] of rollupFunctions(ROLLUPS_023)) await knex.raw(fn(name, body));
  for (const r of [WORK_DAYS, TAG_DAYS, NODE_DAYS]) await knex.schema.dropTableIfExists(r.table);
}
