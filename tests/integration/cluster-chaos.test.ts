/**
 * Durability on a real Temporal cluster, short (issue 26 section 3; `npm run chaos:cluster` is the long run):
 * the chaos run of scripts/lib/chaos.ts (on the suite's PostgreSQL, in databases of its own, dropped after;
 * the cluster of scripts/lib/cluster.ts on it over mTLS, two APIs and two workers as processes, a sink counting requests) with 20 documents through
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
import { clusterChaosEngine } from '../../scripts/lib/cluster-chaos';
import { dropDatabase, splitDatabaseUrl } from '../../scripts/lib/postgres';

jest.setTimeout(420_000);

const built = clusterBinariesBuilt();
const NOT_BUILT = `temporal-server / temporal-sql-tool ${TEMPORAL_SERVER_VERSION} not built (npm run cluster builds them)`;
if (!built) console.log(`[cluster chaos test] skipped: ${NOT_BUILT}`);
const TITLE = 'durability on a Temporal cluster (history service killed)';

(built ? describe : describe.skip)(built ? TITLE : `${TITLE}: SKIPPED, ${NOT_BUILT}`, () => {
  const { serverUrl } = splitDatabaseUrl(process.env.DATABASE_URL!);
  // The run's databases on the suite's PostgreSQL: the product's, and the cluster's two.
  const databases = [`workbench_chaos_${process.pid}`, `temporal_chaos_${process.pid}`];
  let dir: string;
  beforeAll(() => (dir = fs.mkdtempSync(path.join(os.tmpdir(), 'cluster-chaos-'))));
  afterAll(async () => {
    for (const db of [...databases, `${databases[1]}_visibility`])
      await dropDatabase(serverUrl, db).catch(() => {});
    fs.rmSync(dir, { recursive: true, force: true });
  });

  it('loses no document or webhook event and sends no request twice when the history service is killed while a batch walks', async () => {
    const result = await runChaos({
      dir: path.join(dir, 'run'),
      documents: 20,
      uploadSeconds: 8,
      sinkDelayMs: 50,
      seed: 26,
      kills: ['history'],
      postgres: { serverUrl, database: databases[0] },
      startEngine: (o) => clusterChaosEngine({ ...o, database: databases[1], log: () => {} }),
    });
    expect(result.kills).toHaveLength(1);
    // Killed while the batch walked: automatic steps were running at the kill.
    expect(result.kills[0]).toMatchObject({ target: 'history', member: 'temporal history' });
    expect(result.kills[0].busyWith).toMatch(/automatic steps running/);
    expect(result.uploadsAcknowledged).toBe(20);
    expect(result.outcome).toMatchObject({ done: 20, lost: 0 });
    expect(result.sink).toMatchObject({ documentsReceived: 20, duplicates: 0, doneWithoutRequest: [] });
    // The webhook subscriber (issue 32): every stored event arrived, no change under a second id; each
    // document's walk is there (created, its steps, done).
    expect(result.webhooks).toMatchObject({ lost: 0, unknownIds: 0, pendingAtEnd: 0, failed: 0 });
    expect(result.webhooks.eventsStored).toBeGreaterThan(20 * 3);
    expect(result.webhooks.byType).toMatchObject({ 'document.created': 20, 'document.done': 20 });
  });
});
