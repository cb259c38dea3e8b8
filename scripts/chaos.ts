/**
 * `npm run chaos`: the engine under crashes, measured on a Temporal dev server (not part of `npm test`, nothing
 * asserted; it exits 1 when a document was lost or a request received twice). The run is scripts/lib/chaos.ts
 * (its header says what it does and measures); here its engine: a Temporal dev server on a SQLite file
 * (`--db-filename`) under `.data/chaos`, killed once with SIGKILL and started again on its file and port.
 * Results go under `chaos` in .data/bench/results.json (merged: the bench's keys and `chaos.cluster` stay).
 */
import path from 'node:path';
import { mergeResultsAt, RESULTS_FILE } from './lib/bench-results';
import { chaosSizesFromEnv, printChaos, runChaos, stopOnSignals, type ChaosEngine } from './lib/chaos';
import { ROOT } from './lib/prepare';
import { ensureTemporalCli, startTemporalDevServer } from './lib/temporal';

async function devServer({ dir }: { dir: string }): Promise<ChaosEngine> {
  const cli = ensureTemporalCli();
  const dbFile = path.join(dir, 'temporal.db');
  let temporal = await startTemporalDevServer(cli, { dbFile, uiPort: null });
  const port = Number(temporal.address.split(':')[1]);
  return {
    env: { TEMPORAL_ADDRESS: temporal.address },
    targets: {
      temporal: {
        label: 'temporal dev server',
        async crash() {
          const exited = new Promise((r) => temporal.process.once('exit', r));
          temporal.process.kill('SIGKILL');
          await exited;
          temporal = await startTemporalDevServer(cli, { dbFile, port, strictPort: true, uiPort: null });
        },
      },
    },
    stop: () => temporal.stop(),
  };
}

async function main(): Promise<number> {
  stopOnSignals();
  const result = await runChaos({
    dir: path.join(ROOT, '.data', 'chaos'),
    ...chaosSizesFromEnv(),
    startEngine: devServer,
  });
  mergeResultsAt(['chaos'], result, { keep: ['cluster'] });
  printChaos(result);
  console.log(`\nresults written under "chaos" in ${path.relative(ROOT, RESULTS_FILE)}`);
  // a lost document, a request twice, a webhook event lost or a change sent under a second id fail the run
  const webhooksKept = result.webhooks.lost === 0 && result.webhooks.unknownIds === 0;
  return result.outcome.lost === 0 && result.sink.duplicates === 0 && webhooksKept ? 0 : 1;
}

main().then(
  (code) => process.exit(code),
  (err) => {
    console.error('[chaos] failed:', err);
    process.exit(1);
  },
);
