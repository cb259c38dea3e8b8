/**
 * The text side of the step-result export (domain/export.ts; issue 25 finding 1): a document's text walked once,
 * piece by piece, with its tags sorted once, so that an export takes time linear in the text and the tags and
 * holds one piece of the text at a time whatever the document's size.
 *
 * - `textPieces`: a text cut into pieces of at most TEXT_PIECE UTF-16 units, never inside a surrogate pair.
 * - `ConllWriter`: the CoNLL-2003 block of a document, fed the pieces in order. Tokenisation (as `tokenize`): a
 *   token is a maximal run of letters, marks and digits, or any other single non-space character; whitespace
 *   separates tokens and a line break ends a sentence (a blank line). A run that reaches the end of a piece is
 *   written as it comes and its tag is written when the next piece shows where it ends, so a piece's lines
 *   never wait for the whole text. Each token line is `token _ _ TAG`.
 * - `BioTagger`: BIO of tokens fed in order against spans sorted by start (the longer one first at the same
 *   start): a token takes the first span in that order that overlaps it, `B-` when no earlier token overlaps
 *   that span, else `I-`; spaces of a label become `_`. The first overlapping span is the first one admitted
 *   (start before the token's end) that has not expired (end after the token's start); an expired span stays
 *   expired for every later token, so one pointer admits and one skips: O(tokens + spans), where the old
 *   per-span walk over every token was O(tokens x spans).
 * - `TagTexts`: the texts of tags (UTF-16 offsets) collected during the same walk.
 */

/** UTF-16 units of text handled between two chances of the caller to yield. */
export const TEXT_PIECE = 1 << 16;

export interface Token {
  text: string;
  start: number;
  end: number;
}

export interface Span {
  start: number;
  end: number;
  label: string;
}

const TOKEN = /[\p{L}\p{M}\p{N}]+|[^\s\p{L}\p{M}\p{N}]|\n/gu;
const RUN = /^[\p{L}\p{M}\p{N}]/u;

/** Tokens of the text; `\n` entries mark line breaks (sentence ends). */
export function tokenize(text: string): Token[] {
  return [...text.matchAll(TOKEN)].map((m) => ({ text: m[0], start: m.index, end: m.index + m[0].length }));
}

const isHighSurrogate = (code: number) => code >= 0xd800 && code <= 0xdbff;
const isLowSurrogate = (code: number) => code >= 0xdc00 && code <= 0xdfff;

/** The text in pieces of at most `size` UTF-16 units (one more to keep a surrogate pair whole). */
export function* textPieces(text: string, size = TEXT_PIECE): Generator<string> {
  for (let at = 0; at < text.length;) {
    let end = Math.min(text.length, at + size);
    if (
      end < text.length &&
      isHighSurrogate(text.charCodeAt(end - 1)) &&
      isLowSurrogate(text.charCodeAt(end))
    )
      end++;
    yield text.slice(at, end);
    at = end;
  }
}

const conllLabel = (label: string) => label.trim().replace(/\s+/g, '_');

/** Spans in BIO order: by start, the longer first at the same start, else as given. */
export const bioOrder = <S extends Span>(spans: S[]): S[] =>
  [...spans].sort((a, b) => a.start - b.start || b.end - a.end);

/** BIO tags of tokens fed in order (line breaks not fed), in one pass over spans in `bioOrder`. */
export class BioTagger {
  private admitted = 0;
  private head = 0;
  private prevEnd = -Infinity;

  constructor(private readonly spans: Span[]) {}

  tag(start: number, end: number): string {
    const spans = this.spans;
    while (this.admitted < spans.length && spans[this.admitted].start < end) this.admitted++;
    while (this.head < this.admitted && spans[this.head].end <= start) this.head++;
    const prevEnd = this.prevEnd;
    this.prevEnd = end;
    if (this.head === this.admitted) return 'O';
    const owner = spans[this.head];
    // the tokens overlapping a span are consecutive: an earlier one overlaps it when the previous one does
    return `${prevEnd > owner.start ? 'I' : 'B'}-${conllLabel(owner.label)}`;
  }
}

/** BIO tags of the tokens (line-break tokens excluded) for the spans. */
export function bioTags(tokens: Token[], spans: Span[]): string[] {
  const tagger = new BioTagger(bioOrder(spans));
  return tokens.map((t) => (t.text === '\n' ? 'O' : tagger.tag(t.start, t.end)));
}

/** The first lines of a document's CoNLL block. */
export const conllHead = (documentId: number, filename: string): string =>
  `-DOCSTART- -X- -X- O\n# document ${documentId} ${filename.replace(/\s+/g, ' ')}\n\n`;

/** A document's CoNLL token lines, piece by piece of its text (pieces in order, none splitting a pair). */
export class ConllWriter {
  private offset = 0;
  /** start of a letter run that reached the end of the last piece (its text is written, its tag is not) */
  private runStart: number | null = null;
  /** the current sentence has a token */
  private open = false;
  private readonly tagger: BioTagger;

  constructor(spans: Span[]) {
    this.tagger = new BioTagger(bioOrder(spans));
  }

  /** The lines of the next piece of the text. */
  write(piece: string): string {
    if (!piece) return '';
    const out: string[] = [];
    const base = this.offset;
    const pieceEnd = base + piece.length;
    this.offset = pieceEnd;
    if (this.runStart !== null && !RUN.test(piece)) out.push(this.closeRun(base));
    for (const m of piece.matchAll(TOKEN)) {
      const text = m[0];
      const start = base + m.index;
      const end = start + text.length;
      if (this.runStart !== null) {
        // the run of the last piece goes on (the check above closed it otherwise)
        out.push(text);
        if (end < pieceEnd) out.push(this.closeRun(end));
        continue;
      }
      if (text === '\n') {
        if (this.open) out.push('\n');
        this.open = false;
        continue;
      }
      this.open = true;
      if (end === pieceEnd && RUN.test(text)) {
        this.runStart = start;
        out.push(text);
      } else out.push(`${text} _ _ ${this.tagger.tag(start, end)}\n`);
    }
    return out.join('');
  }

  /** The end of the block: the last token's tag and the last sentence's blank line. */
  end(): string {
    const run = this.runStart !== null ? this.closeRun(this.offset) : '';
    const close = this.open ? '\n' : '';
    this.open = false;
    return run + close;
  }

  private closeRun(end: number): string {
    const start = this.runStart!;
    this.runStart = null;
    return ` _ _ ${this.tagger.tag(start, end)}\n`;
  }
}

/** One document's CoNLL-2003 block from its whole text. */
export function conllBlock(documentId: number, filename: string, content: string, spans: Span[]): string {
  const writer = new ConllWriter(spans);
  const parts = [conllHead(documentId, filename)];
  for (const piece of textPieces(content)) parts.push(writer.write(piece));
  parts.push(writer.end());
  return parts.join('');
}

/**
 * The texts of tags with offsets, collected from the pieces of the text in order: the tags sorted by start
 * once, each piece slices the tags it overlaps and lets go of those that end in it.
 */
export class TagTexts {
  private readonly order: number[];
  private readonly texts: string[];
  private admitted = 0;
  private active: number[] = [];
  private offset = 0;

  constructor(private readonly tags: { start: number; end: number }[]) {
    this.order = tags.map((_, i) => i).sort((a, b) => tags[a].start - tags[b].start || a - b);
    this.texts = tags.map(() => '');
  }

  write(piece: string): void {
    const base = this.offset;
    const pieceEnd = base + piece.length;
    this.offset = pieceEnd;
    while (this.admitted < this.order.length && this.tags[this.order[this.admitted]].start < pieceEnd)
      this.active.push(this.order[this.admitted++]);
    const still: number[] = [];
    for (const i of this.active) {
      const { start, end } = this.tags[i];
      if (end > base && end > start) this.texts[i] += piece.slice(Math.max(0, start - base), end - base);
      if (end > pieceEnd) still.push(i);
    }
    this.active = still;
  }

  /** The texts, in the order of the tags given. */
  result(): string[] {
    return this.texts;
  }
}

/**
 * Spans back from a CoNLL block and the document's text (the round trip): tokens are found in the text in
 * order, consecutive `I-` tokens of the same label extend the span a `B-` token starts.
 */
export function spansFromConll(content: string, block: string): Span[] {
  const spans: Span[] = [];
  let at = 0;
  let current: Span | null = null;
  for (const line of block.split('\n')) {
    if (!line || line.startsWith('-DOCSTART-') || line.startsWith('# document ')) continue;
    const parts = line.split(' ');
    const token = parts.slice(0, -3).join(' ');
    const tag = parts[parts.length - 1];
    const start = content.indexOf(token, at);
    if (start < 0) throw new Error(`token ${token} not in the text after ${at}`);
    const end = start + token.length;
    at = end;
    if (tag.startsWith('B-') || (tag.startsWith('I-') && current?.label !== tag.slice(2))) {
      current = { start, end, label: tag.slice(2) };
      spans.push(current);
    } else if (tag.startsWith('I-') && current) current.end = end;
    else current = null;
  }
  return spans;
}
