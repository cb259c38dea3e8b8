/**
 * The workspace's idle timer and work-time counter (spec 2 section 2: "an idle timer of 60000 ms; the
 * behaviour on expiry is not shown"). Decision: after 60 s without input (pointer, keyboard, wheel, touch,
 * scroll) the user is idle: the header says so and the work-time counter of the document pauses; any input
 * makes the user active again and the counter goes on. Nothing is released or signed out. Time is counted
 * only while active, so the counter is the basis of per-document work-time statistics later (the
 * activity-tracker websocket). Pure: the hook feeds it the clock.
 */

export const IDLE_TIMEOUT_MS = 60_000;

export interface WorkClock {
  /** Work time counted so far. */
  workedMs: number;
  /** When the last input happened. */
  lastInputAt: number;
  /** Up to when `workedMs` has been counted. */
  countedUntil: number;
}

export const startClock = (now: number, workedMs = 0): WorkClock => ({
  workedMs: Math.max(0, workedMs),
  lastInputAt: now,
  countedUntil: now,
});

export const isIdle = (c: WorkClock, now: number, timeoutMs = IDLE_TIMEOUT_MS): boolean =>
  now - c.lastInputAt >= timeoutMs;

/**
 * Counts the time since the last count, up to the moment the user went idle (the last input plus the
 * timeout): a minute without input still counts as reading, beyond it nothing does.
 */
export function tick(c: WorkClock, now: number, timeoutMs = IDLE_TIMEOUT_MS): WorkClock {
  const activeUntil = Math.min(now, c.lastInputAt + timeoutMs);
  const add = Math.max(0, activeUntil - c.countedUntil);
  return { ...c, workedMs: c.workedMs + add, countedUntil: Math.max(c.countedUntil, now) };
}

/** An input: counts what was active so far, then restarts the idle timeout. */
export function input(c: WorkClock, now: number, timeoutMs = IDLE_TIMEOUT_MS): WorkClock {
  return { ...tick(c, now, timeoutMs), lastInputAt: now };
}

/** mm:ss, or h:mm:ss from an hour on. */
export function formatDuration(ms: number): string {
  const total = Math.floor(Math.max(0, ms) / 1000);
  const h = Math.floor(total / 3600);
  const m = Math.floor((total % 3600) / 60);
  const s = total % 60;
  const pad = (n: number) => String(n).padStart(2, '0');
  return h > 0 ? `${h}:${pad(m)}:${pad(s)}` : `${pad(m)}:${pad(s)}`;
}

/**
 * A stretch of active work on one step, as `POST api/work-time` records it (issue 16 section 1): the
 * workspace reports the open stretch every REPORT_INTERVAL_MS and when it closes (idle, step change, leaving
 * the document, page hidden), with the same `clientId` each time, so the server keeps one growing row.
 */
export interface Stretch {
  clientId: string;
  stepId: number;
  start: number;
  end: number;
}

export const REPORT_INTERVAL_MS = 60_000;

/**
 * The stretch after a moment of the clock: an active user on a step extends the open stretch to `now` (or
 * opens one); going idle closes it at the moment activity ended (the last input plus the timeout); another
 * step, or none, closes it where it was and opens one on the new step. `closed` is the stretch to report
 * as ended (null when none ended).
 */
export function advanceStretch(
  open: Stretch | null,
  stepId: number | null,
  clock: WorkClock,
  now: number,
  newId: () => string,
  timeoutMs = IDLE_TIMEOUT_MS,
): { open: Stretch | null; closed: Stretch | null } {
  const idle = isIdle(clock, now, timeoutMs);
  if (open && (idle || stepId !== open.stepId)) {
    const end = idle ? Math.max(open.end, Math.min(now, clock.lastInputAt + timeoutMs)) : open.end;
    const closed = { ...open, end };
    if (idle || stepId === null) return { open: null, closed };
    return { open: { clientId: newId(), stepId, start: now, end: now }, closed };
  }
  if (idle || stepId === null) return { open: null, closed: null };
  if (open) return { open: { ...open, end: Math.max(open.end, now) }, closed: null };
  return { open: { clientId: newId(), stepId, start: now, end: now }, closed: null };
}

/** Whether a stretch is worth sending (the server refuses an empty one). */
export const reportable = (s: Stretch | null): s is Stretch => !!s && s.end > s.start;
