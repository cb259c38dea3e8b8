import {
  diffExpressions,
  duplicatedExpressions,
  expressionListRule,
  expressionRule,
  matchingRuleViolations,
  normalizeTolerance,
  splitExpressions,
  toleranceRule,
} from './matching-rules';

const key = (v: { key: string } | null) => v?.key ?? null;

describe('matching rules', () => {
  it('requires an expression and a compilable regex for REGEX', () => {
    expect(key(expressionRule(' ', 'EXACT'))).toBe('entity.validation.required');
    expect(key(expressionRule('[a-', 'REGEX'))).toBe('soaApp.matchingRule.regexInvalid');
    expect(expressionRule('[a-', 'EXACT')).toBeNull();
    expect(expressionRule('\\d{2}-\\d{3}', 'REGEX')).toBeNull();
  });
  it('refuses on save a REGEX the linear-time engine cannot run: backreferences and lookaround', () => {
    expect(key(expressionRule('(a)\\1', 'REGEX'))).toBe('soaApp.matchingRule.regexUnsupported');
    expect(key(expressionRule('(?<n>a)\\k<n>', 'REGEX'))).toBe('soaApp.matchingRule.regexUnsupported');
    expect(key(expressionRule('a(?=b)', 'REGEX'))).toBe('soaApp.matchingRule.regexUnsupported');
    expect(key(expressionRule('(?<!b)a', 'REGEX'))).toBe('soaApp.matchingRule.regexUnsupported');
    expect(key(expressionRule('[a-z]{1000}[0-9]{1000}', 'REGEX'))).toBe(
      'soaApp.matchingRule.regexTooComplex',
    );
    // The same expression is a plain text for EXACT rules.
    expect(expressionRule('(a)\\1', 'EXACT')).toBeNull();
    expect(expressionRule('(a+)+$', 'REGEX')).toBeNull();
  });
  it('refuses an expression longer than the limit before parsing it', () => {
    expect(expressionRule('a'.repeat(1000), 'EXACT')).toBeNull();
    expect(expressionRule('a'.repeat(1_000_000), 'REGEX')).toEqual({
      code: 'Size',
      key: 'entity.validation.maxlength',
      params: { max: 1000 },
    });
  });
  it('needs a tolerance 1..3 for FUZZY only', () => {
    expect(key(toleranceRule('FUZZY', null))).toBe('entity.validation.required');
    expect(key(toleranceRule('FUZZY', 0))).toBe('soaApp.matchingRule.toleranceRange');
    expect(key(toleranceRule('FUZZY', 4))).toBe('soaApp.matchingRule.toleranceRange');
    expect(key(toleranceRule('FUZZY', 1.5))).toBe('soaApp.matchingRule.toleranceRange');
    expect(toleranceRule('FUZZY', 3)).toBeNull();
    expect(toleranceRule('EXACT', 7)).toBeNull();
    expect(normalizeTolerance('EXACT', 2)).toBeNull();
    expect(normalizeTolerance('FUZZY', 2)).toBe(2);
    expect(matchingRuleViolations({ expression: 'x', matchingType: 'FUZZY' }).tolerance?.key).toBe(
      'entity.validation.required',
    );
  });
  it('checks the expression list: empty, empty values, duplicates', () => {
    expect(key(expressionListRule([]))).toBe('soaApp.matchingRule.listEmpty');
    expect(key(expressionListRule(['a', ' ']))).toBe('soaApp.matchingRule.listEmptyValues');
    expect(key(expressionListRule(['a', 'b', 'a ']))).toBe('soaApp.matchingRule.listDuplicates');
    expect(expressionListRule(['a', 'b'])).toBeNull();
    expect([...duplicatedExpressions(['x', 'y', 'x', 'y', 'z'])]).toEqual(['x', 'y']);
  });
  it('diffs old rules and the edited expressions into removed, updated and new', () => {
    const old = [
      { id: 1, expression: 'alpha' },
      { id: 2, expression: 'beta' },
      { id: 3, expression: 'gamma' },
      { id: 4, expression: 'beta' },
    ];
    const diff = diffExpressions(old, ['beta', ' delta ', 'alpha', 'delta', '']);
    expect(diff.removed.map((r) => r.id)).toEqual([3, 4]);
    expect(diff.updated.map((r) => r.id)).toEqual([1, 2]);
    expect(diff.new).toEqual(['delta']);
    expect(diffExpressions([], ['a'])).toEqual({ removed: [], updated: [], new: ['a'] });
  });
  it('splits pasted text by the delimiter or by line, trimming and dropping blanks', () => {
    expect(splitExpressions(' a, b ,,c')).toEqual(['a', 'b', 'c']);
    expect(splitExpressions('a;b\nc;d', ';')).toEqual(['a', 'b', 'c', 'd']);
    expect(splitExpressions('a, b\n\n c ', 'NEWLINE')).toEqual(['a, b', 'c']);
  });
});
