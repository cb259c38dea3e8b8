/**
 * Scale-out on one machine: several API processes (`tsx api/server.ts`) and several workers
 * (`tsx workflows/worker.ts`), each a real OS process, against one PostgreSQL and one Temporal server, as
 * docker-compose.yml runs them. They share what docs/operations.md (Scaling out) says replicas must share: the
 * database, the Temporal namespace and task queue, the files directory (FILES_DIR) and the data directory
 * with the generated keys (DATA_DIR: the JWT signing secret and the data encryption key).
 *
 * `checkScaleOut` drives it through HTTP only: signs in at the first API, uses that token at every API (a
 * token one replica signed is accepted by the others), builds Upload -> automatic FILE_PARSER, uploads text
 * files through every API in turn, and waits until each is parsed (its parser step DONE and its content the
 * uploaded text: the worker that parsed it read the file another process stored). It reports which worker
 * ran each parse (the identity `pid@host` Temporal records on the activity) without asserting a spread.
 *
 * Used by scripts/scale-out.ts (`npx tsx scripts/scale-out.ts`) and tests/integration/scale-out.test.ts.
 */
import { spawn, type ChildProcess } from 'node:child_process';
import crypto from 'node:crypto';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { Client, Connection } from '@temporalio/client';
import { connectOptions, loadTemporalConnection } from '../../server/temporal-connection';
import type { Knex } from 'knex';
import { documentWorkflowId } from '../../workflows/contract';
import { freePort, waitForPort } from './ports';
import { descendants } from './processes';
import { ROOT } from './prepare';

/** One child process of the cluster: tsx, leader of a process group of its own. */
export interface Member {
  readonly name: string;
  /** Pid of tsx (also its process group); the program itself runs in a node child of it. */
  readonly pid: number;
  readonly exited: Promise<{ code: number | null; signal: NodeJS.Signals | null }>;
  output(): string;
}

export interface ApiMember extends Member {
  readonly url: string;
}

export interface ScaleOutCluster {
  /** The current API and worker processes (a restart replaces the member in place, under its name). */
  readonly apis: ApiMember[];
  readonly workers: Member[];
  readonly taskQueue: string;
  readonly temporalAddress: string;
  /** The members' environment (Temporal's TLS settings among it): what checkScaleOut connects with. */
  readonly env: NodeJS.ProcessEnv;
  readonly filesDir: string;
  readonly dataDir: string;
  /**
   * Sends `signal` (default SIGKILL, as a crash) to the member's whole process group, tsx and the node process
   * it runs, and waits until tsx has ended.
   */
  kill(name: string, signal?: NodeJS.Signals): Promise<void>;
  /** Sends `signal` to the member's process group without waiting (SIGSTOP freezes it, SIGCONT thaws it). */
  signal(name: string, signal: NodeJS.Signals): void;
  /**
   * Starts the named member again with its environment (an API on its port) and waits until it is ready, as
   * `npm start`'s supervisor restarts a process that died; the member must have ended. The new member.
   */
  restart(name: string): Promise<Member>;
  /** Ends every process (SIGTERM, then SIGKILL to the group after a grace period); safe to call twice. */
  stop(): Promise<void>;
}

export interface ScaleOutOptions {
  databaseUrl: string;
  temporalAddress: string;
  apis?: number;
  workers?: number;
  /** A queue of the cluster's own (default: a fresh one). */
  taskQueue?: string;
  /** Shared directories; temporary ones (removed by stop()) when absent. */
  filesDir?: string;
  dataDir?: string;
  /** More environment for every process. */
  env?: NodeJS.ProcessEnv;
  /** Resolves when every process is ready; default 90 s. */
  readyTimeoutMs?: number;
}

/** Variables a replica must not inherit from the caller: the shared DATA_DIR is what carries the keys. */
const NOT_INHERITED = [
  'JWT_SECRET',
  'DATA_ENCRYPTION_KEY',
  'DATA_ENCRYPTION_KEY_PREVIOUS',
  'PORT',
  'FILES_DIR',
  'DATA_DIR',
  'TEMPORAL_TASK_QUEUE',
];

function spawnMember(name: string, entry: string, env: NodeJS.ProcessEnv, ready: RegExp) {
  const child: ChildProcess = spawn(
    path.join(ROOT, 'node_modules', '.bin', 'tsx'),
    [path.join(ROOT, entry)],
    {
      cwd: ROOT,
      env,
      detached: true,
      stdio: ['ignore', 'pipe', 'pipe'],
    },
  );
  if (!child.pid) throw new Error(`${name} did not start`);
  let out = '';
  let seen = false;
  let onReady: (() => void) | undefined;
  const collect = (b: Buffer) => {
    out = (out + b.toString('utf8')).slice(-64 * 1024);
    if (!seen && ready.test(out)) {
      seen = true;
      onReady?.();
    }
  };
  child.stdout!.on('data', collect);
  child.stderr!.on('data', collect);
  const exited = new Promise<{ code: number | null; signal: NodeJS.Signals | null }>((resolve) =>
    child.once('exit', (code, signal) => resolve({ code, signal })),
  );
  const started = new Promise<void>((resolve, reject) => {
    onReady = resolve;
    void exited.then(({ code, signal }) => {
      if (!seen) reject(new Error(`${name} ended (${signal ?? code}) before it was ready:\n${out}`));
    });
  });
  started.catch(() => {}); // observed by whoever awaits it
  const member: Member = { name, pid: child.pid, exited, output: () => out };
  return { member, child, started };
}

async function endGroup(child: ChildProcess, exited: Promise<unknown>, graceMs: number): Promise<void> {
  if (child.exitCode !== null || child.signalCode !== null) return;
  const signal = (s: NodeJS.Signals) => {
    try {
      process.kill(-child.pid!, s);
    } catch {
      // the group is gone already
    }
  };
  signal('SIGTERM');
  const timer = setTimeout(() => signal('SIGKILL'), graceMs);
  await exited;
  clearTimeout(timer);
  // Whatever tsx left behind in its group (its node child, if tsx went first).
  signal('SIGKILL');
}

function withTimeout<T>(p: Promise<T>, ms: number, what: string): Promise<T> {
  let timer: NodeJS.Timeout | undefined;
  return Promise.race([
    p,
    new Promise<T>((_, reject) => {
      timer = setTimeout(() => reject(new Error(`${what} not ready after ${ms} ms`)), ms);
    }),
  ]).finally(() => clearTimeout(timer));
}

/**
 * Starts the APIs and workers and waits until every API answers `management/health` with 200 and every worker
 * polls. On a failure to start, everything started is ended before the error is thrown.
 */
export async function startScaleOut(opts: ScaleOutOptions): Promise<ScaleOutCluster> {
  const temporary: string[] = [];
  const tmp = (prefix: string) => {
    const dir = fs.mkdtempSync(path.join(os.tmpdir(), prefix));
    temporary.push(dir);
    return dir;
  };
  const filesDir = opts.filesDir ?? tmp('scale-out-files-');
  const dataDir = opts.dataDir ?? tmp('scale-out-data-');
  const taskQueue = opts.taskQueue ?? `scale-out-${crypto.randomUUID()}`;
  const readyTimeoutMs = opts.readyTimeoutMs ?? 90000;
  const base: NodeJS.ProcessEnv = { ...process.env };
  for (const name of NOT_INHERITED) delete base[name];
  Object.assign(base, {
    DATABASE_URL: opts.databaseUrl,
    TEMPORAL_ADDRESS: opts.temporalAddress,
    TEMPORAL_TASK_QUEUE: taskQueue,
    FILES_DIR: filesDir,
    DATA_DIR: dataDir,
    // The database may be shared with other users (the test suites): never move their schedules, nor start
    // workflows of documents they insert without one.
    SCHEDULE_SYNC: 'off',
    DOCUMENT_SWEEP: 'off',
    NODE_ENV: 'production',
    ...opts.env,
  });

  /** One member's place in the cluster: how to start it, and its current process. */
  interface Slot {
    launch(): { member: Member; started: Promise<void> };
    child?: ChildProcess;
    member?: Member;
  }
  const slots = new Map<string, Slot>();
  const apis: ApiMember[] = [];
  const workers: Member[] = [];
  let stopped: Promise<void> | undefined;
  const stop = () =>
    (stopped ??= (async () => {
      await Promise.all(
        [...slots.values()].map((s) => (s.child ? endGroup(s.child, s.member!.exited, 10000) : undefined)),
      );
      for (const dir of temporary) fs.rmSync(dir, { recursive: true, force: true });
    })());

  const workerSlot = (index: number): Slot => {
    const name = `worker-${index + 1}`;
    const slot: Slot = {
      launch() {
        const w = spawnMember(name, 'workflows/worker.ts', base, /polling task queue/);
        slot.child = w.child;
        slot.member = w.member;
        workers[index] = w.member;
        return w;
      },
    };
    return slot;
  };
  const apiSlot = (index: number, port: number): Slot => {
    const name = `api-${index + 1}`;
    const url = `http://127.0.0.1:${port}`;
    const slot: Slot = {
      launch() {
        const a = spawnMember(
          name,
          'api/server.ts',
          { ...base, PORT: String(port) },
          /"logger":"api","message":"listening on/,
        );
        const member: ApiMember = { ...a.member, url };
        slot.child = a.child;
        slot.member = member;
        apis[index] = member;
        const started = a.started.then(async () => {
          await waitForPort(port, '127.0.0.1', 10000);
          const res = await fetch(`${url}/management/health`);
          if (res.status !== 200) throw new Error(`${name}: health ${res.status} ${await res.text()}`);
        });
        started.catch(() => {}); // observed by whoever awaits it
        return { member, started };
      },
    };
    return slot;
  };

  try {
    for (let i = 0; i < (opts.workers ?? 2); i++) slots.set(`worker-${i + 1}`, workerSlot(i));
    for (let i = 0; i < (opts.apis ?? 2); i++) slots.set(`api-${i + 1}`, apiSlot(i, await freePort()));
    const starting = [...slots.values()].map((slot) => slot.launch().started);
    await withTimeout(Promise.all(starting), readyTimeoutMs, 'the scale-out cluster');
  } catch (err) {
    await stop();
    throw err;
  }

  const slotOf = (name: string): Slot => {
    const slot = slots.get(name);
    if (!slot) throw new Error(`no member ${name} in the cluster`);
    return slot;
  };
  const signalGroup = (name: string, signal: NodeJS.Signals) => {
    try {
      process.kill(-slotOf(name).member!.pid, signal);
    } catch {
      // the group is gone already
    }
  };
  return {
    apis,
    workers,
    taskQueue,
    temporalAddress: base.TEMPORAL_ADDRESS!,
    env: base,
    filesDir,
    dataDir,
    stop,
    signal: signalGroup,
    async kill(name, signal = 'SIGKILL') {
      signalGroup(name, signal);
      await slotOf(name).member!.exited;
    },
    async restart(name) {
      const slot = slotOf(name);
      if (stopped) throw new Error('the cluster is stopped');
      if (slot.child && slot.child.exitCode === null && slot.child.signalCode === null)
        throw new Error(`${name} is still running`);
      const { member, started } = slot.launch();
      await withTimeout(started, readyTimeoutMs, name);
      return member;
    },
  };
}

// --- the check -------------------------------------------------------------------------------------------

export interface ParsedDocument {
  id: number;
  /** The API it was uploaded through. */
  uploadedThrough: string;
  parserStatus: string;
  contentMatches: boolean;
  /** With `humanStep`: the status of the manual step after the parser (WAITING once it reached it). */
  humanStepStatus?: string;
  /** Identity (`pid@host`) of the worker that completed the parse activity. */
  parsedBy: string | null;
}

export interface ScaleOutReport {
  documents: ParsedDocument[];
  /** Status of GET /api/account at each API with the token signed in at the first one. */
  tokenAcceptedBy: Record<string, number>;
  /** Parses per worker identity. */
  parsesByWorker: Record<string, number>;
  /** Identities polling the task queue (Temporal's DescribeTaskQueue), workflow and activity pollers. */
  pollers: string[];
}

async function call<T>(url: string, token: string, init: RequestInit = {}): Promise<T> {
  const res = await fetch(url, {
    ...init,
    headers: {
      Authorization: token,
      ...(init.body instanceof FormData ? {} : { 'Content-Type': 'application/json' }),
      ...(init.headers ?? {}),
    },
  });
  if (!res.ok) throw new Error(`${init.method ?? 'GET'} ${url}: ${res.status} ${await res.text()}`);
  return (await res.json()) as T;
}

/** Signs in at `api`; the bearer token ("Bearer ..."). */
export async function signIn(api: string, username: string, password: string): Promise<string> {
  const res = await fetch(`${api}/api/authenticate`, {
    method: 'POST',
    headers: { 'Content-Type': 'application/json' },
    body: JSON.stringify({ username, password }),
  });
  const token = res.headers.get('authorization');
  if (res.status !== 200 || !token) throw new Error(`sign-in at ${api}: ${res.status} ${await res.text()}`);
  return token;
}

/** The identity of the worker that completed the document's parseDocument activity, from its history. */
async function parserIdentity(client: Client, documentId: number): Promise<string | null> {
  const history = await client.workflow.getHandle(documentWorkflowId(documentId)).fetchHistory();
  const events = history.events ?? [];
  const scheduled = new Set(
    events
      .filter((e) => e.activityTaskScheduledEventAttributes?.activityType?.name === 'parseDocument')
      .map((e) => Number(e.eventId)),
  );
  const done = events
    .map((e) => e.activityTaskCompletedEventAttributes)
    .find((a) => a && scheduled.has(Number(a.scheduledEventId)));
  return done?.identity ?? null;
}

/**
 * Uploads `documents` text files, in turn through each API, with one token signed in at the first API, and
 * waits (up to `timeoutMs`) until each one's FILE_PARSER step is DONE or in ERROR.
 */
export async function checkScaleOut(
  cluster: ScaleOutCluster,
  knex: Knex,
  opts: {
    documents?: number;
    username?: string;
    password?: string;
    timeoutMs?: number;
    /** A manual CLF step after the parser: waits until each document reaches it (its step WAITING). */
    humanStep?: boolean;
  } = {},
): Promise<ScaleOutReport> {
  const [first] = cluster.apis;
  const token = await signIn(first.url, opts.username ?? 'admin', opts.password ?? 'admin');
  const tokenAcceptedBy: Record<string, number> = {};
  for (const api of cluster.apis) {
    tokenAcceptedBy[api.name] = (
      await fetch(`${api.url}/api/account`, { headers: { Authorization: token } })
    ).status;
  }

  // The graph, each call through another API: Upload -> automatic FILE_PARSER (DONE when parsed) -> end.
  const at = (i: number) => cluster.apis[i % cluster.apis.length].url;
  const tags = await call<{ id: number; predefined: boolean }[]>(`${at(0)}/api/process-tags`, token);
  const processId = (
    await call<{ id: number }>(`${at(1)}/api/processes`, token, {
      method: 'POST',
      body: JSON.stringify({
        name: `scale-out ${crypto.randomUUID()}`,
        isRagEnabled: false,
        processTags: [{ id: tags.find((t) => t.predefined)!.id }],
        ragTextSplitter: null,
      }),
    })
  ).id;
  const nodes = await call<{ id: number; activityType: string }[]>(
    `${at(2)}/api/nodes?processId=${processId}`,
    token,
  );
  const uploadNodeId = nodes.find((n) => n.activityType === 'HUP')!.id;
  const parser = await call<{ id: number }>(`${at(3)}/api/nodes`, token, {
    method: 'POST',
    body: JSON.stringify({ processId, name: 'Parser', activityType: 'FILE_PARSER', autoStepStatus: 'DONE' }),
  });
  await call(`${at(4)}/api/edges`, token, {
    method: 'POST',
    body: JSON.stringify({ fromId: uploadNodeId, toId: parser.id }),
  });
  const review = opts.humanStep
    ? await call<{ id: number }>(`${at(5)}/api/nodes`, token, {
        method: 'POST',
        body: JSON.stringify({ processId, name: 'Review', activityType: 'CLF', automatic: false }),
      })
    : undefined;
  if (review)
    await call(`${at(6)}/api/edges`, token, {
      method: 'POST',
      body: JSON.stringify({ fromId: parser.id, toId: review.id }),
    });

  // The uploads, round robin over the APIs.
  const uploaded: { id: number; api: string; text: string }[] = [];
  const count = opts.documents ?? 2 * cluster.apis.length;
  await Promise.all(
    Array.from({ length: count }, async (_, i) => {
      const api = cluster.apis[i % cluster.apis.length];
      const text = `Document ${i + 1} of the scale-out check, uploaded through ${api.name}: ${crypto.randomUUID()}.\n`;
      const form = new FormData();
      form.append('nodeId', String(uploadNodeId));
      form.append('file', new Blob([text], { type: 'text/plain' }), `scale-out-${i + 1}.txt`);
      const doc = await call<{ id: number }>(`${api.url}/api/file-upload`, token, {
        method: 'POST',
        body: form,
      });
      uploaded.push({ id: doc.id, api: api.name, text });
    }),
  );

  // Parsed: the parser step DONE (or ERROR: reported, not waited for further); with a human step, that step
  // WAITING after a parse that is DONE.
  const until = Date.now() + (opts.timeoutMs ?? 60000);
  const stepsOf = async (nodeId: number, statuses: string[]) =>
    (await knex('steps')
      .whereIn(
        'document_id',
        uploaded.map((u) => u.id),
      )
      .andWhere('node_id', nodeId)
      .whereIn('status', statuses)
      .select('document_id as documentId', 'status')) as { documentId: number; status: string }[];
  const finished = async () => {
    const parsed = await stepsOf(parser.id, ['DONE', 'ERROR']);
    const reached = review ? await stepsOf(review.id, ['WAITING']) : [];
    const done = review
      ? parsed.every((p) => p.status !== 'DONE' || reached.some((r) => r.documentId === p.documentId))
      : true;
    return { parsed, reached, done: done && parsed.length === uploaded.length };
  };
  let state = await finished();
  while (!state.done && Date.now() < until) {
    await new Promise((r) => setTimeout(r, 200));
    state = await finished();
  }
  const steps = state.parsed;

  const contents = new Map<number, string>(
    (
      await knex('document_contents')
        .whereIn(
          'document_id',
          uploaded.map((u) => u.id),
        )
        .select('document_id as documentId', 'content')
    ).map((r: { documentId: number; content: string }) => [r.documentId, r.content]),
  );

  // Who parsed what (the activity's completing worker), and who polls the queue: connected as the members
  // connect (their environment: Temporal's TLS, API key and namespace), not with this process's variables.
  const settings = loadTemporalConnection(cluster.env);
  const connection = await Connection.connect(connectOptions(settings));
  try {
    const client = new Client({ connection, namespace: settings.namespace });
    const documents: ParsedDocument[] = [];
    for (const u of uploaded.sort((a, b) => a.id - b.id)) {
      const status = steps.find((s) => s.documentId === u.id)?.status ?? 'NOT_FINISHED';
      documents.push({
        id: u.id,
        uploadedThrough: u.api,
        parserStatus: status,
        contentMatches: (contents.get(u.id) ?? '').trim() === u.text.trim(),
        ...(review
          ? { humanStepStatus: state.reached.find((r) => r.documentId === u.id)?.status ?? 'NOT_REACHED' }
          : {}),
        parsedBy: status === 'DONE' ? await parserIdentity(client, u.id) : null,
      });
    }
    const parsesByWorker: Record<string, number> = {};
    for (const d of documents)
      if (d.parsedBy) parsesByWorker[d.parsedBy] = (parsesByWorker[d.parsedBy] ?? 0) + 1;
    const pollers = new Set<string>();
    for (const taskQueueType of [1, 2]) {
      const r = await client.workflowService.describeTaskQueue({
        namespace: settings.namespace,
        taskQueue: { name: cluster.taskQueue },
        taskQueueType,
      });
      for (const p of r.pollers ?? []) if (p.identity) pollers.add(p.identity);
    }
    return { documents, tokenAcceptedBy, parsesByWorker, pollers: [...pollers].sort() };
  } finally {
    await connection.close();
  }
}

/** The worker member whose process tree holds the pid of an identity `pid@host` (Linux /proc). */
export function memberOfIdentity(cluster: ScaleOutCluster, identity: string): Member | undefined {
  const pid = Number(identity.split('@')[0]);
  return cluster.workers.find((w) => descendants(w.pid).includes(pid));
}
