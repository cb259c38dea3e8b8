/**
 * Health check of a worker container (docker-compose.yml): exits 0 when a worker of this host polls the task
 * queue (Temporal's DescribeTaskQueue lists a poller whose identity, `pid@host`, names this host), else 1.
 * Connects as the worker does (TEMPORAL_ADDRESS, TEMPORAL_NAMESPACE, TLS, API key or profile:
 * server/temporal-connection.ts) and reads TEMPORAL_TASK_QUEUE.
 */
import os from 'node:os';
import { Client, Connection } from '@temporalio/client';
import { connectOptions, loadTemporalConnection } from '../server/temporal-connection';

async function main(): Promise<number> {
  const temporal = loadTemporalConnection();
  const connection = await Connection.connect({ ...connectOptions(temporal), connectTimeout: 5000 });
  try {
    const client = new Client({ connection });
    const r = await client.workflowService.describeTaskQueue({
      namespace: temporal.namespace,
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
