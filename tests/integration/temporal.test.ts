/** The worker's wiring: a real workflow on the run's Temporal dev server, with an activity reading PostgreSQL. */
import crypto from 'node:crypto';
import { Client, Connection } from '@temporalio/client';
import type { Knex } from 'knex';
import { createKnex } from '../../db/connection';
import { WorkflowNames, type SystemCheckResult } from '../../workflows/contract';
import { createWorker, type WorkerGroup } from '../../workflows/worker';
import { buildProcess } from '../support/harness';

describe('Temporal worker', () => {
  let knex: Knex;
  let worker: WorkerGroup;
  let running: Promise<void>;
  let close: () => Promise<void>;
  const taskQueue = `test-system-${crypto.randomUUID()}`;

  beforeAll(async () => {
    knex = createKnex(process.env.DATABASE_URL!);
    const created = await createWorker({
      temporalAddress: process.env.TEMPORAL_ADDRESS!,
      namespace: 'default',
      taskQueue,
      knex,
      workflowBundle: { codePath: process.env.WORKFLOW_BUNDLE_PATH! },
    });
    worker = created.worker;
    running = worker.run();
    close = () => created.connection.close();
  });

  afterAll(async () => {
    worker.shutdown();
    await running;
    await close();
    await knex.destroy();
  });

  it('runs a workflow whose activity reads the database, and returns its result', async () => {
    await buildProcess(knex);
    const expected = Number((await knex('processes').count('* as c').first())!.c);
    const connection = await Connection.connect({ address: process.env.TEMPORAL_ADDRESS! });
    try {
      const client = new Client({ connection });
      const workflowId = `system-check-${crypto.randomUUID()}`;
      const result: SystemCheckResult = await client.workflow.execute(WorkflowNames.systemCheck, {
        taskQueue,
        workflowId,
        args: [{ nonce: 'n-1' }],
      });
      expect(result.nonce).toBe('n-1');
      expect(result.workflowId).toBe(workflowId);
      expect(result.processCount).toBeGreaterThanOrEqual(expected);
      const history = await client.workflow.getHandle(workflowId).fetchHistory();
      expect(history.events?.some((e) => e.activityTaskCompletedEventAttributes)).toBe(true);
    } finally {
      await connection.close();
    }
  });
});
