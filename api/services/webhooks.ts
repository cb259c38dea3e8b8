/**
 * Webhook subscriptions of a process (issue 32 section 1): validation (domain/webhooks.ts rules and the net
 * guard: an address the deployment does not allow is refused when saved, and again at each delivery), the
 * secret generated when absent and answered only by the call that set it, the delivery log, test events
 * and "send again". New deliveries are handed to their delivery workflow (server/webhook-dispatch.ts); when
 * Temporal cannot be reached they stay queued and the worker's sweep wakes them.
 */
import crypto from 'node:crypto';
import type { Knex } from 'knex';
import {
  WEBHOOK_TEST_EVENT,
  webhookEventsRule,
  webhookSecretRule,
  webhookUrlRule,
  type WebhookEventBody,
} from '../../domain/webhooks';
import * as q from '../../db/queries/webhooks';
import { generateWebhookSecret } from '../../server/webhook-signature';
import { wakeWebhookDeliveries } from '../../server/webhook-dispatch';
import type { WebhookDeliveryInput } from '../../workflows/webhook-contract';
import { getLogger } from '../../server/logger';
import { FieldErrorCollector } from '../errors';
import type { TemporalGateway } from '../temporal';
import { guardOutbound } from './outbound';

const log = getLogger('api.webhooks');

export interface WebhookDeps {
  knex: Knex;
  temporal: TemporalGateway;
  config: { taskQueue: string; webhookTaskQueue?: string; outboundAllowlist: string[] };
}

export interface WebhookInput {
  url?: string | null;
  events?: string[] | null;
  active?: boolean | null;
  secret?: string | null;
}

/** Field errors (400) for a subscription, then the net guard on its host (400 error.outboundAddressRefused). */
export async function validateWebhook(deps: WebhookDeps, input: WebhookInput): Promise<q.WebhookFields> {
  new FieldErrorCollector('webhook')
    .check('url', webhookUrlRule(input.url))
    .check('events', webhookEventsRule(input.events))
    .check('secret', webhookSecretRule(input.secret))
    .throwIfAny();
  const url = new URL(input.url!.trim());
  try {
    await guardOutbound(url.hostname, deps.config.outboundAllowlist, 'webhook');
  } catch (err) {
    // a name that does not resolve now may later; a refused address is refused
    if ((err as { status?: number }).status === 400) throw err;
  }
  return { url: url.toString(), events: [...new Set(input.events!)], active: input.active ?? true };
}

export async function createWebhook(
  deps: WebhookDeps,
  processId: number,
  input: WebhookInput,
): Promise<q.WebhookDTO & { secret: string }> {
  const fields = await validateWebhook(deps, input);
  const secret = input.secret ?? generateWebhookSecret();
  return { ...(await q.insertWebhook(deps.knex, processId, fields, secret)), secret };
}

/** Saves the fields (and a given secret, answered back once); re-activating wakes what was held. */
export async function updateWebhook(
  deps: WebhookDeps,
  current: q.WebhookDTO,
  input: WebhookInput,
): Promise<(q.WebhookDTO & { secret?: string }) | undefined> {
  const fields = await validateWebhook(deps, input);
  const updated = await q.updateWebhook(deps.knex, current.id, fields, input.secret ?? null);
  if (updated?.active && !current.active) {
    const documents = await q.pendingDocuments(deps.knex, current.id);
    await wake(
      deps,
      documents.map((documentId) => ({ webhookId: current.id, documentId })),
    );
  }
  return updated && (input.secret ? { ...updated, secret: input.secret } : updated);
}

async function wake(deps: WebhookDeps, pairs: WebhookDeliveryInput[], retryNow = false): Promise<void> {
  if (!pairs.length) return;
  try {
    await wakeWebhookDeliveries(await deps.temporal.client(), deps.config, pairs, retryNow);
  } catch (err) {
    log.warn('webhook deliveries queued but not woken (the worker sweep will)', { error: err as Error });
  }
}

/** Queues a `webhook.test` event for this subscription only; its delivery id and event id. */
export async function sendTestEvent(
  deps: WebhookDeps,
  webhook: q.WebhookDTO,
  userId: number,
): Promise<{ deliveryId: number; eventId: string }> {
  const body: WebhookEventBody = {
    type: WEBHOOK_TEST_EVENT,
    timestamp: new Date().toISOString(),
    data: { processId: webhook.processId, documentId: null, webhookId: webhook.id, who: { userId } },
  };
  const queued = await q.insertTestDelivery(deps.knex, webhook, {
    changeKey: `test:${webhook.id}:${crypto.randomUUID()}`,
    type: WEBHOOK_TEST_EVENT,
    body: JSON.stringify(body),
  });
  await wake(deps, [{ webhookId: webhook.id, documentId: 0 }]);
  return queued;
}

/** "Send again": the delivery goes back to its document's queue, tried at once; false when not found. */
export async function resendDelivery(
  deps: WebhookDeps,
  webhookId: number,
  deliveryId: number,
): Promise<boolean> {
  const documentId = await q.requeueDelivery(deps.knex, webhookId, deliveryId);
  if (documentId === undefined) return false;
  await wake(deps, [{ webhookId, documentId }], true);
  return true;
}

/** Stores `document.deleted` for documents about to be deleted (in the caller's transaction); who to wake. */
export async function documentDeletedEvents(
  trx: Knex,
  docs: readonly { id: number; processId: number }[],
): Promise<WebhookDeliveryInput[]> {
  const woken: WebhookDeliveryInput[] = [];
  const at = new Date().toISOString();
  for (const d of docs) {
    const body: WebhookEventBody = {
      type: 'document.deleted',
      timestamp: at,
      data: { processId: d.processId, documentId: d.id },
    };
    const ids = await q.insertOutbox(trx, d.processId, d.id, [
      { changeKey: `doc:${d.id}:deleted`, type: body.type, body: JSON.stringify(body) },
    ]);
    woken.push(...ids.map((webhookId) => ({ webhookId, documentId: d.id })));
  }
  return woken;
}
