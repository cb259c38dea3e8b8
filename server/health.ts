/**
 * Liveness and readiness (issue 27 section 4), for the API (api/routes/management.ts) and the worker
 * (its own port, WORKER_HEALTH_PORT: `startHealthServer`).
 *
 * - liveness: the process answers. It never touches PostgreSQL, Temporal or the files store, so an outage of
 *   one of them does not get every replica restarted by Kubernetes (a restart would not mend it).
 * - readiness: the process can serve: the database, Temporal and the files store each UP, else 503 and the
 *   replica is taken out of rotation until they are back.
 */
import fs from 'node:fs';
import http from 'node:http';
import path from 'node:path';

export type Status = 'UP' | 'DOWN';

export interface Component {
  status: Status | 'UNKNOWN';
  details?: Record<string, unknown>;
}

/** A dependency the process needs to serve: UP when `check` resolves true within its own time limit. */
export interface ReadinessProbe {
  name: string;
  check(): Promise<boolean>;
}

export interface ReadinessReport {
  status: Status;
  components: Record<string, { status: Status }>;
}

export const LIVENESS_PATH = '/management/health/liveness';
export const READINESS_PATH = '/management/health/readiness';

/** Every probe at once; a probe that throws is DOWN. */
export async function readiness(probes: readonly ReadinessProbe[]): Promise<ReadinessReport> {
  const results = await Promise.all(probes.map((p) => p.check().catch(() => false)));
  const components: ReadinessReport['components'] = {};
  probes.forEach((p, i) => (components[p.name] = { status: results[i] ? 'UP' : 'DOWN' }));
  return { status: results.every(Boolean) ? 'UP' : 'DOWN', components };
}

/**
 * Free space where the files directory is (or would be: its nearest existing parent) against the threshold
 * (HEALTH_DISK_MIN_FREE_BYTES), and that the directory, when it exists, can be written.
 */
export async function diskHealth(dir: string, minFree: number): Promise<Component> {
  let at = path.resolve(dir);
  while (!fs.existsSync(at) && path.dirname(at) !== at) at = path.dirname(at);
  try {
    if (at === path.resolve(dir) && !(await fs.promises.stat(at)).isDirectory())
      throw new Error(`${at} is not a directory`);
    await fs.promises.access(at, fs.constants.W_OK);
    const st = await fs.promises.statfs(at);
    const free = st.bavail * st.bsize;
    return {
      status: free >= minFree ? 'UP' : 'DOWN',
      details: { total: st.blocks * st.bsize, free, threshold: minFree },
    };
  } catch (err) {
    return { status: 'DOWN', details: { error: (err as Error).message } };
  }
}

/**
 * The worker's health endpoints on their own port (all interfaces, as the metrics port): GET liveness and
 * readiness with the statuses as JSON; anything else 404.
 */
export function startHealthServer(port: number, probes: readonly ReadinessProbe[]): Promise<http.Server> {
  const server = http.createServer((req, res) => {
    const url = (req.url ?? '').split('?')[0];
    const answer = (status: number, body: unknown) => {
      res.writeHead(status, { 'Content-Type': 'application/json', 'Cache-Control': 'no-store' });
      res.end(JSON.stringify(body));
    };
    if (req.method !== 'GET' && req.method !== 'HEAD') return answer(405, { status: 'METHOD_NOT_ALLOWED' });
    if (url === LIVENESS_PATH) return answer(200, { status: 'UP' });
    if (url === READINESS_PATH)
      return void readiness(probes).then(
        (r) => answer(r.status === 'UP' ? 200 : 503, r),
        () => answer(503, { status: 'DOWN' }),
      );
    answer(404, { status: 'NOT_FOUND' });
  });
  return new Promise((resolve, reject) => {
    server.once('error', reject);
    server.listen(port, () => resolve(server));
  });
}
