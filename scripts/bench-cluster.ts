/**
 * `npm run bench:cluster`: the engine's speed on a real Temporal cluster (scripts/lib/cluster.ts: frontend,
 * history, matching and internal worker as separate processes, mTLS, persistence and advanced visibility on
 * PostgreSQL). Measured, never asserted. Everything is the run's own under `.data/bench-cluster`: an embedded
 * PostgreSQL holding the product's database and the cluster's two, and the cluster. This process takes the
 * cluster's client variables (TEMPORAL_ADDRESS and the TLS ones), as `npm start` would be configured.
 *
 * 1. The engine part of `npm run bench` (scripts/bench-engine.ts) on the cluster: step round trip (complete,
 *    activate) against a bare update, documents/s against bare workflows with as many activities.
 * 2. Ingest: BENCH_CLUSTER_DOCUMENTS txt documents (10,000) uploaded through two API processes in turn, with
 *    BENCH_CLUSTER_IN_FLIGHT uploads (32) under way at any time, two workers (scripts/lib/scale-out.ts), through
 *    HUP -> FILE_PARSER -> a manual CLF step, until each document's CLF step is WAITING (its first human step).
 *    Documents/s over the whole burst, p99 of each document's time from its upload to its human step, errors
 *    (uploads refused), stuck documents (not at the step BENCH_CLUSTER_STUCK_SECONDS (300) after the last
 *    upload), and the rate of the last tenth of the documents to reach the step against the first tenth's
 *    (`lastToFirstRate`; the 1,000 of 10,000).
 * The load average of the machine is recorded with each part (other work shares it). Results go under `cluster`
 * in .data/bench/results.json. BENCH_CLUSTER_ROUND_TRIPS (100), BENCH_CLUSTER_ROUND_DOCUMENTS (50) and
 * BENCH_CLUSTER_ROUNDS (3) size part 1.
 */
import crypto from 'node:crypto';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { performance } from 'node:perf_hooks';
import { bundleWorkflowCode } from '@temporalio/worker';
import type { Knex } from 'knex';
import { benchEngine, printEngineResults, stats, type Stats } from './bench-engine';
import { createKnex } from '../db/connection';
import { mergeResults, RESULTS_FILE } from './lib/bench-results';
import { sizeFromEnv } from './lib/chaos';
import { CLUSTER_CHAOS_MAX_CONNECTIONS } from './lib/cluster-chaos';
import { freeClusterPort, startCluster } from './lib/cluster';
import { createDatabaseIfMissing, startEmbeddedPostgres } from './lib/postgres';
import { migrateAndSeed, ROOT } from './lib/prepare';
import { signIn, startScaleOut, type ScaleOutCluster } from './lib/scale-out';
import { WORKFLOW_INTERCEPTOR_MODULES } from '../server/temporal-context';

const DIR = path.join(ROOT, '.data', 'bench-cluster');
const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));
const loadAverage = () => os.loadavg().map((v) => Math.round(v * 100) / 100);

export interface IngestResults {
  documents: number;
  inFlight: number;
  uploadErrors: number;
  stuck: number;
  documentsPerSecond: number;
  firstHumanStepMs: Stats;
  firstHumanStepP99Ms: number;
  /** Rate of the last tenth to reach the step / rate of the first tenth. */
  lastToFirstRate: number;
  sliceSize: number;
  firstSliceRate: number;
  lastSliceRate: number;
  durationMs: number;
  loadAverage: { before: number[]; after: number[] };
}

async function ingest(
  app: ScaleOutCluster,
  knex: Knex,
  o: { documents: number; inFlight: number; stuckSeconds: number },
): Promise<IngestResults> {
  const before = loadAverage();
  const [first] = app.apis;
  const token = await signIn(first.url, 'admin', 'admin');
  const call = async <T>(url: string, init: RequestInit = {}): Promise<T> => {
    const res = await fetch(url, {
      ...init,
      headers: {
        Authorization: token,
        ...(init.body instanceof FormData ? {} : { 'Content-Type': 'application/json' }),
      },
    });
    if (!res.ok) throw new Error(`${init.method ?? 'GET'} ${url}: ${res.status} ${await res.text()}`);
    return (await res.json()) as T;
  };
  const tags = await call<{ id: number; predefined: boolean }[]>(`${first.url}/api/process-tags`);
  const processId = (
    await call<{ id: number }>(`${first.url}/api/processes`, {
      method: 'POST',
      body: JSON.stringify({
        name: `bench:cluster ingest ${crypto.randomUUID()}`,
        isRagEnabled: false,
        processTags: [{ id: tags.find((t) => t.predefined)!.id }],
        ragTextSplitter: null,
      }),
    })
  ).id;
  const nodes = await call<{ id: number; activityType: string }[]>(
    `${first.url}/api/nodes?processId=${processId}`,
  );
  const hup = nodes.find((n) => n.activityType === 'HUP')!.id;
  const node = async (json: Record<string, unknown>) =>
    (
      await call<{ id: number }>(`${first.url}/api/nodes`, {
        method: 'POST',
        body: JSON.stringify({ processId, ...json }),
      })
    ).id;
  const parser = await node({ name: 'Parser', activityType: 'FILE_PARSER', autoStepStatus: 'DONE' });
  const review = await node({ name: 'Review', activityType: 'CLF', automatic: false });
  for (const [fromId, toId] of [
    [hup, parser],
    [parser, review],
  ])
    await call(`${first.url}/api/edges`, { method: 'POST', body: JSON.stringify({ fromId, toId }) });

  // The human steps as they appear (polled), and the uploads, `inFlight` at a time, through the APIs in turn.
  const started = new Map<number, number>();
  const reached = new Map<number, number>();
  let uploading = true;
  /** When the watch gives up on documents that have not reached the step (set after the last upload). */
  let stuckAt = Infinity;
  // By document: a step row is written before it is WAITING, so its id is no cursor.
  const watch = (async () => {
    while (uploading || reached.size < started.size) {
      const rows: { documentId: number }[] = await knex('steps')
        .where({ node_id: review, status: 'WAITING' })
        .select('document_id as documentId');
      const now = performance.now();
      for (const r of rows) if (!reached.has(Number(r.documentId))) reached.set(Number(r.documentId), now);
      if (!uploading && performance.now() > stuckAt) break;
      await sleep(100);
    }
  })();
  let next = 0;
  let uploadErrors = 0;
  const t0 = performance.now();
  await Promise.all(
    Array.from({ length: o.inFlight }, async () => {
      for (let i = next++; i < o.documents; i = next++) {
        const api = app.apis[i % app.apis.length];
        const form = new FormData();
        form.append('nodeId', String(hup));
        form.append(
          'file',
          new Blob([`Ingest document ${i + 1}: ${crypto.randomUUID()}\nThe quick brown fox.\n`], {
            type: 'text/plain',
          }),
          `ingest-${i + 1}.txt`,
        );
        const at = performance.now();
        try {
          const doc = await call<{ id: number }>(`${api.url}/api/file-upload`, {
            method: 'POST',
            body: form,
          });
          started.set(doc.id, at);
        } catch {
          uploadErrors++;
        }
      }
    }),
  );
  stuckAt = performance.now() + o.stuckSeconds * 1000;
  uploading = false;
  await watch;

  const latencies = [...reached.entries()]
    .filter(([id]) => started.has(id))
    .map(([id, t]) => t - started.get(id)!);
  const times = [...reached.values()].sort((a, b) => a - b);
  const sliceSize = Math.max(1, Math.round(o.documents / 10));
  if (times.length <= sliceSize) throw new Error(`only ${times.length} documents reached their human step`);
  const firstSliceRate = sliceSize / ((times[sliceSize - 1] - t0) / 1000);
  const lastSliceRate = sliceSize / ((times[times.length - 1] - times[times.length - 1 - sliceSize]) / 1000);
  const latencyStats = stats(latencies);
  return {
    documents: o.documents,
    inFlight: o.inFlight,
    uploadErrors,
    stuck: [...started.keys()].filter((id) => !reached.has(id)).length,
    documentsPerSecond: reached.size / ((times[times.length - 1] - t0) / 1000),
    firstHumanStepMs: latencyStats,
    firstHumanStepP99Ms: latencyStats.p99,
    lastToFirstRate: lastSliceRate / firstSliceRate,
    sliceSize,
    firstSliceRate,
    lastSliceRate,
    durationMs: performance.now() - t0,
    loadAverage: { before, after: loadAverage() },
  };
}

async function main() {
  const documents = sizeFromEnv('BENCH_CLUSTER_DOCUMENTS', 10000, 20);
  const inFlight = sizeFromEnv('BENCH_CLUSTER_IN_FLIGHT', 32);
  const stuckSeconds = sizeFromEnv('BENCH_CLUSTER_STUCK_SECONDS', 300);
  const roundTrips = sizeFromEnv('BENCH_CLUSTER_ROUND_TRIPS', 100);
  const roundDocuments = sizeFromEnv('BENCH_CLUSTER_ROUND_DOCUMENTS', 50);
  const rounds = sizeFromEnv('BENCH_CLUSTER_ROUNDS', 3);
  fs.rmSync(DIR, { recursive: true, force: true });
  fs.mkdirSync(DIR, { recursive: true });
  const stops: (() => Promise<unknown>)[] = [];
  try {
    const bundling = bundleWorkflowCode({
      workflowsPath: require.resolve('../workflows/index'),
      workflowInterceptorModules: WORKFLOW_INTERCEPTOR_MODULES,
      logger: { trace() {}, debug() {}, info() {}, warn: console.warn, error: console.error, log() {} },
    });
    bundling.catch(() => {});
    const pg = await startEmbeddedPostgres(path.join(DIR, 'pg'), {
      persistent: false,
      flags: ['-c', `max_connections=${CLUSTER_CHAOS_MAX_CONNECTIONS}`],
    });
    stops.push(() => pg.stop());
    await createDatabaseIfMissing(pg.serverUrl, 'workbench_bench');
    const databaseUrl = pg.urlFor('workbench_bench');
    await migrateAndSeed(databaseUrl);
    const server = new URL(pg.serverUrl);
    const cluster = await startCluster({
      dataDir: path.join(DIR, 'cluster'),
      frontendPort: await freeClusterPort(),
      postgres: {
        host: server.hostname,
        port: pg.port,
        user: decodeURIComponent(server.username),
        password: decodeURIComponent(server.password),
        stop: async () => {},
      },
    });
    stops.push(() => cluster.stop());
    // This process's API, worker and client go to the cluster as `npm start` would: by the variables alone.
    Object.assign(process.env, cluster.clientEnv);
    const code = (await bundling).code;
    const bundlePath = path.join(DIR, 'workflow-bundle.js');
    fs.writeFileSync(bundlePath, code);

    console.log(`[bench:cluster] engine part (load average ${loadAverage().join(', ')})...`);
    const engineLoad = loadAverage();
    const engine = await benchEngine({
      databaseUrl,
      temporalAddress: cluster.address,
      workflowCode: code,
      filesDir: path.join(DIR, 'files-engine'),
      roundTrips,
      documents: roundDocuments,
      rounds,
      temporalLabel:
        'Temporal cluster v1.32.2 (4 services, PostgreSQL, mTLS); worker and API in the bench process',
    });
    printEngineResults(engine);
    const engineLoadAfter = loadAverage();

    console.log(
      `[bench:cluster] ingest of ${documents} documents (load average ${loadAverage().join(', ')})...`,
    );
    const app = await startScaleOut({
      databaseUrl,
      temporalAddress: cluster.address,
      apis: 2,
      workers: 2,
      env: { ...cluster.clientEnv, WORKFLOW_BUNDLE_PATH: bundlePath },
    });
    stops.push(() => app.stop());
    const knex = createKnex(databaseUrl, { min: 0, max: 2 });
    stops.push(() => knex.destroy());
    const ingested = await ingest(app, knex, { documents, inFlight, stuckSeconds });
    const result = {
      date: new Date().toISOString(),
      machine: engine.machine,
      temporal: engine.temporal,
      roundTrip: engine.roundTrip,
      throughput: engine.throughput,
      engineLoadAverage: { before: engineLoad, after: engineLoadAfter },
      ingest: ingested,
    };
    mergeResults({ cluster: result });
    const i = ingested;
    console.log(
      `\ningest: ${i.documents} documents, ${i.documentsPerSecond.toFixed(1)} /s to the first human step; ` +
        `p99 ${i.firstHumanStepP99Ms.toFixed(0)} ms; errors ${i.uploadErrors}, stuck ${i.stuck}; last/first tenth ` +
        `${i.lastToFirstRate.toFixed(2)} (${i.lastSliceRate.toFixed(1)} / ${i.firstSliceRate.toFixed(1)} /s); ` +
        `load average ${i.loadAverage.before.join(', ')} -> ${i.loadAverage.after.join(', ')}`,
    );
    console.log(`results written under "cluster" in ${path.relative(ROOT, RESULTS_FILE)}`);
  } finally {
    for (const stop of stops.reverse())
      await stop().catch((e) => console.error('[bench:cluster] cleanup:', e));
  }
}

main().then(
  () => process.exit(0),
  (err) => {
    console.error('[bench:cluster] failed:', err);
    process.exit(1);
  },
);
