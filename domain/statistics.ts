/**
 * Statistics rules (issue 16 section 1; spec 3 sections 5, 8 and 9), shared by the API and the statistics
 * screen: the date range of a query (yyyy-MM-dd days of the caller's zone, `dateTo` not before `dateFrom`,
 * at most STATISTICS_MAX_DAYS after it), the IANA zone check, the work-time report rules, and the split of a
 * stretch of work across the days of a zone ("work spanning midnight is split in proportion across days":
 * each day gets the part of the stretch that falls in it).
 *
 * Decisions the spec leaves open: the range may reach into the future (a caller may ask for a whole week,
 * month or year before it ends; the screen's presets stop at today); a work-time report may end at most WORK_TIME_LIMITS.skewMs after
 * the server's clock and last at most WORK_TIME_LIMITS.maxStretchMs.
 */
import { dayOf, DAY_MS } from './export';
import { STATISTICS_MAX_DAYS, type NodeActivityCell, type StatisticsType } from './statistics-types';

const K = 'soaApp.statistics.errors';

export interface StatisticsViolation {
  field: 'dateFrom' | 'dateTo' | 'zoneId' | 'nodeIds' | 'documentsOf' | 'startTime' | 'endTime';
  code: 'Size' | 'Pattern';
  key: string;
}

/** dateFrom and dateTo: real yyyy-MM-dd days, dateTo not before dateFrom and at most 365 days after it. */
export function statisticsRangeViolations(dateFrom: string, dateTo: string): StatisticsViolation[] {
  const from = dayOf(dateFrom);
  const to = dayOf(dateTo);
  const violations: StatisticsViolation[] = [];
  if (from === null) violations.push({ field: 'dateFrom', code: 'Pattern', key: `${K}.dateInvalid` });
  if (to === null) violations.push({ field: 'dateTo', code: 'Pattern', key: `${K}.dateInvalid` });
  if (from !== null && to !== null) {
    if (to < from) violations.push({ field: 'dateTo', code: 'Pattern', key: `${K}.dateOrder` });
    else if (to - from > STATISTICS_MAX_DAYS)
      violations.push({ field: 'dateTo', code: 'Size', key: `${K}.rangeTooLong` });
  }
  return violations;
}

/**
 * The `documentsOf` cell of a query: NODE_ACTIVITY only, a real day inside the range, and a node among the
 * query's `nodeIds` when it names some (whether the node is the process's is the caller's check).
 */
export function documentsOfViolations(
  query: { type: StatisticsType; dateFrom: string; dateTo: string; nodeIds?: number[] | null },
  cell: NodeActivityCell,
): StatisticsViolation[] {
  const v = (key: string): StatisticsViolation[] => [
    { field: 'documentsOf', code: 'Pattern', key: `${K}.${key}` },
  ];
  if (query.type !== 'NODE_ACTIVITY') return v('documentsOfType');
  const day = dayOf(cell.date);
  const from = dayOf(query.dateFrom);
  const to = dayOf(query.dateTo);
  if (day === null) return v('dateInvalid');
  if (from !== null && to !== null && (day < from || day > to)) return v('documentsOfOutOfRange');
  if (query.nodeIds?.length && !query.nodeIds.includes(cell.nodeId)) return v('documentsOfNode');
  return [];
}

/** An IANA zone name the runtime knows (Europe/Warsaw, UTC, Asia/Kolkata). */
export function isZoneId(zoneId: string): boolean {
  if (!/^[A-Za-z][A-Za-z0-9_+\-/]{0,63}$/.test(zoneId)) return false;
  try {
    new Intl.DateTimeFormat('en-US', { timeZone: zoneId });
    return true;
  } catch {
    return false;
  }
}

const formatters = new Map<string, Intl.DateTimeFormat>();
function formatterOf(zoneId: string): Intl.DateTimeFormat {
  let f = formatters.get(zoneId);
  if (!f) {
    f = new Intl.DateTimeFormat('en-US', {
      timeZone: zoneId,
      hourCycle: 'h23',
      year: 'numeric',
      month: '2-digit',
      day: '2-digit',
      hour: '2-digit',
      minute: '2-digit',
      second: '2-digit',
    });
    formatters.set(zoneId, f);
  }
  return f;
}

/** The wall clock of an instant in a zone, as if it were UTC (ms). */
function wallClock(instant: number, zoneId: string): number {
  const p = Object.fromEntries(
    formatterOf(zoneId)
      .formatToParts(new Date(instant))
      .map((x) => [x.type, x.value]),
  );
  return Date.UTC(+p.year, +p.month - 1, +p.day, +p.hour, +p.minute, +p.second);
}

/** yyyy-MM-dd of an instant in a zone. */
export function zoneDate(instant: number, zoneId: string): string {
  return new Date(wallClock(instant, zoneId)).toISOString().slice(0, 10);
}

/** The first instant of a day (yyyy-MM-dd) in a zone (its midnight; where DST skips midnight, 01:00). */
export function zoneDayStart(date: string, zoneId: string): number {
  const wall = Date.parse(`${date}T00:00:00Z`);
  let t = wall - (wallClock(wall, zoneId) - wall);
  t = wall - (wallClock(t, zoneId) - t);
  // a midnight that does not exist (the clock jumps over it): the day starts at the jump
  while (zoneDate(t, zoneId) < date) t += 15 * 60_000;
  return t;
}

const nextDate = (date: string): string => new Date((dayOf(date)! + 1) * DAY_MS).toISOString().slice(0, 10);

/**
 * A stretch [start, end) split across the days of a zone: the seconds of each day it touches, in order (a
 * stretch from 23:30 to 00:30 gives 1800 s to each day).
 */
export function splitByDay(start: number, end: number, zoneId: string): { date: string; seconds: number }[] {
  const days: { date: string; seconds: number }[] = [];
  let at = start;
  let date = zoneDate(start, zoneId);
  while (at < end) {
    const next = nextDate(date);
    const until = Math.min(end, zoneDayStart(next, zoneId));
    days.push({ date, seconds: (until - at) / 1000 });
    at = until;
    date = next;
  }
  return days;
}

export const WORK_TIME_LIMITS = {
  /** how far a report's end may be after the server's clock (browser clocks drift) */
  skewMs: 120_000,
  /** longest stretch (the workspace reports every 60 s, so a real one never comes near) */
  maxStretchMs: 12 * 3_600_000,
} as const;

/** The rules of a work-time report (instants in ms): end after start, not in the future, not too long. */
const ISO_INSTANT = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}(:\d{2}(\.\d{1,6})?)?(Z|[+-]\d{2}:\d{2})$/;

/** An ISO instant with its offset (as the browser's toISOString writes it), as ms; null when it is not one. */
function instantOf(value: string): number | null {
  if (!ISO_INSTANT.test(value)) return null;
  const ms = Date.parse(value);
  return Number.isNaN(ms) ? null : ms;
}

/** A work-time report's instants read and checked: the stretch, or every refusal. */
export function workTimeReportRule(
  startTime: string,
  endTime: string,
  now: number,
): { start: number; end: number } | { violations: StatisticsViolation[] } {
  const start = instantOf(startTime);
  const end = instantOf(endTime);
  const violations: StatisticsViolation[] = [];
  if (start === null) violations.push({ field: 'startTime', code: 'Pattern', key: `${K}.instantInvalid` });
  if (end === null) violations.push({ field: 'endTime', code: 'Pattern', key: `${K}.instantInvalid` });
  if (start !== null && end !== null) violations.push(...workTimeViolations(start, end, now));
  return start !== null && end !== null && !violations.length ? { start, end } : { violations };
}

export function workTimeViolations(start: number, end: number, now: number): StatisticsViolation[] {
  if (end <= start) return [{ field: 'endTime', code: 'Pattern', key: `${K}.endBeforeStart` }];
  if (end > now + WORK_TIME_LIMITS.skewMs)
    return [{ field: 'endTime', code: 'Pattern', key: `${K}.endInFuture` }];
  if (end - start > WORK_TIME_LIMITS.maxStretchMs)
    return [{ field: 'endTime', code: 'Size', key: `${K}.stretchTooLong` }];
  return [];
}
