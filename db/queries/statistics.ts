/**
 * The reads of `POST api/statistics` and the write of `POST api/work-time` (docs/api-statistics.md). The
 * figures come from the rollups of migrations 023 and 025 (15-minute buckets and UTC days, kept by triggers),
 * summed into the days of the caller's zone here (`zoneDaySums`): `bucket at time zone zone` is the bucket's
 * wall clock, its date the day. A range is [dateFrom 00:00, dateTo + 1 00:00) in the zone, computed by
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
 * A rollup summed per day of the caller's zone (column `day`, a date) and `keys` (columns of the rollups,
 * named alike) over the range's days, with `n` the sum. Each zone day is its UTC day (the day rollup of
 * migration 025) plus the buckets of the zone day that lie in another UTC day, minus the buckets of the UTC
 * day that lie in another zone day. Those buckets lie between UTC midnight and the zone's midnight of a day
 * (`edges`, one stretch per day, computed by PostgreSQL so DST days are right; none for UTC, 1 or 2 hours of
 * 24 for Warsaw), each read by a short index walk per node (a lateral subquery behind `offset 0`: left to
 * itself the planner may join every bucket to every stretch); a year is 365 day rows per key and a few buckets per day
 * instead of 35,040 buckets per key. `where` filters the rollup rows (alias `b`); a sum at or below `floor`
 * is no figure (float residue of the corrections).
 */
function zoneDaySums(o: {
  days: string;
  buckets: string;
  value: string;
  keys: string[];
  where: string;
  floor: number;
}): string {
  const keys = (alias: string) => o.keys.map((k) => `${alias}.${k}`).join(', ');
  const filter = `b.node_id in ${NODES} and ${o.where}`;
  return `
    with edges as materialized (
      select least(e.m, e.u) as lo, greatest(e.m, e.u) as hi
        from generate_series(-1, :to::date - :from::date + 1) i
       cross join lateral (select ((:from::date + i)::timestamp at time zone :zone) as m,
                                  ((:from::date + i)::timestamp at time zone 'UTC') as u) e
       where e.m <> e.u
    ), parts as (
      select b.day, ${keys('b')}, b.${o.value} as n from ${o.days} b
       where ${filter} and b.day >= :from::date and b.day <= :to::date
      union all
      select v.day, ${keys('b')}, v.sign * b.${o.value} from edges e
       cross join ${NODES} n
       cross join lateral (select * from ${o.buckets} b
                            where b.node_id = n.id and b.bucket >= e.lo and b.bucket < e.hi and ${o.where}
                           offset 0) b
       cross join lateral (values ((b.bucket at time zone :zone)::date, 1),
                                  ((b.bucket at time zone 'UTC')::date, -1)) v(day, sign)
       where v.day >= :from::date and v.day <= :to::date
    )
    select p.day, ${keys('p')}, sum(p.n) as n from parts p
     group by p.day, ${keys('p')} having sum(p.n) > ${o.floor}`;
}

/** The ids among `ids` that are nodes of the process. */
export async function nodesOfProcess(knex: Knex, processId: number, ids: number[]): Promise<Set<number>> {
  if (!ids.length) return new Set();
  const rows: { id: string }[] = await knex('nodes')
    .where('process_id', processId)
    .whereIn('id', ids)
    .select('id');
  return new Set(rows.map((r) => Number(r.id)));
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
  const { rows } = await knex.raw(
    `select ${DATE('d.day')} as date, d.user_id as "userId", d.node_id as "nodeId", d.n as seconds
       from (${zoneDaySums({ days: 'stat_work_days', buckets: 'stat_work_buckets', value: 'seconds', keys: ['user_id', 'node_id'], where: USERS, floor: 0.0005 })}) d
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
    knex.raw(
      `select w.user_id, w.node_id, w.step_id, w.document_id, w.start_time, w.end_time,
              extract(epoch from least(w.end_time, ${RANGE_END}) - greatest(w.start_time, ${RANGE_START})) as time
         from work_times w where ${where}
        order by w.start_time desc, w.id desc limit :limit`,
      b,
    ),
    knex.raw(`select count(*)::int as n from work_times w where ${where}`, b),
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
  const { rows } = await knex.raw(
    `select ${DATE('d.day')} as time, d.node_id as "nodeId", d.user_id as "userId", d.n::int as "tagsCount"
       from (${zoneDaySums({ days: 'stat_tag_days', buckets: 'stat_tag_buckets', value: 'tags', keys: ['node_id', 'user_id'], where: `b.user_id <> 0 and ${USERS}`, floor: 0 })}) d
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
  const perNodeDay = (days: string, buckets: string, value: string) =>
    knex.raw(
      `select ${DATE('d.day')} as date, d.node_id, d.n::int as n
         from (${zoneDaySums({ days, buckets, value, keys: ['node_id'], where: 'true', floor: 0 })}) d`,
      b,
    );
  const [{ rows: docs }, { rows: tags }, listed] = await Promise.all([
    perNodeDay('stat_node_days', 'stat_node_buckets', 'documents'),
    perNodeDay('stat_tag_days', 'stat_tag_buckets', 'tags'),
    cell
      ? knex.raw(
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
