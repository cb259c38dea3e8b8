/**
 * The timestamp editor's rules (spec 2 sections 5 and 9): times shown and typed as mm:ss:cc (minutes,
 * seconds, centiseconds), at most 8 characters; invalid input is marked and reverts on blur; a segment's
 * start stays below its end; the +/- buttons step 0.01 s and, held, repeat after 300 ms, each repeat
 * 20 ms sooner, down to every 30 ms. Pure: the component (components/TimestampInput.tsx) only wires them.
 * Decision: a recording of 100 minutes or more needs a third minute digit, so the length limit is 8 or the
 * length of the recording's own end time, whichever is longer.
 */

export const TIMESTAMP_MAX_LENGTH = 8;
export const TIMESTAMP_STEP_S = 0.01;
export const REPEAT_FIRST_DELAY_MS = 300;
export const REPEAT_DELAY_DECREMENT_MS = 20;
export const REPEAT_MIN_DELAY_MS = 30;
/** Default clicked-segment window (spec 2 section 9): a token plays with 0.5 s either side. */
export const SEGMENT_WINDOW_S = 0.5;

const TIMESTAMP = /^(\d{1,3}):([0-5]\d):(\d\d)$/;

/** Seconds rounded to centiseconds (tag times are kept to 2 decimals). */
export const roundCentis = (seconds: number): number => Math.round(seconds * 100) / 100;

/** mm:ss:cc of a time in seconds (negative shown as 0). */
export function formatTimestamp(seconds: number): string {
  const centis = Math.max(0, Math.round(seconds * 100));
  const two = (n: number) => String(n).padStart(2, '0');
  return `${two(Math.floor(centis / 6000))}:${two(Math.floor(centis / 100) % 60)}:${two(centis % 100)}`;
}

/** The length limit of the input for a recording of `durationS` seconds. */
export const timestampMaxLength = (durationS = 0): number =>
  Math.max(TIMESTAMP_MAX_LENGTH, formatTimestamp(durationS).length);

/** Seconds of a typed mm:ss:cc, or null when it is not one. */
export function parseTimestamp(text: string, maxLength = TIMESTAMP_MAX_LENGTH): number | null {
  const s = text.trim();
  if (s.length > maxLength) return null;
  const m = TIMESTAMP.exec(s);
  if (!m) return null;
  return Number(m[1]) * 60 + Number(m[2]) + Number(m[3]) / 100;
}

export interface TimeBounds {
  /** Inclusive lower bound (seconds). */
  min?: number;
  /** Inclusive upper bound (seconds). */
  max?: number;
}

export const withinBounds = (seconds: number, { min, max }: TimeBounds): boolean =>
  (min === undefined || seconds >= min - 1e-9) && (max === undefined || seconds <= max + 1e-9);

/** One button step (direction +1 or -1) of 0.01 s, kept within the bounds. */
export function stepTimestamp(seconds: number, direction: 1 | -1, bounds: TimeBounds = {}): number {
  let next = roundCentis(seconds + direction * TIMESTAMP_STEP_S);
  if (bounds.min !== undefined) next = Math.max(next, roundCentis(bounds.min));
  if (bounds.max !== undefined) next = Math.min(next, roundCentis(bounds.max));
  return next;
}

/** The delay before the n-th repeat (0-based) of a held button: 300, 280, 260, ... ms, never below 30. */
export const repeatDelay = (n: number): number =>
  Math.max(REPEAT_MIN_DELAY_MS, REPEAT_FIRST_DELAY_MS - REPEAT_DELAY_DECREMENT_MS * n);

/** The bounds of a segment's start and end: the start ends 0.01 s before the end, and the other way round. */
export function segmentBounds(
  start: number,
  end: number,
  durationS?: number,
): { start: TimeBounds; end: TimeBounds } {
  return {
    start: { min: 0, max: roundCentis(end - TIMESTAMP_STEP_S) },
    end: { min: roundCentis(start + TIMESTAMP_STEP_S), max: durationS },
  };
}

/** The clicked-segment window of a token's times (ms) in seconds, clamped at 0 and at the duration. */
export function segmentWindow(
  tsStartMs: number,
  tsEndMs: number,
  durationS = Number.POSITIVE_INFINITY,
): { start: number; end: number } {
  return {
    start: Math.max(0, tsStartMs / 1000 - SEGMENT_WINDOW_S),
    end: Math.min(durationS, tsEndMs / 1000 + SEGMENT_WINDOW_S),
  };
}
