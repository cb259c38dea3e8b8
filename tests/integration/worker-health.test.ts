/**
 * The worker's own liveness and readiness (WORKER_HEALTH_PORT, issue 27 section 4): a real worker process on
 * the run's Temporal, ready with its database, live but not ready when its database cannot be reached.
 */
import { spawn, type ChildProcess } from 'node:child_process';
import path from 'node:path';
import { freePort } from '../../scripts/lib/ports';
import { eventually } from '../support/eventually';
import { unique } from '../support/harness';

const ROOT = path.resolve(__dirname, '..', '..');
const children: ChildProcess[] = [];

async function startWorker(env: NodeJS.ProcessEnv): Promise<string> {
  const port = await freePort();
  const child = spawn(
    path.join(ROOT, 'node_modules', '.bin', 'tsx'),
    [path.join(ROOT, 'workflows', 'worker.ts')],
    {
      cwd: ROOT,
      env: {
        ...process.env,
        TEMPORAL_TASK_QUEUE: unique('health'),
        WORKER_HEALTH_PORT: String(port),
        WORKER_METRICS_PORT: '',
        DOCUMENT_SWEEP: 'off',
        SCHEDULE_SYNC: 'off',
        ...env,
      },
      stdio: ['ignore', 'inherit', 'inherit'],
    },
  );
  children.push(child);
  return `http://127.0.0.1:${port}/management/health`;
}

const get = async (url: string) => {
  try {
    const res = await fetch(url);
    return { status: res.status, body: (await res.json()) as unknown };
  } catch {
    return { status: 0, body: null };
  }
};

afterAll(async () => {
  for (const c of children) {
    if (c.exitCode !== null || c.signalCode !== null) continue;
    await new Promise<void>((resolve) => {
      c.once('exit', () => resolve());
      c.kill('SIGTERM');
      setTimeout(() => c.kill('SIGKILL'), 20_000).unref();
    });
  }
});

describe('the worker health port', () => {
  it('is live, then ready once the worker polls with its database, Temporal and files store UP', async () => {
    const base = await startWorker({});
    const ready = await eventually(
      'worker ready',
      async () => {
        const r = await get(`${base}/readiness`);
        return r.status === 200 && r;
      },
      90_000,
    );
    expect(ready.body).toEqual({
      status: 'UP',
      components: { db: { status: 'UP' }, temporal: { status: 'UP' }, filesStore: { status: 'UP' } },
    });
    expect(await get(`${base}/liveness`)).toEqual({ status: 200, body: { status: 'UP' } });
  }, 120_000);

  it('stays live (200) and is not ready (503) while its database cannot be reached', async () => {
    const base = await startWorker({ DATABASE_URL: 'postgres://postgres:postgres@127.0.0.1:1/nothing' });
    // Not ready until it polls; then only the database stays DOWN.
    const notReady = await eventually(
      'worker polling without its database',
      async () => {
        const r = await get(`${base}/readiness`);
        const temporal = (r.body as { components?: Record<string, { status: string }> } | null)?.components
          ?.temporal;
        return r.status === 503 && temporal?.status === 'UP' && r;
      },
      90_000,
    );
    expect(notReady.body).toEqual({
      status: 'DOWN',
      components: { db: { status: 'DOWN' }, temporal: { status: 'UP' }, filesStore: { status: 'UP' } },
    });
    expect(await get(`${base}/liveness`)).toEqual({ status: 200, body: { status: 'UP' } });
  }, 120_000);
});
