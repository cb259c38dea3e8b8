/**
 * Hours of audio (issue 14 section 5), part of `npm run bench` (alone: BENCH_ONLY=speech). Measured, never
 * asserted. On the bench's PostgreSQL and Temporal it starts the API (serving dist/web) and a worker, then
 * builds a recording of BENCH_SPEECH_SECONDS (7200: two hours) from a minute of espeak-ng speech repeated by
 * sox, and a transcript of BENCH_SPEECH_UTTERANCES (1,500) utterances with BENCH_SPEECH_TOKENS (20,000)
 * tokens spread over it: the transcript is uploaded as JSON to a process Upload -> Proofread (FILE_PARSER
 * that waits: the EDITING view), its parser step imports it, the admin starts the step; the document's file
 * is then made the recording (stored by hash as an upload stores it) with its peaks stored as the parser
 * stores them. One function per figure (FIGURES below), each given the same context:
 * - peaksMs: the file parser's peak computation for the whole recording (server/audio-peaks.ts: sox
 *   decoding it to a stream folded window by window), median of 3 runs;
 * - waveformMs: in headless Chromium, page.goto of the document page until the audio player is ready and
 *   its waveform drawn from the peaks (a fresh browser context each time: no cached peaks), median of 5;
 * - openMs, longestPlaybackTaskMs, tokenEditP95Ms: the speech workspace (scripts/bench-speech-workspace.ts).
 * BENCH_SPEECH_FIGURES=tokenEdits (names of FIGURES, comma-separated) measures only those figures.
 */
import { execFile } from 'node:child_process';
import crypto from 'node:crypto';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { performance } from 'node:perf_hooks';
import { promisify } from 'node:util';
import type { Knex } from 'knex';
import { chromium, type Browser } from 'playwright-core';
import { replacePeaks } from '../db/queries/document-peaks';
import { encodePeaks, type AudioPeaks } from '../domain/audio-peaks';
import { computePeaks } from '../server/audio-peaks';
import { keyOfHash } from '../server/files';
import { measureOpen, measurePlaybackAndScroll, measureTokenEdits } from './bench-speech-workspace';
import { benchCaller, benchProcess, benchSignIn, startBenchApp, type BenchAppOptions } from './lib/bench-app';
import { benchMachine, prepareBrowserBench, signedInContext, type BenchMachine } from './lib/bench-browser';

const exec = promisify(execFile);

export interface SpeechBenchOptions extends BenchAppOptions {
  seconds?: number;
  utterances?: number;
  tokens?: number;
}

export interface SpeechBenchResults {
  skipped?: string;
  peaksMs?: number;
  peaksRunsMs?: number[];
  peaksBytes?: number;
  waveformMs?: number;
  waveformRunsMs?: number[];
  /** Where an open's time goes (medians, ms from navigation start): app loaded, peaks requested, received. */
  waveformBreakdownMs?: {
    domContentLoaded: number;
    peaksRequested: number;
    peaksReceived: number;
    /** The document (GET api/documents/{id}) and the transcript listed below the player. */
    documentReceived: number;
    utterancesReceived: number;
    drawn: number;
  };
  /** The workspace (scripts/bench-speech-workspace.ts): open until interactive, median of 5. */
  openMs?: number;
  openRunsMs?: number[];
  /** Medians, ms from navigation start: app loaded, transcript and peaks requested and received, interactive. */
  openBreakdownMs?: Record<string, number>;
  /** The API requests of the last open, ms from navigation start. */
  openRequests?: { path: string; startMs: number; endMs: number }[];
  /** The larger of the longest task during playback and while scrolling. */
  longestPlaybackTaskMs?: number;
  playback?: { longestTaskMs: number; longTasks: number; advancedS: number; wordsHighlighted: number };
  scroll?: { longestTaskMs: number; longTasks: number; steps: number; px: number };
  tokenEditP95Ms?: number;
  tokenEditMedianMs?: number;
  tokenEditRunsMs?: number[];
  /** The PUT's own time (request sent to answer read), median. */
  tokenEditPutMedianMs?: number;
  /** The PUT's own time of each edit, in the order of `tokenEditRunsMs`. */
  tokenEditPutRunsMs?: number[];
  sizes?: { seconds: number; utterances: number; tokens: number; wavMb: number };
  /** The figures measured (BENCH_SPEECH_FIGURES, all by default). */
  figures?: string[];
  machine?: BenchMachine;
}

const TARGETS = {
  openMs: 1500,
  waveformMs: 1000,
  longestPlaybackTaskMs: 50,
  tokenEditP95Ms: 150,
  peaksMs: 10_000,
};

/** What every figure's function gets: the running app, the browser and the measured document. */
export interface SpeechBenchContext {
  knex: Knex;
  base: string;
  browser: Browser;
  admin: { login: string; password: string; token: string };
  processId: number;
  documentId: number;
  /** The recording's absolute path (the stored file). */
  wav: string;
}

type Figure = (c: SpeechBenchContext) => Promise<Partial<SpeechBenchResults>>;

const round = (x: number, d = 0) => Math.round(x * 10 ** d) / 10 ** d;
const median = (xs: number[]) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)];

/** Sentences espeak-ng says in about a minute; repeated to the length wanted. */
const SENTENCES = [
  'Good morning and welcome to the weekly meeting of the planning committee.',
  'We will start with the budget, then the schedule of the new building, and questions at the end.',
  'The report from the last quarter shows that costs were lower than expected.',
  'However the delivery of materials was late by two weeks because of the weather.',
  'The contractor promised to recover the time before the end of the summer.',
  'Several residents asked about the noise and the closing of the road near the school.',
  'We agreed to publish the working hours and to keep one lane open at all times.',
  'Next, the team presented three options for the heating system of the building.',
  'The second option is more expensive to install but much cheaper to run.',
  'The committee will vote on the heating system at the next meeting in two weeks.',
];

/** A WAV of `seconds` (22,050 Hz mono 16-bit, as espeak-ng speaks): a minute of speech repeated. */
async function buildRecording(dir: string, seconds: number): Promise<string> {
  const minute = path.join(dir, 'minute.wav');
  await exec('espeak-ng', ['-v', 'en-us', '-w', minute, SENTENCES.join(' ')]);
  const { stdout } = await exec('sox', ['--i', '-D', minute]);
  const repeats = Math.max(0, Math.ceil(seconds / Number(stdout.trim())) - 1);
  const out = path.join(dir, 'recording.wav');
  await exec('sox', [minute, out, 'repeat', String(repeats), 'trim', '0', String(seconds)]);
  return out;
}

/** The JSON transcript import of `utterances` utterances and `tokens` tokens evenly over `seconds`. */
function buildTranscript(seconds: number, utterances: number, tokens: number): Buffer {
  const words = SENTENCES.join(' ').replace(/[.,]/g, '').split(' ');
  const perUtterance = tokens / utterances;
  const utteranceMs = (seconds * 1000) / utterances;
  let w = 0;
  const list = Array.from({ length: utterances }, (_, u) => {
    const count = Math.round((u + 1) * perUtterance) - Math.round(u * perUtterance);
    const tokenMs = Math.floor(utteranceMs / count);
    const start = Math.round(u * utteranceMs);
    return {
      actor: u % 3 === 2 ? 'SPEAKER2' : 'SPEAKER1',
      tokens: Array.from({ length: count }, (_, i) => ({
        value: words[w++ % words.length],
        tsStart: start + i * tokenMs,
        tsEnd: start + (i + 1) * tokenMs - 20,
        confidence: 0.9,
      })),
    };
  });
  return Buffer.from(JSON.stringify({ utterances: list }));
}

/**
 * Makes the document's file the recording, stored as an upload stores it (content hash, sharded): the
 * document came in as the JSON transcript (its parser step imported the words), its row now names the WAV.
 */
async function storeRecording(knex: Knex, filesDir: string, documentId: number, wav: string) {
  const hash = crypto.createHash('sha256');
  await new Promise<void>((resolve, reject) =>
    fs
      .createReadStream(wav)
      .on('data', (b) => hash.update(b))
      .on('end', resolve)
      .on('error', reject),
  );
  const contentHash = hash.digest('hex');
  const key = keyOfHash(contentHash);
  const target = path.join(filesDir, key);
  fs.mkdirSync(path.dirname(target), { recursive: true });
  fs.copyFileSync(wav, target);
  await knex('documents')
    .where('id', documentId)
    .update({
      filename: 'two-hours.wav',
      path: key,
      content_hash: contentHash,
      mime_type: 'audio/wav',
      size: fs.statSync(target).size,
      document_type: 'AUDIOFILE',
    });
  return target;
}

/** The parser's peaks of the whole recording (median of 3). */
const measurePeaks: Figure = async (c) => {
  const runs: number[] = [];
  let peaks: AudioPeaks | undefined;
  for (let i = 0; i < 3; i++) {
    const t0 = performance.now();
    peaks = await computePeaks(c.wav);
    runs.push(performance.now() - t0);
  }
  return {
    peaksMs: round(median(runs)),
    peaksRunsMs: runs.map((x) => round(x)),
    peaksBytes: encodePeaks(peaks!).length,
  };
};

/** The document page opened until the player is ready with its waveform drawn (median of 5). */
const measureWaveform: Figure = async (c) => {
  const runs: number[] = [];
  const marks: NonNullable<SpeechBenchResults['waveformBreakdownMs']>[] = [];
  for (let i = 0; i < 5; i++) {
    const { context, page } = await signedInContext(c.browser, c.base, c.admin.login, c.admin.password);
    try {
      const t0 = performance.now();
      await page.goto(`${c.base}/entity/process/${c.processId}/documents/${c.documentId}`);
      await page.locator('[data-testid="audio-player"][data-ready="true"]').waitFor();
      await page
        .locator('[data-testid="audio-player-waveform"] canvas')
        .first()
        .waitFor({ state: 'attached' });
      runs.push(performance.now() - t0);
      marks.push(
        await page.evaluate(`(() => {
          const nav = performance.getEntriesByType('navigation')[0];
          const find = (part) => performance.getEntriesByType('resource').find((e) => e.name.includes(part));
          const peaks = find('/peaks');
          const doc = find('/api/documents/');
          const utterances = find('/utterances');
          return {
            domContentLoaded: nav.domContentLoadedEventEnd,
            peaksRequested: peaks ? peaks.startTime : -1,
            peaksReceived: peaks ? peaks.responseEnd : -1,
            documentReceived: doc ? doc.responseEnd : -1,
            utterancesReceived: utterances ? utterances.responseEnd : -1,
            drawn: performance.now(),
          };
        })()`),
      );
    } finally {
      await context.close();
    }
  }
  const mid = (k: keyof (typeof marks)[number]) => round(median(marks.map((m) => m[k])));
  return {
    waveformMs: round(median(runs)),
    waveformRunsMs: runs.map((x) => round(x)),
    waveformBreakdownMs: {
      domContentLoaded: mid('domContentLoaded'),
      peaksRequested: mid('peaksRequested'),
      peaksReceived: mid('peaksReceived'),
      documentReceived: mid('documentReceived'),
      utterancesReceived: mid('utterancesReceived'),
      drawn: mid('drawn'),
    },
  };
};

/**
 * The bench's process (Upload -> Proofread: a FILE_PARSER step that waits, the EDITING view) and its document:
 * the JSON transcript uploaded through the API and imported by the parser step, which the admin then starts
 * (the workspace is editable). Answers once the step is the admin's.
 */
async function setUpDocument(base: string, token: string, transcript: Buffer) {
  const call = benchCaller(base, token);
  const { processId, nodes } = await benchProcess(
    call,
    `Bench speech ${crypto.randomBytes(3).toString('hex')}`,
  );
  const upload = nodes.find((n) => n.activityType === 'HUP')!;
  const proofread = (
    await call<{ id: number }>('POST', '/api/nodes', {
      processId,
      name: 'Proofread',
      activityType: 'FILE_PARSER',
      autoStepStatus: 'WAITING',
    })
  ).id;
  await call('POST', '/api/edges', { fromId: upload.id, toId: proofread });
  const form = new FormData();
  form.append('nodeId', String(upload.id));
  form.append('file', new Blob([new Uint8Array(transcript)], { type: 'application/json' }), 'two-hours.json');
  const documentId = (await call<{ id: number }>('POST', '/api/file-upload', form)).id;
  type State = { steps: { id: number; nodeId: number; status: string; errorMessage?: string }[] };
  for (const until = Date.now() + 300_000; ;) {
    const { steps } = await call<State>('GET', `/api/v2/document/${documentId}/state`);
    const step = steps.find((x) => x.nodeId === proofread && x.status === 'WAITING');
    if (step) {
      await call('POST', `/api/step/assign?docId=${documentId}&nodeId=${proofread}&stepId=${step.id}`);
      return { processId, documentId };
    }
    if (Date.now() > until || steps.some((x) => x.status === 'ERROR'))
      throw new Error(`the proofread step does not wait: ${JSON.stringify(steps)}`);
    await new Promise((r) => setTimeout(r, 500));
  }
}

/** The figures measured, in order, by name. */
const FIGURES: Record<string, Figure> = {
  peaks: measurePeaks,
  waveform: measureWaveform,
  open: measureOpen,
  playback: measurePlaybackAndScroll,
  tokenEdits: measureTokenEdits,
};

/** The figures of BENCH_SPEECH_FIGURES (names of FIGURES, comma-separated), all when it is not set. */
function figuresWanted(): [string, Figure][] {
  const named = process.env.BENCH_SPEECH_FIGURES?.split(',')
    .map((x) => x.trim())
    .filter(Boolean);
  if (!named?.length) return Object.entries(FIGURES);
  const unknown = named.filter((n) => !(n in FIGURES));
  if (unknown.length)
    throw new Error(
      `BENCH_SPEECH_FIGURES: no figure ${unknown.join(', ')} (${Object.keys(FIGURES).join(', ')})`,
    );
  return named.map((n) => [n, FIGURES[n]]);
}

export async function benchSpeech(o: SpeechBenchOptions): Promise<SpeechBenchResults> {
  const seconds = o.seconds ?? 7200;
  const utterances = o.utterances ?? 1500;
  const tokens = o.tokens ?? 20_000;
  const figures = figuresWanted();
  const prepared = prepareBrowserBench();
  if ('skipped' in prepared) return prepared;
  const { executablePath } = prepared;
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'bench-speech-'));
  const app = await startBenchApp(o, {
    queuePrefix: 'bench-speech',
    workerPoolMax: 2,
    env: { NODE_ENV: 'production' },
  });
  const browser = await chromium.launch({
    executablePath,
    args: [
      '--headless',
      '--no-sandbox',
      '--disable-gpu',
      '--no-first-run',
      '--disable-background-networking',
      // Playback without a gesture; with no sound card Chromium plays into a fake output that advances.
      '--autoplay-policy=no-user-gesture-required',
    ],
  });
  try {
    const t0 = performance.now();
    const recording = await buildRecording(dir, seconds);
    const admin = { login: 'admin', password: 'admin', token: await benchSignIn(app.base, 'admin', 'admin') };
    const { processId, documentId } = await setUpDocument(
      app.base,
      admin.token,
      buildTranscript(seconds, utterances, tokens),
    );
    const file = await storeRecording(app.knex, o.filesDir, documentId, recording);
    fs.rmSync(recording);
    await replacePeaks(app.knex, documentId, await computePeaks(file));
    const wavMb = round(fs.statSync(file).size / 1024 ** 2, 1);
    const counts = await app
      .knex('utterance_tokens as t')
      .join('utterances as u', 'u.id', 't.utterance_id')
      .where('u.document_id', documentId)
      .first(app.knex.raw('count(distinct u.id)::int as utterances, count(*)::int as tokens'));
    console.log(
      `speech: ${seconds} s recording (${wavMb} MB), ${counts.utterances} utterances, ${counts.tokens} tokens ` +
        `on document ${documentId} (built in ${round((performance.now() - t0) / 1000, 1)} s)`,
    );
    const context: SpeechBenchContext = {
      knex: app.knex,
      base: app.base,
      browser,
      admin,
      processId,
      documentId,
      wav: file,
    };
    let results: SpeechBenchResults = {};
    for (const [, figure] of figures) results = { ...results, ...(await figure(context)) };
    return {
      ...results,
      figures: figures.map(([name]) => name),
      sizes: {
        seconds,
        utterances: counts.utterances,
        tokens: counts.tokens,
        wavMb,
      },
      machine: benchMachine(browser),
    };
  } finally {
    await browser.close().catch(() => undefined);
    await app.stop();
    fs.rmSync(dir, { recursive: true, force: true });
  }
}

export function printSpeechResults(r: SpeechBenchResults): void {
  console.log('\nhours of audio (measured, not asserted)');
  if (r.skipped) {
    console.log(`  skipped: ${r.skipped}`);
    return;
  }
  console.log(`  ${'measure'.padEnd(40)} ${'value'.padStart(10)} ${'target'.padStart(10)}`);
  for (const [key, target] of Object.entries(TARGETS)) {
    const v = r[key as keyof typeof TARGETS];
    const shown = v === undefined ? 'not yet' : `${v} ms`;
    const flag = v === undefined ? '' : v < target ? 'ok' : 'OVER';
    console.log(`  ${key.padEnd(40)} ${shown.padStart(10)} ${`< ${target} ms`.padStart(10)}  ${flag}`);
  }
  if (r.playback && r.scroll)
    console.log(
      `  longest task: ${r.playback.longestTaskMs} ms in ${r.playback.advancedS} s of playback ` +
        `(${r.playback.wordsHighlighted} words highlighted), ${r.scroll.longestTaskMs} ms scrolling ` +
        `${r.scroll.px} px in ${r.scroll.steps} steps`,
    );
  if (r.openBreakdownMs) console.log(`  open (ms from navigation): ${JSON.stringify(r.openBreakdownMs)}`);
  if (r.tokenEditMedianMs !== undefined)
    console.log(
      `  token edit median: ${r.tokenEditMedianMs} ms (the PUT alone: ${r.tokenEditPutMedianMs} ms)`,
    );
}
