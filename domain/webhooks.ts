/**
 * Webhooks (issue 32 section 1): the event catalogue, the rules of a subscription (one function per rule,
 * returning the message key), the events one transition of the document engine reports, and the retry
 * schedule of a delivery. Pure: the projection activity (activities/projection) turns a transition into
 * events with `transitionEvents`, the delivery workflow waits `retryDelayMs`.
 *
 * Decisions the issue leaves open:
 * - `step.status_changed` is reported for every step whose status changes, steps created included
 *   (previousStatus null). `step.error` additionally when the new status is ERROR; `send.delivered` /
 *   `send.failed` additionally when an inter-process send (IPS) step leaves PROCESSING for a passed status /
 *   ERROR. `document.done` when the document's status becomes DONE (again after a reopening).
 * - `who` is the user whose step action made the change, null for the engine's own moves.
 * - Retries: 5 s doubling to at most one hour between attempts, until the retry window (WEBHOOK_RETRY_HOURS)
 *   from the first attempt is over; then the delivery is FAILED and the next event of the document goes.
 */
import type { DocumentStatus, NewStep, StepNode, StepStatus } from './steps';
import type { Violation } from './validation';

export const WebhookEventTypes = [
  'document.created',
  'step.status_changed',
  'document.done',
  'step.error',
  'document.deleted',
  'send.delivered',
  'send.failed',
] as const;
export type WebhookEventType = (typeof WebhookEventTypes)[number];
/** What `POST api/webhooks/{id}/test` sends: delivered whatever the subscription's events. */
export const WEBHOOK_TEST_EVENT = 'webhook.test';

export const WEBHOOK_LIMITS = { url: 2048 } as const;
/** Standard Webhooks: `whsec_` and the base64 of the key (24 to 64 bytes accepted; 32 generated). */
export const WEBHOOK_SECRET_PREFIX = 'whsec_';
export const WEBHOOK_SECRET_BYTES = { min: 24, max: 64, generated: 32 } as const;

export const WebhookDeliveryStatuses = ['PENDING', 'DELIVERED', 'FAILED'] as const;
export type WebhookDeliveryStatus = (typeof WebhookDeliveryStatuses)[number];

/** A subscription as the API answers it (the secret only from the call that set it). */
export interface WebhookDTO {
  id: number;
  processId: number;
  url: string;
  events: string[];
  active: boolean;
  createdDate: string;
  lastModifiedDate: string;
  secret?: string;
}

/** One event's delivery to one subscription: the delivery log's row. */
export interface WebhookDeliveryDTO {
  id: number;
  eventId: string;
  type: string;
  documentId: number | null;
  status: WebhookDeliveryStatus;
  attempts: number;
  responseStatus: number | null;
  responseMs: number | null;
  lastError: string | null;
  createdDate: string;
  lastAttemptDate: string | null;
  nextRetryDate: string | null;
  deliveredDate: string | null;
}

const REQUIRED: Violation = { code: 'NotBlank', key: 'entity.validation.required' };

export function webhookUrlRule(url: string | null | undefined): Violation | null {
  if (!url || !url.trim()) return REQUIRED;
  if (url.length > WEBHOOK_LIMITS.url)
    return { code: 'Size', key: 'entity.validation.maxlength', params: { max: WEBHOOK_LIMITS.url } };
  let parsed: URL;
  try {
    parsed = new URL(url.trim());
  } catch {
    return { code: 'Pattern', key: 'webhooks.validation.url' };
  }
  if (parsed.protocol !== 'http:' && parsed.protocol !== 'https:')
    return { code: 'Pattern', key: 'webhooks.validation.url' };
  if (parsed.username || parsed.password)
    return { code: 'Pattern', key: 'webhooks.validation.urlCredentials' };
  return null;
}

export function webhookEventsRule(events: readonly string[] | null | undefined): Violation | null {
  if (!events || events.length === 0) return { code: 'Required', key: 'webhooks.validation.events' };
  const unknown = events.filter((e) => !(WebhookEventTypes as readonly string[]).includes(e));
  if (unknown.length)
    return {
      code: 'Pattern',
      key: 'webhooks.validation.unknownEvent',
      params: { events: unknown.join(', ') },
    };
  return null;
}

/** A secret given by the caller: `whsec_` + base64 of 24..64 bytes (absent: one is generated). */
export function webhookSecretRule(secret: string | null | undefined): Violation | null {
  if (secret === null || secret === undefined) return null;
  const m = /^whsec_([A-Za-z0-9+/]+={0,2})$/.exec(secret);
  if (!m) return { code: 'Pattern', key: 'webhooks.validation.secret' };
  const bytes = Math.floor((m[1].replace(/=+$/, '').length * 3) / 4);
  if (bytes < WEBHOOK_SECRET_BYTES.min || bytes > WEBHOOK_SECRET_BYTES.max)
    return { code: 'Pattern', key: 'webhooks.validation.secret' };
  return null;
}

/** The body every receiver gets: `{type, timestamp, data: {processId, documentId, ...}}`. */
export interface WebhookEventBody {
  type: WebhookEventType | typeof WEBHOOK_TEST_EVENT;
  timestamp: string;
  data: { processId: number; documentId: number | null } & Record<string, unknown>;
}

/** A step as the engine held it before a transition (what `transitionEvents` compares with). */
export interface StepBefore {
  id: number;
  nodeId: number;
  status: StepStatus;
}

export interface TransitionFacts {
  processId: number;
  documentId: number;
  /** The document's first move (its upload step created). */
  created: boolean;
  documentStatusBefore: DocumentStatus;
  documentStatus: DocumentStatus;
  stepsBefore: readonly StepBefore[];
  /** Steps created, with the ids the projection gave them. */
  createdSteps: readonly (NewStep & { id: number })[];
  changes: readonly { id: number; status: StepStatus; errorMessage: string | null }[];
  nodes: readonly Pick<StepNode, 'id' | 'name' | 'activityType'>[];
  /** The user whose action made the change; null for the engine's moves. */
  who: number | null;
  at: Date;
}

const PASSED: readonly StepStatus[] = ['DONE', 'ACCEPTED'];

/** The events one transition reports, in the order they happened. */
export function transitionEvents(f: TransitionFacts): WebhookEventBody[] {
  const timestamp = f.at.toISOString();
  const base = { processId: f.processId, documentId: f.documentId };
  const nodes = new Map(f.nodes.map((n) => [n.id, n]));
  const before = new Map(f.stepsBefore.map((s) => [s.id, s]));
  const out: WebhookEventBody[] = [];
  if (f.created) out.push({ type: 'document.created', timestamp, data: { ...base } });
  const stepChanged = (
    stepId: number,
    nodeId: number,
    previous: StepStatus | null,
    status: StepStatus,
    errorMessage: string | null,
  ) => {
    if (previous === status) return;
    const node = nodes.get(nodeId);
    const step = { ...base, stepId, nodeId, nodeName: node?.name ?? null };
    out.push({
      type: 'step.status_changed',
      timestamp,
      data: { ...step, status, previousStatus: previous, who: f.who === null ? null : { userId: f.who } },
    });
    if (status === 'ERROR') out.push({ type: 'step.error', timestamp, data: { ...step, errorMessage } });
    if (node?.activityType === 'IPS' && previous === 'PROCESSING') {
      if (PASSED.includes(status)) out.push({ type: 'send.delivered', timestamp, data: { ...step } });
      else if (status === 'ERROR')
        out.push({ type: 'send.failed', timestamp, data: { ...step, errorMessage } });
    }
  };
  for (const c of f.changes) {
    const was = before.get(c.id);
    if (was) stepChanged(c.id, was.nodeId, was.status, c.status, c.errorMessage);
  }
  for (const s of f.createdSteps) if (!before.has(s.id)) stepChanged(s.id, s.nodeId, null, s.status, null);
  if (f.documentStatus === 'DONE' && f.documentStatusBefore !== 'DONE')
    out.push({ type: 'document.done', timestamp, data: { ...base } });
  return out;
}

export const RETRY_FIRST_DELAY_MS = 5_000;
export const RETRY_MAX_DELAY_MS = 60 * 60 * 1000;

/** The wait after the `attempts`-th failed attempt: 5 s, 10 s, 20 s ... at most an hour. */
export function retryDelayMs(attempts: number): number {
  return Math.min(RETRY_FIRST_DELAY_MS * 2 ** Math.max(0, attempts - 1), RETRY_MAX_DELAY_MS);
}

/** Whether another attempt after `attempts` failures still starts within the retry window. */
export function mayRetry(firstAttempt: Date, now: Date, attempts: number, windowMs: number): boolean {
  return now.getTime() + retryDelayMs(attempts) - firstAttempt.getTime() <= windowMs;
}
