/**
 * Support of the engine suites: a real Worker on the suite's own task queue (the run's shared workflow
 * bundle, a temporary files directory), the API starting workflows on that queue, graph builders that insert
 * nodes / edges / predicates directly, documents inserted with their file and started with
 * startDocumentWorkflow, and polling of the projection.
 */
import crypto from 'node:crypto';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { Client, Connection } from '@temporalio/client';
import type { Worker } from '@temporalio/worker';
import type { Knex } from 'knex';
import { createKnex } from '../../db/connection';
import { startDocumentWorkflow } from '../../api/services/document-workflows';
import { createWorker } from '../../workflows/worker';
import { buildProcess, buildUser, setupSuite, unique, type Suite } from './harness';

export interface EngineSuite extends Suite {
  readonly taskQueue: string;
  readonly filesDir: string;
  readonly client: Client;
}

/** setupSuite() plus a Worker on a queue of the suite's own and a Temporal client. */
export function setupEngineSuite(name: string): EngineSuite {
  const taskQueue = `test-${name}-${crypto.randomUUID()}`;
  const filesDir = fs.mkdtempSync(path.join(os.tmpdir(), `engine-${name}-`));
  const suite = setupSuite({ config: { taskQueue, filesDir } });
  let worker: Worker | undefined;
  let running: Promise<void> | undefined;
  let workerKnex: Knex | undefined;
  let workerConnection: { close(): Promise<void> } | undefined;
  let connection: Connection | undefined;
  let client: Client | undefined;

  beforeAll(async () => {
    workerKnex = createKnex(process.env.DATABASE_URL!, { min: 0, max: 4 });
    const created = await createWorker({
      temporalAddress: process.env.TEMPORAL_ADDRESS!,
      namespace: 'default',
      taskQueue,
      knex: workerKnex,
      filesDir,
      workflowBundle: { codePath: process.env.WORKFLOW_BUNDLE_PATH! },
    });
    worker = created.worker;
    workerConnection = created.connection;
    running = worker.run();
    connection = await Connection.connect({ address: process.env.TEMPORAL_ADDRESS! });
    client = new Client({ connection });
  });

  afterAll(async () => {
    worker?.shutdown();
    await running;
    await workerConnection?.close();
    await connection?.close();
    await workerKnex?.destroy();
    fs.rmSync(filesDir, { recursive: true, force: true });
  });

  return Object.defineProperties(Object.create(suite), {
    taskQueue: { value: taskQueue },
    filesDir: { value: filesDir },
    client: {
      get() {
        if (!client) throw new Error('the engine suite is not started yet');
        return client;
      },
    },
  }) as EngineSuite;
}

export interface NodeOptions {
  name?: string;
  automatic?: boolean;
  autoStepStatus?: 'WAITING' | 'DONE' | 'ACCEPTED';
  requiresAcceptance?: boolean;
  mandatory?: boolean;
  additionalNodeSubmits?: { docId: number | null; submits: number }[];
}

/** Builds a process graph by direct inserts (the graph API's rules are not under test here). */
export class GraphBuilder {
  constructor(
    private knex: Knex,
    readonly processId: number,
  ) {}

  static async create(knex: Knex): Promise<GraphBuilder> {
    return new GraphBuilder(knex, (await buildProcess(knex)).id);
  }

  async node(activityType: string, opts: NodeOptions = {}): Promise<number> {
    const automatic = opts.automatic ?? ['HUP', 'FILE_PARSER', 'LEXICON'].includes(activityType);
    const [row] = await this.knex('nodes')
      .insert({
        process_id: this.processId,
        name: opts.name ?? unique(activityType),
        activity_type: activityType,
        automatic,
        auto_step_status: opts.autoStepStatus ?? (activityType === 'HUP' ? 'ACCEPTED' : 'WAITING'),
        requires_acceptance: opts.requiresAcceptance ?? false,
        mandatory: opts.mandatory ?? false,
        additional_node_submits: JSON.stringify(opts.additionalNodeSubmits ?? []),
      })
      .returning('id');
    return row.id;
  }

  async edge(fromId: number, toId: number): Promise<number> {
    const [row] = await this.knex('edges')
      .insert({ process_id: this.processId, from_id: fromId, to_id: toId })
      .returning('id');
    return row.id;
  }

  async predicate(p: {
    edgeId: number;
    predicateType: 'COMPLEX' | 'CLF' | 'NER';
    parentId?: number | null;
    logicalOperator?: 'AND' | 'OR' | null;
    nodeId?: number | null;
    equal?: boolean;
    clfTypeId?: number | null;
    nerTagTypeId?: number | null;
  }): Promise<number> {
    const [row] = await this.knex('predicates')
      .insert({
        edge_id: p.edgeId,
        parent_id: p.parentId ?? null,
        predicate_type: p.predicateType,
        logical_operator: p.logicalOperator ?? null,
        node_id: p.nodeId ?? null,
        equal: p.equal ?? true,
        clf_type_id: p.clfTypeId ?? null,
        ner_tag_type_id: p.nerTagTypeId ?? null,
      })
      .returning('id');
    return row.id;
  }

  async classifierType(nodeId: number, name = unique('class')): Promise<number> {
    const [row] = await this.knex('classifier_types')
      .insert({ node_id: nodeId, name, background_color: '#aabbcc' })
      .returning('id');
    return row.id;
  }

  async nerTagType(nodeId: number, name = unique('ner')): Promise<number> {
    const [row] = await this.knex('ner_tag_types')
      .insert({ node_id: nodeId, name, background_color: '#aabbcc', text_color: '#000000', path: name })
      .returning('id');
    return row.id;
  }
}

/** Inserts a document (its file stored under filesDir by hash) and starts `document-<id>`. */
export async function startDocument(
  s: EngineSuite,
  graph: GraphBuilder,
  uploadNodeId: number,
  file: { name?: string; content?: string | Buffer; mimeType?: string; store?: boolean } = {},
): Promise<{ id: number; path: string; absolute: string }> {
  const bytes = Buffer.isBuffer(file.content) ? file.content : Buffer.from(file.content ?? 'Hello engine.\n');
  const hash = crypto.createHash('sha256').update(bytes).digest('hex');
  const key = path.posix.join(hash.slice(0, 2), hash.slice(2, 4), hash);
  const absolute = path.join(s.filesDir, key);
  if (file.store !== false) {
    fs.mkdirSync(path.dirname(absolute), { recursive: true });
    fs.writeFileSync(absolute, bytes);
  }
  const [doc] = await s
    .knex('documents')
    .insert({
      process_id: graph.processId,
      upload_node_id: uploadNodeId,
      filename: file.name ?? unique('doc') + '.txt',
      path: key,
      content_hash: hash,
      mime_type: file.mimeType ?? 'text/plain',
      size: bytes.length,
      document_type: 'TEXTFILE',
    })
    .returning('id');
  await startDocumentWorkflow(
    s.client,
    { documentId: doc.id, processId: graph.processId, uploadNodeId },
    s.taskQueue,
  );
  return { id: doc.id, path: key, absolute };
}

export interface StepRow {
  id: number;
  nodeId: number;
  status: string;
  master: boolean;
  rejected: boolean;
  blockedBy: number | null;
  order: number;
  errorMessage: string | null;
}

export async function stepsOf(knex: Knex, documentId: number): Promise<StepRow[]> {
  return knex('steps')
    .where('document_id', documentId)
    .orderBy('order')
    .select(
      'id',
      'node_id as nodeId',
      'status',
      'master',
      'rejected',
      'blocked_by_id as blockedBy',
      'order',
      'error_message as errorMessage',
    );
}

export async function documentStatus(knex: Knex, documentId: number): Promise<string> {
  return (await knex('documents').where('id', documentId).first('status')).status;
}

/** Polls until `check` returns a value (not undefined / false), or fails with the last value seen. */
export async function eventually<T>(
  what: string,
  check: () => Promise<T | undefined | false>,
  timeoutMs = 30000,
): Promise<T> {
  const until = Date.now() + timeoutMs;
  let last: unknown;
  for (;;) {
    const v = await check();
    if (v !== undefined && v !== false) return v as T;
    last = v;
    if (Date.now() > until) throw new Error(`timed out waiting for ${what} (last: ${JSON.stringify(last)})`);
    await new Promise((r) => setTimeout(r, 100));
  }
}

/** Waits until the document has a step of the node in one of the statuses; returns it. */
export async function stepReaching(
  knex: Knex,
  documentId: number,
  nodeId: number,
  statuses: string[],
  timeoutMs?: number,
): Promise<StepRow> {
  return eventually(
    `a step of node ${nodeId} in ${statuses.join('/')}`,
    async () =>
      (await stepsOf(knex, documentId)).find((s) => s.nodeId === nodeId && statuses.includes(s.status)),
    timeoutMs,
  );
}

/** A signed-in user with a mode on one node (NODE authority) or on the process. */
export async function userWithNodeMode(
  s: Suite,
  grants: { componentId: number; type: 'NODE' | 'PROCESS'; mode: 'READ' | 'WRITE' | 'ADMIN' }[],
): Promise<{ id: number; token: string }> {
  const user = await buildUser(s.knex, { authorities: grants });
  return { id: user.id, token: await s.signIn(user) };
}
