import {
  ConllWriter,
  TagTexts,
  TEXT_PIECE,
  bioTags,
  conllBlock,
  conllHead,
  textPieces,
  tokenize,
  type Span,
  type Token,
} from './export-conll';

/** The BIO tagging as it was before issue 25 (every token walked once per span): the reference output. */
function bioTagsByWalk(tokens: Token[], spans: Span[]): string[] {
  const ordered = [...spans].sort((a, b) => a.start - b.start || b.end - a.end);
  const tags = tokens.map(() => 'O');
  for (const s of ordered) {
    let first = true;
    tokens.forEach((t, i) => {
      if (t.text === '\n' || t.end <= s.start || t.start >= s.end) return;
      if (tags[i] === 'O') tags[i] = `${first ? 'B' : 'I'}-${s.label.trim().replace(/\s+/g, '_')}`;
      first = false;
    });
  }
  return tags;
}

/** A small deterministic generator (no Math.random: a failure must replay). */
function lcg(seed: number) {
  let x = seed;
  return (n: number) => {
    x = (x * 1103515245 + 12345) % 2147483648;
    return x % n;
  };
}

const WORDS = ['Jan', 'Kraków', 'e\u0301te', '42', 'a', ',', '.', '😀', 'x😀y', '\n', ' ', '  ', 'ACME', '-'];

function randomDocument(seed: number, size: number) {
  const next = lcg(seed);
  let text = '';
  while (text.length < size) text += WORDS[next(WORDS.length)] + (next(3) ? ' ' : '');
  const spans: Span[] = [];
  for (let i = 0; i < 1 + next(12); i++) {
    const start = next(text.length + 1);
    spans.push({
      start,
      end: Math.min(text.length, start + next(15)),
      label: ['PER', 'LOC', 'big org'][next(3)],
    });
  }
  return { text, spans };
}

describe('CoNLL-2003 in one pass', () => {
  it('tokenises words, punctuation and line breaks', () => {
    expect(tokenize('Dr. Łukasz, 42!\nOK').map((t) => t.text)).toEqual([
      'Dr',
      '.',
      'Łukasz',
      ',',
      '42',
      '!',
      '\n',
      'OK',
    ]);
  });

  it('tags BIO; overlapping tags keep the first', () => {
    const tokens = tokenize('New York City is big');
    expect(
      bioTags(tokens, [
        { start: 0, end: 13, label: 'LOC' },
        { start: 4, end: 8, label: 'CITY' },
        { start: 17, end: 20, label: 'size adj' },
      ]),
    ).toEqual(['B-LOC', 'I-LOC', 'I-LOC', 'O', 'B-size_adj']);
  });

  it('tags as the walk over every token per span did, on overlapping, nested, empty and inner spans', () => {
    for (let seed = 1; seed <= 300; seed++) {
      const { text, spans } = randomDocument(seed, 20 + (seed % 80));
      const tokens = tokenize(text);
      expect([seed, bioTags(tokens, spans)]).toEqual([seed, bioTagsByWalk(tokens, spans)]);
    }
  });

  it('reads each span a bounded number of times: linear in tokens and spans, not their product', () => {
    const text = 'word '.repeat(4000);
    const tokens = tokenize(text);
    let reads = 0;
    const spans = Array.from({ length: 2000 }, (_, i) => {
      const span = { start: i * 10, end: i * 10 + 4, label: 'W' };
      return {
        get start() {
          reads++;
          return span.start;
        },
        get end() {
          reads++;
          return span.end;
        },
        label: span.label,
      };
    });
    reads = 0;
    const tags = bioTags(tokens, spans);
    expect(tags.filter((t) => t === 'B-W')).toHaveLength(2000);
    // the walk per span read them 2 x 4,000 tokens x 2,000 spans = 16,000,000 times
    expect(reads).toBeLessThan(8 * (tokens.length + spans.length));
  });

  it('writes the same block whatever the pieces the text comes in, runs and pairs cut across pieces', () => {
    for (let seed = 1; seed <= 150; seed++) {
      const { text, spans } = randomDocument(seed, 40 + (seed % 60));
      const whole = conllBlock(3, 'a.txt', text, spans);
      for (const size of [1, 2, 3, 7]) {
        const writer = new ConllWriter(spans);
        let out = conllHead(3, 'a.txt');
        for (const piece of textPieces(text, size)) out += writer.write(piece);
        out += writer.end();
        expect([seed, size, out]).toEqual([seed, size, whole]);
      }
    }
  });

  it('cuts a text into pieces of bounded size that keep surrogate pairs whole', () => {
    const text = 'ab😀'.repeat(10);
    const pieces = [...textPieces(text, 3)];
    expect(pieces.join('')).toBe(text);
    for (const p of pieces) {
      expect(p.length).toBeLessThanOrEqual(4);
      expect(/^[\udc00-\udfff]|[\ud800-\udbff]$/.test(p)).toBe(false);
    }
    expect([...textPieces('x'.repeat(TEXT_PIECE * 2 + 1))].map((p) => p.length)).toEqual([
      TEXT_PIECE,
      TEXT_PIECE,
      1,
    ]);
  });

  it('collects the texts of tags from the pieces as slices of the whole text would be', () => {
    for (let seed = 1; seed <= 100; seed++) {
      const { text, spans } = randomDocument(seed, 50);
      const texts = new TagTexts(spans);
      for (const piece of textPieces(text, 1 + (seed % 5))) texts.write(piece);
      expect(texts.result()).toEqual(spans.map((s) => text.slice(s.start, s.end)));
    }
  });
});
