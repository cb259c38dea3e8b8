/**
 * Statistics at 1,000,000 documents, the zone days (issue 16 section 1: < 200 ms p99): each UTC-day rollup row
 * of migration 025 also holds `cum`, the running sums of its day's 96 quarters of an hour (cum[k] = the value
 * of the quarters 0..k-1 of the UTC day, k = 1..96; cum[96] = the day's value). A day of the caller's zone is
 * then read from the day rows alone: a UTC day splits at the zone's midnights (quarter boundaries: every IANA
 * offset is a multiple of 15 minutes) into parts, each the difference of two running sums
 * (db/queries/statistics.ts, `zoneDaySums`), instead of an index walk into the 15-minute buckets per node and
 * day (a year of TAG_USAGE: 1,101 walks reading 70,000 buckets, 50 of its 75 ms).
 *
 * The trigger functions are replaced: a bucket delta also adds its running sums to its day row
 * (`applyDeltas` with `quarters`); the buckets stay (the tests compare the days with them).
 */
import type { Knex } from 'knex';
import {
  DOCUMENT_TAGS,
  fn,
  NODE_BUCKETS,
  rollupFunctions,
  TAG_BUCKETS,
  WORK_BUCKETS,
  type Rollup,
  type StatRollups,
} from './023_statistics';
import { NODE_DAYS, ROLLUPS_025, TAG_DAYS, WORK_DAYS } from './025_statistics_days';

/** The quarter of its UTC day (0..95) of a bucket (a multiple of 900 s since the epoch). */
export const QUARTER = (bucket: string) => `((extract(epoch from ${bucket})::bigint % 86400) / 900)::int`;

/** The day rollup with its running sums: the delta rows carry the bucket's quarter `q`. */
function withQuarters(r: Rollup): Rollup {
  const keys = r.keys.map((k) => (k === 'day' ? `(bucket at time zone 'UTC')::date as day` : k));
  return {
    ...r,
    quarters: true,
    of: (deltas) => `select ${keys.join(', ')}, ${QUARTER('bucket')} as q, n from (${deltas}) y`,
  };
}

export const TAG_DAYS_Q = withQuarters(TAG_DAYS);
export const WORK_DAYS_Q = withQuarters(WORK_DAYS);
export const NODE_DAYS_Q = withQuarters(NODE_DAYS);

const ROLLUPS_027: StatRollups = {
  tags: [TAG_BUCKETS, TAG_DAYS_Q, DOCUMENT_TAGS],
  work: [WORK_BUCKETS, WORK_DAYS_Q],
  nodes: [NODE_BUCKETS, NODE_DAYS_Q],
};

export async function up(knex: Knex): Promise<void> {
  // running sums of 96 quarters from (quarter, value) pairs, and their sum
  await knex.raw(`
    create function stat_cum(qs int[], ns float8[]) returns float8[] language sql immutable parallel safe as $$
      select array_agg(c order by i) from (
        select i, sum(coalesce(v.n, 0)) over (order by i) as c
          from generate_series(0, 95) i
          left join (select u.q, sum(u.n) as n from unnest(qs, ns) u(q, n) group by u.q) v on v.q = i
      ) x $$`);
  await knex.raw(`
    create function stat_cum_add(a float8[], b float8[]) returns float8[] language sql immutable parallel safe as $$
      select array_agg(x + y order by k) from unnest(a, b) with ordinality u(x, y, k) $$`);
  for (const [days, buckets] of [
    [NODE_DAYS_Q, NODE_BUCKETS],
    [TAG_DAYS_Q, TAG_BUCKETS],
    [WORK_DAYS_Q, WORK_BUCKETS],
  ] as const) {
    await knex.schema.alterTable(days.table, (t) => {
      t.specificType('cum', 'float8[]');
    });
    const keys = days.keys.map((k) => (k === 'day' ? `(bucket at time zone 'UTC')::date` : k));
    const match = days.keys.map((k) => `d.${k} = x.${k}`).join(' and ');
    await knex.raw(`
      update ${days.table} d set cum = x.cum
        from (select ${days.keys.join(', ')}, stat_cum(array_agg(q), array_agg(n)) as cum
                from (select ${keys.map((k, i) => `${k} as ${days.keys[i]}`).join(', ')},
                             ${QUARTER('bucket')} as q, ${buckets.value}::float8 as n
                        from ${buckets.table}) y
               group by ${days.keys.join(', ')}) x
       where ${match}`);
    // a day row without buckets (none: the days were summed from them) would read as nothing
    await knex.raw(`update ${days.table} set cum = array_fill(0::float8, array[96]) where cum is null`);
    await knex.raw(`alter table ${days.table} alter column cum set not null`);
  }
  for (const [name, body] of rollupFunctions(ROLLUPS_027)) await knex.raw(fn(name, body));
}

export async function down(knex: Knex): Promise<void> {
  for (const [name, body] of rollupFunctions(ROLLUPS_025)) await knex.raw(fn(name, body));
  for (const r of [NODE_DAYS_Q, TAG_DAYS_Q, WORK_DAYS_Q])
    await knex.schema.alterTable(r.table, (t) => {
      t.dropColumn('cum');
    });
  await knex.raw('drop function if exists stat_cum_add(float8[], float8[])');
  await knex.raw('drop function if exists stat_cum(int[], float8[])');
}
