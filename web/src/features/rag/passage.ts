/**
 * What the matched-documents panel shows of a chunk: a chunk is several paragraphs, so the panel starts its
 * excerpt near the place where most of the query's words meet (not at the chunk's first line) and marks those
 * words. Pure.
 */

export interface PassagePart {
  text: string;
  mark: boolean;
}

/** How far a cluster of query words may spread, and how much text is kept before it. */
const WINDOW = 200;
const LEAD = 60;
const escape = (s: string) => s.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');

/** The query's words worth marking: 4 letters or more (no "the", "who"), lower-cased, without repeats. */
export function queryTerms(query: string): string[] {
  const words = query.toLowerCase().match(/[\p{L}\p{N}]{4,}/gu) ?? [];
  return [...new Set(words)];
}

/** The chunk's text from its densest cluster of query words (its paragraph's start when near), split into marked and plain parts. */
export function passageParts(text: string, terms: readonly string[]): PassagePart[] {
  if (!terms.length) return [{ text, mark: false }];
  const re = new RegExp(`(?<![\\p{L}\\p{N}])(${terms.map(escape).join('|')})(?![\\p{L}\\p{N}])`, 'giu');
  const hits = [...text.matchAll(re)].map((m) => ({ at: m.index, term: m[0].toLowerCase() }));
  if (!hits.length) return [{ text, mark: false }];

  let best = hits[0].at;
  let bestCount = 0;
  for (const h of hits) {
    const distinct = new Set(hits.filter((o) => o.at >= h.at && o.at < h.at + WINDOW).map((o) => o.term));
    if (distinct.size > bestCount) {
      best = h.at;
      bestCount = distinct.size;
    }
  }
  // From the start of the cluster's paragraph when that is near, else from a word a little before it.
  const paragraph = text.lastIndexOf('\n', best) + 1;
  let start = paragraph;
  if (best - paragraph > LEAD) {
    const space = text.indexOf(' ', best - LEAD);
    start = space >= 0 && space < best ? space + 1 : best;
  }
  const shown = text.slice(start);
  const parts: PassagePart[] = start > 0 ? [{ text: '… ', mark: false }] : [];
  let at = 0;
  for (const m of shown.matchAll(re)) {
    if (m.index > at) parts.push({ text: shown.slice(at, m.index), mark: false });
    parts.push({ text: m[0], mark: true });
    at = m.index + m[0].length;
  }
  if (at < shown.length) parts.push({ text: shown.slice(at), mark: false });
  return parts;
}
