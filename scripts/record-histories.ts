/**
 * `npx tsx scripts/record-histories.ts [--tag <t>] [scenario ...]`: records the workflow histories the replay
 * suite (tests/replay/replay.test.ts) replays, into tests/replay/histories/<scenario>[.<t>][-<n>].json.
 * Without scenarios every scenario is recorded; commit the files it writes. After a `patched()` change,
 * record with `--tag <patch id>` so the new histories sit beside the old ones.
 *
 * Starts what it needs as `npm test` does: an embedded PostgreSQL of its own (.data/record-pg-<pid>, removed
 * afterwards), an in-memory Temporal dev server that suggests continue-as-new at 200 events (as the test
 * run's), one Worker (workflows/index.ts bundled from the working tree) and the API, both in this process.
 * The documents are driven through the API as a user drives them (upload, start working, complete, accept,
 * activate, rerun); only labels (classifier / NER tags) are inserted directly. Each history is fetched with
 * the client (`handle.fetchHistory()`) once the workflow is idle (its last workflow task completed) and
 * written as proto3 JSON (tests/replay/history-json.ts), with the workflow id the replay needs.
 *
 * Record new histories when a workflow gains a behaviour the recorded ones do not exercise, or after a
 * change guarded by `patched()`, so both the old (kept) and the new histories are replayed.
 */
import crypto from 'node:crypto';
import fs from 'node:fs';
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import os from 'node:os';
import path from 'node:path';
import { Client, Connection, type WorkflowHandle } from '@temporalio/client';
import { bundleWorkflowCode } from '@temporalio/worker';
import type { Knex } from 'knex';
import * as prettier from 'prettier';
import { loadConfig } from '../server/config';
import { startApi } from '../api/server';
import { createKnex } from '../db/connection';
import { historyToJson } from '../tests/replay/history-json';
import { GraphBuilder, classifierBranches, eventually, stepReaching, stepsOf } from '../tests/support/engine';
import { WorkflowNames, documentWorkflowId } from '../workflows/contract';
import { freshRunSignal } from '../workflows/document-contract';
import { RAG_INDEX_WORKFLOW, ragIndexWorkflowId } from '../workflows/rag-contract';
import { createWorker } from '../workflows/worker';
import { createDatabaseIfMissing, startEmbeddedPostgres } from './lib/postgres';
import { ROOT, migrateAndSeed } from './lib/prepare';
import { ensureTemporalCli, startTemporalDevServer } from './lib/temporal';
import { WORKFLOW_INTERCEPTOR_MODULES } from '../server/temporal-context';

export const HISTORIES_DIR = path.join(ROOT, 'tests', 'replay', 'histories');

interface Recorder {
  knex: Knex;
  client: Client;
  taskQueue: string;
  filesDir: string;
  /** The local HTTP sink of SEND_REQUEST nodes. */
  sinkUrl: string;
  http(method: string, path: string, json?: unknown): Promise<any>;
  upload(nodeId: number, name: string, text: string): Promise<number>;
  assign(docId: number, nodeId: number): Promise<void>;
  step(stepId: number, action: string): Promise<any>;
}

/** A scenario drives workflows and returns their ids: every run of each is recorded (one file per run). */
type Scenario = (r: Recorder) => Promise<string[]>;

/** A process whose HUP is its obligatory Upload node, so /api/file-upload accepts files for it. */
async function graph(knex: Knex): Promise<{ g: GraphBuilder; hup: number }> {
  const g = await GraphBuilder.create(knex);
  const hup = await g.node('HUP');
  await knex('nodes').where('id', hup).update({ obligatory: true });
  return { g, hup };
}

const tagClass = (knex: Knex, documentId: number, stepId: number, nodeId: number, classId: number) =>
  knex('classifier_tags').insert({
    document_id: documentId,
    step_id: stepId,
    node_id: nodeId,
    classifier_type_id: classId,
  });

/** Every run of a workflow's chain, oldest first (followed back through each run's continued-from run). */
async function runsOf(client: Client, workflowId: string): Promise<string[]> {
  const runs = [(await client.workflow.getHandle(workflowId).describe()).runId];
  for (;;) {
    const history = await client.workflow.getHandle(workflowId, runs[0]).fetchHistory();
    const previous = history.events?.[0]?.workflowExecutionStartedEventAttributes?.continuedExecutionRunId;
    if (!previous) return runs;
    runs.unshift(previous);
  }
}

const scenarios: Record<string, Scenario> = {
  /**
   * A txt document through HUP -> FILE_PARSER -> CLF (acceptance) -> SPAN A | SPAN B (classifier predicates)
   * and SPAN A -> CLF X (NER person) | CLF Y (NER person AND place): class A, a person tag, DONE.
   */
  async 'text-branches'(r) {
    const { g, hup } = await graph(r.knex);
    const parser = await g.node('FILE_PARSER', { autoStepStatus: 'DONE' });
    const clf = await g.node('CLF', { requiresAcceptance: true });
    const spanA = await g.node('SPAN');
    const spanB = await g.node('SPAN');
    const clfX = await g.node('CLF');
    const clfY = await g.node('CLF');
    const classA = await g.classifierType(clf);
    const classB = await g.classifierType(clf);
    const person = await g.nerTagType(spanA);
    const place = await g.nerTagType(spanA);
    await g.edge(hup, parser);
    await g.edge(parser, clf);
    for (const [to, cls] of [
      [spanA, classA],
      [spanB, classB],
    ])
      await g.predicate({ edgeId: await g.edge(clf, to), predicateType: 'CLF', nodeId: clf, clfTypeId: cls });
    await g.predicate({
      edgeId: await g.edge(spanA, clfX),
      predicateType: 'NER',
      nodeId: spanA,
      nerTagTypeId: person,
    });
    const edgeY = await g.edge(spanA, clfY);
    const and = await g.predicate({ edgeId: edgeY, predicateType: 'COMPLEX', logicalOperator: 'AND' });
    for (const tag of [person, place])
      await g.predicate({
        edgeId: edgeY,
        parentId: and,
        predicateType: 'NER',
        nodeId: spanA,
        nerTagTypeId: tag,
      });

    const doc = await r.upload(hup, 'branches.txt', 'Jan went home. The quick brown fox.\n');
    const clfStep = await stepReaching(r.knex, doc, clf, ['WAITING'], 60000);
    await tagClass(r.knex, doc, clfStep.id, clf, classA);
    await r.assign(doc, clf);
    await r.step(clfStep.id, 'complete');
    await r.step(clfStep.id, 'accept');
    const spanStep = await stepReaching(r.knex, doc, spanA, ['WAITING']);
    await r.knex('ner_tags').insert({
      document_id: doc,
      step_id: spanStep.id,
      ner_tag_type_id: person,
      type: 'SPAN_TAG',
      start_offset: 0,
      end_offset: 3,
    });
    await r.assign(doc, spanA);
    await r.step(spanStep.id, 'complete');
    const xStep = await stepReaching(r.knex, doc, clfX, ['WAITING']);
    await r.assign(doc, clfX);
    const last = await r.step(xStep.id, 'complete');
    if (last.documentStatus !== 'DONE') throw new Error(`text-branches: ${JSON.stringify(last)}`);
    return [documentWorkflowId(doc)];
  },

  /**
   * Reactivation: CLF completed with class A (SPAN A), reopened (activate), class B, completed again (SPAN B
   * added, SPAN A kept); both SPANs done (DONE); a SPAN reopened and completed; accepted, acceptance
   * cancelled.
   */
  async reactivation(r) {
    const { hup, clf, spanA, spanB, classA, classB } = await classifierBranches(r.knex);
    await r.knex('nodes').where('id', hup).update({ obligatory: true });

    const doc = await r.upload(hup, 'reactivation.txt', 'reactivation');
    const clfStep = await stepReaching(r.knex, doc, clf, ['WAITING'], 60000);
    await tagClass(r.knex, doc, clfStep.id, clf, classA);
    await r.assign(doc, clf);
    await r.step(clfStep.id, 'complete');
    await stepReaching(r.knex, doc, spanA, ['WAITING']);
    await r.step(clfStep.id, 'activate');
    await r.knex('classifier_tags').where({ document_id: doc, node_id: clf }).delete();
    await tagClass(r.knex, doc, clfStep.id, clf, classB);
    await r.step(clfStep.id, 'complete');
    const steps = await stepsOf(r.knex, doc);
    for (const st of steps.filter((x) => x.nodeId === spanA || x.nodeId === spanB)) {
      await r.assign(doc, st.nodeId);
      await r.step(st.id, 'complete');
    }
    const b = steps.find((x) => x.nodeId === spanB)!;
    await r.step(b.id, 'activate');
    await r.step(b.id, 'complete');
    await r.step(b.id, 'accept');
    const cancelled = await r.step(b.id, 'cancel-acceptance');
    if (cancelled.status !== 'WAITING') throw new Error(`reactivation: ${JSON.stringify(cancelled)}`);
    return [documentWorkflowId(doc)];
  },

  /**
   * HUP -> CLF -> FILE_PARSER -> SEND_TO_GOOGLE_DRIVE: the stored file removed before the parser runs (the
   * parser step fails: ERROR), put back and the step rerun (ACCEPTED); the drive node has no connection
   * (ERROR), rerun once and in ERROR again, where it stays.
   */
  async 'parser-rerun'(r) {
    const { g, hup } = await graph(r.knex);
    const clf = await g.node('CLF');
    const parser = await g.node('FILE_PARSER', { autoStepStatus: 'ACCEPTED' });
    const drive = await g.node('SEND_TO_GOOGLE_DRIVE', { automatic: true });
    await g.edge(hup, clf);
    await g.edge(clf, parser);
    await g.edge(parser, drive);

    const doc = await r.upload(hup, 'rerun.txt', 'Rerun fixes this text.');
    const clfStep = await stepReaching(r.knex, doc, clf, ['WAITING'], 60000);
    const stored = path.join(r.filesDir, (await r.knex('documents').where('id', doc).first('path')).path);
    const bytes = fs.readFileSync(stored);
    fs.rmSync(stored);
    await r.assign(doc, clf);
    await r.step(clfStep.id, 'complete');
    const failed = await stepReaching(r.knex, doc, parser, ['ERROR'], 60000);
    fs.writeFileSync(stored, bytes);
    await r.step(failed.id, 'rerun');
    await stepReaching(r.knex, doc, parser, ['ACCEPTED'], 60000);
    const driveStep = await stepReaching(r.knex, doc, drive, ['ERROR'], 60000);
    await r.step(driveStep.id, 'rerun');
    await eventually('the second run of the drive step', async () =>
      Number(
        (await r.knex('action_execution_results').where('step_id', driveStep.id).count({ n: '*' }))[0].n,
      ) === 2
        ? true
        : undefined,
    );
    await stepReaching(r.knex, doc, drive, ['ERROR'], 60000);
    return [documentWorkflowId(doc)];
  },

  /**
   * HUP -> CLF (automatic training on, its threshold far off) -> SPAN (training off): completing the CLF step
   * asks maybeTrainNode, completing the SPAN step does not (patch 'transit'); the graph is edited while the
   * document waits at the SPAN step (a node after it), so that move re-reads the graph of the new version.
   */
  async training(r) {
    const { g, hup } = await graph(r.knex);
    const clf = await g.node('CLF');
    const span = await g.node('SPAN');
    await g.edge(hup, clf);
    await g.edge(clf, span);
    const config = (automaticTraining: boolean) => ({
      model: 'm',
      requestPath: `${r.sinkUrl}/train`,
      automaticTraining,
      threshold: 1000,
    });
    await r
      .knex('nodes')
      .where('id', clf)
      .update({ trainable_config: config(true) });
    await r
      .knex('nodes')
      .where('id', span)
      .update({ trainable_config: config(false) });
    const doc = await r.upload(hup, 'training.txt', 'Training is asked about once.');
    const clfStep = await stepReaching(r.knex, doc, clf, ['WAITING'], 60000);
    await r.assign(doc, clf);
    await r.step(clfStep.id, 'complete');
    const spanStep = await stepReaching(r.knex, doc, span, ['WAITING'], 60000);
    const after = await g.node('CLF');
    await g.edge(span, after);
    await r.assign(doc, span);
    await r.step(spanStep.id, 'complete');
    await stepReaching(r.knex, doc, after, ['WAITING'], 60000);
    return [documentWorkflowId(doc)];
  },

  /** HUP -> FILE_PARSER with the stored file gone: the parser step ends in ERROR and stays there. */
  async 'step-error'(r) {
    const { g, hup } = await graph(r.knex);
    const clf = await g.node('CLF');
    const parser = await g.node('FILE_PARSER', { autoStepStatus: 'DONE' });
    await g.edge(hup, clf);
    await g.edge(clf, parser);
    const doc = await r.upload(hup, 'error.txt', 'This file goes missing.');
    const clfStep = await stepReaching(r.knex, doc, clf, ['WAITING'], 60000);
    fs.rmSync(path.join(r.filesDir, (await r.knex('documents').where('id', doc).first('path')).path));
    await r.assign(doc, clf);
    await r.step(clfStep.id, 'complete');
    await stepReaching(r.knex, doc, parser, ['ERROR'], 60000);
    return [documentWorkflowId(doc)];
  },

  /**
   * HUP -> CLF (acceptance) -> SPAN; the CLF step started and released 25 times: the history passes the
   * dev server's 200 events and continues as new (the carried state read by the next run), then the flow
   * goes on to DONE.
   */
  async 'continue-as-new'(r) {
    const { g, hup } = await graph(r.knex);
    const clf = await g.node('CLF', { requiresAcceptance: true });
    const span = await g.node('SPAN');
    await g.edge(hup, clf);
    await g.edge(clf, span);
    const doc = await r.upload(hup, 'many-updates.txt', 'many updates');
    const step = await stepReaching(r.knex, doc, clf, ['WAITING'], 60000);
    for (let i = 0; i < 25; i++) {
      await r.assign(doc, clf);
      await r.http('PUT', '/api/steps', { id: step.id, blockedBy: null });
    }
    await r.assign(doc, clf);
    await r.step(step.id, 'complete');
    await r.step(step.id, 'accept');
    const spanStep = await stepReaching(r.knex, doc, span, ['WAITING']);
    await r.assign(doc, span);
    await r.step(spanStep.id, 'complete');
    if ((await runsOf(r.client, documentWorkflowId(doc))).length < 2)
      throw new Error('continue-as-new: the workflow did not continue as new');
    return [documentWorkflowId(doc)];
  },

  /**
   * HUP -> CLF -> SPAN: the run waiting at CLF is asked to continue as a fresh run (`freshRun`, what
   * `npm run workflows:refresh` sends to runs of an older epoch); the fresh run completes both steps.
   */
  async 'fresh-run'(r) {
    const { g, hup } = await graph(r.knex);
    const clf = await g.node('CLF');
    const span = await g.node('SPAN');
    await g.edge(hup, clf);
    await g.edge(clf, span);
    const doc = await r.upload(hup, 'fresh-run.txt', 'fresh run');
    const step = await stepReaching(r.knex, doc, clf, ['WAITING'], 60000);
    const handle = r.client.workflow.getHandle(documentWorkflowId(doc));
    const first = (await handle.describe()).runId;
    await handle.signal(freshRunSignal);
    await eventually('a fresh run', async () => (await handle.describe()).runId !== first);
    await r.assign(doc, clf);
    await r.step(step.id, 'complete');
    const spanStep = await stepReaching(r.knex, doc, span, ['WAITING']);
    await r.assign(doc, span);
    await r.step(spanStep.id, 'complete');
    return [documentWorkflowId(doc)];
  },

  /**
   * A THRESHOLD 2 SEND_REQUEST node (to a local sink): two documents collected, the second one claims the
   * batch and starts `action-batch-<id>` (batch given); a third one collected and sent by execute-action
   * (the workflow claims the batch itself). Records both batch workflows and the second document.
   */
  async 'action-batch'(r) {
    const { g, hup } = await graph(r.knex);
    const action = await g.node('SEND_REQUEST', { automatic: true, autoStepStatus: 'ACCEPTED' });
    const after = await g.node('CLF');
    await r
      .knex('nodes')
      .where('id', action)
      .update({
        trigger_type: 'THRESHOLD',
        threshold: 2,
        settings: JSON.stringify({
          httpRequestMethod: 'POST',
          url: `${r.sinkUrl}/batch`,
          headers: {},
          requestBody: { bodyType: 'PLAIN_TEXT', plainTextBody: 'ids=${document.id}' },
        }),
      });
    await g.edge(hup, action);
    await g.edge(action, after);
    const docs: number[] = [];
    for (const name of ['a.txt', 'b.txt']) {
      const doc = await r.upload(hup, name, `batch ${name}`);
      await stepReaching(r.knex, doc, after, ['WAITING'], 60000);
      docs.push(doc);
    }
    const batch = await eventually('the threshold batch', async () => {
      const row = await r.knex('action_execution_results').where('node_id', action).first();
      return row?.status === 'SUCCESS' ? (row.batch_id as number) : undefined;
    });
    const third = await r.upload(hup, 'c.txt', 'batch c.txt');
    await stepReaching(r.knex, third, after, ['WAITING'], 60000);
    const manual = await r.http('POST', `/api/action-nodes/${action}/execute-action`);
    if (manual.status !== 'SUCCESS') throw new Error(`action-batch: ${JSON.stringify(manual)}`);
    const manualRun = await eventually('the execute-action workflow', async () => {
      for await (const w of r.client.workflow.list({
        query: `WorkflowId STARTS_WITH "action-run-${action}-"`,
      }))
        return w.workflowId;
      return undefined;
    });
    return [`action-batch-${batch}`, manualRun, documentWorkflowId(docs[1])];
  },

  /** The fetch-now of an e-mail upload node without connections: one poll, nothing imported. */
  async 'upload-poller'(r) {
    const { g } = await graph(r.knex);
    const node = await g.node('EMAIL_UPLOAD');
    const result = await r.http('PUT', `/api/email-upload-node/${node}/fetch-mail`);
    if (!result.polled) throw new Error(`upload-poller: ${JSON.stringify(result)}`);
    const id = await eventually('the poll workflow', async () => {
      for await (const w of r.client.workflow.list({
        query: `WorkflowId STARTS_WITH "upload-poll-${node}-"`,
      }))
        return w.workflowId;
      return undefined;
    });
    return [id];
  },

  /** The system check of `management/health` (an activity counting processes). */
  /**
   * A RAG process: a txt document through HUP -> FILE_PARSER reaches DONE (the document workflow indexes it:
   * patch 'rag-index'), then the process is indexed again through ragIndexWorkflow.
   */
  async rag(r) {
    const { g, hup } = await graph(r.knex);
    await r.knex('processes').where('id', g.processId).update({ is_rag_enabled: true });
    const parser = await g.node('FILE_PARSER', { autoStepStatus: 'DONE' });
    await g.edge(hup, parser);
    const doc = await r.upload(hup, 'rag.txt', 'A paragraph about lighthouses.\n\nAnother about harbours.\n');
    await eventually('the document indexed', async () => {
      const n = await r.knex('rag_chunks').where('document_id', doc).count({ n: '*' });
      return Number(n[0].n) > 0;
    });
    const workflowId = ragIndexWorkflowId('process', g.processId, crypto.randomUUID());
    await r.client.workflow.execute(RAG_INDEX_WORKFLOW, {
      taskQueue: r.taskQueue,
      workflowId,
      args: [{ processId: g.processId }],
    });
    return [documentWorkflowId(doc), workflowId];
  },

  async 'system-check'(r) {
    const workflowId = `system-check-${crypto.randomUUID()}`;
    await r.client.workflow.execute(WorkflowNames.systemCheck, {
      taskQueue: r.taskQueue,
      workflowId,
      args: [{ nonce: 'record' }],
    });
    return [workflowId];
  },
};

/** Waits until the run has no workflow task and no activity pending (or has closed), then returns its history. */
async function idleHistory(handle: WorkflowHandle) {
  return eventually(
    `an idle history of ${handle.workflowId}`,
    async () => {
      const { status, raw } = await handle.describe();
      const idle = status.name !== 'RUNNING' || (!raw.pendingWorkflowTask && !raw.pendingActivities?.length);
      return idle ? handle.fetchHistory() : undefined;
    },
    60000,
  );
}

async function main(): Promise<void> {
  const args = process.argv.slice(2);
  // `--tag <t>` names the files <scenario>.<t>[-<n>].json: new histories of a scenario after a patch, beside
  // the ones recorded before it (which stay).
  const tagAt = args.indexOf('--tag');
  const tag = tagAt >= 0 ? args.splice(tagAt, 2)[1] : undefined;
  if (tagAt >= 0 && !tag?.match(/^[a-z0-9-]+$/)) throw new Error('--tag needs a name of a-z, 0-9 and -');
  const wanted = args;
  for (const name of wanted) if (!scenarios[name]) throw new Error(`unknown scenario ${name}`);
  const names = wanted.length ? wanted : Object.keys(scenarios);
  const quiet = { trace() {}, debug() {}, info() {}, warn: console.warn, error: console.error, log() {} };
  const stops: (() => Promise<unknown>)[] = [];
  try {
    const cli = ensureTemporalCli();
    const temporal = await startTemporalDevServer(cli, {
      uiPort: null,
      dynamicConfig: { 'limit.historyCount.suggestContinueAsNew': 200 },
    });
    stops.push(() => temporal.stop());
    const dataDir = path.join(ROOT, '.data', `record-pg-${process.pid}`);
    const pg = await startEmbeddedPostgres(dataDir, { persistent: false });
    stops.push(async () => {
      await pg.stop();
      fs.rmSync(dataDir, { recursive: true, force: true });
      fs.rmSync(`${dataDir}.port`, { force: true });
    });
    await createDatabaseIfMissing(pg.serverUrl, 'workbench_record');
    const databaseUrl = pg.urlFor('workbench_record');
    await migrateAndSeed(databaseUrl);
    const filesDir = fs.mkdtempSync(path.join(os.tmpdir(), 'record-files-'));
    stops.push(async () => fs.rmSync(filesDir, { recursive: true, force: true }));

    const sink = http.createServer((req, res) => {
      req.resume();
      req.on('end', () => res.end('ok'));
    });
    await new Promise<void>((resolve) => sink.listen(0, '127.0.0.1', resolve));
    stops.push(() => new Promise((resolve) => sink.close(resolve)));

    const taskQueue = 'record-histories';
    const workerKnex = createKnex(databaseUrl, { min: 0, max: 6 });
    stops.push(() => workerKnex.destroy());
    const bundle = await bundleWorkflowCode({
      workflowsPath: require.resolve('../workflows/index'),
      workflowInterceptorModules: WORKFLOW_INTERCEPTOR_MODULES,
      logger: quiet,
    });
    const { worker, connection: workerConnection } = await createWorker({
      temporalAddress: temporal.address,
      namespace: 'default',
      taskQueue,
      knex: workerKnex,
      filesDir,
      outboundAllowlist: ['127.0.0.1'],
      workflowBundle: { code: bundle.code },
    });
    const running = worker.run();
    stops.push(async () => {
      worker.shutdown();
      await running;
      await workerConnection.close();
    });
    const api = await startApi(
      loadConfig({
        ...process.env,
        DATABASE_URL: databaseUrl,
        PORT: '0',
        TEMPORAL_ADDRESS: temporal.address,
        TEMPORAL_NAMESPACE: 'default',
        TEMPORAL_TASK_QUEUE: taskQueue,
        FILES_DIR: filesDir,
        SCHEDULE_SYNC: 'off',
      }),
    );
    stops.push(() => api.close());
    const connection = await Connection.connect({ address: temporal.address });
    stops.push(() => connection.close());
    const client = new Client({ connection, namespace: 'default' });
    const knex = createKnex(databaseUrl, { min: 0, max: 2 });
    stops.push(() => knex.destroy());

    const base = `http://127.0.0.1:${api.port}`;
    const signIn = await fetch(`${base}/api/authenticate`, {
      method: 'POST',
      headers: { 'Content-Type': 'application/json' },
      body: JSON.stringify({ username: 'admin', password: 'admin', rememberMe: false }),
    });
    const auth = signIn.headers.get('authorization');
    if (!auth) throw new Error(`sign-in failed: ${signIn.status}`);
    const call = async (method: string, p: string, body?: string | FormData, type?: string) => {
      const res = await fetch(`${base}${p}`, {
        method,
        headers: { Authorization: auth, ...(type ? { 'Content-Type': type } : {}) },
        body,
      });
      const text = await res.text();
      if (res.status >= 300) throw new Error(`${method} ${p}: ${res.status} ${text}`);
      return text ? JSON.parse(text) : null;
    };
    const recorder: Recorder = {
      knex,
      client,
      taskQueue,
      filesDir,
      sinkUrl: `http://127.0.0.1:${(sink.address() as AddressInfo).port}`,
      http: (method, p, json) =>
        json === undefined ? call(method, p) : call(method, p, JSON.stringify(json), 'application/json'),
      async upload(nodeId, name, text) {
        const form = new FormData();
        form.append('nodeId', String(nodeId));
        form.append('file', new Blob([text], { type: 'text/plain' }), name);
        return ((await call('POST', '/api/file-upload', form)) as { id: number }).id;
      },
      async assign(docId, nodeId) {
        await call('POST', `/api/step/assign?docId=${docId}&nodeId=${nodeId}`);
      },
      step: (stepId, action) => call('PUT', `/api/steps/${stepId}/${action}`),
    };

    fs.mkdirSync(HISTORIES_DIR, { recursive: true });
    for (const name of names) {
      const runs: { workflowId: string; runId: string }[] = [];
      for (const workflowId of await scenarios[name](recorder))
        for (const runId of await runsOf(client, workflowId)) runs.push({ workflowId, runId });
      for (const [i, run] of runs.entries()) {
        const history = await idleHistory(client.workflow.getHandle(run.workflowId, run.runId));
        const base = tag ? `${name}.${tag}` : name;
        const file = path.join(HISTORIES_DIR, runs.length > 1 ? `${base}-${i + 1}.json` : `${base}.json`);
        // The workflow id is the only context the replay needs beside the events. Formatted as `npm run
        // format` would (prettier), so the files stay as written.
        const json = await prettier.format(
          JSON.stringify({ workflowId: run.workflowId, history: historyToJson(history) }),
          { ...(await prettier.resolveConfig(file)), parser: 'json' },
        );
        fs.writeFileSync(file, json);
        console.log(`${path.relative(ROOT, file)}: ${history.events?.length} events, ${json.length} bytes`);
      }
    }
  } finally {
    for (const stop of stops.reverse()) await stop().catch((e) => console.error('[record] cleanup:', e));
  }
}

if (require.main === module)
  main().then(
    () => process.exit(0),
    (err) => {
      console.error('[record] failed:', err);
      process.exit(1);
    },
  );
