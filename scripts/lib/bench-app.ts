/**
 * The app a bench part measures, in the bench process: one Worker on a task queue of its own (the workflow
 * bundle made once by scripts/bench.ts) and the API over HTTP on a free loopback port, both on the bench's
 * PostgreSQL and Temporal dev server. Shared by scripts/bench-engine.ts and scripts/bench-workspace.ts.
 */
import crypto from 'node:crypto';
import type { Knex } from 'knex';
import { startApi } from '../../api/server';
import { createKnex } from '../../db/connection';
import { loadConfig } from '../../server/config';
import { createWorker } from '../../workflows/worker';

export interface BenchAppOptions {
  databaseUrl: string;
  temporalAddress: string;
  workflowCode: string;
  filesDir: string;
}

export interface BenchApp {
  taskQueue: string;
  /** A connection pool of the bench's own (the worker has another). */
  knex: Knex;
  /** http://127.0.0.1:<port> of the API. */
  base: string;
  stop(): Promise<void>;
}

export async function startBenchApp(
  o: BenchAppOptions,
  opts: { queuePrefix: string; workerPoolMax: number; env?: NodeJS.ProcessEnv },
): Promise<BenchApp> {
  const taskQueue = `${opts.queuePrefix}-${crypto.randomUUID()}`;
  const workerKnex = createKnex(o.databaseUrl, { min: 0, max: opts.workerPoolMax });
  const knex = createKnex(o.databaseUrl, { min: 0, max: 4 });
  const { worker, connection } = await createWorker({
    temporalAddress: o.temporalAddress,
    namespace: 'default',
    taskQueue,
    knex: workerKnex,
    filesDir: o.filesDir,
    workflowBundle: { code: o.workflowCode },
  });
  const running = worker.run();
  const api = await startApi(
    loadConfig({
      ...process.env,
      ...opts.env,
      DATABASE_URL: o.databaseUrl,
      PORT: '0',
      TEMPORAL_ADDRESS: o.temporalAddress,
      TEMPORAL_NAMESPACE: 'default',
      TEMPORAL_TASK_QUEUE: taskQueue,
      FILES_DIR: o.filesDir,
    }),
  );
  return {
    taskQueue,
    knex,
    base: `http://127.0.0.1:${api.port}`,
    async stop() {
      await api.close();
      worker.shutdown();
      await running.catch(() => undefined);
      await connection.close();
      await workerKnex.destroy();
      await knex.destroy();
    },
  };
}

/** The bearer token of a user signed in through the API; throws when the sign-in is refused. */
export async function benchSignIn(base: string, username: string, password: string): Promise<string> {
  const res = await fetch(`${base}/api/authenticate`, {
    method: 'POST',
    headers: { 'Content-Type': 'application/json' },
    body: JSON.stringify({ username, password }),
  });
  const header = res.headers.get('authorization');
  if (res.status !== 200 || !header) throw new Error(`sign-in of ${username} failed: ${res.status}`);
  return header;
}

/** An API call of the bench as a signed-in user: JSON (or a FormData upload) in, parsed JSON out; throws on refusal. */
export type BenchCall = <T>(method: string, path: string, body?: unknown) => Promise<T>;

export function benchCaller(base: string, token: string): BenchCall {
  return async <T>(method: string, p: string, body?: unknown): Promise<T> => {
    const form = body instanceof FormData;
    const res = await fetch(`${base}${p}`, {
      method,
      headers: { Authorization: token, ...(form ? {} : { 'Content-Type': 'application/json' }) },
      body: body === undefined || form ? (body as FormData | undefined) : JSON.stringify(body),
    });
    const text = await res.text();
    if (!res.ok) throw new Error(`${method} ${p}: ${res.status} ${text.slice(0, 300)}`);
    return (text ? JSON.parse(text) : null) as T;
  };
}

/** A new process (the predefined process tag, no RAG) and the nodes it starts with (its Upload node). */
export async function benchProcess(call: BenchCall, name: string) {
  const processTags = await call<{ id: number; predefined: boolean }[]>('GET', '/api/process-tags');
  const processId = (
    await call<{ id: number }>('POST', '/api/processes', {
      name,
      isRagEnabled: false,
      processTags: [{ id: processTags.find((t) => t.predefined)!.id }],
      ragTextSplitter: null,
    })
  ).id;
  const nodes = await call<{ id: number; activityType: string }[]>(
    'GET',
    `/api/nodes?processId=${processId}`,
  );
  return { processId, nodes };
}
