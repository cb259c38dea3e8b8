/**
 * Length limits of free-text fields (issue 9 finding 10), where the spec gives none: a name, a URL or a
 * prompt of a megabyte is refused with 400 and a field error, never stored. The spec's own limits stay with
 * their rules (validation.ts LIMITS, labels.ts LABEL_LIMITS, integrations.ts INTEGRATION_LIMITS, nodes.ts
 * NODE_LIMITS); these cover the rest. MAX_STRING is the cap the API applies to every string of every JSON
 * body before its schema runs (api/validate.ts), so a field without a tighter rule is still bounded.
 * Pure: no I/O.
 *
 * In the workflow bundle (imported through domain/nodes.ts; no workflow decision depends on it): keep it free
 * of I/O, clocks and randomness, and a change that would reach a workflow decision follows the `patched()` rule
 * of domain/steps.ts.
 */
import type { Violation } from './validation';

export const TEXT_LIMITS = {
  /**
   * Any string anywhere in a request body: the longest fields are prompts and templates (100,000) and the
   * rich-editor states stored beside them.
   */
  anyString: 250_000,
  /** Names of things (nodes, connections, models, predicates, transfer rules ...) without a spec limit. */
  name: 255,
  /** Descriptions without a spec limit. */
  description: 2000,
  /** URLs (send-request, external models, webhooks): the de facto browser limit. */
  url: 2048,
  /** A matching rule's expression (EXACT, REGEX or FUZZY). */
  ruleExpression: 1000,
  /** A secret's value (API keys, tokens, PEM keys). */
  secretValue: 10_000,
  /** Prompts and system prompts of LLM nodes. */
  prompt: 100_000,
  /** Mail subject (RFC 5322 line limit). */
  mailSubject: 998,
  /** Mail body and request body templates. */
  template: 100_000,
  /** One HTTP header or query value of a send-request node. */
  headerValue: 8192,
  /** File names (a path component on every file system we write to). */
  fileName: 255,
} as const;

/** Map from a limit to its violation (`entity.validation.maxlength` with the limit). */
export const maxLengthViolation = (max: number): Violation => ({
  code: 'Size',
  key: 'entity.validation.maxlength',
  params: { max },
});

/** A string longer than `max` (null and undefined pass: required-ness is another rule). */
export const maxLengthRule =
  (max: number) =>
  (value: string | null | undefined): Violation | null =>
    typeof value === 'string' && value.length > max ? maxLengthViolation(max) : null;

/**
 * Paths (dotted, array indexes as numbers) of the strings in a parsed JSON value that `bad` picks, object
 * keys included (a bad key is reported as `<parent>.*`, so an answer never echoes it), at most `limit` of
 * them. Iterative, so a deeply nested body cannot overflow the stack.
 */
function findStrings(value: unknown, bad: (s: string) => boolean, limit: number): string[] {
  const found: string[] = [];
  const stack: [unknown, string][] = [[value, '']];
  while (stack.length && found.length < limit) {
    const [v, path] = stack.pop()!;
    if (typeof v === 'string') {
      if (bad(v)) found.push(path);
    } else if (Array.isArray(v)) {
      for (let i = v.length - 1; i >= 0; i--) stack.push([v[i], path ? `${path}.${i}` : String(i)]);
    } else if (v !== null && typeof v === 'object') {
      for (const [k, child] of Object.entries(v as Record<string, unknown>).reverse()) {
        if (bad(k)) {
          found.push(path ? `${path}.*` : '*');
          continue;
        }
        stack.push([child, path ? `${path}.${k}` : k]);
      }
    }
  }
  return found;
}

/** Paths of the strings (keys included) of a parsed JSON value longer than `max`. */
export const oversizedStrings = (value: unknown, max: number = TEXT_LIMITS.anyString, limit = 20): string[] =>
  findStrings(value, (s) => s.length > max, limit);

/** A NUL character or a UTF-16 surrogate without its pair: no field may hold one (PostgreSQL text cannot). */
// eslint-disable-next-line no-control-regex -- the NUL is what this rule looks for
const UNSTORABLE = /\u0000|[\ud800-\udbff](?![\udc00-\udfff])|(?<![\ud800-\udbff])[\udc00-\udfff]/;

export const unstorableTextViolation: Violation = { code: 'Pattern', key: 'entity.validation.pattern' };

/** The text holds a NUL or a lone surrogate. */
export const hasUnstorableCharacters = (text: string): boolean => UNSTORABLE.test(text);

/** Paths of the strings (keys included) of a parsed JSON value that hold a NUL or a lone surrogate. */
export const unstorableStrings = (value: unknown, limit = 20): string[] =>
  findStrings(value, hasUnstorableCharacters, limit);
