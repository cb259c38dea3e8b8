/**
 * Issue 10: scale-out. Two API processes and two workers (real OS processes, scripts/lib/scale-out.ts) on the
 * run's one Temporal dev server and one PostgreSQL, on a task queue of their own, sharing FILES_DIR and
 * DATA_DIR (so one JWT secret and one data encryption key, generated once by whichever starts first).
 *
 * A token signed in at API 1 is accepted by API 2 (the shared secret); documents uploaded through both APIs
 * are all parsed by the workers (Upload -> automatic FILE_PARSER: the worker that picks the parse reads the
 * file another process stored), every parse ran on one of the two workers, and both workers poll the queue.
 * Which worker parses how many is reported, not asserted (that depends on timing). The worker containers'
 * health check (scripts/worker-health.ts) passes for the cluster's queue and fails for a queue nobody polls.
 * Every child process is ended in afterAll, also when the test fails.
 */
import { execFile } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import { promisify } from 'node:util';
import type { Knex } from 'knex';
import { createKnex } from '../../db/connection';
import {
  checkScaleOut,
  memberOfIdentity,
  startScaleOut,
  type ScaleOutCluster,
} from '../../scripts/lib/scale-out';

jest.setTimeout(150_000);

const ROOT = path.resolve(__dirname, '..', '..');

/** Exit code of the worker containers' health check (scripts/worker-health.ts) for a task queue. */
async function workerHealth(taskQueue: string): Promise<number> {
  try {
    await promisify(execFile)(path.join(ROOT, 'node_modules', '.bin', 'tsx'), ['scripts/worker-health.ts'], {
      cwd: ROOT,
      env: { ...process.env, TEMPORAL_TASK_QUEUE: taskQueue },
    });
    return 0;
  } catch (err) {
    return (err as { code?: number }).code ?? -1;
  }
}

describe('scale-out: two APIs and two workers on one Temporal and one PostgreSQL', () => {
  let cluster: ScaleOutCluster | undefined;
  let knex: Knex;

  beforeAll(async () => {
    knex = createKnex(process.env.DATABASE_URL!, { min: 0, max: 2 });
    cluster = await startScaleOut({
      databaseUrl: process.env.DATABASE_URL!,
      temporalAddress: process.env.TEMPORAL_ADDRESS!,
      apis: 2,
      workers: 2,
    });
  });

  afterAll(async () => {
    await cluster?.stop();
    await knex?.destroy();
  });

  it('shares the secret, the files and the work', async () => {
    const c = cluster!;
    // One key of each kind in the shared data directory, whoever created it.
    expect(
      fs
        .readdirSync(path.join(c.dataDir, 'keys'))
        .filter((f) => !f.startsWith('.'))
        .sort(),
    ).toEqual(['data-encryption-key', 'jwt-secret']);

    const report = await checkScaleOut(c, knex, { documents: 8 });
    console.log(`[scale-out] parses per worker: ${JSON.stringify(report.parsesByWorker)}`);

    expect(report.tokenAcceptedBy).toEqual({ 'api-1': 200, 'api-2': 200 });
    expect(report.documents).toHaveLength(8);
    expect(new Set(report.documents.map((d) => d.uploadedThrough))).toEqual(new Set(['api-1', 'api-2']));
    for (const d of report.documents) {
      expect(d).toMatchObject({ parserStatus: 'DONE', contentMatches: true });
      // Parsed by one of the cluster's workers.
      expect(memberOfIdentity(c, d.parsedBy!)?.name).toMatch(/^worker-[12]$/);
    }
    // Both workers poll the queue (each identity is `pid@host` of a node process under one worker's tsx).
    const polling = new Set(report.pollers.map((p) => memberOfIdentity(c, p)?.name));
    expect(polling).toEqual(new Set(['worker-1', 'worker-2']));
  });

  it('has a worker health check that sees a polling worker of this host, and none on an idle queue', async () => {
    expect(await workerHealth(cluster!.taskQueue)).toBe(0);
    expect(await workerHealth(`idle-${cluster!.taskQueue}`)).toBe(1);
  });
});
