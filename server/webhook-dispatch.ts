/**
 * Wakes the delivery workflows of webhook deliveries (workflows/webhook-contract.ts): signal-with-start of
 * `webhook-<subscription>-document-<document>`, which starts it when it is not running. Called after the
 * projection (worker) or a deletion (API) committed new deliveries, and by the worker's sweep for
 * deliveries still unattempted after a while (their writer died before waking anyone). They start on the
 * webhook task queue (webhookTaskQueueOf: WEBHOOK_TASK_QUEUE or `<taskQueue>-webhooks`), which a Worker of
 * its own serves.
 */

/** The main task queue and WEBHOOK_TASK_QUEUE when set (AppConfig, WorkerConfig). */
export type WebhookQueues = { taskQueue: string; webhookTaskQueue?: string };
import type { Client } from '@temporalio/client';
import type { Knex } from 'knex';
import { unattemptedPairs } from '../db/queries/webhooks';
import { webhookTaskQueueOf } from './config';
import {
  WEBHOOK_DELIVERY_WORKFLOW,
  webhookDeliveryWorkflowId,
  webhookWakeSignal,
  type WebhookDeliveryInput,
} from '../workflows/webhook-contract';

export async function wakeWebhookDeliveries(
  client: Client,
  queues: WebhookQueues,
  pairs: readonly WebhookDeliveryInput[],
  retryNow = false,
): Promise<void> {
  const taskQueue = webhookTaskQueueOf(queues);
  await Promise.all(
    pairs.map((p) =>
      client.workflow.signalWithStart(WEBHOOK_DELIVERY_WORKFLOW, {
        taskQueue,
        workflowId: webhookDeliveryWorkflowId(p),
        args: [{ webhookId: p.webhookId, documentId: p.documentId }],
        signal: webhookWakeSignal,
        signalArgs: [{ retryNow }],
      }),
    ),
  );
}

/** Wakes the workflows of deliveries never attempted though older than `olderThanMs`; how many pairs. */
export async function sweepWebhookDeliveries(
  client: Client,
  knex: Knex,
  queues: WebhookQueues,
  olderThanMs: number,
): Promise<number> {
  const pairs = await unattemptedPairs(knex, olderThanMs);
  await wakeWebhookDeliveries(client, queues, pairs);
  return pairs.length;
}
