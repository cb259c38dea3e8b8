/**
 * Webhook delivery (issue 32 section 1): `deliverNextWebhook` sends the oldest pending delivery of a
 * (subscription, document) once, signed the Standard Webhooks way, to the address the net guard checked
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

export function createWebhookActivities(deps: WebhookDeps) {
  const windowMs = deps.webhookRetryMs ?? 24 * 3600 * 1000;
  return {
    async deliverNextWebhook(input: WebhookDeliveryInput): Promise<DeliverNextResult> {
      const d = await nextPendingDelivery(deps.knex, input.webhookId, input.documentId);
      if (!d) return { kind: 'idle' };
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
    },
  };
}
