import {
  hasUnstorableCharacters,
  maxLengthRule,
  oversizedStrings,
  TEXT_LIMITS,
  unstorableStrings,
} from './limits';

describe('text limits', () => {
  it('finds the oversized strings of a body, keys included, by path', () => {
    const big = 'x'.repeat(11);
    const body = { name: 'ok', settings: { prompt: big, list: ['a', big], [big]: 1 }, n: 5, z: null };
    expect(oversizedStrings(body, 10).sort()).toEqual(['settings.*', 'settings.list.1', 'settings.prompt']);
    expect(oversizedStrings(big, 10)).toEqual(['']);
    expect(oversizedStrings({ a: 'x'.repeat(TEXT_LIMITS.anyString) })).toEqual([]);
    expect(oversizedStrings({ a: 'x'.repeat(TEXT_LIMITS.anyString + 1) })).toEqual(['a']);
  });

  it('walks a deeply nested body without overflowing the stack', () => {
    let deep: unknown = 'x'.repeat(11);
    for (let i = 0; i < 100_000; i++) deep = [deep];
    expect(oversizedStrings(deep, 10)).toHaveLength(1);
  });

  it('reports a string over its maximum with the maxlength key', () => {
    expect(maxLengthRule(3)('abcd')).toEqual({
      code: 'Size',
      key: 'entity.validation.maxlength',
      params: { max: 3 },
    });
    expect(maxLengthRule(3)('abc')).toBeNull();
    expect(maxLengthRule(3)(null)).toBeNull();
  });
});

describe('unstorable characters', () => {
  it('finds NUL bytes and lone surrogates anywhere in a body, keys included; pairs are fine', () => {
    const body = {
      name: 'a\u0000b',
      list: ['ok \ud83d\ude00', 'x\ud800'],
      nested: { ['k\udc00']: 1, t: 'tab\tok' },
    };
    expect(unstorableStrings(body).sort()).toEqual(['list.1', 'name', 'nested.*']);
    expect(hasUnstorableCharacters('\ud83d\ude00 emoji')).toBe(false);
    expect(hasUnstorableCharacters('end\ud83d')).toBe(true);
    expect(hasUnstorableCharacters('\ude00start')).toBe(true);
  });
});
