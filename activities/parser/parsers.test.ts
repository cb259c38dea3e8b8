/** The pure pieces of the parser: recognizer output, lattices, charset and type detection, HTML mail bodies. */
import { hintsAt, parseHtkLattice, parsePocketsphinxOutput } from './asr/pocketsphinx';
import { wordsFromVerboseJson } from './asr/whisper';
import { detectKind } from './detect';
import { htmlToText } from './email';
import { decodeText, SAMPLE_BYTES } from './text';

describe('pocketsphinx output', () => {
  const out = [
    'the weather is nice',
    '<s> 0.000 0.020 0.999500',
    'the(2) 0.030 0.110 0.190922',
    'weather 0.120 0.450 0.461769',
    '<sil> 0.460 0.600 0.9',
    '[NOISE] 0.600 0.700 0.9',
    'nice 0.700 0.880 0.645616',
    '</s> 0.890 1.720 1.000000',
    'go',
    '<s> 2.630 2.730 0.999700',
    'go 2.740 2.920 0.966664',
    '</s> 2.930 3.000 1.000000',
  ].join('\n');

  it('keeps words with ms times and confidences, without fillers and pronunciation marks', () => {
    const { words } = parsePocketsphinxOutput(out);
    expect(words.map((w) => [w.value, Math.round(w.startMs), Math.round(w.endMs), w.confidence])).toEqual([
      ['the', 30, 110, 0.190922],
      ['weather', 120, 450, 0.461769],
      ['nice', 700, 880, 0.645616],
      ['go', 2740, 2920, 0.966664],
    ]);
  });

  it('returns the voice-activity segments', () => {
    expect(
      parsePocketsphinxOutput(out).segments.map((s) => [Math.round(s.startMs), Math.round(s.endMs)]),
    ).toEqual([
      [0, 1720],
      [2630, 3000],
    ]);
  });
});

describe('lattice hints', () => {
  const lattice = [
    'VERSION=1.0',
    'N=5\tL=4',
    'I=0\tt=0.00\tW=!SENT_START\tv=1',
    'I=1\tt=0.10\tW=park\tv=1',
    'I=2\tt=0.10\tW=bark\tv=1',
    'I=3\tt=0.10\tW=part(2)\tv=1',
    'I=4\tt=0.50\tW=!SENT_END\tv=1',
    'J=0\tS=1\tE=4\ta=-1\tp=0.6',
    'J=1\tS=2\tE=4\ta=-1\tp=0.3',
    'J=2\tS=3\tE=4\ta=-1\tp=0.09',
    'J=3\tS=0\tE=1\ta=-1\tp=1',
  ].join('\n');

  it('reads links with absolute times and posteriors, without sentence markers', () => {
    const links = parseHtkLattice(lattice, 2000);
    expect(links).toEqual([
      { word: 'park', startMs: 2100, endMs: 2500, posterior: 0.6 },
      { word: 'bark', startMs: 2100, endMs: 2500, posterior: 0.3 },
      { word: 'part', startMs: 2100, endMs: 2500, posterior: 0.09 },
    ]);
  });

  it('gives the other words at the token midpoint, best first', () => {
    const links = parseHtkLattice(lattice, 2000);
    expect(hintsAt({ value: 'park', startMs: 2100, endMs: 2500 }, links)).toEqual([
      { value: 'bark', confidence: 0.3 },
      { value: 'part', confidence: 0.09 },
    ]);
    expect(hintsAt({ value: 'park', startMs: 3000, endMs: 3100 }, links)).toEqual([]);
  });
});

describe('whisper verbose_json', () => {
  it('maps words (seconds) to ms, with probability where given', () => {
    expect(
      wordsFromVerboseJson({ words: [{ word: ' Hi', start: 0.5, end: 0.75, probability: 0.9 }] }),
    ).toEqual([{ value: ' Hi', startMs: 500, endMs: 750, confidence: 0.9 }]);
  });

  it('spreads segment words evenly when the server gives no word timestamps', () => {
    expect(wordsFromVerboseJson({ segments: [{ start: 1, end: 2, text: ' a b' }] })).toEqual([
      { value: 'a', startMs: 1000, endMs: 1500, confidence: null },
      { value: 'b', startMs: 1500, endMs: 2000, confidence: null },
    ]);
  });
});

describe('decodeText', () => {
  it('honours byte-order marks and UTF-8', () => {
    expect(decodeText(Buffer.from('\ufeffżółw', 'utf8'))).toEqual({ text: 'żółw', encoding: 'UTF-8' });
    expect(decodeText(Buffer.concat([Buffer.from([0xff, 0xfe]), Buffer.from('łoś', 'utf16le')])).text).toBe(
      'łoś',
    );
  });

  it('prefers Latin-1 for French text and Windows-1250 for Polish', () => {
    expect(decodeText(Buffer.from('Café crème brûlée à la française, déjà vu', 'latin1')).text).toBe(
      'Café crème brûlée à la française, déjà vu',
    );
    // "Źródło świeżej wody" in Windows-1250
    const pl = Buffer.from([
      0x8f, 0x72, 0xf3, 0x64, 0xb3, 0x6f, 0x20, 0x9c, 0x77, 0x69, 0x65, 0xbf, 0x65, 0x6a, 0x20, 0x77, 0x6f,
      0x64, 0x79,
    ]);
    expect(decodeText(pl).text).toBe('Źródło świeżej wody');
  });

  it('decides the charset on a sample and decodes the whole file with it', () => {
    const pl = Buffer.from([0x8f, 0x72, 0xf3, 0x64, 0xb3, 0x6f, 0x20]); // "Źródło " in Windows-1250
    const head = Buffer.concat(Array(Math.ceil(SAMPLE_BYTES / pl.length) + 1).fill(pl));
    const tail = Buffer.from([0x9c, 0x77, 0x69, 0x65, 0xbf, 0x65, 0x6a]); // "świeżej"
    const { text, encoding } = decodeText(Buffer.concat([head, tail]));
    expect(encoding).toBe('windows-1250');
    expect(text.endsWith('Źródło świeżej')).toBe(true);
    expect(text.length).toBe(head.length + tail.length);
  });
});

describe('detectKind', () => {
  it('trusts a known mime type, else the magic bytes, else the extension', () => {
    expect(detectKind('application/pdf', 'x', Buffer.alloc(0))).toEqual({ kind: 'pdf', ext: '.pdf' });
    expect(detectKind('application/octet-stream', 'x', Buffer.from('%PDF-1.7'))?.kind).toBe('pdf');
    expect(detectKind('application/octet-stream', 'a.odt', Buffer.from('PK'))).toEqual({
      kind: 'office',
      ext: '.odt',
    });
    expect(detectKind('application/zip', 'a.zip', Buffer.from('PK'))).toBeNull();
  });
});

describe('htmlToText', () => {
  it('drops tags, scripts and styles, keeps paragraphs and decodes entities', () => {
    expect(htmlToText('<style>p{}</style><p>A &amp; B</p><p>C<br>D &#322;</p>')).toBe('A & B\nC\nD ł');
  });
});
