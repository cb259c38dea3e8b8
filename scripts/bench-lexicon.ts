/**
 * `npx tsx scripts/bench-lexicon.ts`: measured, never asserted. Times the lexicon matcher (domain/lexicon.ts)
 * on a generated 100,000-character Polish-like text with 1,000 mixed rules (EXACT phrases, FUZZY words and
 * phrases with tolerance 1..3, REGEX patterns), each type alone and all together, plus compilation.
 * Deterministic: a seeded generator, so runs compare.
 */
import { performance } from 'node:perf_hooks';
import { compileLexicon, matchLexicon, type LexiconRule } from '../domain/lexicon';

const TEXT_LENGTH = 100_000;
const RULES = 1000;

let seed = 42;
/** mulberry32: a small seeded generator good enough for test data. */
const rnd = (n: number) => {
  seed = (seed + 0x6d2b79f5) | 0;
  let t = Math.imul(seed ^ (seed >>> 15), 1 | seed);
  t = (t + Math.imul(t ^ (t >>> 7), 61 | t)) ^ t;
  return Math.floor((((t ^ (t >>> 14)) >>> 0) / 4294967296) * n);
};

const SYLLABLES = [
  'ka',
  'mi',
  'ło',
  'rz',
  'sz',
  'ża',
  'ść',
  'no',
  'wa',
  'ki',
  'ję',
  'dź',
  'ro',
  'pa',
  'ta',
  'le',
];
const word = () => Array.from({ length: 2 + rnd(3) }, () => SYLLABLES[rnd(SYLLABLES.length)]).join('');

function generateText(): { text: string; vocabulary: string[] } {
  const vocabulary = Array.from({ length: 3000 }, word);
  const parts: string[] = [];
  let length = 0;
  while (length < TEXT_LENGTH) {
    let w = vocabulary[rnd(vocabulary.length)];
    if (rnd(10) === 0) w = w[0].toUpperCase() + w.slice(1);
    if (rnd(40) === 0) w = `${rnd(100)}-${100 + rnd(900)}`;
    const sep = rnd(12) === 0 ? '. ' : rnd(8) === 0 ? ', ' : ' ';
    parts.push(w, sep);
    length += w.length + sep.length;
  }
  return { text: parts.join('').slice(0, TEXT_LENGTH), vocabulary };
}

function generateRules(vocabulary: string[]): LexiconRule[] {
  const pick = () => vocabulary[rnd(vocabulary.length)];
  const REGEXES = [
    '\\d{2}-\\d{3}',
    '\\b[A-ZŁŻ]\\p{Ll}+ka\\b',
    'sz\\p{L}{2,4}ść',
    '(?:ka|mi)ło\\p{L}*',
    'rz[aeo]',
  ];
  return Array.from({ length: RULES }, (_, i): LexiconRule => {
    const nerTagTypeId = 1 + (i % 20);
    switch (i % 10) {
      case 0:
      case 1:
      case 2:
      case 3:
        return { nerTagTypeId, matchingType: 'EXACT', expression: pick(), tolerance: null };
      case 4:
      case 5:
        return { nerTagTypeId, matchingType: 'EXACT', expression: `${pick()} ${pick()}`, tolerance: null };
      case 6:
      case 7:
        return { nerTagTypeId, matchingType: 'FUZZY', expression: pick() + 'x', tolerance: 1 + rnd(3) };
      case 8:
        return {
          nerTagTypeId,
          matchingType: 'FUZZY',
          expression: `${pick()} ${pick()}`,
          tolerance: 1 + rnd(3),
        };
      default:
        return {
          nerTagTypeId,
          matchingType: 'REGEX',
          expression: `${REGEXES[rnd(REGEXES.length)]}${i % 3 ? '' : pick().slice(0, 2)}`,
          tolerance: null,
        };
    }
  });
}

function time<T>(label: string, runs: number, fn: () => T): T {
  let result = fn();
  const t0 = performance.now();
  for (let i = 0; i < runs; i++) result = fn();
  const ms = (performance.now() - t0) / runs;
  console.log(`${label.padEnd(52)} ${ms.toFixed(1).padStart(8)} ms/op  (${runs} runs)`);
  return result;
}

function main() {
  const { text, vocabulary } = generateText();
  const rules = generateRules(vocabulary);
  const count = (t: string) => rules.filter((r) => r.matchingType === t).length;
  console.log(
    `lexicon bench: ${text.length} characters, ${rules.length} rules ` +
      `(EXACT ${count('EXACT')}, FUZZY ${count('FUZZY')}, REGEX ${count('REGEX')})`,
  );
  const all = time('compile 1,000 rules', 20, () => compileLexicon(rules));
  for (const type of ['EXACT', 'FUZZY', 'REGEX'] as const) {
    const lex = compileLexicon(rules.filter((r) => r.matchingType === type));
    const found = time(`match ${type} rules only`, 5, () => matchLexicon(lex, text));
    console.log(`${''.padEnd(52)} ${found.length} tags`);
  }
  const found = time('match all 1,000 rules (100,000 characters)', 5, () => matchLexicon(all, text));
  console.log(`${''.padEnd(52)} ${found.length} tags`);
}

main();
