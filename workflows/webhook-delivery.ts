/**
 * Delivers the webhook events of one document to one subscriber, oldest first (issue 32 section 1). Each
 * step is one activity (activities/webhooks): it sends the pending deliveries in order, each once, and
 * records each attempt, stopping at a failed one; a failed attempt is retried after the wait the activity answers, and one past the
 * retry window is given up so the next event goes. The workflow ends after a minute with nothing to send;
 * the next event starts it again (signal-with-start), and it continues as new after many deliveries.
 */
import { condition, continueAsNew, proxyActivities, setHandler } from '@temporalio/workflow';
import type { Activities } from '../activities';
import { webhookWakeSignal, type WebhookDeliveryInput } from './webhook-contract';

const { deliverNextWebhook } = proxyActivities<Activities>({
  // one HTTP attempt (10 s budget) and two writes; database trouble is retried by Temporal
  startToCloseTimeout: '1 minute',
  retry: { initialInterval: '1 second', maximumInterval: '1 minute' },
});

const IDLE_MS = 60_000;
const STEPS_PER_RUN = 500;

export async function webhookDeliveryWorkflow(input: WebhookDeliveryInput): Promise<void> {
  let woken = false;
  let retryNow = false;
  setHandler(webhookWakeSignal, (wake) => {
    woken = true;
    if (wake?.retryNow) retryNow = true;
  });
  for (let i = 0; i < STEPS_PER_RUN; i++) {
    // Reset before looking, so a wake-up that arrives while the activity runs is not lost.
    woken = false;
    retryNow = false;
    const step = await deliverNextWebhook(input);
    if (step.kind === 'idle') {
      if (!(await condition(() => woken, IDLE_MS))) return;
    } else if (step.kind === 'retry') {
      await condition(() => retryNow, step.delayMs);
    }
  }
  await continueAsNew<typeof webhookDeliveryWorkflow>(input);
}
