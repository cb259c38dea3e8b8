import { passageParts, queryTerms } from './passage';

const joined = (parts: { text: string }[]) => parts.map((p) => p.text).join('');
const marked = (parts: { text: string; mark: boolean }[]) => parts.filter((p) => p.mark).map((p) => p.text);

describe('the passage of a matched chunk', () => {
  it('takes the query words of four letters or more, once each', () => {
    expect(queryTerms('Who is the lighthouse keeper of Port Ellery? Port!')).toEqual([
      'lighthouse',
      'keeper',
      'port',
      'ellery',
    ]);
    expect(queryTerms('Kto jest latarnikiem w Łebie?')).toEqual(['jest', 'latarnikiem', 'łebie']);
  });

  it('starts near the densest cluster of query words and marks them, whole words only', () => {
    const filler = 'Entry one of the harbour notes. '.repeat(10);
    const text = `${filler}The lighthouse keeper of Port Ellery is W. T. Importantly, reports follow.`;
    const parts = passageParts(text, queryTerms('Who is the lighthouse keeper of Port Ellery?'));
    expect(parts[0]).toEqual({ text: '… ', mark: false });
    expect(joined(parts).length).toBeLessThan(text.length);
    expect(text.endsWith(joined(parts).slice(2))).toBe(true);
    expect(joined(parts)).toContain('The lighthouse keeper');

    // a paragraph holding the words is shown from its start
    const paragraphs = `${filler}\n\nShort line. The lighthouse keeper of Port Ellery.`;
    expect(joined(passageParts(paragraphs, ['lighthouse', 'keeper']))).toBe(
      '… Short line. The lighthouse keeper of Port Ellery.',
    );
    // "Importantly" and "reports" hold "port" but are other words
    expect(marked(parts)).toEqual(['lighthouse', 'keeper', 'Port', 'Ellery']);
  });

  it('keeps the whole text when it starts near the words, or has none of them', () => {
    const text = 'Port Ellery has a lighthouse.';
    expect(joined(passageParts(text, ['lighthouse', 'ellery']))).toBe(text);
    expect(passageParts('Nothing here.', ['lighthouse'])).toEqual([{ text: 'Nothing here.', mark: false }]);
    expect(passageParts('Nothing here.', [])).toEqual([{ text: 'Nothing here.', mark: false }]);
  });
});
