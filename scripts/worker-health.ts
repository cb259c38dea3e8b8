/**
 * Health check of a worker container (docker-compose.yml): exits 0 when a worker of this host polls the task
 * queue (Temporal's DescribeTaskQueue lists a poller whose identity, `pid@host`, names this host), else 1.
 * Reads TEMPORAL_ADDRESS, TEMPORAL_NAMESPACE and TEMPORAL_TASK_QUEUE as the worker does.
 */
import os from 'node:os';
import { Client, Connection } from '@temporalio/client';

async function main(): Promise<number> {
  const connection = await Connection.connect({
    address: process.env.TEMPORAL_ADDRESS ?? 'localhost:7233',
    connectTimeout: 5000,
  });
  try {
    const client = new Client({ connection });
    const r = await client.workflowService.describeTaskQueue({
      namespace: process.env.TEMPORAL_NAMESPACE ?? 'default',
      taskQueue: { name: process.env.TEMPORAL_TASK_QUEUE ?? 'workbench' },
      taskQueueType: 2, // activities: every worker polls them
    });
    const here = `@${os.hostname()}`;
    return (r.pollers ?? []).some((p) => p.identity?.endsWith(here)) ? 0 : 1;
  } finally {
    await connection.close();
  }
}

main().then(
  (code) => process.exit(code),
  (err) => {
    console.error('[worker-health]', err instanceof Error ? err.message : err);
    process.exit(1);
  },
);
