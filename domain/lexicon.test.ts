import {
  MAX_MATCHES_PER_DOCUMENT,
  MAX_REGEX_MATCHES_PER_RULE,
  boundedLevenshtein,
  compileLexicon,
  matchLexicon,
  mergeOverlaps,
  type LexiconRule,
} from './lexicon';

const PERSON = 1;
const PLACE = 2;
const ID = 3;

const rule = (r: Partial<LexiconRule> & Pick<LexiconRule, 'expression'>): LexiconRule => ({
  nerTagTypeId: PERSON,
  matchingType: 'EXACT',
  tolerance: null,
  ...r,
});

function spans(rules: LexiconRule[], text: string) {
  return matchLexicon(compileLexicon(rules), text).map((m) => [text.slice(m.start, m.end), m.nerTagTypeId]);
}

describe('boundedLevenshtein', () => {
  it.each([
    ['kowalski', 'kowalski', 3, 0],
    ['kowalski', 'kowalsky', 3, 1],
    ['kowalski', 'kowalsk', 3, 1],
    ['kowalski', 'kovalsky', 3, 2],
    ['kowalski', 'kawalsky', 1, 2],
    ['jan', 'anna', 3, 3],
    ['', 'abc', 3, 3],
    ['abcdef', 'abc', 2, 3],
  ])('%s vs %s within %i is %i', (a, b, max, expected) => {
    expect(boundedLevenshtein(a, b, max)).toBe(expected);
    expect(boundedLevenshtein(b, a, max)).toBe(expected);
  });

  it('agrees with the full table on random strings', () => {
    const full = (a: string, b: string) => {
      const d = Array.from({ length: a.length + 1 }, (_, i) => [i, ...Array<number>(b.length).fill(0)]);
      for (let j = 1; j <= b.length; j++) d[0][j] = j;
      for (let i = 1; i <= a.length; i++)
        for (let j = 1; j <= b.length; j++)
          d[i][j] = Math.min(
            d[i - 1][j] + 1,
            d[i][j - 1] + 1,
            d[i - 1][j - 1] + (a[i - 1] === b[j - 1] ? 0 : 1),
          );
      return d[a.length][b.length];
    };
    let seed = 7;
    const rnd = (n: number) => {
      seed = (seed + 0x6d2b79f5) | 0;
      let t = Math.imul(seed ^ (seed >>> 15), 1 | seed);
      t = (t + Math.imul(t ^ (t >>> 7), 61 | t)) ^ t;
      return Math.floor((((t ^ (t >>> 14)) >>> 0) / 4294967296) * n);
    };
    const word = () => Array.from({ length: rnd(9) }, () => 'abcą'[rnd(4)]).join('');
    for (let t = 0; t < 2000; t++) {
      const a = word();
      const b = word();
      const max = 1 + rnd(3);
      const d = full(a, b);
      expect([a, b, max, boundedLevenshtein(a, b, max)]).toEqual([a, b, max, d <= max ? d : max + 1]);
    }
  });
});

describe('EXACT rules', () => {
  it('match whole words and phrases regardless of case, with Polish letters', () => {
    const rules = [rule({ expression: 'Jan Kowalski' }), rule({ expression: 'łódź', nerTagTypeId: PLACE })];
    const text = 'Pan JAN kowalski mieszka w Łodzi, nie w Łódź-Widzewie; ŁÓDŹ to miasto. Janek Kowalski.';
    expect(spans(rules, text)).toEqual([
      ['JAN kowalski', PERSON],
      ['Łódź', PLACE],
      ['ŁÓDŹ', PLACE],
    ]);
  });

  it('do not match inside a longer word', () => {
    expect(spans([rule({ expression: 'kot' })], 'kotlet, szkoty, Kot.')).toEqual([['Kot', PERSON]]);
  });

  it('require the separators and surrounding punctuation of the expression', () => {
    const rules = [rule({ expression: 'e-mail' }), rule({ expression: 'Sp. z o.o.', nerTagTypeId: PLACE })];
    const text = 'Send an E-mail, not an e mail. Firma Sp.  z o.o. i Sp z oo.';
    expect(spans(rules, text)).toEqual([
      ['E-mail', PERSON],
      ['Sp.  z o.o.', PLACE],
    ]);
  });

  it('give every occurrence its offsets', () => {
    const m = matchLexicon(compileLexicon([rule({ expression: 'ala' })]), 'Ala ma kota, ala.');
    expect(m).toEqual([
      { nerTagTypeId: PERSON, start: 0, end: 3 },
      { nerTagTypeId: PERSON, start: 13, end: 16 },
    ]);
  });
});

describe('REGEX rules', () => {
  it('find every match of a JavaScript regex', () => {
    const rules = [rule({ expression: '\\d{2}-\\d{3}', matchingType: 'REGEX', nerTagTypeId: ID })];
    expect(spans(rules, 'Kody 00-950 i 31-150, nie 1-2.')).toEqual([
      ['00-950', ID],
      ['31-150', ID],
    ]);
  });

  it('use Unicode classes', () => {
    const rules = [rule({ expression: '\\p{Lu}\\p{Ll}+ski', matchingType: 'REGEX' })];
    expect(spans(rules, 'Żółkiewski i Kowalski, nie kowalski')).toEqual([
      ['Żółkiewski', PERSON],
      ['Kowalski', PERSON],
    ]);
  });

  it('skip zero-length matches without looping', () => {
    const rules = [
      rule({ expression: 'x*', matchingType: 'REGEX' }),
      rule({ expression: '^', matchingType: 'REGEX' }),
    ];
    expect(spans(rules, 'ab xx c 😀 x')).toEqual([
      ['xx', PERSON],
      ['x', PERSON],
    ]);
  });

  it('cap the matches of one rule', () => {
    const lex = compileLexicon([rule({ expression: '.', matchingType: 'REGEX', nerTagTypeId: ID })]);
    const text = 'a b '.repeat(MAX_REGEX_MATCHES_PER_RULE);
    const raw = matchLexicon(lex, text);
    // Adjacent single characters do not overlap, so they stay separate tags; the cap bounds them.
    expect(raw).toHaveLength(MAX_REGEX_MATCHES_PER_RULE);
    expect(raw[raw.length - 1].end).toBeLessThan(text.length);
  });

  it('stop a rule when its time budget is spent', () => {
    let t = 0;
    const lex = compileLexicon([rule({ expression: 'a', matchingType: 'REGEX' })]);
    const out = matchLexicon(lex, 'a '.repeat(5000), () => (t += 1000));
    expect(out.length).toBeLessThan(5000);
  });

  it('report an invalid regex instead of throwing', () => {
    const lex = compileLexicon([rule({ expression: '(unclosed', matchingType: 'REGEX' })]);
    expect(lex.problems).toEqual([
      expect.objectContaining({ reason: expect.stringMatching(/Invalid regular expression/) }),
    ]);
    expect(matchLexicon(lex, '(unclosed')).toEqual([]);
  });
});

describe('REGEX rules on the linear-time engine', () => {
  it('run the ReDoS rule (a+)+$ over 100,000 a and a ! without backtracking, and find nothing', () => {
    // A backtracking engine takes 2^n steps here (28 characters already hold it for 30 s).
    const text = 'a'.repeat(100_000) + '!';
    const lex = compileLexicon([rule({ expression: '(a+)+$', matchingType: 'REGEX' })]);
    expect(lex.problems).toEqual([]);
    expect(matchLexicon(lex, text)).toEqual([]);
  });

  it('find the ReDoS rule (a+)+$ where it does match', () => {
    const text = '!' + 'a'.repeat(100_000);
    const lex = compileLexicon([rule({ expression: '(a+)+$', matchingType: 'REGEX' })]);
    expect(matchLexicon(lex, text)).toEqual([{ nerTagTypeId: PERSON, start: 1, end: 100_001 }]);
  });

  it('keep UTF-16 offsets, Unicode classes and JavaScript escapes', () => {
    const text = '😀 Zażółć 😀 gęślą \\u0105';
    const lex = compileLexicon([
      rule({ expression: '\\p{L}+', matchingType: 'REGEX' }),
      rule({ expression: '\\u{1F600}', matchingType: 'REGEX', nerTagTypeId: PLACE }),
      rule({ expression: '(?<w>g\\u0119\\S+)', matchingType: 'REGEX', nerTagTypeId: ID }),
    ]);
    expect(lex.problems).toEqual([]);
    const found = matchLexicon(lex, text).map((m) => [text.slice(m.start, m.end), m.start, m.nerTagTypeId]);
    expect(found).toEqual([
      ['😀', 0, PLACE],
      ['Zażółć', 3, PERSON],
      ['😀', 10, PLACE],
      ['gęślą', 13, PERSON],
      ['gęślą', 13, ID],
      ['u', 20, PERSON],
    ]);
  });

  it('refuse backreferences and lookaround as problems, not as a hang', () => {
    const lex = compileLexicon([
      rule({ expression: '(a)\\1', matchingType: 'REGEX' }),
      rule({ expression: '(?<n>a)\\k<n>', matchingType: 'REGEX' }),
      rule({ expression: 'a(?=b)', matchingType: 'REGEX' }),
      rule({ expression: '(?<!b)a', matchingType: 'REGEX' }),
    ]);
    expect(lex.regex).toHaveLength(0);
    expect(lex.problems).toHaveLength(4);
  });

  it('cap the matches of a whole document across rules', () => {
    const rules = [0, 1, 2, 3, 4, 5].map((i) =>
      rule({ expression: '.', matchingType: 'REGEX', nerTagTypeId: 100 + i }),
    );
    const out = matchLexicon(compileLexicon(rules), 'ab'.repeat(MAX_REGEX_MATCHES_PER_RULE));
    expect(out).toHaveLength(MAX_MATCHES_PER_DOCUMENT);
  });
});

describe('FUZZY rules', () => {
  const fuzzy = (expression: string, tolerance: number) =>
    rule({ expression, matchingType: 'FUZZY', tolerance });

  it('tolerance 1 admits one edit', () => {
    expect(spans([fuzzy('Kowalski', 1)], 'Kowalsky, Kowalski, Kovalsky, Kowalskiego')).toEqual([
      ['Kowalsky', PERSON],
      ['Kowalski', PERSON],
    ]);
  });

  it('tolerance 2 admits two edits', () => {
    expect(spans([fuzzy('Kowalski', 2)], 'Kowalsky, Kovalsky, Kavalsky, Kowalskiego')).toEqual([
      ['Kowalsky', PERSON],
      ['Kovalsky', PERSON],
    ]);
  });

  it('tolerance 3 admits three edits', () => {
    expect(spans([fuzzy('Kowalski', 3)], 'Kavalsky, Kowalskiego, Nowacky')).toEqual([
      ['Kavalsky', PERSON],
      ['Kowalskiego', PERSON],
    ]);
  });

  it('compares n-grams of the expression word count, Polish letters as letters', () => {
    expect(
      spans([fuzzy('Łukasz Żółć', 2)], 'Pan Lukasz Żółc, pan Łukasz Żołć, Lukasz Zolc oraz Łukasz.'),
    ).toEqual([
      ['Lukasz Żółc', PERSON],
      ['Łukasz Żołć', PERSON],
    ]);
  });

  it('never allow more edits than half the expression', () => {
    expect(spans([fuzzy('kot', 3)], 'a kat to nie pies')).toEqual([['kat', PERSON]]);
  });

  it('report a tolerance outside 1..3', () => {
    expect(compileLexicon([fuzzy('x', 4), fuzzy('y', 0)]).problems).toHaveLength(2);
  });
});

describe('overlaps', () => {
  it('merge overlapping spans of one tag type into their union, keep other types', () => {
    const rules = [
      rule({ expression: 'Jan' }),
      rule({ expression: 'Jan Maria' }),
      rule({ expression: 'Maria Rokita' }),
      rule({ expression: 'Rokita', nerTagTypeId: PLACE }),
    ];
    expect(spans(rules, 'Jan Maria Rokita, Jan')).toEqual([
      ['Jan Maria Rokita', PERSON],
      ['Rokita', PLACE],
      ['Jan', PERSON],
    ]);
  });

  it('deduplicate the same span found by several rules', () => {
    const rules = [
      rule({ expression: 'Kraków' }),
      rule({ expression: 'Krak[oó]w', matchingType: 'REGEX' }),
      rule({ expression: 'Krakow', matchingType: 'FUZZY', tolerance: 1 }),
    ];
    expect(spans(rules, 'w Kraków')).toEqual([['Kraków', PERSON]]);
  });

  it('do not merge spans that only touch', () => {
    expect(
      mergeOverlaps([
        { nerTagTypeId: 1, start: 0, end: 3 },
        { nerTagTypeId: 1, start: 3, end: 5 },
      ]),
    ).toHaveLength(2);
  });
});
