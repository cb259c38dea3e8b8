/**
 * 'Show hidden tokens' for a text document: the characters a reader cannot see (tabs, line breaks,
 * non-breaking and zero-width spaces, other control characters) are given a visible mark, so an annotator
 * finds what the parser left in the text. The text itself is unchanged: a mark is shown beside its character.
 */

export interface TextSegment {
  text: string;
  /** The visible mark of a hidden character; absent for ordinary text. */
  mark?: string;
}

const MARKS: Record<string, string> = {
  '\t': '→',
  '\n': '¶',
  '\r': '␍',
  '\u00a0': '°',
  '\u200b': '·',
  '\u200c': '·',
  '\u200d': '·',
  '\u2060': '·',
  '\ufeff': '·',
};

// eslint-disable-next-line no-control-regex
const HIDDEN = /[\t\n\r\u00a0\u200b-\u200d\u2060\ufeff\u0000-\u0008\u000b\u000c\u000e-\u001f\u007f]/;

/** The text cut into ordinary runs and single hidden characters with their marks. */
export function segmentHidden(text: string): TextSegment[] {
  const out: TextSegment[] = [];
  let run = '';
  for (const ch of text) {
    if (HIDDEN.test(ch)) {
      if (run) out.push({ text: run });
      run = '';
      out.push({ text: ch, mark: MARKS[ch] ?? '¤' });
    } else run += ch;
  }
  if (run) out.push({ text: run });
  return out;
}

export interface OffsetPiece {
  start: number;
  end: number;
  mark?: string;
}

/**
 * `text[start, end)` cut like segmentHidden, as offsets into `text` (the labelling view draws each piece as
 * a span of its own, so the offsets of the text and of its tags stay those of the text).
 */
export function hiddenPieces(text: string, start: number, end: number): OffsetPiece[] {
  const out: OffsetPiece[] = [];
  let at = start;
  for (const s of segmentHidden(text.slice(start, end))) {
    out.push(
      s.mark ? { start: at, end: at + s.text.length, mark: s.mark } : { start: at, end: at + s.text.length },
    );
    at += s.text.length;
  }
  return out;
}
