/**
 * Support of the engine suites: a real Worker on the suite's own task queue (the run's shared workflow
 * bundle, a temporary files directory), the API starting workflows on that queue, graph builders that insert
 * nodes / edges / predicates directly, documents inserted with their file and started with
 * startDocumentWorkflow, and polling of the projection. Suites that need to kill a worker run it as a
 * separate OS process instead (spawnWorkerProcess, processTree).
 */
import { spawn } from 'node:child_process';
import crypto from 'node:crypto';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { Client, Connection } from '@temporalio/client';
import type { Knex } from 'knex';
import { createKnex } from '../../db/connection';
import { except } from '../../db/queries/columns';
import { STEP_COLUMNS } from '../../db/queries/steps';
import { startDocumentWorkflow } from '../../server/document-workflows';
import { createWorker, type WorkerGroup, type WorkerSettings } from '../../workflows/worker';
import { buildProcess, buildUser, setupSuite, unique, type Suite } from './harness';
import type { AppConfig } from '../../server/config';

export interface EngineSuite extends Suite {
  readonly taskQueue: string;
  readonly filesDir: string;
  readonly client: Client;
}

export interface EngineSuiteOptions {
  /** false: no Worker in this process (the suite runs worker processes of its own); default true. */
  worker?: boolean;
  /** Settings of the suite's Worker beyond its queue, database and files (e.g. a short lexicon limit). */
  settings?: Partial<WorkerSettings>;
  /** Configuration overrides of the suite's API (e.g. its profiles). */
  config?: Partial<AppConfig>;
}

/** setupSuite() plus a Worker on a queue of the suite's own and a Temporal client. */
export function setupEngineSuite(name: string, opts: EngineSuiteOptions = {}): EngineSuite {
  const taskQueue = `test-${name}-${crypto.randomUUID()}`;
  const filesDir = fs.mkdtempSync(path.join(os.tmpdir(), `engine-${name}-`));
  const suite = setupSuite({ config: { ...opts.config, taskQueue, filesDir } });
  let worker: WorkerGroup | undefined;
  let running: Promise<void> | undefined;
  let workerKnex: Knex | undefined;
  let workerConnection: { close(): Promise<void> } | undefined;
  let connection: Connection | undefined;
  let client: Client | undefined;

  beforeAll(async () => {
    connection = await Connection.connect({ address: process.env.TEMPORAL_ADDRESS! });
    client = new Client({ connection });
    if (opts.worker === false) return;
    workerKnex = createKnex(process.env.DATABASE_URL!, { min: 0, max: 4 });
    const created = await createWorker({
      temporalAddress: process.env.TEMPORAL_ADDRESS!,
      namespace: 'default',
      taskQueue,
      knex: workerKnex,
      filesDir,
      workflowBundle: { codePath: process.env.WORKFLOW_BUNDLE_PATH! },
      ...opts.settings,
    });
    worker = created.worker;
    workerConnection = created.connection;
    running = worker.run();
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
  file: {
    name?: string;
    content?: string | Buffer;
    mimeType?: string;
    store?: boolean;
    documentType?: 'TEXTFILE' | 'AUDIOFILE';
  } = {},
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
      document_type: file.documentType ?? 'TEXTFILE',
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
    .select(except(STEP_COLUMNS, 'documentId', 'lastModifiedDate'));
}

export async function documentStatus(knex: Knex, documentId: number): Promise<string> {
  return (await knex('documents').where('id', documentId).first('status')).status;
}

export { eventually } from './eventually';
import { eventually } from './eventually';

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

// --- worker processes (for suites that kill a worker) ---

const ROOT = path.resolve(__dirname, '..', '..');

/** A real worker as its own OS process: `tsx workflows/worker.ts`, leader of a process group of its own. */
export interface WorkerProcess {
  /** The pid of tsx, which is also the id of the process group (tsx runs the worker in a child node). */
  readonly pid: number;
  /** Resolves once the worker polls its task queue; rejects when the process ends first. */
  readonly ready: Promise<void>;
  /** Resolves when the process (tsx) has ended. */
  readonly exited: Promise<{ code: number | null; signal: NodeJS.Signals | null }>;
  /** What it printed so far (stdout and stderr), for failure messages. */
  output(): string;
  /** Sends the signal to the whole process group and waits until tsx has ended. */
  kill(signal?: NodeJS.Signals): Promise<void>;
}

/**
 * Spawns a worker process on the task queue with the run's database and Temporal, the given files directory,
 * and its own process group (`detached`), so killing `-pid` also kills the node process tsx starts. Programs
 * the parser runs are in process groups of their own: see processTree to find them.
 */
export function spawnWorkerProcess(opts: {
  taskQueue: string;
  filesDir: string;
  env?: NodeJS.ProcessEnv;
}): WorkerProcess {
  const child = spawn(
    path.join(ROOT, 'node_modules', '.bin', 'tsx'),
    [path.join(ROOT, 'workflows', 'worker.ts')],
    {
      cwd: ROOT,
      env: {
        ...process.env,
        DATABASE_URL: process.env.DATABASE_URL,
        TEMPORAL_ADDRESS: process.env.TEMPORAL_ADDRESS,
        TEMPORAL_TASK_QUEUE: opts.taskQueue,
        FILES_DIR: opts.filesDir,
        // The suites share the database: a worker of one must not move the others' schedules to its queue.
        SCHEDULE_SYNC: 'off',
        // Nor start the workflows of documents other suites insert without one on purpose.
        DOCUMENT_SWEEP: 'off',
        // Nor wake other suites' webhook deliveries onto its queue.
        WEBHOOK_SWEEP: 'off',
        ...opts.env,
      },
      detached: true,
      stdio: ['ignore', 'pipe', 'pipe'],
    },
  );
  if (!child.pid) throw new Error('the worker process did not start');
  const pid = child.pid;
  let out = '';
  let polling = false;
  let onPolling: (() => void) | undefined;
  const collect = (b: Buffer) => {
    out = (out + b.toString('utf8')).slice(-64 * 1024);
    if (!polling && out.includes('polling task queue')) {
      polling = true;
      onPolling?.();
    }
  };
  child.stdout.on('data', collect);
  child.stderr.on('data', collect);
  const exited = new Promise<{ code: number | null; signal: NodeJS.Signals | null }>((resolve) =>
    child.once('exit', (code, signal) => resolve({ code, signal })),
  );
  const ready = new Promise<void>((resolve, reject) => {
    onPolling = resolve;
    void exited.then(({ code, signal }) => {
      if (!polling) reject(new Error(`the worker process ended (${signal ?? code}) before polling:\n${out}`));
    });
  });
  ready.catch(() => {}); // observed by whoever awaits it
  return {
    pid,
    ready,
    exited,
    output: () => out,
    async kill(signal = 'SIGKILL') {
      if (child.exitCode === null && child.signalCode === null) {
        try {
          process.kill(-pid, signal);
        } catch {
          // the group is gone already
        }
      }
      await exited;
    },
  };
}

export interface ProcessInfo {
  pid: number;
  ppid: number;
  pgid: number;
  /** R, S, D, Z (zombie: ended, not yet reaped), ... */
  state: string;
  /** The program's name as the kernel keeps it (at most 15 characters). */
  comm: string;
}

function readProcess(pid: number): ProcessInfo | null {
  try {
    const stat = fs.readFileSync(`/proc/${pid}/stat`, 'utf8');
    // pid (comm) state ppid pgrp ...; comm may hold spaces and parentheses.
    const open = stat.indexOf('(');
    const close = stat.lastIndexOf(')');
    const [state, ppid, pgid] = stat.slice(close + 2).split(' ');
    return { pid, ppid: Number(ppid), pgid: Number(pgid), state, comm: stat.slice(open + 1, close) };
  } catch {
    return null; // gone meanwhile
  }
}

/** Every process of the machine (Linux /proc), zombies included. */
export function allProcesses(): ProcessInfo[] {
  return fs
    .readdirSync('/proc')
    .filter((d) => /^\d+$/.test(d))
    .map((d) => readProcess(Number(d)))
    .filter((p): p is ProcessInfo => p !== null);
}

/** The living (not zombie) processes of a process group. */
export function processGroup(pgid: number): ProcessInfo[] {
  return allProcesses().filter((p) => p.pgid === pgid && p.state !== 'Z');
}

/** The process and all its descendants (Linux /proc), root first. */
export function processTree(rootPid: number): ProcessInfo[] {
  const all = allProcesses();
  const children = new Map<number, ProcessInfo[]>();
  for (const p of all) children.set(p.ppid, [...(children.get(p.ppid) ?? []), p]);
  const root = all.find((p) => p.pid === rootPid);
  if (!root) return [];
  const tree: ProcessInfo[] = [root];
  for (let i = 0; i < tree.length; i++) tree.push(...(children.get(tree[i].pid) ?? []));
  return tree;
}

/**
 * Real Workers in this process, one per task queue, each with its own outbound allowlist (actions suites run
 * one queue that may reach loopback peers and one that may not). `stop()` shuts them down in afterAll.
 */
export async function startWorkers(
  s: { filesDir: string; /** default: the run's DATABASE_URL */ databaseUrl?: string },
  queues: readonly ({ taskQueue: string; outboundAllowlist: readonly string[] } & Partial<
    Pick<WorkerSettings, 'llmBaseUrl' | 'driveApiBaseUrl' | 'googleOAuth'>
  >)[],
): Promise<{ stop(): Promise<void> }> {
  const knex = createKnex(s.databaseUrl ?? process.env.DATABASE_URL!, { min: 0, max: 4 });
  const started: { worker: WorkerGroup; running: Promise<void>; close(): Promise<void> }[] = [];
  for (const q of queues) {
    const { worker, connection } = await createWorker({
      temporalAddress: process.env.TEMPORAL_ADDRESS!,
      namespace: 'default',
      taskQueue: q.taskQueue,
      knex,
      filesDir: s.filesDir,
      outboundAllowlist: [...q.outboundAllowlist],
      llmBaseUrl: q.llmBaseUrl,
      driveApiBaseUrl: q.driveApiBaseUrl,
      googleOAuth: q.googleOAuth,
      workflowBundle: { codePath: process.env.WORKFLOW_BUNDLE_PATH! },
    });
    started.push({ worker, running: worker.run(), close: () => connection.close() });
  }
  return {
    async stop() {
      for (const w of started) w.worker.shutdown();
      for (const w of started) {
        await w.running;
        await w.close();
      }
      await knex.destroy();
    },
  };
}

/**
 * HUP -> CLF -> SPAN A (when class A) and SPAN B (when class B): the graph of the branching tests. `extra`
 * adds nodes before the edges are drawn (node order decides the ids the assertions read).
 */
export async function classifierBranches<E extends Record<string, number> = Record<string, never>>(
  knex: Knex,
  extra?: (g: GraphBuilder) => Promise<E>,
) {
  const g = Object.assign(await GraphBuilder.create(knex), { extra: {} as E });
  const hup = await g.node('HUP');
  const clf = await g.node('CLF');
  const spanA = await g.node('SPAN');
  const spanB = await g.node('SPAN');
  if (extra) g.extra = await extra(g);
  const classA = await g.classifierType(clf);
  const classB = await g.classifierType(clf);
  await g.edge(hup, clf);
  await g.predicate({
    edgeId: await g.edge(clf, spanA),
    predicateType: 'CLF',
    nodeId: clf,
    clfTypeId: classA,
  });
  await g.predicate({
    edgeId: await g.edge(clf, spanB),
    predicateType: 'CLF',
    nodeId: clf,
    clfTypeId: classB,
  });
  return { g, hup, clf, spanA, spanB, classA, classB };
}
