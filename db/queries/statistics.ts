/**
 * The reads of `POST api/statistics` and the write of `POST api/work-time` (docs/api-statistics.md). The
 * figures come from the UTC-day rollups of migrations 025 and 027 (with the running sums of each day's
 * quarters, kept by triggers), summed into the days of the caller's zone here (`zoneDaySums`). A range is [dateFrom 00:00, dateTo + 1 00:00) in the zone, computed by
 * PostgreSQL (DST included).
 */
import type { Knex } from 'knex';
import {
  NODE_ACTIVITY_DOC_IDS_LIMIT,
  WORK_TIME_ROWS_LIMIT,
  type NodeActivityCell,
  type NodeActivityRow,
  type StatisticsUser,
  type TagUsageRow,
  type WorkTimeDay,
  type WorkTimeRow,
} from '../../domain/statistics-types';

export interface StatisticsScope {
  processId: number;
  dateFrom: string;
  dateTo: string;
  zoneId: string;
  /** only these nodes (null: every node of the process) */
  nodeIds: number[] | null;
  /** only these users (null: everyone) */
  userIds: number[] | null;
}

const DATE = (day: string) => `to_char(${day}, 'YYYY-MM-DD')`;

/** A PostgreSQL array literal of ids (knex would spread a JS array into a list of placeholders). */
const idArray = (ids: readonly number[]): string => `{${ids.map((id) => Math.trunc(id)).join(',')}}`;

/** The bindings of every query: the range's instants are computed in SQL from the zone. */
const bindings = (s: StatisticsScope) => ({
  processId: s.processId,
  zone: s.zoneId,
  from: s.dateFrom,
  to: s.dateTo,
  nodeIds: s.nodeIds ? idArray(s.nodeIds) : null,
  userIds: s.userIds ? idArray(s.userIds) : null,
});
const RANGE_START = `(:from::date::timestamp at time zone :zone)`;
const RANGE_END = `((:to::date + 1)::timestamp at time zone :zone)`;
const NODES = `(select id from nodes where process_id = :processId
                 and (:nodeIds::bigint[] is null or id = any(:nodeIds::bigint[])))`;
const USERS = `(:userIds::bigint[] is null or b.user_id = any(:userIds::bigint[]))`;

/**
 * A day rollup summed per day of the caller's zone (column `day`, a date) and `keys` (columns of the rollup)
 * over the range's days, with `n` the sum. A UTC day of the rollup (migration 025) splits at the zone's
 * midnights that fall inside it (`cuts`: quarter-hour boundaries, computed by PostgreSQL so DST days are
 * right; none for UTC, one a day for Warsaw, two on the odd DST day) into parts, each belonging to one zone
 * day (`parts`); a part's value is the difference of two of the row's running sums of its quarters (`cum`,
 * migration 027), a whole day its value. A year is 367 day rows per key and nothing else. `where` filters the
 * rollup rows (alias `b`); a sum at or below `floor` is no figure (float residue).
 */
function zoneDaySums(o: {
  days: string;
  value: string;
  keys: string[];
  where: string;
  floor: number;
}): string {
  const keys = (alias: string) => o.keys.map((k) => `${alias}.${k}`).join(', ');
  const n = `case when p.lo = 0 and p.hi = 96 then b.${o.value} else b.cum[p.hi] - coalesce(b.cum[p.lo], 0) end`;
  return `
    with cuts as materialized (
      select x.day, array_agg(distinct x.q order by x.q) as qs from (
        select g::date as day, e.q from generate_series(:from::date - 1, :to::date + 1, interval '1 day') g
         cross join (values (0), (96)) e(q)
        union all
        select (m at time zone 'UTC')::date, ((extract(epoch from m)::bigint % 86400) / 900)::int
          from generate_series(-2, :to::date - :from::date + 2) i
         cross join lateral (select ((:from::date + i)::timestamp at time zone :zone) as m) z
      ) x group by x.day
    ), parts as materialized (
      select c.day, c.qs[k] as lo, c.qs[k + 1] as hi,
             (((c.day::timestamp at time zone 'UTC') + c.qs[k] * interval '15 minutes') at time zone :zone)::date
               as zone_day
        from cuts c cross join generate_series(1, array_length(c.qs, 1) - 1) k
    ), vals as materialized (
      select p.zone_day, ${keys('b')}, ${n} as n
        from ${o.days} b join parts p on p.day = b.day
       where b.node_id in ${NODES} and ${o.where}
         and b.day >= :from::date - 1 and b.day <= :to::date + 1
         and p.zone_day >= :from::date and p.zone_day <= :to::date
    )
    select v.zone_day as day, ${keys('v')}, sum(v.n) as n from vals v
     group by v.zone_day, ${keys('v')} having sum(v.n) > ${o.floor}`;
}

/**
 * A read of the figures, with PostgreSQL's JIT compilation off: these are short queries whose estimates can
 * still cross `jit_above_cost` (before migration 027 the edge walks were estimated at a million rows for the
 * 70,000 read, and compiling the plan took 230 of a 340 ms TAG_USAGE query at 1,000,000 documents). One short
 * transaction per read (`set local`), so the reads of an answer still run side by side.
 */
async function read(knex: Knex, sql: string, b: Record<string, unknown>): Promise<{ rows: any[] }> {
  return knex.transaction(async (trx) => {
    await trx.raw('set local jit = off');
    const result: { rows: any[] } = await trx.raw(sql, b);
    return result;
  });
}

/** Whether PostgreSQL knows the zone (its tz database may differ from the runtime's). */
export async function knownZone(knex: Knex, zoneId: string): Promise<boolean> {
  const { rows } = await knex.raw('select 1 from pg_timezone_names where name = ? limit 1', [zoneId]);
  return rows.length > 0;
}

export async function statisticsUsers(knex: Knex, ids: Iterable<number>): Promise<StatisticsUser[]> {
  const list = [...new Set(ids)].filter((id) => id > 0);
  if (!list.length) return [];
  const rows = await knex('users')
    .whereIn('id', list)
    .orderBy('id')
    .select('id', 'login', 'first_name as firstName', 'last_name as lastName');
  return rows.map((u) => ({ ...u, id: Number(u.id) }));
}

export async function workTimeDays(knex: Knex, s: StatisticsScope): Promise<WorkTimeDay[]> {
  const { rows } = await read(
    knex,
    `select ${DATE('d.day')} as date, d.user_id as "userId", d.node_id as "nodeId", d.n as seconds
       from (${zoneDaySums({ days: 'stat_work_days', value: 'seconds', keys: ['user_id', 'node_id'], where: USERS, floor: 0.0005 })}) d
      order by 1, 2, 3`,
    bindings(s),
  );
  return rows.map((r: Record<string, string>) => ({
    date: r.date,
    userId: Number(r.userId),
    nodeId: Number(r.nodeId),
    seconds: Math.round(Number(r.seconds)),
  }));
}

/** Stretches overlapping the range (a stretch lasts at most 12 h: the index walk starts 12 h earlier). */
export async function workTimeRows(
  knex: Knex,
  s: StatisticsScope,
  maxStretchMs: number,
): Promise<{ rows: WorkTimeRow[]; total: number }> {
  const where = `w.process_id = :processId
      and w.start_time >= ${RANGE_START} - :stretch * interval '1 millisecond'
      and w.start_time < ${RANGE_END} and w.end_time > ${RANGE_START}
      and (:nodeIds::bigint[] is null or w.node_id = any(:nodeIds::bigint[]))
      and (:userIds::bigint[] is null or w.user_id = any(:userIds::bigint[]))`;
  const b = { ...bindings(s), stretch: maxStretchMs, limit: WORK_TIME_ROWS_LIMIT };
  const [{ rows }, { rows: count }] = await Promise.all([
    read(
      knex,
      `select w.user_id, w.node_id, w.step_id, w.document_id, w.start_time, w.end_time,
              extract(epoch from least(w.end_time, ${RANGE_END}) - greatest(w.start_time, ${RANGE_START})) as time
         from work_times w where ${where}
        order by w.start_time desc, w.id desc limit :limit`,
      b,
    ),
    read(knex, `select count(*)::int as n from work_times w where ${where}`, b),
  ]);
  return {
    total: count[0].n,
    rows: rows.map((r: Record<string, string | Date>) => ({
      userId: Number(r.user_id),
      nodeId: Number(r.node_id),
      stepId: Number(r.step_id),
      documentId: Number(r.document_id),
      startTime: (r.start_time as Date).toISOString(),
      endTime: (r.end_time as Date).toISOString(),
      time: Math.round(Number(r.time)),
    })),
  };
}

/** Tags made by people (user 0, no person, left out) per node, user and day. */
export async function tagUsage(knex: Knex, s: StatisticsScope): Promise<TagUsageRow[]> {
  const { rows } = await read(
    knex,
    `select ${DATE('d.day')} as time, d.node_id as "nodeId", d.user_id as "userId", d.n::int as "tagsCount"
       from (${zoneDaySums({ days: 'stat_tag_days', value: 'tags', keys: ['node_id', 'user_id'], where: `b.user_id <> 0 and ${USERS}`, floor: 0 })}) d
      order by 1, 2, 3`,
    bindings(s),
  );
  return rows.map((r: Record<string, string | number>) => ({
    nodeId: Number(r.nodeId),
    userId: Number(r.userId),
    tagsCount: Number(r.tagsCount),
    time: String(r.time),
  }));
}

/**
 * Documents finished and tags made per node and day. With `cell` (the query's `documentsOf`) the scope is that
 * node on that day, and its row lists the newest NODE_ACTIVITY_DOC_IDS_LIMIT documents finished there (a
 * document finished twice counts at its latest finish) with the live tag count of each on the node: one
 * index range of the finishes' index, whatever the size of the process.
 */
export async function nodeActivity(
  knex: Knex,
  scope: StatisticsScope,
  cell: NodeActivityCell | null = null,
): Promise<NodeActivityRow[]> {
  const s: StatisticsScope = cell
    ? { ...scope, dateFrom: cell.date, dateTo: cell.date, nodeIds: [cell.nodeId] }
    : scope;
  const b = bindings(s);
  const perNodeDay = (days: string, value: string) =>
    read(
      knex,
      `select ${DATE('d.day')} as date, d.node_id, d.n::int as n
         from (${zoneDaySums({ days, value, keys: ['node_id'], where: 'true', floor: 0 })}) d`,
      b,
    );
  const [{ rows: docs }, { rows: tags }, listed] = await Promise.all([
    perNodeDay('stat_node_days', 'documents'),
    perNodeDay('stat_tag_days', 'tags'),
    cell
      ? read(
          knex,
          `select f.document_id, coalesce(t.tags, 0)::int as tags
             from (select f.document_id, max(f.finished_at) as last_at from stat_step_finishes f
                    where f.node_id = :nodeId
                      and f.finished_at >= ${RANGE_START} and f.finished_at < ${RANGE_END}
                    group by f.document_id
                    order by last_at desc, f.document_id desc limit :limit) f
             left join stat_document_node_tags t on t.document_id = f.document_id and t.node_id = :nodeId
            order by f.last_at desc, f.document_id desc`,
          { ...b, nodeId: cell.nodeId, limit: NODE_ACTIVITY_DOC_IDS_LIMIT },
        )
      : null,
  ]);
  const byDate = new Map<string, NodeActivityRow>();
  const rowOf = (date: string) => {
    let row = byDate.get(date);
    if (!row) {
      row = {
        date,
        nodeIdDocIdsMap: {},
        nodeIdDocCountMap: {},
        tagsPerDocAndNodeCompositeMap: {},
        nodeIdTagCountMap: {},
      };
      byDate.set(date, row);
    }
    return row;
  };
  type Count = { date: string; node_id: string; n: number };
  for (const r of docs as Count[]) rowOf(r.date).nodeIdDocCountMap[r.node_id] = r.n;
  for (const r of tags as Count[]) rowOf(r.date).nodeIdTagCountMap[r.node_id] = r.n;
  if (cell && listed) {
    const docsOfCell = listed.rows as { document_id: string; tags: number }[];
    if (docsOfCell.length) {
      const row = rowOf(cell.date);
      row.nodeIdDocIdsMap[cell.nodeId] = docsOfCell.map((r) => Number(r.document_id));
      for (const r of docsOfCell)
        row.tagsPerDocAndNodeCompositeMap[`${cell.nodeId}-${r.document_id}`] = r.tags;
    }
  }
  return [...byDate.values()].sort((a, b) => a.date.localeCompare(b.date));
}

export interface WorkTimeInput {
  userId: number;
  clientId: string;
  stepId: number;
  nodeId: number;
  processId: number;
  documentId: number;
  start: Date;
  end: Date;
}

/**
 * One row per (user, clientId): a repeated report widens the stretch it already has (the earliest start,
 * the latest end). False when the clientId is the user's stretch on another step, or when widening it would
 * make it longer than `maxStretchMs`.
 */
export async function upsertWorkTime(knex: Knex, w: WorkTimeInput, maxStretchMs: number): Promise<boolean> {
  const { rows } = await knex.raw(
    `insert into work_times (client_id, user_id, process_id, node_id, step_id, document_id, start_time, end_time)
     values (:clientId, :userId, :processId, :nodeId, :stepId, :documentId, :start, :end)
     on conflict (user_id, client_id) do update
        set start_time = least(work_times.start_time, excluded.start_time),
            end_time = greatest(work_times.end_time, excluded.end_time)
      where work_times.step_id = excluded.step_id
        and greatest(work_times.end_time, excluded.end_time) - least(work_times.start_time, excluded.start_time)
            <= :max * interval '1 millisecond'
     returning id`,
    { ...w, max: maxStretchMs },
  );
  return rows.length > 0;
}
