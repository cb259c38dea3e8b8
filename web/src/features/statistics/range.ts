/**
 * The statistics date range (spec 3 "Statistics screen", section 5 "Statistics date range", section 9): days
 * are calendar days of the browser's zone written `yyyy-MM-dd` (what the API takes) and shown `dd.MM.yyyy`;
 * the presets count from today (a week starts on Monday); the range may end at most STATISTICS_MAX_DAYS after
 * it starts (the API's rule, domain/statistics.ts). Pure: the page passes today's date in.
 */
import { statisticsRangeViolations } from '@domain/statistics';

/** A calendar day, `yyyy-MM-dd`. */
export type Day = string;

export interface DayRange {
  from: Day;
  to: Day;
}

export const RANGE_PRESETS = [
  'today',
  'yesterday',
  'thisWeek',
  'lastWeek',
  'thisMonth',
  'lastMonth',
  'thisYear',
  'lastYear',
] as const;
export type RangePreset = (typeof RANGE_PRESETS)[number];

const DAY_MS = 86_400_000;
const pad = (n: number, width = 2) => String(n).padStart(width, '0');
const dayOfUtc = (d: Date): Day =>
  `${pad(d.getUTCFullYear(), 4)}-${pad(d.getUTCMonth() + 1)}-${pad(d.getUTCDate())}`;
const utc = (day: Day): Date => new Date(`${day}T00:00:00Z`);

/** The browser's IANA zone, sent with every query. */
export const browserZone = (): string => Intl.DateTimeFormat().resolvedOptions().timeZone || 'UTC';

export const addDays = (day: Day, days: number): Day =>
  dayOfUtc(new Date(utc(day).getTime() + days * DAY_MS));

/** Whole days from `from` to `to` (0 for the same day, negative when `to` comes first). */
export const daysBetween = (from: Day, to: Day): number =>
  Math.round((utc(to).getTime() - utc(from).getTime()) / DAY_MS);

/** Every day of the range, in order. */
export function daysOf(range: DayRange): Day[] {
  const n = daysBetween(range.from, range.to);
  return Array.from({ length: Math.max(0, n + 1) }, (_, i) => addDays(range.from, i));
}

/** `yyyy-MM-dd` as `dd.MM.yyyy`. */
export const formatDay = (day: Day): string => `${day.slice(8, 10)}.${day.slice(5, 7)}.${day.slice(0, 4)}`;

/** `dd.MM.yyyy` (one-digit day and month accepted) as `yyyy-MM-dd`; null when it is not a real date. */
export function parseDay(text: string): Day | null {
  const m = /^\s*(\d{1,2})\.(\d{1,2})\.(\d{4})\s*$/.exec(text);
  if (!m) return null;
  const day = `${m[3]}-${pad(Number(m[2]))}-${pad(Number(m[1]))}`;
  const d = utc(day);
  return Number.isNaN(d.getTime()) || dayOfUtc(d) !== day ? null : day;
}

/** Monday of the week of `day`. */
export function mondayOf(day: Day): Day {
  const weekday = (utc(day).getUTCDay() + 6) % 7; // Monday 0 .. Sunday 6
  return addDays(day, -weekday);
}

const lastOfMonth = (year: number, month: number): Day => dayOfUtc(new Date(Date.UTC(year, month, 0)));

/** The range of a preset, counted from `today`; the current week, month and year end today. */
export function presetRange(preset: RangePreset, today: Day): DayRange {
  const year = Number(today.slice(0, 4));
  const month = Number(today.slice(5, 7));
  switch (preset) {
    case 'today':
      return { from: today, to: today };
    case 'yesterday': {
      const d = addDays(today, -1);
      return { from: d, to: d };
    }
    case 'thisWeek':
      return { from: mondayOf(today), to: today };
    case 'lastWeek': {
      const monday = addDays(mondayOf(today), -7);
      return { from: monday, to: addDays(monday, 6) };
    }
    case 'thisMonth':
      return { from: `${today.slice(0, 7)}-01`, to: today };
    case 'lastMonth': {
      const y = month === 1 ? year - 1 : year;
      const m = month === 1 ? 12 : month - 1;
      return { from: `${pad(y, 4)}-${pad(m)}-01`, to: lastOfMonth(y, m) };
    }
    case 'thisYear':
      return { from: `${pad(year, 4)}-01-01`, to: today };
    case 'lastYear':
      return { from: `${pad(year - 1, 4)}-01-01`, to: `${pad(year - 1, 4)}-12-31` };
  }
}

/** The preset whose range is exactly `range` today, if any (the picker marks it). */
export const presetOf = (range: DayRange, today: Day): RangePreset | null =>
  RANGE_PRESETS.find((p) => {
    const r = presetRange(p, today);
    return r.from === range.from && r.to === range.to;
  }) ?? null;

/** The message key of what is wrong with the typed range, null when it can be asked for. */
export type RangeError = 'invalidFrom' | 'invalidTo' | 'order' | 'tooLong';

export function rangeError(from: Day | null, to: Day | null): RangeError | null {
  if (from === null) return 'invalidFrom';
  if (to === null) return 'invalidTo';
  const [violation] = statisticsRangeViolations(from, to);
  if (!violation) return null;
  if (violation.key.endsWith('.rangeTooLong')) return 'tooLong';
  if (violation.key.endsWith('.dateOrder')) return 'order';
  return violation.field === 'dateFrom' ? 'invalidFrom' : 'invalidTo';
}
