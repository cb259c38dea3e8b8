import { hiddenPieces, segmentHidden } from './hiddenTokens';

describe('hidden tokens', () => {
  it('marks tabs, line breaks, non-breaking and zero-width spaces and keeps the text', () => {
    const text = 'a\tb\u00a0c\u200bd\ne';
    const segments = segmentHidden(text);
    expect(segments.map((s) => s.text).join('')).toBe(text);
    expect(segments.filter((s) => s.mark).map((s) => s.mark)).toEqual(['→', '°', '·', '¶']);
  });

  it('leaves ordinary text as one run', () => {
    expect(segmentHidden('Zażółć gęślą jaźń.')).toEqual([{ text: 'Zażółć gęślą jaźń.' }]);
  });

  it('cuts a range of the text into pieces at the offsets of the text', () => {
    const text = 'xx Ala\tma\r\nkota';
    const pieces = hiddenPieces(text, 3, text.length);
    expect(pieces).toEqual([
      { start: 3, end: 6 },
      { start: 6, end: 7, mark: '→' },
      { start: 7, end: 9 },
      { start: 9, end: 10, mark: '␍' },
      { start: 10, end: 11, mark: '¶' },
      { start: 11, end: 15 },
    ]);
    expect(pieces.map((p) => text.slice(p.start, p.end)).join('')).toBe(text.slice(3));
    expect(hiddenPieces(text, 0, 2)).toEqual([{ start: 0, end: 2 }]);
  });
});
