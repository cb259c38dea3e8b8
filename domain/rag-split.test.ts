import {
  PARAGRAPH_MAX_CHARS,
  SENTENCE_MAX_CHARS,
  WINDOW_CHARS,
  countWords,
  splitText,
  splitterKindOf,
  type SplitterKind,
} from './rag-split';

const kinds: SplitterKind[] = ['PARAGRAPH', 'SENTENCE', 'FIXED_WINDOW'];

function expectExactSlices(text: string, kind: SplitterKind) {
  const chunks = [...splitText(text, kind)];
  chunks.forEach((c, i) => {
    expect(c.ordinal).toBe(i);
    expect(text.slice(c.startOffset, c.endOffset)).toBe(c.text);
    expect(c.text).toBe(c.text.trim());
    expect(c.tokenLength).toBe(c.text.split(/\s+/).filter(Boolean).length);
  });
  return chunks;
}

describe('RAG text splitters', () => {
  const paragraphs = ['First paragraph. It has two sentences.', 'Second one\nwith a line break.', 'Third.'];
  const text = `  ${paragraphs.join('\n\n')}\n \n`;

  it('packs short paragraphs into one chunk whose offsets slice the text', () => {
    const [only, ...rest] = expectExactSlices(text, 'PARAGRAPH');
    expect(rest).toEqual([]);
    expect(only.startOffset).toBe(2);
    expect(only.text).toBe(paragraphs.join('\n\n'));
  });

  it('starts a new chunk on a paragraph boundary when the next paragraph does not fit', () => {
    const long = 'word '.repeat(150).trim(); // 749 characters
    const doc = `${long}\n\n${long}\n\n  \n${'tail sentence.'}`;
    const chunks = expectExactSlices(doc, 'PARAGRAPH');
    expect(chunks.map((c) => c.text)).toEqual([long, `${long}\n\n  \ntail sentence.`]);
  });

  it('cuts a paragraph longer than the limit at sentence ends into bounded pieces', () => {
    const sentence = 'This sentence is about forty characters. ';
    const doc = sentence.repeat(100).trim();
    const chunks = expectExactSlices(doc, 'PARAGRAPH');
    expect(chunks.length).toBeGreaterThan(3);
    for (const c of chunks) {
      expect(c.text.length).toBeLessThanOrEqual(PARAGRAPH_MAX_CHARS);
      expect(c.text.endsWith('.')).toBe(true);
    }
    expect(chunks.map((c) => c.text).join(' ')).toBe(doc);
  });

  it('cuts text without spaces hard at the limit', () => {
    const doc = 'x'.repeat(2500);
    const chunks = expectExactSlices(doc, 'PARAGRAPH');
    expect(chunks.map((c) => c.text.length)).toEqual([1000, 1000, 500]);
  });

  it('splits sentences without crossing paragraphs', () => {
    const chunks = expectExactSlices(text, 'SENTENCE');
    expect(chunks.map((c) => c.text)).toEqual([
      'First paragraph. It has two sentences.',
      'Second one\nwith a line break.',
      'Third.',
    ]);
    const many = `${'Short sentence here. '.repeat(40).trim()}`;
    for (const c of expectExactSlices(many, 'SENTENCE'))
      expect(c.text.length).toBeLessThanOrEqual(SENTENCE_MAX_CHARS);
  });

  it('makes overlapping windows between words', () => {
    const doc = Array.from({ length: 600 }, (_, i) => `w${i}`).join(' ');
    const chunks = expectExactSlices(doc, 'FIXED_WINDOW');
    expect(chunks.length).toBeGreaterThan(3);
    for (let i = 1; i < chunks.length; i++) {
      expect(chunks[i].startOffset).toBeGreaterThan(chunks[i - 1].startOffset);
      expect(chunks[i].startOffset).toBeLessThan(chunks[i - 1].endOffset); // overlap
      expect(doc[chunks[i].startOffset - 1]).toBe(' ');
      expect(chunks[i].text.length).toBeLessThanOrEqual(WINDOW_CHARS);
    }
    expect(chunks[chunks.length - 1].endOffset).toBe(doc.length);
  });

  it('yields nothing for blank text, whatever the splitter', () => {
    for (const kind of kinds) expect([...splitText(' \n\n \t', kind)]).toEqual([]);
  });

  it('keeps offsets exact for surrogate pairs and Polish letters', () => {
    const doc = 'Zażółć gęślą jaźń 😀 emoji.\n\nDruga 😀😀 część.';
    for (const kind of kinds) expectExactSlices(doc, kind);
  });

  it('is linear: a 2 MB text of one paragraph splits into bounded chunks', () => {
    const doc = 'abc def ghi. '.repeat(160_000);
    const chunks = [...splitText(doc, 'PARAGRAPH')];
    expect(chunks.every((c) => c.text.length <= PARAGRAPH_MAX_CHARS)).toBe(true);
    expect(chunks.reduce((n, c) => n + c.tokenLength, 0)).toBe(countWords(doc));
  });

  it('reads an unknown splitter kind as PARAGRAPH', () => {
    expect(splitterKindOf('SENTENCE')).toBe('SENTENCE');
    expect(splitterKindOf('nonsense')).toBe('PARAGRAPH');
    expect(splitterKindOf(null)).toBe('PARAGRAPH');
  });
});
