/**
 * Cron patterns of nodes and connections (spec 3 section 5: six or seven fields, seconds first, an optional
 * year last, month and weekday names allowed, Quartz style with `?`) turned into the cron strings of
 * Temporal Schedules (seven fields: second minute hour day-of-month month day-of-week year, Sunday = 0).
 * Quartz numbers weekdays 1..7 from Sunday; Temporal 0..6. The Quartz-only `L`, `W` and `#` have no
 * Temporal counterpart: such patterns are refused (null), so saving them is a validation error.
 *
 * Every field is parsed, not pattern-matched (issue 9): a list of `*`, `n`, `a-b`, each optionally `/step`
 * (`n/step` runs from n to the field's maximum), with each number inside the field's range (second and
 * minute 0-59, hour 0-23, day of month 1-31, month 1-12 or JAN-DEC, weekday 1-7 or SUN-SAT, year
 * 1970-2099, Quartz's range and inside Temporal's), ranges not reversed and steps 1 up to the field's span;
 * `?` only as a whole day-of-month or weekday field. So `99 99 99 99 99 ?` is refused when it is saved
 * instead of failing in the schedule later. A pattern longer than CRON_MAX_LENGTH is refused unparsed.
 *
 * In the workflow bundle (imported through domain/nodes.ts; no workflow decision depends on it): keep it free
 * of I/O, clocks and randomness, and a change that would reach a workflow decision follows the `patched()` rule
 * of domain/steps.ts.
 */

export const CRON_MAX_LENGTH = 255;

interface FieldSpec {
  min: number;
  max: number;
  names?: readonly string[];
  /** `?` allowed as the whole field. */
  question?: boolean;
}

const MONTH_NAMES = ['JAN', 'FEB', 'MAR', 'APR', 'MAY', 'JUN', 'JUL', 'AUG', 'SEP', 'OCT', 'NOV', 'DEC'];
const DAY_NAMES = ['SUN', 'MON', 'TUE', 'WED', 'THU', 'FRI', 'SAT'];

const FIELDS: readonly FieldSpec[] = [
  { min: 0, max: 59 },
  { min: 0, max: 59 },
  { min: 0, max: 23 },
  { min: 1, max: 31, question: true },
  { min: 1, max: 12, names: MONTH_NAMES },
  { min: 1, max: 7, names: DAY_NAMES, question: true },
  { min: 1970, max: 2099 },
];
const WEEKDAY = 5;

const DIGITS = /^\d{1,4}$/;

/** A value of the field as [its number, its text in the Temporal pattern], or null. */
function value(text: string, spec: FieldSpec, weekday: boolean): [number, string] | null {
  if (DIGITS.test(text)) {
    const n = Number(text);
    if (n < spec.min || n > spec.max) return null;
    return [n, weekday ? String(n - 1) : String(n)];
  }
  const index = spec.names?.indexOf(text.toUpperCase()) ?? -1;
  return index < 0 ? null : [index + spec.min, text.toUpperCase()];
}

/** One field in Temporal's syntax, or null when it is not a valid field. */
function field(text: string, spec: FieldSpec, weekday: boolean): string | null {
  if (text === '?') return spec.question ? '*' : null;
  const out: string[] = [];
  for (const part of text.split(',')) {
    const slash = part.split('/');
    if (slash.length > 2) return null;
    const [range, step] = slash;
    let converted: string;
    if (range === '*') converted = '*';
    else {
      const ends = range.split('-');
      if (ends.length > 2) return null;
      const values = ends.map((e) => value(e, spec, weekday));
      if (values.some((v) => v === null)) return null;
      const [from, to] = values as [number, string][];
      if (to && to[0] < from[0]) return null;
      converted = values.map((v) => v![1]).join('-');
    }
    if (step !== undefined) {
      if (!DIGITS.test(step)) return null;
      const n = Number(step);
      if (n < 1 || n > spec.max - spec.min + 1) return null;
      converted += `/${n}`;
    }
    out.push(converted);
  }
  return out.join(',');
}

/** The Temporal cron string of a pattern, or null when the pattern is not one we can schedule. */
export function temporalCron(pattern: string | null | undefined): string | null {
  const text = (pattern ?? '').trim();
  if (text.length === 0 || text.length > CRON_MAX_LENGTH) return null;
  const fields = text.split(/\s+/);
  if (fields.length !== 6 && fields.length !== 7) return null;
  if (fields.length === 6) fields.push('*');
  const out: string[] = [];
  for (let i = 0; i < fields.length; i++) {
    const converted = field(fields[i], FIELDS[i], i === WEEKDAY);
    if (converted === null) return null;
    out.push(converted);
  }
  return out.join(' ');
}
