/**
 * The text splitters of RAG (issue 16 section 3): a document's text cut into chunks whose offsets slice the
 * text exactly (`text.slice(startOffset, endOffset) === chunk.text`, UTF-16, end exclusive), with no
 * leading or trailing whitespace. Every splitter is linear in the text and yields chunk by chunk, so the
 * caller can give the event loop back between pieces of a large text.
 *
 * - PARAGRAPH (the default, also for a process with no splitter chosen): paragraphs are separated by a blank
 *   line; consecutive paragraphs are packed into one chunk while it stays within 1000 characters; a longer
 *   paragraph is cut at sentence ends (else between words, else hard) into pieces of 500..1000 characters.
 * - SENTENCE: sentences (ending in . ! ? or a line break) packed up to 400 characters, never across a
 *   paragraph; a longer sentence is cut like a long paragraph.
 * - FIXED_WINDOW: windows of about 800 characters overlapping by about 200, cut between words.
 */

export const SplitterKinds = ['PARAGRAPH', 'SENTENCE', 'FIXED_WINDOW'] as const;
export type SplitterKind = (typeof SplitterKinds)[number];

export const PARAGRAPH_MAX_CHARS = 1000;
export const SENTENCE_MAX_CHARS = 400;
export const WINDOW_CHARS = 800;
export const WINDOW_OVERLAP_CHARS = 200;

export interface TextChunk {
  ordinal: number;
  startOffset: number;
  endOffset: number;
  text: string;
  /** Words (runs of non-space characters): BM25's length of the chunk. */
  tokenLength: number;
}

export const splitterKindOf = (kind: string | null | undefined): SplitterKind =>
  (SplitterKinds as readonly string[]).includes(kind ?? '') ? (kind as SplitterKind) : 'PARAGRAPH';

const isSpace = (c: number) =>
  c === 32 || c === 9 || c === 10 || c === 13 || c === 12 || c === 11 || c === 160;

/** [start, end) without the whitespace at both ends; null when nothing remains. */
function trimmed(text: string, start: number, end: number): [number, number] | null {
  while (start < end && isSpace(text.charCodeAt(start))) start++;
  while (end > start && isSpace(text.charCodeAt(end - 1))) end--;
  return start < end ? [start, end] : null;
}

export function countWords(text: string, start = 0, end = text.length): number {
  let n = 0;
  let inWord = false;
  for (let i = start; i < end; i++) {
    const space = isSpace(text.charCodeAt(i));
    if (!space && !inWord) n++;
    inWord = !space;
  }
  return n;
}

/** Spans of the text between the separators matched by `sep` (global), trimmed, empty ones dropped. */
function* unitsBetween(text: string, start: number, end: number, sep: RegExp): Generator<[number, number]> {
  sep.lastIndex = start;
  let from = start;
  for (;;) {
    const m = sep.exec(text);
    const to = m && m.index < end ? m.index : end;
    const span = trimmed(text, from, to);
    if (span) yield span;
    if (!m || m.index >= end) return;
    from = m.index + m[0].length;
    if (m[0].length === 0) sep.lastIndex++;
  }
}

const PARAGRAPH_SEP = /\n[ \t\r\f\v]*\n\s*/g;
/** The end of a sentence: its punctuation stays with it, the following space goes. */
const SENTENCE_SEP = /(?<=[.!?])\s+|\n\s*/g;

/**
 * The place to cut [start, ...) at most `max` characters on: the last sentence end in its second half,
 * else the last space there, else `start + max` (looks back at most max/2 characters: linear overall).
 */
function cutPoint(text: string, start: number, end: number, max: number): number {
  if (end - start <= max) return end;
  const limit = start + max;
  const floor = start + Math.floor(max / 2);
  let space = -1;
  for (let i = limit; i > floor; i--) {
    const c = text.charCodeAt(i);
    if (isSpace(c)) {
      const p = text.charCodeAt(i - 1);
      if (p === 46 || p === 33 || p === 63) return i; // . ! ?
      if (space < 0) space = i;
    }
  }
  return space > 0 ? space : limit;
}

/** Pieces of at most `max` characters of one long unit. */
function* piecesOf(text: string, start: number, end: number, max: number): Generator<[number, number]> {
  let from = start;
  while (from < end) {
    const to = cutPoint(text, from, end, max);
    const span = trimmed(text, from, to);
    if (span) yield span;
    from = to;
  }
}

/** Consecutive units packed into spans of at most `max` characters (a longer unit alone, cut in pieces). */
function* packed(units: Iterable<[number, number]>, text: string, max: number): Generator<[number, number]> {
  let open: [number, number] | null = null;
  for (const [s, e] of units) {
    if (open && e - open[0] <= max) {
      open[1] = e;
      continue;
    }
    if (open) yield open;
    open = null;
    if (e - s <= max) open = [s, e];
    else yield* piecesOf(text, s, e, max);
  }
  if (open) yield open;
}

function* sentenceUnits(text: string): Generator<[number, number]> {
  for (const [ps, pe] of unitsBetween(text, 0, text.length, PARAGRAPH_SEP))
    // Packing never reaches across a paragraph: each paragraph's sentences are packed apart.
    yield* packed(unitsBetween(text, ps, pe, SENTENCE_SEP), text, SENTENCE_MAX_CHARS);
}

function* windows(text: string): Generator<[number, number]> {
  const all = trimmed(text, 0, text.length);
  if (!all) return;
  let from = all[0];
  const end = all[1];
  while (from < end) {
    const to = cutPoint(text, from, end, WINDOW_CHARS);
    const span = trimmed(text, from, to);
    if (span) yield span;
    if (to >= end) return;
    // The next window starts about WINDOW_OVERLAP_CHARS back, at a word start, and always moves forward.
    let next = Math.max(to - WINDOW_OVERLAP_CHARS, from + 1);
    while (next < to && !isSpace(text.charCodeAt(next - 1))) next++;
    from = next;
  }
}

function spans(text: string, kind: SplitterKind): Iterable<[number, number]> {
  switch (kind) {
    case 'SENTENCE':
      return sentenceUnits(text);
    case 'FIXED_WINDOW':
      return windows(text);
    default:
      return packed(unitsBetween(text, 0, text.length, PARAGRAPH_SEP), text, PARAGRAPH_MAX_CHARS);
  }
}

/** The chunks of the text, in order (ordinal from 0). */
export function* splitText(text: string, kind: SplitterKind = 'PARAGRAPH'): Generator<TextChunk> {
  let ordinal = 0;
  for (const [startOffset, endOffset] of spans(text, kind))
    yield {
      ordinal: ordinal++,
      startOffset,
      endOffset,
      text: text.slice(startOffset, endOffset),
      tokenLength: countWords(text, startOffset, endOffset),
    };
}
