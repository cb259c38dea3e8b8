/**
 * Rules of the matching rules of NER tag types (spec 3): an expression per rule (REGEX must compile), the
 * FUZZY tolerance, the editor's expression list (not empty, no blanks, no duplicates), the diff of a rule
 * group's old entries against the edited list, and splitting pasted text into expressions.
 * Each rule returns null or a Violation {code, key}; the API and the forms call the same functions. Their
 * message keys are listed in LABEL_MESSAGES (./labels.ts). Pure: no I/O. The lexicon matcher that applies
 * the rules to a text is ./lexicon.ts.
 */
import type { MatchingType } from './label-types';
import { maxLengthViolation, TEXT_LIMITS } from './limits';
import { compileUserRegex } from './user-regex';
import type { Violation } from './validation';

const blank = (v: string | null | undefined) => v === null || v === undefined || v.trim() === '';
const REQUIRED: Violation = { code: 'NotBlank', key: 'entity.validation.required' };

/** A REGEX expression the lexicon can run: valid, and compilable on the linear-time engine. */
export function isValidRegex(expression: string): boolean {
  return expression.length <= TEXT_LIMITS.ruleExpression && compileUserRegex(expression).ok;
}

/**
 * One expression: non-blank, at most TEXT_LIMITS.ruleExpression characters (checked before any parsing);
 * for REGEX it must compile on RE2 (./user-regex.ts: regexInvalid, regexUnsupported for backreferences and
 * lookaround, regexTooComplex).
 */
export function expressionRule(
  expression: string | null | undefined,
  matchingType: MatchingType,
): Violation | null {
  if (blank(expression)) return REQUIRED;
  if (expression!.length > TEXT_LIMITS.ruleExpression) return maxLengthViolation(TEXT_LIMITS.ruleExpression);
  if (matchingType === 'REGEX') {
    const compiled = compileUserRegex(expression!);
    if (!compiled.ok) return { code: 'Pattern', key: compiled.key };
  }
  return null;
}

/** FUZZY needs a tolerance 1..3; other types ignore it (normalizeTolerance clears it). */
export function toleranceRule(
  matchingType: MatchingType,
  tolerance: number | null | undefined,
): Violation | null {
  if (matchingType !== 'FUZZY') return null;
  if (tolerance === null || tolerance === undefined)
    return { code: 'Required', key: 'entity.validation.required' };
  return Number.isInteger(tolerance) && tolerance >= 1 && tolerance <= 3
    ? null
    : { code: 'Size', key: 'soaApp.matchingRule.toleranceRange' };
}

export const normalizeTolerance = (matchingType: MatchingType, tolerance: number | null | undefined) =>
  matchingType === 'FUZZY' ? (tolerance ?? null) : null;

const normalizeExpression = (e: string) => e.trim();

/** Expressions that occur more than once (compared trimmed); the editor highlights them. */
export function duplicatedExpressions(expressions: readonly string[]): Set<string> {
  const seen = new Set<string>();
  const dup = new Set<string>();
  for (const e of expressions.map(normalizeExpression)) {
    if (e === '') continue;
    if (seen.has(e)) dup.add(e);
    seen.add(e);
  }
  return dup;
}

/** The editor's expression list: not empty, no blank entry, no duplicates. */
export function expressionListRule(expressions: readonly string[]): Violation | null {
  if (expressions.length === 0) return { code: 'Required', key: 'soaApp.matchingRule.listEmpty' };
  if (expressions.some((e) => blank(e)))
    return { code: 'NotBlank', key: 'soaApp.matchingRule.listEmptyValues' };
  if (duplicatedExpressions(expressions).size > 0)
    return { code: 'NotUnique', key: 'soaApp.matchingRule.listDuplicates' };
  return null;
}

/** Every field rule of one matching rule, by field. */
export function matchingRuleViolations(rule: {
  expression: string;
  matchingType: MatchingType;
  tolerance?: number | null;
}): Record<'expression' | 'tolerance', Violation | null> {
  return {
    expression: expressionRule(rule.expression, rule.matchingType),
    tolerance: toleranceRule(rule.matchingType, rule.tolerance),
  };
}

export interface ExpressionDiff<T> {
  /** Old entries whose expression is gone. */
  removed: T[];
  /** Old entries whose expression is still listed (they take the group's new type and tolerance). */
  updated: T[];
  /** Listed expressions no old entry has. */
  new: string[];
}

/**
 * Compares a rule group's old entries with the edited expression list (trimmed; blanks and repeats of the
 * new list ignored). Each old entry matches at most one listed expression, so old duplicates beyond the
 * first are removed.
 */
export function diffExpressions<T extends { expression: string }>(
  old: readonly T[],
  next: readonly string[],
): ExpressionDiff<T> {
  const wanted = [...new Set(next.map(normalizeExpression).filter((e) => e !== ''))];
  const remaining = new Set(wanted);
  const removed: T[] = [];
  const updated: T[] = [];
  for (const entry of old) {
    const e = normalizeExpression(entry.expression);
    if (remaining.has(e)) {
      remaining.delete(e);
      updated.push(entry);
    } else {
      removed.push(entry);
    }
  }
  return { removed, updated, new: wanted.filter((e) => remaining.has(e)) };
}

/**
 * Splits pasted or uploaded text into expressions: by line when `delimiter` is 'NEWLINE' (or the text has
 * several lines), else by the delimiter; entries trimmed, blanks dropped.
 */
export function splitExpressions(text: string, delimiter: string | 'NEWLINE' = ','): string[] {
  const parts =
    delimiter === 'NEWLINE' || delimiter === ''
      ? text.split(/\r?\n/)
      : text.split(/\r?\n/).flatMap((l) => l.split(delimiter));
  return parts.map((p) => p.trim()).filter((p) => p !== '');
}
