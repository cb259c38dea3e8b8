/**
 * `npm run chaos:cluster`: the chaos run of `npm run chaos` (scripts/lib/chaos.ts: 100 documents through
 * HUP -> FILE_PARSER -> SEND_REQUEST -> CLF, two APIs, two workers) on a real Temporal cluster
 * (scripts/lib/cluster.ts: frontend, history, matching and internal worker as separate processes, mTLS), whose
 * persistence and visibility live on the run's own embedded PostgreSQL, the one the product uses too: killing
 * it kills the store of both. Each once, at random moments: the history service, the matching service, the
 * frontend (each started again at once, as a supervisor would), one worker, one API process and PostgreSQL.
 * Results go under `chaos.cluster` in .data/bench/results.json; exits 1 when a document was lost or a request
 * received twice.
 */
import path from 'node:path';
import { mergeResultsAt, RESULTS_FILE } from './lib/bench-results';
import { chaosSizesFromEnv, printChaos, runChaos, stopOnSignals, type ChaosEngine } from './lib/chaos';
import { CLUSTER_CHAOS_MAX_CONNECTIONS, clusterChaosEngine } from './lib/cluster-chaos';
import { ROOT } from './lib/prepare';

async function main(): Promise<number> {
  stopOnSignals();
  const result = await runChaos({
    dir: path.join(ROOT, '.data', 'chaos-cluster'),
    ...chaosSizesFromEnv(),
    startEngine: (o): Promise<ChaosEngine> => clusterChaosEngine(o),
    maxConnections: CLUSTER_CHAOS_MAX_CONNECTIONS,
  });
  mergeResultsAt(['chaos', 'cluster'], result);
  printChaos(result);
  console.log(`\nresults written under "chaos.cluster" in ${path.relative(ROOT, RESULTS_FILE)}`);
  const webhooksKept = result.webhooks.lost === 0 && result.webhooks.unknownIds === 0;
  return result.outcome.lost === 0 && result.sink.duplicates === 0 && webhooksKept ? 0 : 1;
}

main().then(
  (code) => process.exit(code),
  (err) => {
    console.error('[chaos:cluster] failed:', err);
    process.exit(1);
  },
);
