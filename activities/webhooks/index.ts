/**
 * Webhook delivery (issue 32 section 1): `deliverNextWebhook` sends the pending deliveries of a
 * (subscription, document), oldest first, each once, signed the Standard Webhooks way, to the address the net guard checked
 * (10 s budget, no redirects), and records the attempt: DELIVERED on 2xx; otherwise PENDING with its next
 * retry (domain/webhooks.ts retryDelayMs) while within the retry window (WEBHOOK_RETRY_HOURS from the first
 * attempt), FAILED after it or when the net guard refuses the address. At least once: a worker that dies
 * after sending and before recording sends again, with the same `webhook-id`.
 */
import type { Knex } from 'knex';
import { mayRetry, retryDelayMs } from '../../domain/webhooks';
import { nextPendingDelivery, recordAttempt, type PendingDelivery } from '../../db/queries/webhooks';
import { OutboundRefused, resolveOutbound } from '../../server/net-guard';
import { requestAt } from '../guarded-http';
import type { DeliverNextResult, WebhookDeliveryInput } from '../../workflows/webhook-contract';
import { webhookHeaders } from '../../server/webhook-signature';

export const WEBHOOK_TIMEOUT_MS = 10_000;
const KEPT_ANSWER_BYTES = 1024;

export interface WebhookDeps {
  knex: Knex;
  outboundAllowlist?: string[];
  /** WEBHOOK_RETRY_HOURS in ms: how long after its first attempt a delivery is retried (24 h when absent). */
  webhookRetryMs?: number;
}

type Outcome =
  | { ok: true; status: number; ms: number }
  | { ok: false; status: number | null; ms: number | null; error: string; permanent: boolean };

async function attempt(d: PendingDelivery, allowlist: readonly string[], now: Date): Promise<Outcome> {
  const url = new URL(d.url);
  let address: string;
  try {
    address = (await resolveOutbound(url.hostname, allowlist)).address;
  } catch (err) {
    const refused = err instanceof OutboundRefused;
    return { ok: false, status: null, ms: null, error: (err as Error).message, permanent: refused };
  }
  const started = Date.now();
  try {
    const res = await requestAt(address, {
      url,
      method: 'POST',
      headers: webhookHeaders(d.secret, d.eventId, d.body, now),
      body: d.body,
      timeoutMs: WEBHOOK_TIMEOUT_MS,
      maxBytes: KEPT_ANSWER_BYTES,
    });
    const ms = Date.now() - started;
    if (res.status >= 200 && res.status < 300) return { ok: true, status: res.status, ms };
    return { ok: false, status: res.status, ms, error: `HTTP ${res.status}`, permanent: false };
  } catch (err) {
    return {
      ok: false,
      status: null,
      ms: Date.now() - started,
      error: (err as Error).message,
      permanent: false,
    };
  }
}

/** At most this many deliveries, and no new one after this long, in one activity (its timeout is a minute). */
export const WEBHOOK_BATCH = 25;
const BATCH_BUDGET_MS = 20_000;

export function createWebhookActivities(deps: WebhookDeps) {
  const windowMs = deps.webhookRetryMs ?? 24 * 3600 * 1000;

  /** Sends the oldest pending delivery of the pair once and records it; null when none is pending. */
  async function deliverOne(input: WebhookDeliveryInput): Promise<DeliverNextResult | null> {
    const d = await nextPendingDelivery(deps.knex, input.webhookId, input.documentId);
    if (!d) return null;
    const now = new Date();
    const out = await attempt(d, deps.outboundAllowlist ?? [], now);
    const done = new Date();
    if (out.ok) {
      await recordAttempt(deps.knex, d.id, {
        status: 'DELIVERED',
        at: now,
        responseStatus: out.status,
        responseMs: out.ms,
        error: null,
        nextRetry: null,
      });
      return { kind: 'delivered', deliveryId: d.id };
    }
    const attempts = d.attempts + 1;
    const retry = !out.permanent && mayRetry(d.firstAttemptDate ?? now, done, attempts, windowMs);
    const delayMs = retryDelayMs(attempts);
    await recordAttempt(deps.knex, d.id, {
      status: retry ? 'PENDING' : 'FAILED',
      at: now,
      responseStatus: out.status,
      responseMs: out.ms,
      error: out.error.slice(0, 1000),
      nextRetry: retry ? new Date(done.getTime() + delayMs) : null,
    });
    return retry ? { kind: 'retry', deliveryId: d.id, delayMs } : { kind: 'failed', deliveryId: d.id };
  }

  return {
    /**
     * Delivers the pair's pending events oldest first, one after the other while they are delivered (at most
     * WEBHOOK_BATCH, none begun after 20 s): the events of a busy document then cost one activity, not one each.
     * Stops at a failed attempt (its retry or its giving up is the answer, so a retried event still holds back
     * the later ones); 'idle' once none is left, 'delivered' when the batch ended with more maybe pending.
     */
    async deliverNextWebhook(input: WebhookDeliveryInput): Promise<DeliverNextResult> {
      const started = Date.now();
      let last: DeliverNextResult | null = null;
      for (let i = 0; i < WEBHOOK_BATCH && Date.now() - started < BATCH_BUDGET_MS; i++) {
        const step = await deliverOne(input);
        if (!step) return { kind: 'idle' };
        if (step.kind !== 'delivered') return step;
        last = step;
      }
      return last ?? { kind: 'idle' };
    },
  };
}
