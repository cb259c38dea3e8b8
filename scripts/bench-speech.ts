/**
 * Hours of audio (issue 14 section 5), part of `npm run bench` (alone: BENCH_ONLY=speech). Measured, never
 * asserted. On the bench's PostgreSQL and Temporal it starts the API (serving dist/web) and a worker, then
 * builds a recording of BENCH_SPEECH_SECONDS (7200: two hours) from a minute of espeak-ng speech repeated by
 * sox, and a transcript of BENCH_SPEECH_UTTERANCES (1,500) utterances with BENCH_SPEECH_TOKENS (20,000)
 * tokens spread over it, imported through the JSON transcript parser; the document's file is the recording
 * (stored by hash as an upload stores it), its transcript and peaks stored as the file parser stores them.
 * One function per figure (FIGURES below), each given the same context:
 * - peaksMs: the file parser's peak computation for the whole recording (server/audio-peaks.ts: sox
 *   decoding it to a stream folded window by window), median of 3 runs;
 * - waveformMs: in headless Chromium, page.goto of the document page until the audio player is ready and
 *   its waveform drawn from the peaks (a fresh browser context each time: no cached peaks), median of 5.
 * Still to add with the speech workspace (issue 14 sections 2-4): openMs (workspace interactive),
 * longestPlaybackTaskMs (longest task during playback with the highlight moving and while scrolling the
 * transcript), tokenEditP95Ms (a token edit saved and shown): each a function of FIGURES over the same
 * context (the document already has its 20,000 tokens).
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
import { parseJsonTranscript } from '../activities/parser/json-transcript';
import { storeResults } from '../activities/parser/store';
import { encodePeaks, type AudioPeaks } from '../domain/audio-peaks';
import { transcriptText } from '../domain/transcript';
import { computePeaks } from '../server/audio-peaks';
import { keyOfHash } from '../server/files';
import { benchSignIn, startBenchApp, type BenchAppOptions } from './lib/bench-app';
import { benchMachine, prepareBrowserBench, signInPage, type BenchMachine } from './lib/bench-browser';

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
    drawn: number;
  };
  /** To come with the speech workspace. */
  openMs?: number;
  longestPlaybackTaskMs?: number;
  tokenEditP95Ms?: number;
  sizes?: { seconds: number; utterances: number; tokens: number; wavMb: number };
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

/** Stores the recording as an upload does (content hash, sharded) and inserts its document row. */
async function storeRecording(knex: Knex, filesDir: string, processId: number, wav: string) {
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
  const [doc] = await knex('documents')
    .insert({
      process_id: processId,
      filename: 'two-hours.wav',
      path: key,
      content_hash: contentHash,
      mime_type: 'audio/wav',
      size: fs.statSync(target).size,
      document_type: 'AUDIOFILE',
    })
    .returning('id');
  return { documentId: Number(doc.id), file: target };
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
    const context = await c.browser.newContext({ viewport: { width: 1440, height: 900 } });
    try {
      const page = await context.newPage();
      page.setDefaultTimeout(60_000);
      await signInPage(page, c.base, c.admin.login, c.admin.password);
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
          const peaks = performance.getEntriesByType('resource').find((e) => e.name.includes('/peaks'));
          return {
            domContentLoaded: nav.domContentLoadedEventEnd,
            peaksRequested: peaks ? peaks.startTime : -1,
            peaksReceived: peaks ? peaks.responseEnd : -1,
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
      drawn: mid('drawn'),
    },
  };
};

/** The figures measured, in order; the workspace's (openMs, longestPlaybackTaskMs, tokenEditP95Ms) go here. */
const FIGURES: Figure[] = [measurePeaks, measureWaveform];

export async function benchSpeech(o: SpeechBenchOptions): Promise<SpeechBenchResults> {
  const seconds = o.seconds ?? 7200;
  const utterances = o.utterances ?? 1500;
  const tokens = o.tokens ?? 20_000;
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
    ],
  });
  try {
    const t0 = performance.now();
    const recording = await buildRecording(dir, seconds);
    const transcript = parseJsonTranscript(buildTranscript(seconds, utterances, tokens));
    const admin = { login: 'admin', password: 'admin', token: await benchSignIn(app.base, 'admin', 'admin') };
    const call = async <T>(method: string, p: string, body?: unknown): Promise<T> => {
      const res = await fetch(`${app.base}${p}`, {
        method,
        headers: { 'Content-Type': 'application/json', Authorization: admin.token },
        body: body === undefined ? undefined : JSON.stringify(body),
      });
      const text = await res.text();
      if (!res.ok) throw new Error(`${method} ${p}: ${res.status} ${text.slice(0, 300)}`);
      return JSON.parse(text) as T;
    };
    const processTags = await call<{ id: number; predefined: boolean }[]>('GET', '/api/process-tags');
    const processId = (
      await call<{ id: number }>('POST', '/api/processes', {
        name: `Bench speech ${crypto.randomBytes(3).toString('hex')}`,
        isRagEnabled: false,
        processTags: [{ id: processTags.find((t) => t.predefined)!.id }],
        ragTextSplitter: null,
      })
    ).id;
    const { documentId, file } = await storeRecording(app.knex, o.filesDir, processId, recording);
    fs.rmSync(recording);
    await storeResults(app.knex, o.filesDir, documentId, {
      content: transcriptText(transcript),
      utterances: transcript,
      pages: [],
      peaks: await computePeaks(file),
    });
    const wavMb = round(fs.statSync(file).size / 1024 ** 2, 1);
    console.log(
      `speech: ${seconds} s recording (${wavMb} MB), ${transcript.length} utterances, ` +
        `${transcript.reduce((n, u) => n + u.tokens.length, 0)} tokens on document ${documentId} ` +
        `(built in ${round((performance.now() - t0) / 1000, 1)} s)`,
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
    for (const figure of FIGURES) results = { ...results, ...(await figure(context)) };
    return {
      ...results,
      sizes: {
        seconds,
        utterances: transcript.length,
        tokens: transcript.reduce((n, u) => n + u.tokens.length, 0),
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
}
