/**
 * The cluster as the engine of a chaos run (scripts/lib/chaos.ts), for `npm run chaos:cluster` and
 * tests/integration/cluster-chaos.test.ts: started on the run's PostgreSQL (persistence and visibility beside
 * the product's database), on a free port; its history, matching and frontend services are the kill targets,
 * each killed with SIGKILL and started again at once, as a supervisor restarts a crashed service.
 */
import path from 'node:path';
import type { ChaosEngine, ChaosPostgres } from './chaos';
import { freeClusterPort, startCluster, type ClusterService } from './cluster';

/** The product's pools (2 APIs, 2 workers, 10 each) and the cluster's (4 services, 12 each), with room. */
export const CLUSTER_CHAOS_MAX_CONNECTIONS = 200;

export const CLUSTER_KILL_TARGETS = ['history', 'matching', 'frontend'] as const satisfies ClusterService[];

export async function clusterChaosEngine(o: {
  dir: string;
  postgres: ChaosPostgres;
  /** The cluster's database name prefix (default `temporal_cluster`, and `_visibility`). */
  database?: string;
  log?: (line: string) => void;
}): Promise<ChaosEngine> {
  const server = new URL(o.postgres.serverUrl);
  const cluster = await startCluster({
    dataDir: path.join(o.dir, 'cluster'),
    frontendPort: await freeClusterPort(),
    database: o.database,
    // The run's PostgreSQL: the run crashes and restarts it (on its port), the cluster does not stop it.
    postgres: {
      host: server.hostname,
      port: Number(server.port || 5432),
      user: decodeURIComponent(server.username),
      password: decodeURIComponent(server.password),
      stop: async () => {},
    },
    log: o.log ?? ((line) => console.log(line)),
  });
  const targets: ChaosEngine['targets'] = {};
  for (const service of CLUSTER_KILL_TARGETS)
    targets[service] = {
      label: `temporal ${service}`,
      async crash() {
        const child = cluster.processes[service];
        const exited = new Promise((r) => child.once('exit', r));
        cluster.kill(service);
        await exited;
        await cluster.restart(service);
      },
    };
  return { env: cluster.clientEnv, targets, stop: () => cluster.stop() };
}
