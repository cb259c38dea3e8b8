/**
 * Cron patterns of nodes and connections (spec 3 section 5: six or seven fields, seconds first, an optional
 * year last, month and weekday names allowed, Quartz style with `?`) turned into the cron strings of
 * Temporal Schedules (seven fields: second minute hour day-of-month month day-of-week year, Sunday = 0).
 * Quartz numbers weekdays 1..7 from Sunday; Temporal 0..6. The Quartz-only `L`, `W` and `#` have no
 * Temporal counterpart: such patterns are refused (null), so saving them is a validation error.
 */

const NUMERIC = /^[0-9*?/,-]+$/;
const MONTHS = /^(?:[0-9*/,-]|JAN|FEB|MAR|APR|MAY|JUN|JUL|AUG|SEP|OCT|NOV|DEC)+$/i;

/** Quartz weekday numbers (1 = Sunday) shifted to Temporal's (0 = Sunday); names pass unchanged. */
function weekday(field: string): string | null {
  const out: string[] = [];
  for (const part of field.split(',')) {
    const [range, step] = part.split('/');
    const ends = range.split('-').map((v) => {
      if (v === '*' || v === '?') return '*';
      if (/^\d+$/.test(v)) {
        const n = Number(v);
        return n >= 1 && n <= 7 ? String(n - 1) : null;
      }
      return /^[A-Za-z]{3}$/.test(v) ? v.toUpperCase() : null;
    });
    if (ends.some((e) => e === null)) return null;
    out.push(ends.join('-') + (step === undefined ? '' : `/${step}`));
  }
  return out.join(',');
}

/** The Temporal cron string of a pattern, or null when the pattern is not one we can schedule. */
export function temporalCron(pattern: string | null | undefined): string | null {
  const fields = (pattern ?? '').trim().split(/\s+/);
  if (fields.length !== 6 && fields.length !== 7) return null;
  const [sec, min, hour, dom, month, dow, year = '*'] = fields.map((f) => (f === '?' ? '*' : f));
  if (![sec, min, hour, dom, year].every((f) => NUMERIC.test(f)) || !MONTHS.test(month)) return null;
  const days = weekday(dow);
  if (days === null) return null;
  return [sec, min, hour, dom, month.toUpperCase(), days, year].join(' ');
}
