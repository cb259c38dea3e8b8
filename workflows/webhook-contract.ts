/**
 * The contract of webhook delivery (issue 32 section 1): one workflow per (subscription, document), which
 * delivers that document's events to that subscriber in order. Imported by the API, the worker, the
 * projection activity and tests; the workflow is in webhook-delivery.ts.
 */
import { defineSignal } from '@temporalio/workflow';

export const WEBHOOK_DELIVERY_WORKFLOW = 'webhookDeliveryWorkflow';

export interface WebhookDeliveryInput {
  webhookId: number;
  /** The document whose events are delivered in order; 0 for events of no document (test events). */
  documentId: number;
}

export const webhookDeliveryWorkflowId = (p: WebhookDeliveryInput): string =>
  `webhook-${p.webhookId}-document-${p.documentId}`;

/**
 * New deliveries wait: look again when idle. `retryNow` (a delivery re-queued by "send again") also cuts a
 * retry's wait short; new events do not, so an endpoint that is down is not hammered by a busy document.
 */
export const webhookWakeSignal = defineSignal<[{ retryNow?: boolean }?]>('webhookWake');

/** What one delivery step did. */
export type DeliverNextResult =
  | { kind: 'idle' }
  | { kind: 'delivered'; deliveryId: number }
  | { kind: 'failed'; deliveryId: number }
  | { kind: 'retry'; deliveryId: number; delayMs: number };
