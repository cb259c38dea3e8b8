/**
 * The document engine half of `npm run bench` (scripts/bench.ts starts PostgreSQL and the Temporal dev server
 * and calls benchEngine). Measured, never asserted. Everything runs in this process against that one server:
 * the API (api/server.ts startApi, over HTTP on loopback), one Worker (workflows/worker.ts createWorker, the
 * workflow bundle made once) and a Temporal client for the bare baselines (workflows/bench.ts).
 *
 * 1. Human step round trip: on a document at a manual CLF step (started by the admin), `PUT
 *    /api/steps/{id}/complete` until the client sees the step DONE (the update reads the graph's version and
 *    writes the projection: one local activity since the patch 'transit'), and `PUT .../activate` until it
 *    sees WAITING again (one local projection activity); against a bare update round trip (`executeUpdate` on a workflow whose one handler
 *    stores a number). Interleaved, so drift of the machine hits both alike. The action's answer carries the
 *    document's state (as `GET /api/v2/document/{id}/state` answers it), so the round trip is the PUT alone
 *    when that state shows the new status; were it not to, the trip would go on reading the state until it
 *    does (and that time counts). A GET of the state is timed apart after each trip (`stateRead`).
 * 2. Throughput: N txt documents uploaded at once (`POST /api/file-upload`) through HUP -> automatic
 *    FILE_PARSER (autoStepStatus DONE) -> end, until every document row is DONE (the projection, polled every
 *    10 ms); against N bare workflows started at once, each calling a no-op activity as many times as one
 *    document workflow ran activities (counted in its history). Rounds alternate engine and bare; the rate of
 *    each round is N / (last done - first start); latency is per document from its start to its DONE.
 */
import crypto from 'node:crypto';
import os from 'node:os';
import { performance } from 'node:perf_hooks';
import { Client, Connection } from '@temporalio/client';
import type { Knex } from 'knex';
import { benchSetLocalUpdate, benchSetUpdate } from '../workflows/bench';
import { documentWorkflowId, stepActionUpdates } from '../workflows/contract';
import { benchSignIn, startBenchApp } from './lib/bench-app';
import { connectOptions, loadTemporalConnection } from '../server/temporal-connection';

export interface EngineBenchOptions {
  databaseUrl: string;
  temporalAddress: string;
  /** The workflow bundle (workflows/index.ts), made once by the caller. */
  workflowCode: string;
  filesDir: string;
  /** Measured round trips of each kind (complete, activate, bare update x2); default 100. */
  roundTrips?: number;
  /** Documents per throughput round; default 50. */
  documents?: number;
  /** Throughput rounds of each kind; default 3. */
  rounds?: number;
  /** What the Temporal server is, for the results (default: the dev server of `npm run bench`). */
  temporalLabel?: string;
}

export interface Stats {
  n: number;
  median: number;
  p99: number;
  mean: number;
  min: number;
  max: number;
}

export interface EngineBenchResults {
  machine: { cpu: string; cpus: number; memoryGiB: number; os: string; node: string };
  temporal: string;
  roundTrip: {
    /** ms: PUT complete until the client sees the step DONE (in the answer's document state). */
    complete: Stats;
    /** ms: PUT activate until the client sees the step WAITING. */
    activate: Stats;
    /**
     * ms: the same two actions sent straight to the document workflow (executeUpdate, no API): what the
     * engine costs apart from the HTTP requests, their authorization and the projection reads.
     */
    engineComplete: Stats;
    engineActivate: Stats;
    /** ms: a GET of the document's state, timed after each human round trip (not part of it). */
    stateRead: Stats;
    /** ms: a bare update whose handler awaits one no-op local activity (the floor of an update that projects). */
    bareLocalUpdate: Stats;
    /** ms: executeUpdate on the bare workflow. */
    bareUpdate: Stats;
    /** complete / bareUpdate (the step that moves the flow on), of the medians and of the p99s. */
    ratioMedian: number;
    ratioP99: number;
    /** activate / bareUpdate, of the medians and of the p99s. */
    activateRatioMedian: number;
    activateRatioP99: number;
  };
  throughput: {
    documents: number;
    rounds: number;
    /** Activities one document workflow ran (HUP -> FILE_PARSER -> end), so also each bare workflow. */
    activitiesPerWorkflow: number;
    /** Documents per second of each round, and their median. */
    engineRounds: number[];
    bareRounds: number[];
    engineDocsPerSecond: number;
    bareWorkflowsPerSecond: number;
    /** ms per document from its start to DONE, all rounds. */
    engineLatency: Stats;
    bareLatency: Stats;
    /** bare / engine of the median rates: how many times faster the bare workflows go. */
    ratio: number;
  };
}

/** Nearest-rank percentile of sorted values. */
const percentile = (sorted: number[], p: number) =>
  sorted[Math.min(sorted.length - 1, Math.max(0, Math.ceil((p / 100) * sorted.length) - 1))];

export function stats(values: number[]): Stats {
  const sorted = [...values].sort((a, b) => a - b);
  return {
    n: sorted.length,
    median: percentile(sorted, 50),
    p99: percentile(sorted, 99),
    mean: sorted.reduce((a, b) => a + b, 0) / sorted.length,
    min: sorted[0],
    max: sorted[sorted.length - 1],
  };
}

const median = (values: number[]) =>
  percentile(
    [...values].sort((a, b) => a - b),
    50,
  );
const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

async function insertNode(
  knex: Knex,
  processId: number,
  activityType: string,
  fields: { automatic: boolean; autoStepStatus: string; obligatory?: boolean },
): Promise<number> {
  const [row] = await knex('nodes')
    .insert({
      process_id: processId,
      name: `${activityType} ${crypto.randomBytes(3).toString('hex')}`,
      activity_type: activityType,
      automatic: fields.automatic,
      auto_step_status: fields.autoStepStatus,
      obligatory: fields.obligatory ?? false,
    })
    .returning('id');
  return row.id;
}

/** A process HUP -> <next>; returns the ids. */
async function buildProcess(
  knex: Knex,
  name: string,
  next: { activityType: string; automatic: boolean; autoStepStatus: string },
): Promise<{ processId: number; hup: number; next: number }> {
  const [proc] = await knex('processes').insert({ name }).returning('id');
  const tag = await knex('process_tags').where({ predefined: true }).orderBy('id').first('id');
  if (tag) await knex('process_process_tags').insert({ process_id: proc.id, process_tag_id: tag.id });
  const hup = await insertNode(knex, proc.id, 'HUP', {
    automatic: true,
    autoStepStatus: 'ACCEPTED',
    obligatory: true,
  });
  const nextId = await insertNode(knex, proc.id, next.activityType, next);
  await knex('edges').insert({ process_id: proc.id, from_id: hup, to_id: nextId });
  return { processId: proc.id, hup, next: nextId };
}

export async function benchEngine(o: EngineBenchOptions): Promise<EngineBenchResults> {
  const roundTrips = o.roundTrips ?? 100;
  const documents = o.documents ?? 50;
  const rounds = o.rounds ?? 3;
  const app = await startBenchApp(o, { queuePrefix: 'bench', workerPoolMax: 10 });
  const { taskQueue, knex, base } = app;
  // TLS, mTLS and an API key as the environment configures them (the in-process worker and API read it too).
  const connection = await Connection.connect(connectOptions(loadTemporalConnection(), o.temporalAddress));
  const client = new Client({ connection, namespace: 'default' });
  const bare: string[] = [];

  try {
    const auth = await benchSignIn(base, 'admin', 'admin');
    const http = async (method: string, path: string): Promise<any> => {
      const res = await fetch(`${base}${path}`, { method, headers: { Authorization: auth } });
      const body = await res.text();
      if (res.status !== 200) throw new Error(`${method} ${path}: ${res.status} ${body}`);
      return body ? JSON.parse(body) : null;
    };
    const upload = async (nodeId: number, name: string, text: string): Promise<number> => {
      const form = new FormData();
      form.append('nodeId', String(nodeId));
      form.append('file', new Blob([text], { type: 'text/plain' }), name);
      const res = await fetch(`${base}/api/file-upload`, {
        method: 'POST',
        headers: { Authorization: auth },
        body: form,
      });
      const body = await res.text();
      if (res.status !== 201) throw new Error(`upload: ${res.status} ${body}`);
      return (JSON.parse(body) as { id: number }).id;
    };

    // --- 1. human step round trip vs bare update round trip ---
    const human = await buildProcess(knex, `Bench human step ${crypto.randomUUID()}`, {
      activityType: 'CLF',
      automatic: false,
      autoStepStatus: 'WAITING',
    });
    const docId = await upload(human.hup, 'human-step.txt', 'A document for the human step round trip.\n');
    let stepId = 0;
    for (const until = Date.now() + 30000; !stepId; await sleep(20)) {
      if (Date.now() > until) throw new Error('the CLF step of the bench document did not appear');
      const step = await knex('steps')
        .where({ document_id: docId, node_id: human.next, status: 'WAITING' })
        .first('id');
      stepId = step?.id ?? 0;
    }
    await http('POST', `/api/step/assign?docId=${docId}&nodeId=${human.next}`);
    type State = { steps: { id: number; status: string }[] };
    const statusIn = (state: State | null | undefined) => state?.steps.find((s) => s.id === stepId)?.status;
    const readState = async () => (await http('GET', `/api/v2/document/${docId}/state`)) as State;
    /** ms of a GET of the state alone, timed after each human round trip. */
    const stateReads: number[] = [];
    const humanTrip = async (action: 'complete' | 'activate', expected: string): Promise<number> => {
      const t0 = performance.now();
      const answer = (await http('PUT', `/api/steps/${stepId}/${action}`)) as { documentState?: State };
      if (statusIn(answer.documentState) !== expected)
        while (statusIn(await readState()) !== expected) {
          // Not expected: the update returns once the projection is written and the answer reads it after.
        }
      const elapsed = performance.now() - t0;
      const t1 = performance.now();
      if (statusIn(await readState()) !== expected) throw new Error(`the state does not show ${expected}`);
      stateReads.push(performance.now() - t1);
      return elapsed;
    };
    const updateHandle = await client.workflow.start('benchUpdateWorkflow', {
      taskQueue,
      workflowId: `bench-update-${crypto.randomUUID()}`,
      args: [],
    });
    bare.push(updateHandle.workflowId);
    let n = 0;
    const bareTrip = async (): Promise<number> => {
      const t0 = performance.now();
      await updateHandle.executeUpdate(benchSetUpdate, { args: [++n] });
      return performance.now() - t0;
    };
    const bareLocalTrip = async (): Promise<number> => {
      const t0 = performance.now();
      await updateHandle.executeUpdate(benchSetLocalUpdate, { args: [++n] });
      return performance.now() - t0;
    };
    const bareLocal: number[] = [];
    const admin = await knex('users').where('login', 'admin').first('id');
    const docHandle = client.workflow.getHandle(documentWorkflowId(docId));
    const engineTrip = async (action: 'complete' | 'activate'): Promise<number> => {
      const t0 = performance.now();
      await docHandle.executeUpdate(stepActionUpdates[action], {
        args: [{ stepId, actor: { userId: Number(admin.id), login: 'admin', nodeMode: 'ADMIN' } }],
      });
      return performance.now() - t0;
    };
    const complete: number[] = [];
    const engineComplete: number[] = [];
    const engineActivate: number[] = [];
    const activate: number[] = [];
    const bareUpdate: number[] = [];
    const warmUp = 10;
    for (let i = 0; i < warmUp + roundTrips; i++) {
      const c = await humanTrip('complete', 'DONE');
      const b1 = await bareTrip();
      const a = await humanTrip('activate', 'WAITING');
      const b2 = await bareTrip();
      if (i < warmUp) continue;
      complete.push(c);
      activate.push(a);
      const ec = await engineTrip('complete');
      const ea = await engineTrip('activate');
      bareLocal.push(await bareLocalTrip());
      bareUpdate.push(b1, b2);
      engineComplete.push(ec);
      engineActivate.push(ea);
    }
    await updateHandle.terminate('bench done');
    const completeStats = stats(complete);
    const activateStats = stats(activate);
    const bareStats = stats(bareUpdate);

    // --- 2. documents per second vs bare workflows per second ---
    const flow = await buildProcess(knex, `Bench throughput ${crypto.randomUUID()}`, {
      activityType: 'FILE_PARSER',
      automatic: true,
      autoStepStatus: 'DONE',
    });
    let docSeq = 0;
    /** Documents of earlier rounds have lower ids: a round waits for `count` DONE documents above them. */
    let lastId = 0;
    const engineRound = async (count: number) => {
      const started = new Map<number, number>();
      const done = new Map<number, number>();
      const t0 = performance.now();
      let failed: unknown = null;
      const uploads = Promise.all(
        Array.from({ length: count }, async () => {
          const i = ++docSeq;
          const at = performance.now();
          const id = await upload(flow.hup, `bench-${i}.txt`, `Bench document ${i}: the quick brown fox.\n`);
          started.set(id, at);
          return id;
        }),
      );
      uploads.catch((err: unknown) => (failed = err));
      while (done.size < count) {
        if (failed) throw failed;
        const rows: { id: number }[] = await knex('documents')
          .where({ process_id: flow.processId, status: 'DONE' })
          .where('id', '>', lastId)
          .select('id');
        const now = performance.now();
        for (const r of rows) if (!done.has(r.id)) done.set(r.id, now);
        if (done.size < count) await sleep(10);
      }
      const ids = await uploads;
      lastId = Math.max(lastId, ...ids);
      const latencies = ids.map((id) => done.get(id)! - started.get(id)!);
      const elapsed = Math.max(...ids.map((id) => done.get(id)!)) - t0;
      return { ids, rate: count / (elapsed / 1000), latencies };
    };
    const bareRound = async (count: number, activities: number) => {
      const t0 = performance.now();
      const latencies = await Promise.all(
        Array.from({ length: count }, async () => {
          const at = performance.now();
          const workflowId = `bench-activities-${crypto.randomUUID()}`;
          await client.workflow.execute('benchActivitiesWorkflow', {
            taskQueue,
            workflowId,
            args: [activities],
          });
          return performance.now() - at;
        }),
      );
      return { rate: count / ((performance.now() - t0) / 1000), latencies };
    };

    // Warm-up (and the activity count of one document workflow, from its history).
    const warm = await engineRound(Math.min(10, documents));
    const history = await client.workflow.getHandle(`document-${warm.ids[0]}`).fetchHistory();
    // Local activities (the graph load and the projection) count as activities too: the bare workflows run
    // that many remote ones, the baseline the engine was first measured against.
    const activitiesPerWorkflow = (history.events ?? []).filter(
      (e) =>
        e.activityTaskScheduledEventAttributes ||
        e.markerRecordedEventAttributes?.markerName === 'core_local_activity',
    ).length;
    await bareRound(Math.min(10, documents), activitiesPerWorkflow);

    const engineRounds: number[] = [];
    const bareRounds: number[] = [];
    const engineLatencies: number[] = [];
    const bareLatencies: number[] = [];
    for (let r = 0; r < rounds; r++) {
      const e = await engineRound(documents);
      engineRounds.push(e.rate);
      engineLatencies.push(...e.latencies);
      const b = await bareRound(documents, activitiesPerWorkflow);
      bareRounds.push(b.rate);
      bareLatencies.push(...b.latencies);
    }
    const engineRate = median(engineRounds);
    const bareRate = median(bareRounds);

    const cpus = os.cpus();
    return {
      machine: {
        cpu: cpus[0]?.model ?? 'unknown',
        cpus: cpus.length,
        memoryGiB: Math.round((os.totalmem() / 2 ** 30) * 10) / 10,
        os: `${os.type()} ${os.release()} ${os.arch()}`,
        node: process.version,
      },
      temporal:
        o.temporalLabel ?? 'Temporal dev server (start-dev, in memory); worker and API in the bench process',
      roundTrip: {
        complete: completeStats,
        activate: activateStats,
        engineComplete: stats(engineComplete),
        engineActivate: stats(engineActivate),
        bareLocalUpdate: stats(bareLocal),
        stateRead: stats(stateReads.slice(2 * warmUp)),
        bareUpdate: bareStats,
        ratioMedian: completeStats.median / bareStats.median,
        ratioP99: completeStats.p99 / bareStats.p99,
        activateRatioMedian: activateStats.median / bareStats.median,
        activateRatioP99: activateStats.p99 / bareStats.p99,
      },
      throughput: {
        documents,
        rounds,
        activitiesPerWorkflow,
        engineRounds,
        bareRounds,
        engineDocsPerSecond: engineRate,
        bareWorkflowsPerSecond: bareRate,
        engineLatency: stats(engineLatencies),
        bareLatency: stats(bareLatencies),
        ratio: bareRate / engineRate,
      },
    };
  } finally {
    for (const id of bare)
      await client.workflow
        .getHandle(id)
        .terminate('bench done')
        .catch(() => {});
    await connection.close();
    await app.stop();
  }
}

const ms = (v: number) => `${v.toFixed(2)} ms`;
const rate = (v: number) => `${v.toFixed(1)} /s`;

/** The results as a table on stdout. */
export function printEngineResults(r: EngineBenchResults): void {
  const row = (label: string, ...cells: string[]) =>
    console.log(`${label.padEnd(52)}${cells.map((c) => c.padStart(13)).join('')}`);
  const statRow = (label: string, s: Stats) => row(label, String(s.n), ms(s.median), ms(s.p99));
  const rt = r.roundTrip;
  const tp = r.throughput;
  console.log(
    `\nDocument engine vs bare Temporal on one ${r.temporal}\n` +
      `machine: ${r.machine.cpu}, ${r.machine.cpus} CPUs, ${r.machine.memoryGiB} GiB, ${r.machine.os}, ` +
      `Node ${r.machine.node}`,
  );
  console.log('-'.repeat(91));
  row('round trip (until the client sees the new status)', 'n', 'median', 'p99');
  statRow('  human step: PUT complete, its answer shows DONE', rt.complete);
  statRow('  human step: PUT activate, its answer shows WAITING', rt.activate);
  statRow('  engine only: executeUpdate complete (no API)', rt.engineComplete);
  statRow('  engine only: executeUpdate activate (no API)', rt.engineActivate);
  statRow('  bare Temporal update (executeUpdate)', rt.bareUpdate);
  statRow('  bare update awaiting one no-op local activity', rt.bareLocalUpdate);
  statRow('  a GET of the state alone (after each human trip)', rt.stateRead);
  row('  ratio complete / bare update', '', `${rt.ratioMedian.toFixed(1)}x`, `${rt.ratioP99.toFixed(1)}x`);
  row(
    '  ratio activate / bare update',
    '',
    `${rt.activateRatioMedian.toFixed(1)}x`,
    `${rt.activateRatioP99.toFixed(1)}x`,
  );
  console.log('-'.repeat(91));
  row(
    `throughput (${tp.rounds} rounds of ${tp.documents} started at once)`,
    'per second',
    'lat. median',
    'lat. p99',
  );
  row(
    '  documents HUP -> FILE_PARSER (txt) -> end',
    rate(tp.engineDocsPerSecond),
    ms(tp.engineLatency.median),
    ms(tp.engineLatency.p99),
  );
  row(
    `  bare workflows, ${tp.activitiesPerWorkflow} no-op activities each`,
    rate(tp.bareWorkflowsPerSecond),
    ms(tp.bareLatency.median),
    ms(tp.bareLatency.p99),
  );
  row('  ratio bare / documents (median rate of the rounds)', `${tp.ratio.toFixed(1)}x`);
  console.log(
    `  rounds: documents ${tp.engineRounds.map((v) => v.toFixed(1)).join(', ')} /s; ` +
      `bare ${tp.bareRounds.map((v) => v.toFixed(1)).join(', ')} /s`,
  );
}
