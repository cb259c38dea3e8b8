import {
  buildUtterances,
  DEFAULT_ACTOR,
  isPunctuation,
  MAX_TRANSCRIPT_MS,
  linkUtterances,
  normalizeConfidence,
  tokenTimesProblem,
  transcriptText,
  type RecognizedWord,
} from './transcript';

const w = (value: string, startS: number, endS: number, confidence?: number): RecognizedWord => ({
  value,
  startMs: startS * 1000,
  endMs: endS * 1000,
  confidence,
});

describe('buildUtterances', () => {
  it('keeps words closer than the pause in one utterance of SPEAKER1, with integer ms timestamps', () => {
    const out = buildUtterances([w('hello', 0.0304, 0.4, 0.9), w('world', 0.5, 0.9, 0.8)]);
    expect(out).toEqual([
      {
        actor: DEFAULT_ACTOR,
        tokens: [
          { value: 'hello', tsStart: 30, tsEnd: 400, confidence: 0.9, hints: [] },
          { value: 'world', tsStart: 500, tsEnd: 900, confidence: 0.8, hints: [] },
        ],
      },
    ]);
  });

  it('starts a new utterance after a pause of at least pauseMs', () => {
    const words = [w('one', 0, 0.3), w('two', 0.4, 0.7), w('three', 1.5, 1.8), w('four', 1.9, 2.2)];
    const out = buildUtterances(words, { pauseMs: 700 });
    expect(out.map((u) => u.tokens.map((t) => t.value))).toEqual([
      ['one', 'two'],
      ['three', 'four'],
    ]);
    expect(buildUtterances(words, { pauseMs: 900 })).toHaveLength(1);
  });

  it('attaches punctuation to the preceding token and extends its end', () => {
    const out = buildUtterances([w('stop', 0, 0.4), w('.', 0.4, 0.45), w('go', 0.5, 0.8), w('?!', 0.8, 0.9)]);
    expect(out[0].tokens.map((t) => [t.value, t.tsEnd])).toEqual([
      ['stop.', 450],
      ['go?!', 900],
    ]);
  });

  it('attaches punctuation across a pause to the last token, and keeps leading punctuation as a token', () => {
    const out = buildUtterances([w('"', 0, 0.1), w('yes', 0.2, 0.5), w('.', 2, 2.1)]);
    expect(out).toHaveLength(1);
    expect(out[0].tokens.map((t) => t.value)).toEqual(['"', 'yes.']);
  });

  it('trims values, drops empty words, and orders by start time', () => {
    const out = buildUtterances([w(' b ', 0.5, 0.6), w('   ', 0.2, 0.3), w(' a', 0.1, 0.2)]);
    expect(out[0].tokens.map((t) => t.value)).toEqual(['a', 'b']);
  });

  it('never gives a token an end before its start, nor negative times', () => {
    const out = buildUtterances([{ value: 'x', startMs: -5, endMs: -10 }]);
    expect(out[0].tokens[0]).toMatchObject({ tsStart: 0, tsEnd: 0, confidence: null });
  });

  it('splits where the recognizer marks a break and after maxTokens', () => {
    const words: RecognizedWord[] = [
      w('a', 0, 0.1),
      { ...w('b', 0.15, 0.2), breakBefore: true },
      w('c', 0.25, 0.3),
      w('d', 0.35, 0.4),
    ];
    expect(buildUtterances(words, { maxTokens: 2 }).map((u) => u.tokens.length)).toEqual([1, 2, 1]);
  });

  it('keeps hints that differ from the token, normalized, in order', () => {
    const out = buildUtterances([
      {
        ...w('park', 0, 0.5),
        hints: [
          { value: 'park', confidence: 0.9 },
          { value: ' bark ', confidence: 1.4 },
          { value: 'part', confidence: null },
        ],
      },
    ]);
    expect(out[0].tokens[0].hints).toEqual([
      { value: 'bark', confidence: 1 },
      { value: 'part', confidence: null },
    ]);
  });

  it('uses the given actor', () => {
    expect(buildUtterances([w('x', 0, 1)], { actor: 'SPEAKER2' })[0].actor).toBe('SPEAKER2');
  });

  it('returns no utterance for no words', () => {
    expect(buildUtterances([])).toEqual([]);
  });
});

describe('isPunctuation', () => {
  it.each([
    ['.', true],
    [',', true],
    ['?!', true],
    ['...', true],
    ['—', true],
    ['dog.', false],
    ['<sil>', false],
    ['5', false],
  ])('%s -> %s', (value, expected) => expect(isPunctuation(value)).toBe(expected));
});

describe('linkUtterances', () => {
  it('links ids in order as a doubly linked list', () => {
    expect(linkUtterances([7, 3, 9])).toEqual([
      { id: 7, prevId: null, nextId: 3 },
      { id: 3, prevId: 7, nextId: 9 },
      { id: 9, prevId: 3, nextId: null },
    ]);
    expect(linkUtterances([1])).toEqual([{ id: 1, prevId: null, nextId: null }]);
  });
});

describe('normalizeConfidence and transcriptText', () => {
  it('clamps confidence to 0..1 and maps unusable values to null', () => {
    expect(normalizeConfidence(-0.2)).toBe(0);
    expect(normalizeConfidence(NaN)).toBeNull();
    expect(normalizeConfidence(undefined)).toBeNull();
    expect(normalizeConfidence(0.5)).toBe(0.5);
  });

  it('prints one line per utterance', () => {
    expect(
      transcriptText([{ tokens: [{ value: 'a' }, { value: 'b.' }] }, { tokens: [{ value: 'c' }] }]),
    ).toBe('a b.\nc');
  });
});

describe('tokenTimesProblem', () => {
  it('accepts finite times within 48 hours, the end not before the start', () => {
    expect(tokenTimesProblem(0, 0)).toBeNull();
    expect(tokenTimesProblem(1.5, MAX_TRANSCRIPT_MS)).toBeNull();
  });

  it('refuses huge, negative, infinite and reversed times with a message', () => {
    expect(tokenTimesProblem(1e308, 1e308)).toMatch(
      /^tsStart must be a number of milliseconds from 0 to 172800000/,
    );
    expect(tokenTimesProblem(0, MAX_TRANSCRIPT_MS + 1)).toMatch(/^tsEnd must be/);
    expect(tokenTimesProblem(-1, 0)).toMatch(/^tsStart must be/);
    expect(tokenTimesProblem(0, Number.POSITIVE_INFINITY)).toMatch(/^tsEnd must be/);
    expect(tokenTimesProblem(Number.NaN, 0)).toMatch(/^tsStart must be/);
    expect(tokenTimesProblem(10, 5)).toBe('tsEnd must not be before tsStart');
  });

  it('keeps recognizer times within the limit', () => {
    const [u] = buildUtterances([{ value: 'late', startMs: 1e12, endMs: 1e13 }]);
    expect(u.tokens[0]).toMatchObject({ tsStart: MAX_TRANSCRIPT_MS, tsEnd: MAX_TRANSCRIPT_MS });
  });
});
