/**
 * `npm run cluster [-- --port 7340]`: a real Temporal cluster on this machine (scripts/lib/cluster.ts): the
 * server built from its Go module once, its schema on PostgreSQL set up by Temporal's SQL tool, the frontend,
 * history, matching and worker services as separate processes, the frontend serving mTLS. Prints the variables
 * that run `npm start` against it; Ctrl-C stops the services (the data stays in PostgreSQL).
 * `npm run cluster -- --build` only builds the binaries (once; `.ci/run` calls it so CI runs the cluster tests).
 */
import { CLUSTER_SERVICES, ensureClusterBinaries, startCluster } from './lib/cluster';

function option(name: string): number | undefined {
  const i = process.argv.indexOf(`--${name}`);
  if (i < 0) return undefined;
  const n = Number(process.argv[i + 1]);
  if (!Number.isInteger(n) || n < 1 || n > 65500) throw new Error(`--${name} must be a port number`);
  return n;
}

async function main() {
  if (process.argv.includes('--build')) {
    const { server, sqlTool } = ensureClusterBinaries();
    console.log(`[cluster] ${server} and ${sqlTool} built`);
    return;
  }
  const cluster = await startCluster({ frontendPort: option('port') });
  let stopping = false;
  const stop = async (code: number) => {
    if (stopping) return;
    stopping = true;
    console.log('\n[cluster] stopping...');
    await cluster.stop();
    process.exit(code);
  };
  process.on('SIGINT', () => void stop(0));
  process.on('SIGTERM', () => void stop(0));
  for (const service of CLUSTER_SERVICES)
    cluster.processes[service].once('exit', (code, signal) => {
      if (stopping) return;
      console.error(
        `[cluster] ${service} stopped (${signal ?? `code ${code}`}): see .data/cluster/logs/${service}.log`,
      );
    });

  const pids = CLUSTER_SERVICES.map((s) => `${s} ${cluster.processes[s].pid}`).join(', ');
  console.log('');
  console.log(`  Temporal cluster: ${cluster.address} (mTLS), namespace ${cluster.namespace}; ${pids}`);
  console.log('  Run the workbench against it (another terminal):');
  console.log('');
  for (const [k, v] of Object.entries(cluster.clientEnv)) console.log(`    export ${k}=${v}`);
  console.log('    npm start');
  console.log('');
  console.log(
    '  The temporal CLI reads the same variables (temporal workflow list). Ctrl-C stops the cluster.',
  );
  console.log('');
}

main().catch((err) => {
  console.error(`[cluster] ${(err as Error).message}`);
  process.exit(1);
});
