/**
 * A text range named on the workspace address (`?start={offset}&end={offset}`, UTF-16 offsets into the
 * document text, end exclusive), as the RAG screen's matched chunks link to it: the text workspace scrolls to
 * the range and highlights it. Pure: parsing and building the parameters.
 */
import type { OffsetRange } from './hooks/useAnchorHighlight';

/** The range the address names, or null when it names none or a malformed one (not a whole, ordered pair). */
export function rangeFromSearch(params: URLSearchParams): OffsetRange | null {
  const start = offsetOf(params.get('start'));
  const end = offsetOf(params.get('end'));
  if (start === null || end === null || end <= start) return null;
  return { start, end };
}

/** `?start=&end=` for a link to the range. */
export const rangeSearch = (range: OffsetRange): string =>
  `?${new URLSearchParams({ start: String(range.start), end: String(range.end) }).toString()}`;

/** The part of a range inside a text of `length` characters (null when none of it is). */
export function clampRange(range: OffsetRange | null, length: number): OffsetRange | null {
  if (!range) return null;
  const start = Math.min(range.start, length);
  const end = Math.min(range.end, length);
  return end > start ? { start, end } : null;
}

function offsetOf(raw: string | null): number | null {
  if (raw === null || !/^\d{1,9}$/.test(raw)) return null;
  return Number(raw);
}
