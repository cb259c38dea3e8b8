import { segmentHidden } from './hiddenTokens';

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
});
