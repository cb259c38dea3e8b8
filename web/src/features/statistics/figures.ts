/**
 * What the statistics screen draws, computed from the API's answers (domain/statistics-types.ts): the query
 * of a tab with its user and node filters, times as hours and minutes (spec 3 section 9), and the series of
 * the charts, one value per day of the range (days without figures are zeros, so the bars line up). Pure.
 */
import type {
  NodeActivityRow,
  StatisticsQuery,
  StatisticsType,
  StatisticsUser,
  TagUsageRow,
  WorkTimeDay,
} from '@domain/statistics-types';
import { userLabel } from '../dashboard/documents';
import { TAG_PALETTE } from '../processes/palette';
import type { Day, DayRange } from './range';

export const STATISTICS_TABS = [
  'WORK_TIMER',
  'TAG_USAGE',
  'NODE_ACTIVITY',
] as const satisfies readonly StatisticsType[];

/** Which filters a tab sends (the contract: work time by users, tags by users and nodes, activity by nodes). */
export const TAB_FILTERS: Record<StatisticsType, { users: boolean; nodes: boolean }> = {
  WORK_TIMER: { users: true, nodes: false },
  TAG_USAGE: { users: true, nodes: true },
  NODE_ACTIVITY: { users: false, nodes: true },
};

export interface StatisticsSelection {
  range: DayRange;
  zoneId: string;
  userIds: readonly number[];
  nodeIds: readonly number[];
}

/** The request of a tab: only the filters the tab has, ids sorted (one cache entry per selection). */
export function statisticsQuery(
  type: StatisticsType,
  processId: number,
  s: StatisticsSelection,
): StatisticsQuery {
  const sorted = (ids: readonly number[]) => [...new Set(ids)].sort((a, b) => a - b);
  const query: StatisticsQuery = {
    type,
    processId,
    dateFrom: s.range.from,
    dateTo: s.range.to,
    zoneId: s.zoneId,
  };
  if (TAB_FILTERS[type].users && s.userIds.length) query.userIds = sorted(s.userIds);
  if (TAB_FILTERS[type].nodes && s.nodeIds.length) query.nodeIds = sorted(s.nodeIds);
  return query;
}

/** Adds the id to a filter, or takes it out when it is there. */
export const toggleId = (ids: readonly number[], id: number): number[] =>
  ids.includes(id) ? ids.filter((x) => x !== id) : [...ids, id];

/** Seconds as hours and minutes, `h:mm` (to the nearest minute). */
export function formatHoursMinutes(seconds: number): string {
  const minutes = Math.round(Math.max(0, seconds) / 60);
  return `${Math.floor(minutes / 60)}:${String(minutes % 60).padStart(2, '0')}`;
}

const HOUR_STEPS = [1, 2, 5, 10, 15, 30, 60, 120, 240, 480, 720, 1440].map((m) => m / 60);

/** The y step of an hours axis: whole minutes, at most `ticks` steps up to `maxHours`. */
export const hourStep = (maxHours: number, ticks = 8): number =>
  HOUR_STEPS.find((step) => maxHours / step <= ticks) ?? Math.ceil(maxHours / ticks / 24) * 24;

/** The highest stacked value of the series (a day's sum). */
export const stackedMax = (series: readonly Series[]): number =>
  Math.max(0, ...(series[0]?.data.map((_, i) => series.reduce((sum, s) => sum + s.data[i], 0)) ?? []));

/** A user as the screen names them: first and last name, else the login. */
export const statisticsUserName = (u: Pick<StatisticsUser, 'login' | 'firstName' | 'lastName'>): string =>
  userLabel({ firstName: u.firstName, lastName: u.lastName, email: '' }) ?? u.login;

/** The colour of the i-th series (the label palette, spread so that neighbours differ). */
export const seriesColor = (i: number): string => TAG_PALETTE[(i * 5) % TAG_PALETTE.length];

export interface Series {
  key: number;
  label: string;
  data: number[];
}

/** Sums `value` of each row into its series (by `seriesOf`) and its day; series in order of their label. */
function sumByDay<R>(
  rows: readonly R[],
  days: readonly Day[],
  dayOf: (r: R) => Day,
  seriesOf: (r: R) => number,
  value: (r: R) => number,
  labelOf: (key: number) => string,
): Series[] {
  const index = new Map(days.map((d, i) => [d, i]));
  const series = new Map<number, number[]>();
  for (const r of rows) {
    const i = index.get(dayOf(r));
    if (i === undefined) continue;
    const key = seriesOf(r);
    const data = series.get(key) ?? Array<number>(days.length).fill(0);
    data[i] += value(r);
    series.set(key, data);
  }
  return [...series.entries()]
    .map(([key, data]) => ({ key, label: labelOf(key), data }))
    .sort((a, b) => a.label.localeCompare(b.label) || a.key - b.key);
}

/** Work time per user and day, in hours (the chart stacks the users). */
export const workTimeSeries = (
  days: readonly WorkTimeDay[],
  range: readonly Day[],
  userName: (id: number) => string,
): Series[] =>
  sumByDay(
    days,
    range,
    (d) => d.date,
    (d) => d.userId,
    (d) => d.seconds / 3600,
    userName,
  );

/** Total seconds per user over the range, most first. */
export function workTimeTotals(days: readonly WorkTimeDay[]): { userId: number; seconds: number }[] {
  const totals = new Map<number, number>();
  for (const d of days) totals.set(d.userId, (totals.get(d.userId) ?? 0) + d.seconds);
  return [...totals.entries()]
    .map(([userId, seconds]) => ({ userId, seconds }))
    .sort((a, b) => b.seconds - a.seconds || a.userId - b.userId);
}

export type TagGrouping = 'node' | 'user';

/** Tags created per day, one series per node or per user. */
export const tagSeries = (
  rows: readonly TagUsageRow[],
  range: readonly Day[],
  by: TagGrouping,
  nameOf: (id: number) => string,
): Series[] =>
  sumByDay(
    rows,
    range,
    (r) => r.time,
    (r) => (by === 'node' ? r.nodeId : r.userId),
    (r) => r.tagsCount,
    nameOf,
  );

/** The tag table: tags per node and user over the range, most first. */
export function tagTotals(rows: readonly TagUsageRow[]): { nodeId: number; userId: number; tags: number }[] {
  const totals = new Map<string, { nodeId: number; userId: number; tags: number }>();
  for (const r of rows) {
    const key = `${r.nodeId}-${r.userId}`;
    const t = totals.get(key) ?? { nodeId: r.nodeId, userId: r.userId, tags: 0 };
    t.tags += r.tagsCount;
    totals.set(key, t);
  }
  return [...totals.values()].sort((a, b) => b.tags - a.tags || a.nodeId - b.nodeId || a.userId - b.userId);
}

export type ActivityMetric = 'documents' | 'tags';

/** Per node and day: documents finished on the node (full counts) or tags on them. */
export function nodeActivitySeries(
  rows: readonly NodeActivityRow[],
  range: readonly Day[],
  metric: ActivityMetric,
  nodeName: (id: number) => string,
): Series[] {
  const flat = rows.flatMap((r) =>
    Object.entries(metric === 'documents' ? r.nodeIdDocCountMap : r.nodeIdTagCountMap).map(([node, n]) => ({
      date: r.date,
      nodeId: Number(node),
      n,
    })),
  );
  return sumByDay(
    flat,
    range,
    (x) => x.date,
    (x) => x.nodeId,
    (x) => x.n,
    nodeName,
  );
}

/** One cell of the node activity table: a node on a day, with the documents the answer lists. */
export interface ActivityCell {
  date: Day;
  nodeId: number;
  documents: number;
  tags: number;
  documentIds: number[];
  /** tags on each listed document on the node */
  documentTags: Record<number, number>;
}

/** The node activity table: a row per day and node that had documents or tags, newest day first. */
export function activityCells(rows: readonly NodeActivityRow[]): ActivityCell[] {
  const cells: ActivityCell[] = [];
  for (const r of rows) {
    const nodes = new Set([...Object.keys(r.nodeIdDocCountMap), ...Object.keys(r.nodeIdTagCountMap)]);
    for (const node of nodes) {
      const ids = r.nodeIdDocIdsMap[node] ?? [];
      cells.push({
        date: r.date,
        nodeId: Number(node),
        documents: r.nodeIdDocCountMap[node] ?? ids.length,
        tags: r.nodeIdTagCountMap[node] ?? 0,
        documentIds: [...ids].sort((a, b) => b - a),
        documentTags: Object.fromEntries(
          ids.map((id) => [id, r.tagsPerDocAndNodeCompositeMap[`${node}-${id}`] ?? 0]),
        ),
      });
    }
  }
  return cells
    .filter((c) => c.documents > 0 || c.tags > 0)
    .sort((a, b) => b.date.localeCompare(a.date) || a.nodeId - b.nodeId);
}
