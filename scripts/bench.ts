/**
 * `npm run bench`: measured, never asserted. Starts a PostgreSQL of its own (embedded) and a Temporal dev
 * server of its own (in memory), then:
 * - seeds N processes and times the hot paths of the graph slice: GET /api/processes through the real API
 *   over HTTP (as an admin and as a user holding authorities on 500 processes), name search, and access
 *   resolution in domain/;
 * - measures the document engine against bare Temporal on the same server (scripts/bench-engine.ts): the
 *   human step round trip against a bare update round trip, and documents per second through HUP ->
 *   FILE_PARSER (txt) -> end against bare workflows with as many no-op activities.
 * - measures the workspace in headless Chromium (scripts/bench-workspace.ts): opening a 100,000-character
 *   document with 5,000 tags, labelling, scrolling, heap, and the tags API.
 * Prints tables and writes everything to .data/bench/results.json. Sizes: BENCH_ROUND_TRIPS (100),
 * BENCH_DOCUMENTS (50), BENCH_ROUNDS (3), BENCH_WS_CHARS (100000), BENCH_WS_TAGS (5000),
 * BENCH_WS_RELATIONS (1000), BENCH_WS_GRAPHS (200).
 * - seeds 1,000,000 documents (BENCH_LIST_DOCUMENTS) and times the document lists of the dashboards
 *   (scripts/bench-lists.ts, issue 13), under `lists`.
 * - measures the graph page in headless Chromium (scripts/bench-graph.ts, issue 17): time to the first node
 *   drawn with 5 and with 100 nodes, under `graph` (part of the browser part, with the workspace).
 * - connects 1,000 websocket clients to the activity tracker of an API process of its own
 *   (scripts/bench-tracker.ts, issue 15): memory, report-to-admin latency, a burst, under `tracker`.
 * - measures hours of audio (scripts/bench-speech.ts, issue 14): the parser's peaks of a 2-hour recording, the
 *   waveform drawn from them in Chromium, and the speech workspace on it (open, long tasks during playback and
 *   scrolling, inline token edits), under `speech`. Sizes: BENCH_SPEECH_SECONDS (7200),
 *   BENCH_SPEECH_UTTERANCES (1500), BENCH_SPEECH_TOKENS (20000); BENCH_SPEECH_PROFILE=1 adds CPU profiles;
 *   BENCH_SPEECH_FIGURES (e.g. `tokenEdits`, or `peaks,waveform,open,playback`) measures only those.
 * - seeds 200,000 finished SPAN steps (BENCH_EXPORT_ROWS) and measures the peak RSS of streaming their
 *   step-result export in JSON, CSV and CoNLL, and of one 50 MB document with 100,000 tags (BENCH_EXPORT_LONG_MB,
 *   BENCH_EXPORT_LONG_TAGS) in CoNLL, JSONL and JSON (scripts/bench-export.ts, issues 16 and 25), under `export`.
 * - seeds 100,000 chunks (BENCH_RAG_CHUNKS) and 200 fact documents (BENCH_RAG_DOCUMENTS) in a RAG process and
 *   measures recall@10 of the lexical retrieval and its time (scripts/bench-rag.ts, issue 16), under `rag`.
 * - seeds 1,000,000 documents over a year with their steps, tags and work stretches (BENCH_STAT_DOCUMENTS;
 *   the rollups built by the triggers of migrations 023 and 025) and times `POST api/statistics` of each type over a
 *   year and a month (scripts/bench-statistics.ts, issue 16), under `statistics`.
 * - uploads 50 Word documents at once (BENCH_DOCX_DOCUMENTS) to one worker process with the default parser caps
 *   and measures the time until all wait at their first human step and the worker's peak RSS, LibreOffice
 *   included and not (scripts/bench-docx.ts, issue 27), under `worker.docxBurst`;
 * - sends the webhooks of 1,000 documents (BENCH_WEBHOOK_DOCUMENTS) through a 3-node flow to one subscriber
 *   (scripts/bench-webhooks.ts, issue 32): every event delivered?, change-to-delivery latency, under `webhooks`.
 * - seeds a CLF and a SPAN node of 10,000 documents x 3 annotators (BENCH_AGREEMENT_DOCUMENTS) and times
 *   GET api/nodes/{id}/agreement (scripts/bench-agreement.ts, issue 31), under `agreement` (`agreement.p99Ms`).
 * BENCH_ONLY=engine (the document engine alone: round trips and throughput), BENCH_ONLY=workspace (the
 * browser part: workspace and graph page), BENCH_ONLY=graph, BENCH_ONLY=lists, BENCH_ONLY=speech,
 * BENCH_ONLY=tracker, BENCH_ONLY=export, BENCH_ONLY=rag, BENCH_ONLY=statistics, BENCH_ONLY=docx, BENCH_ONLY=webhooks, BENCH_ONLY=timeline or BENCH_ONLY=agreement runs only that part (its
 * figures merged into the results file).
 *
 * Every part is isolated (scripts/lib/bench-parts.ts): Chromium, espeak-ng, sox and LibreOffice are installed first when
 * missing (scripts/lib/system-deps.ts); a part whose programs are still missing is skipped with the command
 * that installs them, a part that fails is reported, and the other parts run and write their figures (each
 * as it ends; `lastRun` in the results file says what each part did). The run exits 1 when a part failed.
 */
import fs from 'node:fs';
import os from 'node:os';
import { spawnSync } from 'node:child_process';
import path from 'node:path';
import { performance } from 'node:perf_hooks';
import { bundleWorkflowCode } from '@temporalio/worker';
import { loadConfig } from '../server/config';
import { startApi } from '../api/server';
import type { Knex } from 'knex';
import { createKnex } from '../db/connection';
import { processMode } from '../domain/access';
import { benchEngine, printEngineResults } from './bench-engine';
import { benchWebhooks, printWebhookResults } from './bench-webhooks';
import { benchExport, printExportResults } from './bench-export';
import { benchGraph, printGraphResults } from './bench-graph';
import { benchLists, printListsResults } from './bench-lists';
import { benchRag, printRagResults } from './bench-rag';
import { benchSpeech, printSpeechResults } from './bench-speech';
import { benchStatistics, printStatisticsResults } from './bench-statistics';
import { benchTracker, printTrackerResults } from './bench-tracker';
import { benchDocxBurst, printDocxBurstResults } from './bench-docx';
import { benchWorkspace, printWorkspaceResults } from './bench-workspace';
import { RESULTS_FILE } from './lib/bench-results';
import { benchTimeline, printTimelineResults } from './bench-timeline';
import { benchAgreement, printAgreementResults } from './bench-agreement';
import { BENCH_PART_NEEDS, type BenchPart, partsOf, runBenchParts } from './lib/bench-parts';
import { ensureSystemPrograms } from './lib/system-deps';
import { createDatabaseIfMissing, dropDatabase, startEmbeddedPostgres } from './lib/postgres';
import { migrateAndSeed, ROOT } from './lib/prepare';
import { ensureTemporalCli, startTemporalDevServer } from './lib/temporal';
import { WORKFLOW_INTERCEPTOR_MODULES } from '../server/temporal-context';

/** ms per operation of the API and domain measurements, by label. */
const apiResults: Record<string, { msPerOp: number; runs: number }> = {};

async function time(label: string, runs: number, fn: () => Promise<unknown> | unknown) {
  await fn();
  const t0 = performance.now();
  for (let i = 0; i < runs; i++) await fn();
  const ms = (performance.now() - t0) / runs;
  apiResults[label] = { msPerOp: ms, runs };
  console.log(`${label.padEnd(48)} ${ms.toFixed(3)} ms/op  (${runs} runs)`);
}

const sizeFromEnv = (name: string, fallback: number) => {
  const v = Number(process.env[name] ?? fallback);
  if (!Number.isInteger(v) || v < 1) throw new Error(`${name} must be a positive integer`);
  return v;
};

async function main(): Promise<number> {
  const only = process.env.BENCH_ONLY;
  const wanted = partsOf(only);
  // Chromium, espeak-ng and sox, installed when missing (scripts/lib/system-deps.ts); what cannot be
  // installed leaves the parts that need it skipped, the others run.
  const missing = new Map(
    (await ensureSystemPrograms('bench', ROOT, process.env, { partial: true })).map((m) => [m.name, m.lacks]),
  );
  // BENCH_ONLY=rag needs neither Temporal nor the workflow bundle: neither is started (on a loaded machine
  // they take minutes). A Temporal CLI that cannot be found or installed fails the parts that need it only.
  const engineless = only === 'rag';
  const notStarted = () => Promise.reject(new Error('not started with BENCH_ONLY=rag'));
  const temporalPromise = engineless
    ? (notStarted() as ReturnType<typeof startTemporalDevServer>)
    : Promise.resolve().then(() => startTemporalDevServer(ensureTemporalCli(), { uiPort: null }));
  const bundlePromise = engineless
    ? (notStarted() as ReturnType<typeof bundleWorkflowCode>)
    : bundleWorkflowCode({
        workflowsPath: require.resolve('../workflows/index'),
        workflowInterceptorModules: WORKFLOW_INTERCEPTOR_MODULES,
        logger: { trace() {}, debug() {}, info() {}, warn: console.warn, error: console.error, log() {} },
      });
  // Settled either way, so a failure of one does not leave the other running unobserved.
  temporalPromise.catch(() => {});
  bundlePromise.catch(() => {});
  const pg = await startEmbeddedPostgres(path.join(ROOT, '.data', 'bench-pg'), { persistent: false });
  const db = 'workbench_bench';
  await createDatabaseIfMissing(pg.serverUrl, db);
  const knex = createKnex(pg.urlFor(db));
  const filesDir = fs.mkdtempSync(path.join(os.tmpdir(), 'bench-files-'));
  const databaseUrl = pg.urlFor(db);
  /** What the parts on the engine share: the dev server and the workflow bundle. */
  const onEngine = async () => ({
    databaseUrl,
    temporalAddress: (await temporalPromise).address,
    workflowCode: (await bundlePromise).code,
    filesDir,
  });
  const dated = (key: string, r: object | undefined) =>
    r && !('skipped' in r) ? { [key]: { date: new Date().toISOString(), ...r } } : r;
  const parts: BenchPart[] = [
    // GET /api/processes and access resolution in domain/.
    { name: 'api', run: () => benchApi(knex, databaseUrl) },
    // The document engine against bare Temporal (scripts/bench-engine.ts).
    {
      name: 'engine',
      run: async () => {
        const engine = await benchEngine({
          ...(await onEngine()),
          roundTrips: sizeFromEnv('BENCH_ROUND_TRIPS', 100),
          documents: sizeFromEnv('BENCH_DOCUMENTS', 50),
          rounds: sizeFromEnv('BENCH_ROUNDS', 3),
        });
        printEngineResults(engine);
        console.log('');
        return dated('engine', engine);
      },
    },
    // Webhooks (scripts/bench-webhooks.ts): N documents through a 3-node flow, one subscriber to every event.
    {
      name: 'webhooks',
      run: async () => {
        const r = await benchWebhooks({
          ...(await onEngine()),
          documents: sizeFromEnv('BENCH_WEBHOOK_DOCUMENTS', 1000),
        });
        printWebhookResults(r);
        return dated('webhooks', r);
      },
    },
    // The lexicon matcher: 100,000 characters against 1,000 rules (pure code, its own process; printed only).
    {
      name: 'lexicon',
      run: async () => {
        const r = spawnSync(
          path.join(ROOT, 'node_modules', '.bin', 'tsx'),
          [path.join(ROOT, 'scripts', 'bench-lexicon.ts')],
          { stdio: 'inherit' },
        );
        if (r.status !== 0) throw new Error(`scripts/bench-lexicon.ts exited with ${r.status ?? r.signal}`);
        return undefined;
      },
    },
    // The workspace in the browser (scripts/bench-workspace.ts), on the same servers.
    {
      name: 'workspace',
      needs: BENCH_PART_NEEDS.workspace,
      run: async () => {
        const r = await benchWorkspace({
          ...(await onEngine()),
          chars: sizeFromEnv('BENCH_WS_CHARS', 100_000),
          tags: sizeFromEnv('BENCH_WS_TAGS', 5000),
          relations: sizeFromEnv('BENCH_WS_RELATIONS', 1000),
          graphs: sizeFromEnv('BENCH_WS_GRAPHS', 200),
        });
        printWorkspaceResults(r);
        return dated('workspace', r);
      },
    },
    // The graph page in the browser (scripts/bench-graph.ts), on the same servers.
    {
      name: 'graph',
      needs: BENCH_PART_NEEDS.graph,
      run: async () => {
        const r = await benchGraph(await onEngine());
        printGraphResults(r);
        return dated('graph', r);
      },
    },
    // The document lists at scale (scripts/bench-lists.ts): seeds its own process in the same database.
    {
      name: 'lists',
      run: async () => {
        const r = await benchLists({
          databaseUrl,
          documents: sizeFromEnv('BENCH_LIST_DOCUMENTS', 1_000_000),
        });
        printListsResults(r);
        return dated('lists', r);
      },
    },
    // Hours of audio (scripts/bench-speech.ts): a 2-hour espeak-ng + sox recording in the same database.
    {
      name: 'speech',
      needs: BENCH_PART_NEEDS.speech,
      run: async () => {
        const r = await benchSpeech({
          ...(await onEngine()),
          seconds: sizeFromEnv('BENCH_SPEECH_SECONDS', 7200),
          utterances: sizeFromEnv('BENCH_SPEECH_UTTERANCES', 1500),
          tokens: sizeFromEnv('BENCH_SPEECH_TOKENS', 20_000),
        });
        printSpeechResults(r);
        return dated('speech', r);
      },
    },
    // The step-result export at scale (scripts/bench-export.ts): peak RSS of a streamed export.
    {
      name: 'export',
      run: async () => {
        const r = await benchExport({
          databaseUrl,
          rows: sizeFromEnv('BENCH_EXPORT_ROWS', 200_000),
          longMb: sizeFromEnv('BENCH_EXPORT_LONG_MB', 50),
          longTags: sizeFromEnv('BENCH_EXPORT_LONG_TAGS', 100_000),
        });
        printExportResults(r);
        return dated('export', r);
      },
    },
    // RAG retrieval at scale (scripts/bench-rag.ts): quality and time of the lexical path.
    {
      name: 'rag',
      run: async () => {
        const r = await benchRag({
          databaseUrl,
          chunks: sizeFromEnv('BENCH_RAG_CHUNKS', 100_000),
          documents: sizeFromEnv('BENCH_RAG_DOCUMENTS', 200),
        });
        printRagResults(r);
        return {
          rag: {
            date: new Date().toISOString(),
            load: os.loadavg().map((x) => Math.round(x * 100) / 100),
            ...r,
          },
        };
      },
    },
    // Statistics at scale (scripts/bench-statistics.ts): seeds its own process in the same database.
    {
      name: 'statistics',
      run: async () => {
        const r = await benchStatistics({
          databaseUrl,
          documents: sizeFromEnv('BENCH_STAT_DOCUMENTS', 1_000_000),
          runs: sizeFromEnv('BENCH_STAT_RUNS', 100),
        });
        printStatisticsResults(r);
        return { statistics: { date: new Date().toISOString(), load: os.loadavg(), ...r } };
      },
    },
    // The activity tracker with 1,000 clients (scripts/bench-tracker.ts), on the same database.
    {
      name: 'tracker',
      run: async () => {
        const r = await benchTracker({
          databaseUrl,
          temporalAddress: (await temporalPromise).address,
          clients: sizeFromEnv('BENCH_TRACKER_CLIENTS', 1000),
          reports: sizeFromEnv('BENCH_TRACKER_REPORTS', 300),
        });
        printTrackerResults(r);
        return dated('tracker', r);
      },
    },
    // A burst of Word documents through one worker process (scripts/bench-docx.ts): time and peak RSS.
    {
      name: 'docx',
      needs: BENCH_PART_NEEDS.docx,
      run: async () => {
        const r = await benchDocxBurst({
          ...(await onEngine()),
          documents: sizeFromEnv('BENCH_DOCX_DOCUMENTS', 50),
        });
        printDocxBurstResults(r);
        return { worker: { docxBurst: { date: new Date().toISOString(), ...r } } };
      },
    },
    // A document's timeline over 2,000 history events (scripts/bench-timeline.ts), on the same servers.
    {
      name: 'timeline',
      run: async () => {
        const r = await benchTimeline({
          ...(await onEngine()),
          events: sizeFromEnv('BENCH_TIMELINE_EVENTS', 2000),
          reads: sizeFromEnv('BENCH_TIMELINE_READS', 5),
        });
        printTimelineResults(r);
        return dated('timeline', r);
      },
    },
    // The agreement of a node of 10,000 documents x 3 annotators (scripts/bench-agreement.ts), on the database.
    {
      name: 'agreement',
      run: async () => {
        const r = await benchAgreement({
          databaseUrl,
          documents: sizeFromEnv('BENCH_AGREEMENT_DOCUMENTS', 10_000),
          runs: sizeFromEnv('BENCH_AGREEMENT_RUNS', 20),
        });
        printAgreementResults(r);
        return dated('agreement', r);
      },
    },
  ];
  try {
    await migrateAndSeed(databaseUrl);
    const outcomes = await runBenchParts(
      parts.filter((p) => wanted.includes(p.name)),
      { missing },
    );
    console.log(`\nresults written to ${path.relative(ROOT, RESULTS_FILE)}`);
    for (const o of outcomes) if (o.status !== 'done') console.log(`  ${o.name}: ${o.status}, ${o.reason}`);
    return outcomes.some((o) => o.status === 'failed') ? 1 : 0;
  } finally {
    await knex.destroy();
    await dropDatabase(pg.serverUrl, db).catch(() => {});
    await pg.stop();
    await (await temporalPromise.catch(() => undefined))?.stop();
    fs.rmSync(filesDir, { recursive: true, force: true });
  }
}

/** GET /api/processes through the real API over HTTP, and access resolution in domain/ (under `api`). */
async function benchApi(knex: Knex, databaseUrl: string) {
  const n = 2000;
  const tag = await knex('process_tags').where({ predefined: true }).first();
  const rows = Array.from({ length: n }, (_, i) => ({ name: `Bench process ${i}` }));
  const inserted: { id: number }[] = await knex('processes').insert(rows).returning('id');
  await knex('process_process_tags').insert(
    inserted.map((p) => ({ process_id: p.id, process_tag_id: tag.id })),
  );
  console.log(`seeded ${n} processes`);
  const api = await startApi(
    loadConfig({ ...process.env, DATABASE_URL: databaseUrl, PORT: '0', TEMPORAL_ADDRESS: '127.0.0.1:1' }),
  );
  const base = `http://127.0.0.1:${api.port}`;
  const token = async (username: string, password: string) => {
    const res = await fetch(`${base}/api/authenticate`, {
      method: 'POST',
      headers: { 'Content-Type': 'application/json' },
      body: JSON.stringify({ username, password }),
    });
    return res.headers.get('authorization') ?? '';
  };
  const grants = inserted.slice(0, 500).map((p) => ({ component_id: p.id, type: 'PROCESS', mode: 'READ' }));
  const auths: { id: number }[] = await knex('authorities')
    .insert(grants)
    .onConflict()
    .ignore()
    .returning('id');
  const user = await knex('users').where({ login: 'user' }).first();
  await knex('user_authorities')
    .insert(auths.map((a) => ({ user_id: user.id, authority_id: a.id })))
    .onConflict()
    .ignore();
  const get = (path: string, auth: string) => () =>
    fetch(`${base}${path}`, { headers: { Authorization: auth } }).then(async (r) => {
      if (r.status !== 200) throw new Error(`${path}: ${r.status}`);
      return r.arrayBuffer();
    });
  try {
    const admin = await token('admin', 'admin');
    const plain = await token('user', 'user');
    await time(`GET /api/processes, admin, ${n} rows`, 20, get('/api/processes', admin));
    await time('GET /api/processes, user with 500 authorities', 20, get('/api/processes', plain));
    await time(
      'GET /api/processes?name=process 19 (admin)',
      50,
      get('/api/processes?name=process%2019', admin),
    );
    await time('GET /api/account', 100, get('/api/account', admin));
  } finally {
    await api.close();
  }
  const principal = {
    roles: ['ROLE_USER'],
    authorities: Array.from({ length: 500 }, (_, i) => ({
      componentId: i,
      type: 'PROCESS' as const,
      mode: 'READ' as const,
    })),
  };
  await time('processMode over 500 authorities (x1000)', 20, () => {
    for (let i = 0; i < 1000; i++) processMode(principal, i);
  });
  return { date: new Date().toISOString(), api: apiResults };
}

main().then(
  (code) => process.exit(code),
  (err) => {
    console.error('[bench] failed:', err);
    process.exit(1);
  },
);
