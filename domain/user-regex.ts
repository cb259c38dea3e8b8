/**
 * Regular expressions that users write (the REGEX matching rules of lexicon nodes) run on RE2 (re2js), whose
 * matching time is linear in the text, never on the backtracking RegExp engine: `(a+)+$` over a long run of
 * 'a' and a '!' takes milliseconds instead of ages. Pure: no I/O; the form and the API refuse with the same
 * keys what the lexicon activity could not run.
 *
 * - The source is written as a JavaScript regex (what users and the earlier engine know). It must be valid
 *   JavaScript (with the `u` flag, or without it as before), and is then translated to RE2 syntax
 *   (`\u0105` and `\u{1F600}` to `\x{...}`, `(?<name>` to `(?P<name>`) and compiled. Matching keeps the old
 *   semantics: case-sensitive, `^`/`$` at the ends of the whole text, Unicode code points (a surrogate pair
 *   is one character), offsets in UTF-16 code units. RE2 differences that remain: `\s` is ASCII whitespace
 *   only, and `.` also matches `\r`, U+2028 and U+2029.
 * - Backreferences (`\1`, `\k<name>`) and lookaround (`(?=`, `(?!`, `(?<=`, `(?<!`) have no linear-time
 *   implementation: they are refused with USER_REGEX_KEYS.unsupported.
 * - A compiled program larger than USER_REGEX_MAX_PROGRAM instructions (`[a-z]{1000}` style counted
 *   repetitions) is refused with USER_REGEX_KEYS.tooComplex: RE2's time is linear in the text times the
 *   program's size, and the lexicon keeps one rule on one document within about a second.
 */
import { RE2JS } from 're2js';

export const USER_REGEX_MAX_PROGRAM = 1500;

export const USER_REGEX_KEYS = {
  invalid: 'soaApp.matchingRule.regexInvalid',
  unsupported: 'soaApp.matchingRule.regexUnsupported',
  tooComplex: 'soaApp.matchingRule.regexTooComplex',
} as const;

export type UserRegex = RE2JS;

export type UserRegexResult =
  | { ok: true; re: UserRegex }
  | { ok: false; key: (typeof USER_REGEX_KEYS)[keyof typeof USER_REGEX_KEYS]; reason: string };

/** Null when the source is a valid JavaScript regex (with `u` or without), else the engine's message. */
function javaScriptError(source: string): string | null {
  let message = '';
  for (const flags of ['u', '']) {
    try {
      // Compiling is not matching: RegExp construction is linear in the source and runs no text.
      new RegExp(source, flags);
      return null;
    } catch (e) {
      message ||= (e as Error).message;
    }
  }
  return message;
}

/** `\k` (a named backreference) anywhere outside an escape; re2js would read it as a literal k. */
function hasNamedBackreference(source: string): boolean {
  for (let i = 0; i < source.length - 1; i++) {
    if (source[i] !== '\\') continue;
    if (source[i + 1] === 'k') return true;
    i++;
  }
  return false;
}

/** Compiles a user's pattern on RE2, or says (by message key) why it cannot run. */
export function compileUserRegex(source: string): UserRegexResult {
  const invalid = javaScriptError(source);
  if (invalid !== null) return { ok: false, key: USER_REGEX_KEYS.invalid, reason: invalid };
  if (hasNamedBackreference(source))
    return { ok: false, key: USER_REGEX_KEYS.unsupported, reason: 'backreferences are not supported' };
  let re: RE2JS;
  try {
    re = RE2JS.compile(RE2JS.translateRegExp(source));
  } catch (e) {
    return {
      ok: false,
      key: USER_REGEX_KEYS.unsupported,
      reason: `backreferences and lookaround are not supported (${(e as Error).message})`,
    };
  }
  if (re.programSize() > USER_REGEX_MAX_PROGRAM)
    return { ok: false, key: USER_REGEX_KEYS.tooComplex, reason: 'the expression is too complex' };
  return { ok: true, re };
}

/**
 * Non-empty matches of a compiled user regex in the text, in order: [start, end) in UTF-16 code units.
 * Stops after `max` matches, or when `stop()` says so (checked every 256 matches).
 */
export function* userRegexMatches(
  re: UserRegex,
  text: string,
  max: number,
  stop: () => boolean = () => false,
): Generator<[number, number]> {
  let found = 0;
  let seen = 0;
  for (const m of re.matchAll(text)) {
    if ((++seen & 255) === 0 && stop()) return;
    if (m[0].length === 0) continue;
    const start = m.index ?? 0;
    yield [start, start + m[0].length];
    if (++found >= max) return;
  }
}
