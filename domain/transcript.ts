/**
 * Building a transcript (utterances of tokens) from the words a speech recognizer returns, and the rules of
 * its shape that every layer shares: timestamps in integer milliseconds, punctuation attached to the
 * preceding token, a new utterance after a pause, utterances kept as a linked list (prevId/nextId), times
 * within 48 hours.
 * Pure: used by the parser activities, and safe in the workflow sandbox and the browser.
 */

/** The speaker of a recording without diarization (spec 2 section 3: actor codes SPEAKER1..n). */
export const DEFAULT_ACTOR = 'SPEAKER1';

/** A silence at least this long between two words starts a new utterance. */
export const DEFAULT_PAUSE_MS = 700;

/** An utterance is cut after this many tokens even without a pause, so the editor never gets a wall of text. */
export const DEFAULT_MAX_TOKENS = 80;

export interface TokenHint {
  value: string;
  confidence: number | null;
}

/** One word as a recognizer returns it (times in milliseconds, possibly fractional). */
export interface RecognizedWord {
  value: string;
  startMs: number;
  endMs: number;
  /** 0..1 where the recognizer gives one. */
  confidence?: number | null;
  /** Alternatives the recognizer considered for this word, best first. */
  hints?: TokenHint[];
  /** The recognizer's own segmentation says a new utterance starts here (optional). */
  breakBefore?: boolean;
}

export interface TranscriptToken {
  value: string;
  tsStart: number;
  tsEnd: number;
  confidence: number | null;
  hints: TokenHint[];
}

export interface TranscriptUtterance {
  actor: string;
  tokens: TranscriptToken[];
}

export interface BuildOptions {
  actor?: string;
  pauseMs?: number;
  maxTokens?: number;
}

/** Punctuation only (. , ? ! ; : quotes, dashes, ellipsis): such a token joins the one before it. */
export function isPunctuation(value: string): boolean {
  return /^\p{P}+$/u.test(value);
}

/**
 * The longest recording a transcript may describe: 48 hours in milliseconds. Every timestamp lies in
 * 0..MAX_TRANSCRIPT_MS, which also keeps it inside the integer columns that store it.
 */
export const MAX_TRANSCRIPT_MS = 48 * 60 * 60 * 1000;

/** The rule of a token's times: finite milliseconds in 0..MAX_TRANSCRIPT_MS, the end not before the start. */
export function tokenTimesProblem(tsStart: number, tsEnd: number): string | null {
  for (const [name, v] of [
    ['tsStart', tsStart],
    ['tsEnd', tsEnd],
  ] as const) {
    if (!Number.isFinite(v) || v < 0 || v > MAX_TRANSCRIPT_MS)
      return `${name} must be a number of milliseconds from 0 to ${MAX_TRANSCRIPT_MS} (48 hours)`;
  }
  if (tsEnd < tsStart) return 'tsEnd must not be before tsStart';
  return null;
}

const ms = (v: number): number => Math.min(MAX_TRANSCRIPT_MS, Math.max(0, Math.round(v)));

/** Confidence clamped to 0..1 (null when the recognizer gives none or something unusable). */
export function normalizeConfidence(c: number | null | undefined): number | null {
  if (c === null || c === undefined || !Number.isFinite(c)) return null;
  return Math.min(1, Math.max(0, c));
}

/**
 * Groups recognized words into utterances: words are trimmed (empty ones dropped), sorted by start time,
 * punctuation-only words are appended to the preceding token (extending its end), and a new utterance
 * starts after a pause of at least `pauseMs`, where the recognizer marks a break, or after `maxTokens`.
 */
export function buildUtterances(words: RecognizedWord[], opts: BuildOptions = {}): TranscriptUtterance[] {
  const actor = opts.actor ?? DEFAULT_ACTOR;
  const pauseMs = opts.pauseMs ?? DEFAULT_PAUSE_MS;
  const maxTokens = opts.maxTokens ?? DEFAULT_MAX_TOKENS;
  const sorted = words
    .map((w, i) => ({ w, i, value: w.value.trim() }))
    .filter((x) => x.value.length > 0)
    .sort((a, b) => a.w.startMs - b.w.startMs || a.i - b.i);

  const utterances: TranscriptUtterance[] = [];
  let current: TranscriptUtterance | null = null;
  let last: TranscriptToken | null = null;
  for (const { w, value } of sorted) {
    const tsStart = ms(w.startMs);
    const tsEnd = Math.max(tsStart, ms(w.endMs));
    if (last && isPunctuation(value)) {
      last.value += value;
      last.tsEnd = Math.max(last.tsEnd, tsEnd);
      continue;
    }
    const pause = last ? tsStart - last.tsEnd : 0;
    if (!current || w.breakBefore || pause >= pauseMs || current.tokens.length >= maxTokens) {
      current = { actor, tokens: [] };
      utterances.push(current);
    }
    last = {
      value,
      tsStart,
      tsEnd,
      confidence: normalizeConfidence(w.confidence),
      hints: (w.hints ?? [])
        .filter((h) => h.value.trim() && h.value.trim() !== value)
        .map((h) => ({ value: h.value.trim(), confidence: normalizeConfidence(h.confidence) })),
    };
    current.tokens.push(last);
  }
  return utterances;
}

/** prevId/nextId for utterances in order, given their ids: the list the utterance editor walks. */
export function linkUtterances(
  ids: number[],
): { id: number; prevId: number | null; nextId: number | null }[] {
  return ids.map((id, i) => ({
    id,
    prevId: i > 0 ? ids[i - 1] : null,
    nextId: i < ids.length - 1 ? ids[i + 1] : null,
  }));
}

/** Plain text of a transcript: one line per utterance, tokens joined by spaces. */
export function transcriptText(utterances: { tokens: { value: string }[] }[]): string {
  return utterances.map((u) => u.tokens.map((t) => t.value).join(' ')).join('\n');
}
