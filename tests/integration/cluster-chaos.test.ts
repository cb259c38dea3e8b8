/**
 * Durability on a real Temporal cluster, short (issue 26 section 3; `npm run chaos:cluster` is the long run):
 * the chaos run of scripts/lib/chaos.ts (its own embedded PostgreSQL, the cluster of scripts/lib/cluster.ts on
 * it over mTLS, two APIs and two workers as processes, a sink counting requests) with 20 documents through
 * HUP -> FILE_PARSER -> SEND_REQUEST -> CLF, and one kill: the history service, with SIGKILL while automatic
 * steps are running, started again at once. Every document must end DONE, and the sink must receive each
 * document's request once.
 *
 * Runs when `temporal-server` and `temporal-sql-tool` v1.32.2 are built (`.ci/run` and `npm run cluster`
 * build them); says so on the console and in the skipped suite's title when they are not.
 */
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { runChaos } from '../../scripts/lib/chaos';
import { clusterBinariesBuilt, TEMPORAL_SERVER_VERSION } from '../../scripts/lib/cluster';
import { CLUSTER_CHAOS_MAX_CONNECTIONS, clusterChaosEngine } from '../../scripts/lib/cluster-chaos';

jest.setTimeout(420_000);

const built = clusterBinariesBuilt();
const NOT_BUILT = `temporal-server / temporal-sql-tool ${TEMPORAL_SERVER_VERSION} not built (npm run cluster builds them)`;
if (!built) console.log(`[cluster chaos test] skipped: ${NOT_BUILT}`);
const TITLE = 'durability on a Temporal cluster (history service killed)';

(built ? describe : describe.skip)(built ? TITLE : `${TITLE}: SKIPPED, ${NOT_BUILT}`, () => {
  let dir: string;
  beforeAll(() => (dir = fs.mkdtempSync(path.join(os.tmpdir(), 'cluster-chaos-'))));
  afterAll(() => fs.rmSync(dir, { recursive: true, force: true }));

  it('loses no document and sends no request twice when the history service is killed while a batch walks', async () => {
    const result = await runChaos({
      dir: path.join(dir, 'run'),
      documents: 20,
      uploadSeconds: 8,
      sinkDelayMs: 50,
      seed: 26,
      kills: ['history'],
      maxConnections: CLUSTER_CHAOS_MAX_CONNECTIONS,
      startEngine: (o) => clusterChaosEngine({ ...o, log: () => {} }),
    });
    expect(result.kills).toHaveLength(1);
    // Killed while the batch walked: automatic steps were running at the kill.
    expect(result.kills[0]).toMatchObject({ target: 'history', member: 'temporal history' });
    expect(result.kills[0].busyWith).toMatch(/automatic steps running/);
    expect(result.uploadsAcknowledged).toBe(20);
    expect(result.outcome).toMatchObject({ done: 20, lost: 0 });
    expect(result.sink).toMatchObject({ documentsReceived: 20, duplicates: 0, doneWithoutRequest: [] });
  });
});
