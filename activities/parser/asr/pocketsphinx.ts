/**
 * Speech recognition with CMU pocketsphinx (Debian pocketsphinx + pocketsphinx-en-us, US English model).
 *
 * Words: `pocketsphinx_continuous -infile f.wav -time yes` prints, per voice-activity segment (<s> ... </s>),
 * the hypothesis and one line per word: `word start end confidence` (seconds; confidence a posterior 0..1).
 * Silence and filler words (<s>, </s>, <sil>, [NOISE], ++UM++) are dropped, alternative-pronunciation marks
 * (`the(2)`) removed.
 *
 * Hints: that CLI prints no alternatives, so the same segments are decoded again by `pocketsphinx_batch`,
 * which writes a word lattice per segment (HTK format) with a posterior `p` on every link. The alternatives
 * of a token are the other words whose links span the token's midpoint, their posteriors summed per word
 * (paths through a lattice exclude each other at any instant, so this is a probability): the best three
 * above 2 % become its hints. A failure of this second pass leaves the transcript without hints.
 */
import fs from 'node:fs/promises';
import path from 'node:path';
import type { RecognizedWord, TokenHint } from '../../../domain/transcript';
import { ProgramFailed, run } from '../run';
import type { Work } from '../work';

const WORD_LINE = /^(\S+) (\d+(?:\.\d+)?) (\d+(?:\.\d+)?) (\d+(?:\.\d+)?)$/;
const FRAMES_PER_SECOND = 100;
const MAX_HINTS = 3;
const MIN_HINT_POSTERIOR = 0.02;

export function isFiller(word: string): boolean {
  return /^(<.*>|\[.*\]|\+\+.*\+\+|!.*)$/.test(word);
}

const baseWord = (w: string) => w.replace(/\(\d+\)$/, '');

export interface Segment {
  startMs: number;
  endMs: number;
}

export interface PocketsphinxOutput {
  words: RecognizedWord[];
  /** The voice-activity segments (from each <s> to its </s>). */
  segments: Segment[];
}

/** Words and segments of pocketsphinx_continuous `-time yes` output, in order. */
export function parsePocketsphinxOutput(stdout: string): PocketsphinxOutput {
  const words: RecognizedWord[] = [];
  const segments: Segment[] = [];
  for (const line of stdout.split('\n')) {
    const m = WORD_LINE.exec(line.trim());
    if (!m) continue;
    const [word, startMs, endMs] = [m[1], Number(m[2]) * 1000, Number(m[3]) * 1000];
    if (word === '<s>') segments.push({ startMs, endMs });
    else if (word === '</s>' && segments.length) segments[segments.length - 1].endMs = endMs;
    if (isFiller(word)) continue;
    words.push({ value: baseWord(word), startMs, endMs, confidence: Number(m[4]) });
    if (segments.length)
      segments[segments.length - 1].endMs = Math.max(segments[segments.length - 1].endMs, endMs);
  }
  return { words, segments };
}

export interface LatticeLink {
  word: string;
  startMs: number;
  endMs: number;
  posterior: number;
}

/** The links of an HTK lattice written by pocketsphinx (node times relative to the segment's start). */
export function parseHtkLattice(text: string, offsetMs: number): LatticeLink[] {
  const nodes = new Map<number, { t: number; word: string }>();
  const links: LatticeLink[] = [];
  for (const line of text.split('\n')) {
    const fields = Object.fromEntries(
      line
        .trim()
        .split(/\s+/)
        .map((f) => f.split('=') as [string, string]),
    );
    if (fields.I !== undefined && fields.t !== undefined) {
      nodes.set(Number(fields.I), { t: Number(fields.t) * 1000, word: fields.W ?? '!NULL' });
    } else if (fields.J !== undefined && fields.p !== undefined) {
      const from = nodes.get(Number(fields.S));
      const to = nodes.get(Number(fields.E));
      if (!from || !to || isFiller(from.word)) continue;
      links.push({
        word: baseWord(from.word),
        startMs: offsetMs + from.t,
        endMs: offsetMs + to.t,
        posterior: Number(fields.p),
      });
    }
  }
  return links;
}

/** The best alternatives to a word at its midpoint, by summed link posterior. */
export function hintsAt(word: RecognizedWord, links: LatticeLink[]): TokenHint[] {
  const mid = (word.startMs + word.endMs) / 2;
  const byWord = new Map<string, number>();
  for (const l of links) {
    if (l.startMs <= mid && mid < l.endMs && l.word !== word.value)
      byWord.set(l.word, (byWord.get(l.word) ?? 0) + l.posterior);
  }
  return [...byWord.entries()]
    .filter(([, p]) => p >= MIN_HINT_POSTERIOR)
    .sort((a, b) => b[1] - a[1])
    .slice(0, MAX_HINTS)
    .map(([value, p]) => ({ value, confidence: Math.min(1, Math.round(p * 1e4) / 1e4) }));
}

async function latticeLinks(work: Work, wav: string, segments: Segment[], durationS: number) {
  const latDir = path.join(work.dir, 'lattices');
  await fs.mkdir(latDir, { recursive: true });
  const { dir, name } = path.parse(wav);
  const ctl = segments
    .map(
      (s, i) =>
        `${name} ${Math.floor((s.startMs / 1000) * FRAMES_PER_SECOND)} ${Math.ceil((s.endMs / 1000) * FRAMES_PER_SECOND)} seg${i}`,
    )
    .join('\n');
  await fs.writeFile(path.join(work.dir, 'segments.ctl'), `${ctl}\n`);
  await run(
    work,
    'pocketsphinx_batch',
    [
      '-adcin',
      'yes',
      '-cepdir',
      dir,
      '-cepext',
      '.wav',
      '-ctl',
      path.join(work.dir, 'segments.ctl'),
      '-hyp',
      path.join(work.dir, 'segments.hyp'),
      '-outlatdir',
      latDir,
      '-outlatfmt',
      'htk',
    ],
    { timeoutMs: Math.round(120_000 + durationS * 5_000), slot: 'asr' },
  );
  const links: LatticeLink[][] = [];
  for (const [i, s] of segments.entries()) {
    const text = await fs.readFile(path.join(latDir, `seg${i}.lat`), 'utf8').catch(() => '');
    links.push(parseHtkLattice(text, s.startMs));
  }
  return links;
}

/** Recognizes a 16 kHz mono 16-bit WAV file; the time limits grow with the recording's length. */
export async function recognizeWithPocketsphinx(
  work: Work,
  wav: string,
  durationS: number,
): Promise<RecognizedWord[]> {
  const { stdout } = await run(work, 'pocketsphinx_continuous', ['-infile', wav, '-time', 'yes'], {
    timeoutMs: Math.round(120_000 + durationS * 5_000),
    slot: 'asr',
  });
  const { words, segments } = parsePocketsphinxOutput(stdout.toString('utf8'));
  work.heartbeat({ stage: 'hints', words: words.length });
  if (words.length === 0) return words;
  let perSegment: LatticeLink[][];
  try {
    perSegment = await latticeLinks(work, wav, segments, durationS);
  } catch (err) {
    if (err instanceof ProgramFailed) return words;
    throw err;
  }
  return words.map((w) => {
    const k = segments.findIndex((s) => s.startMs <= w.startMs && w.startMs <= s.endMs);
    return k < 0 ? w : { ...w, hints: hintsAt(w, perSegment[k]) };
  });
}
