/**
 * The lexicon matcher (spec 3, matching rules of a LEXICON node's NER tag types): pure, no I/O. It owns
 * how EXACT, REGEX and FUZZY rules find spans in a text and how overlapping spans are reduced.
 *
 * - Words are maximal runs of Unicode letters, marks and digits (so Polish "Zażółć" is one word); offsets are
 *   UTF-16 code units of the original text, end exclusive.
 * - EXACT: case-insensitive, whole words. The expression's words must follow one another in the text, the
 *   text between them must equal the expression's (whitespace runs count as one space), and punctuation
 *   leading or trailing the expression ("o.o.") must be there too. Indexed by the first word's lower case.
 * - REGEX: a JavaScript regex as written, run on RE2 (./user-regex.ts: linear time, no backreferences or
 *   lookaround; case-sensitive, Unicode code points), compiled once. Zero-length matches are skipped and at
 *   most MAX_REGEX_MATCHES_PER_RULE matches (and REGEX_BUDGET_MS of scanning between matches) are taken per
 *   rule, so `a*` or a rule matching every character cannot flood the document.
 * - At most MAX_MATCHES_PER_DOCUMENT spans are kept per text (before merging): later passes stop early.
 * - FUZZY: Levenshtein distance between the expression (lower case, words joined by one space) and each
 *   n-gram of text words of the expression's word count (joined the same way). The allowed distance is the
 *   rule's tolerance (1..3) but never more than half the expression's length, so "kot" with tolerance 3
 *   does not tag every short word. Candidates are prefiltered by length (bucketed) and by a letter-set
 *   bound (each edit changes at most two bits of a 32-bit letter mask) before a banded edit distance.
 * - Overlaps: spans of the same NER tag type that overlap (share at least one character) are merged into
 *   their union; spans of different types are kept as they are. The result is sorted by start, end, type.
 */
import type { MatchingType } from './label-types';
import { compileUserRegex, userRegexMatches, type UserRegex } from './user-regex';

export interface LexiconRule {
  id?: number;
  nerTagTypeId: number;
  expression: string;
  matchingType: MatchingType;
  /** 1..3 for FUZZY. */
  tolerance: number | null;
}

export interface LexiconMatch {
  nerTagTypeId: number;
  start: number;
  end: number;
}

export interface RuleProblem {
  rule: LexiconRule;
  reason: string;
}

export const MAX_REGEX_MATCHES_PER_RULE = 10000;
export const REGEX_BUDGET_MS = 1000;
export const MAX_MATCHES_PER_DOCUMENT = 50000;
const MAX_TOLERANCE = 3;

interface Word {
  start: number;
  end: number;
  norm: string;
}

interface ExactRule {
  nerTagTypeId: number;
  words: string[];
  /** Normalized separators between consecutive words (length words - 1). */
  seps: string[];
  prefix: string;
  suffix: string;
}

interface FuzzyRule {
  nerTagTypeId: number;
  norm: string;
  mask: number;
  maxDistance: number;
}

interface RegexRule {
  nerTagTypeId: number;
  re: UserRegex;
}

export interface CompiledLexicon {
  exact: Map<string, ExactRule[]>;
  regex: RegexRule[];
  /** Fuzzy rules by word count, then by expression length. */
  fuzzy: Map<number, Map<number, FuzzyRule[]>>;
  /** Rules left out (an invalid regex, an expression without words, a bad tolerance). */
  problems: RuleProblem[];
}

const WORD = /[\p{L}\p{M}\p{N}]+/gu;

export function wordsOf(text: string): Word[] {
  const words: Word[] = [];
  for (const m of text.matchAll(WORD)) {
    words.push({ start: m.index, end: m.index + m[0].length, norm: m[0].toLowerCase() });
  }
  return words;
}

const normSep = (s: string) => s.replace(/\s+/gu, ' ').toLowerCase();

function letterMask(s: string): number {
  let mask = 0;
  for (let i = 0; i < s.length; i++) mask |= 1 << (s.charCodeAt(i) & 31);
  return mask;
}

function popcount(x: number): number {
  x -= (x >>> 1) & 0x55555555;
  x = (x & 0x33333333) + ((x >>> 2) & 0x33333333);
  return (((x + (x >>> 4)) & 0x0f0f0f0f) * 0x01010101) >>> 24;
}

/** Compiles the rules once per document run; rules that cannot run are reported, not thrown. */
export function compileLexicon(rules: LexiconRule[]): CompiledLexicon {
  const compiled: CompiledLexicon = { exact: new Map(), regex: [], fuzzy: new Map(), problems: [] };
  for (const rule of rules) {
    const expression = rule.expression ?? '';
    if (rule.matchingType === 'REGEX') {
      if (!expression) {
        compiled.problems.push({ rule, reason: 'empty expression' });
        continue;
      }
      const result = compileUserRegex(expression);
      if (!result.ok) {
        compiled.problems.push({ rule, reason: result.reason });
        continue;
      }
      compiled.regex.push({ nerTagTypeId: rule.nerTagTypeId, re: result.re });
      continue;
    }
    const words = wordsOf(expression);
    if (!words.length) {
      compiled.problems.push({ rule, reason: 'the expression has no letters or digits' });
      continue;
    }
    if (rule.matchingType === 'EXACT') {
      const exact: ExactRule = {
        nerTagTypeId: rule.nerTagTypeId,
        words: words.map((w) => w.norm),
        seps: words.slice(1).map((w, i) => normSep(expression.slice(words[i].end, w.start))),
        prefix: expression.slice(0, words[0].start).trim().toLowerCase(),
        suffix: expression
          .slice(words[words.length - 1].end)
          .trim()
          .toLowerCase(),
      };
      const list = compiled.exact.get(exact.words[0]);
      if (list) list.push(exact);
      else compiled.exact.set(exact.words[0], [exact]);
    } else if (rule.matchingType === 'FUZZY') {
      const tolerance = rule.tolerance ?? 0;
      if (!Number.isInteger(tolerance) || tolerance < 1 || tolerance > MAX_TOLERANCE) {
        compiled.problems.push({ rule, reason: 'the tolerance must be 1, 2 or 3' });
        continue;
      }
      const norm = words.map((w) => w.norm).join(' ');
      const fuzzy: FuzzyRule = {
        nerTagTypeId: rule.nerTagTypeId,
        norm,
        mask: letterMask(norm),
        maxDistance: Math.min(tolerance, Math.floor(norm.length / 2)),
      };
      let byLength = compiled.fuzzy.get(words.length);
      if (!byLength) compiled.fuzzy.set(words.length, (byLength = new Map()));
      const list = byLength.get(norm.length);
      if (list) list.push(fuzzy);
      else byLength.set(norm.length, [fuzzy]);
    } else {
      compiled.problems.push({ rule, reason: `unknown matching type ${String(rule.matchingType)}` });
    }
  }
  return compiled;
}

/**
 * Levenshtein distance of a and b if it is at most max, else max + 1. Only the band |i - j| <= max of the
 * table is computed, and the scan stops as soon as a whole row exceeds max.
 */
export function boundedLevenshtein(a: string, b: string, max: number): number {
  if (Math.abs(a.length - b.length) > max) return max + 1;
  if (a === b) return 0;
  const n = b.length;
  const big = max + 1;
  let prev = new Array<number>(n + 1);
  let cur = new Array<number>(n + 1);
  for (let j = 0; j <= n; j++) prev[j] = j <= max ? j : big;
  for (let i = 1; i <= a.length; i++) {
    const from = Math.max(1, i - max);
    const to = Math.min(n, i + max);
    cur[0] = i <= max ? i : big;
    if (from > 1) cur[from - 1] = big;
    let rowMin = cur[0];
    const ca = a.charCodeAt(i - 1);
    for (let j = from; j <= to; j++) {
      const cost = ca === b.charCodeAt(j - 1) ? 0 : 1;
      let v = prev[j - 1] + cost;
      if (j < i + max && prev[j] + 1 < v) v = prev[j] + 1;
      if (cur[j - 1] + 1 < v) v = cur[j - 1] + 1;
      cur[j] = v > big ? big : v;
      if (cur[j] < rowMin) rowMin = cur[j];
    }
    if (to < n) cur[to + 1] = big;
    if (rowMin > max) return big;
    [prev, cur] = [cur, prev];
  }
  return prev[n] > max ? big : prev[n];
}

function matchExact(lex: CompiledLexicon, text: string, words: Word[], out: LexiconMatch[]) {
  for (let i = 0; i < words.length && out.length < MAX_MATCHES_PER_DOCUMENT; i++) {
    const candidates = lex.exact.get(words[i].norm);
    if (!candidates) continue;
    next: for (const rule of candidates) {
      const last = i + rule.words.length - 1;
      if (last >= words.length) continue;
      for (let k = 1; k < rule.words.length; k++) {
        if (words[i + k].norm !== rule.words[k]) continue next;
        if (normSep(text.slice(words[i + k - 1].end, words[i + k].start)) !== rule.seps[k - 1]) continue next;
      }
      let start = words[i].start;
      let end = words[last].end;
      if (rule.prefix) {
        if (text.slice(start - rule.prefix.length, start).toLowerCase() !== rule.prefix) continue;
        start -= rule.prefix.length;
      }
      if (rule.suffix) {
        if (text.slice(end, end + rule.suffix.length).toLowerCase() !== rule.suffix) continue;
        end += rule.suffix.length;
      }
      out.push({ nerTagTypeId: rule.nerTagTypeId, start, end });
    }
  }
}

function matchRegex(rule: RegexRule, text: string, out: LexiconMatch[], now: () => number) {
  const deadline = now() + REGEX_BUDGET_MS;
  const room = Math.min(MAX_REGEX_MATCHES_PER_RULE, MAX_MATCHES_PER_DOCUMENT - out.length);
  if (room <= 0) return;
  for (const [start, end] of userRegexMatches(rule.re, text, room, () => now() > deadline))
    out.push({ nerTagTypeId: rule.nerTagTypeId, start, end });
}

function matchFuzzy(lex: CompiledLexicon, words: Word[], out: LexiconMatch[]) {
  for (const [count, byLength] of lex.fuzzy) {
    if (out.length >= MAX_MATCHES_PER_DOCUMENT) return;
    const lengths = [...byLength.keys()];
    const minLen = Math.min(...lengths) - MAX_TOLERANCE;
    const maxLen = Math.max(...lengths) + MAX_TOLERANCE;
    for (let i = 0; i + count <= words.length; i++) {
      let len = count - 1;
      for (let k = 0; k < count; k++) len += words[i + k].norm.length;
      if (len < minLen || len > maxLen) continue;
      let gram: string | undefined;
      let mask = 0;
      for (let l = len - MAX_TOLERANCE; l <= len + MAX_TOLERANCE; l++) {
        const rules = byLength.get(l);
        if (!rules) continue;
        const diff = Math.abs(l - len);
        for (const rule of rules) {
          if (diff > rule.maxDistance) continue;
          if (gram === undefined) {
            gram =
              count === 1
                ? words[i].norm
                : words
                    .slice(i, i + count)
                    .map((w) => w.norm)
                    .join(' ');
            mask = letterMask(gram);
          }
          if (popcount(mask ^ rule.mask) > 2 * rule.maxDistance) continue;
          if (boundedLevenshtein(gram, rule.norm, rule.maxDistance) <= rule.maxDistance) {
            out.push({
              nerTagTypeId: rule.nerTagTypeId,
              start: words[i].start,
              end: words[i + count - 1].end,
            });
          }
        }
      }
    }
  }
}

/** Merges overlapping spans of the same tag type into their union; sorted by start, end, tag type. */
export function mergeOverlaps(matches: LexiconMatch[]): LexiconMatch[] {
  const byType = new Map<number, LexiconMatch[]>();
  for (const m of matches) {
    const list = byType.get(m.nerTagTypeId);
    if (list) list.push(m);
    else byType.set(m.nerTagTypeId, [m]);
  }
  const merged: LexiconMatch[] = [];
  for (const [nerTagTypeId, list] of byType) {
    list.sort((a, b) => a.start - b.start || a.end - b.end);
    let cur: LexiconMatch | undefined;
    for (const m of list) {
      if (cur && m.start < cur.end) {
        if (m.end > cur.end) cur.end = m.end;
      } else {
        if (cur) merged.push(cur);
        cur = { nerTagTypeId, start: m.start, end: m.end };
      }
    }
    if (cur) merged.push(cur);
  }
  return merged.sort((a, b) => a.start - b.start || a.end - b.end || a.nerTagTypeId - b.nerTagTypeId);
}

/**
 * Every span the compiled rules find in the text (exact, then each regex rule, then fuzzy, adding to one
 * list), overlaps of one tag type merged. The activity runs it in a worker thread
 * (activities/actions/lexicon-pool.ts), so one long call holds no other document's work.
 */
export function matchLexicon(
  lex: CompiledLexicon,
  text: string,
  now: () => number = () => Date.now(),
): LexiconMatch[] {
  const out: LexiconMatch[] = [];
  const words = lex.exact.size || lex.fuzzy.size ? wordsOf(text) : [];
  if (lex.exact.size) matchExact(lex, text, words, out);
  for (const rule of lex.regex) matchRegex(rule, text, out, now);
  if (lex.fuzzy.size) matchFuzzy(lex, words, out);
  return mergeOverlaps(out);
}
