/**
 * Webhooks (migration 031): subscriptions of a process, the outbox of events and the deliveries. The
 * projection writes events with `outboxCte` inside its own statement or transaction (so an event exists
 * exactly when its change does); an event is stored only when an active subscription of the process wants
 * its type, and gets one delivery per such subscription. Events are unique by their change key, so a
 * retried write stores nothing twice. The delivery workflow of a (subscription, document) takes the oldest
 * pending delivery (`nextPendingDelivery`) and records each attempt (`recordAttempt`).
 */
import crypto from 'node:crypto';
import type { Knex } from 'knex';
import { openValue, sealValue } from '../crypto';
import type { WebhookDeliveryDTO, WebhookDeliveryStatus, WebhookDTO } from '../../domain/webhooks';

export type { WebhookDTO };

const COLUMNS = [
  'id',
  'process_id as processId',
  'url',
  'events',
  'active',
  'created_date as createdDate',
  'last_modified_date as lastModifiedDate',
];

interface Row {
  id: string | number;
  processId: string | number;
  url: string;
  events: string[];
  active: boolean;
  createdDate: Date;
  lastModifiedDate: Date;
}

const toDTO = (r: Row): WebhookDTO => ({
  id: Number(r.id),
  processId: Number(r.processId),
  url: r.url,
  events: r.events,
  active: r.active,
  createdDate: r.createdDate.toISOString(),
  lastModifiedDate: r.lastModifiedDate.toISOString(),
});

export interface WebhookFields {
  url: string;
  events: string[];
  active: boolean;
}

export async function insertWebhook(
  knex: Knex,
  processId: number,
  fields: WebhookFields,
  secret: string,
): Promise<WebhookDTO> {
  const [row] = await knex('webhooks')
    .insert({ process_id: processId, ...fields, secret: sealValue('webhooks', 'secret', secret) })
    .returning(COLUMNS);
  return toDTO(row as Row);
}

/** Changes the fields (and the secret when given); undefined when the subscription is gone. */
export async function updateWebhook(
  knex: Knex,
  id: number,
  fields: WebhookFields,
  secret: string | null,
): Promise<WebhookDTO | undefined> {
  const [row] = await knex('webhooks')
    .where('id', id)
    .update({
      ...fields,
      ...(secret ? { secret: sealValue('webhooks', 'secret', secret) } : {}),
      last_modified_date: knex.fn.now(),
    })
    .returning(COLUMNS);
  return row ? toDTO(row as Row) : undefined;
}

export async function deleteWebhook(knex: Knex, id: number): Promise<void> {
  await knex('webhooks').where('id', id).delete();
}

export async function findWebhook(knex: Knex, id: number): Promise<WebhookDTO | undefined> {
  const row = await knex('webhooks').where('id', id).first(COLUMNS);
  return row ? toDTO(row as Row) : undefined;
}

/** A process's subscriptions in creation order, one page. */
export async function processWebhooks(
  knex: Knex,
  processId: number,
  page: number,
  size: number,
): Promise<{ content: WebhookDTO[]; total: number }> {
  const [rows, [{ count }]] = await Promise.all([
    knex('webhooks')
      .where('process_id', processId)
      .orderBy('id')
      .offset(page * size)
      .limit(size)
      .select(COLUMNS),
    knex('webhooks').where('process_id', processId).count<{ count: string }[]>('* as count'),
  ]);
  return { content: (rows as Row[]).map(toDTO), total: Number(count) };
}

/** The event id of a change: the same for every write of that change (receivers de-duplicate on it). */
export const eventIdOf = (changeKey: string): string =>
  `msg_${crypto.createHash('sha256').update(changeKey).digest('base64url').slice(0, 27)}`;

export interface OutboxEvent {
  /** Unique per change and stable across retries of its write. */
  changeKey: string;
  type: string;
  body: string;
}

/**
 * Common table expressions storing `events` of one document (in order) and their deliveries, for a statement
 * that ends by selecting from them: `wh_woken` lists the subscriptions given a new delivery. `guard` (SQL)
 * must hold for anything to be stored (the single-statement projection passes its document lock).
 */
export function outboxCte(
  processId: number,
  documentId: number | null,
  events: readonly OutboxEvent[],
  guard = 'true',
): { sql: string; bindings: Knex.RawBinding[] } {
  const bindings: Knex.RawBinding[] = [];
  const values = events
    .map((e, i) => {
      bindings.push(i, e.changeKey, eventIdOf(e.changeKey), e.type, e.body);
      return '(?::int, ?::text, ?::text, ?::text, ?::text)';
    })
    .join(', ');
  bindings.push(processId, processId, documentId, documentId ?? 0);
  const sql = `wh_in(ord, change_key, event_id, type, body) as (values ${values}),
    wh_subs as (select id, events from webhooks where process_id = ?::bigint and active),
    wh_events as (
      insert into webhook_events (change_key, event_id, process_id, document_id, type, body)
      select i.change_key, i.event_id, ?::bigint, ?::bigint, i.type, i.body from wh_in i
      where (${guard}) and exists (select 1 from wh_subs s where i.type = any(s.events))
      order by i.ord
      on conflict (change_key) do nothing
      returning id, type),
    wh_deliveries as (
      insert into webhook_deliveries (webhook_id, event_row_id, document_id)
      select s.id, e.id, ?::bigint from wh_events e join wh_subs s on e.type = any(s.events)
      order by e.id
      returning webhook_id),
    wh_woken as (select coalesce(array_agg(distinct webhook_id), '{}') as ids from wh_deliveries)`;
  return { sql, bindings };
}

/** Stores events of one document on their own (inside the caller's transaction); the subscriptions woken. */
export async function insertOutbox(
  knex: Knex,
  processId: number,
  documentId: number | null,
  events: readonly OutboxEvent[],
): Promise<number[]> {
  if (!events.length) return [];
  const cte = outboxCte(processId, documentId, events);
  const { rows } = await knex.raw(`with ${cte.sql} select ids from wh_woken`, cte.bindings);
  return (rows[0]?.ids ?? []).map(Number);
}

/** A test event for one subscription (whatever events it wants); its delivery id. */
export async function insertTestDelivery(
  knex: Knex,
  webhook: WebhookDTO,
  event: { changeKey: string; type: string; body: string },
): Promise<{ deliveryId: number; eventId: string }> {
  return knex.transaction(async (trx) => {
    const eventId = eventIdOf(event.changeKey);
    const [row] = await trx('webhook_events')
      .insert({
        change_key: event.changeKey,
        event_id: eventId,
        process_id: webhook.processId,
        document_id: null,
        type: event.type,
        body: event.body,
      })
      .returning('id');
    const [d] = await trx('webhook_deliveries')
      .insert({ webhook_id: webhook.id, event_row_id: row.id, document_id: 0 })
      .returning('id');
    return { deliveryId: Number(d.id), eventId };
  });
}

export type DeliveryDTO = WebhookDeliveryDTO;

const iso = (d: Date | null) => (d ? d.toISOString() : null);

/** A subscription's deliveries, newest first, one page. */
export async function webhookDeliveries(
  knex: Knex,
  webhookId: number,
  page: number,
  size: number,
): Promise<{ content: DeliveryDTO[]; total: number }> {
  const [rows, [{ count }]] = await Promise.all([
    knex('webhook_deliveries as d')
      .join('webhook_events as e', 'e.id', 'd.event_row_id')
      .where('d.webhook_id', webhookId)
      .orderBy('d.id', 'desc')
      .offset(page * size)
      .limit(size)
      .select(
        'd.id',
        'e.event_id as eventId',
        'e.type',
        'e.document_id as documentId',
        'd.status',
        'd.attempts',
        'd.response_status as responseStatus',
        'd.response_ms as responseMs',
        'd.last_error as lastError',
        'd.created_date as createdDate',
        'd.last_attempt_date as lastAttemptDate',
        'd.next_retry_date as nextRetryDate',
        'd.delivered_date as deliveredDate',
      ),
    knex('webhook_deliveries').where('webhook_id', webhookId).count<{ count: string }[]>('* as count'),
  ]);
  return {
    content: rows.map((r: Record<string, any>) => ({
      id: Number(r.id),
      eventId: r.eventId,
      type: r.type,
      documentId: r.documentId === null ? null : Number(r.documentId),
      status: r.status,
      attempts: r.attempts,
      responseStatus: r.responseStatus,
      responseMs: r.responseMs,
      lastError: r.lastError,
      createdDate: r.createdDate.toISOString(),
      lastAttemptDate: iso(r.lastAttemptDate),
      nextRetryDate: iso(r.nextRetryDate),
      deliveredDate: iso(r.deliveredDate),
    })),
    total: Number(count),
  };
}

/** Puts a delivery back in its document's queue ("send again"); its document key, or undefined when gone. */
export async function requeueDelivery(
  knex: Knex,
  webhookId: number,
  deliveryId: number,
): Promise<number | undefined> {
  const [row] = await knex('webhook_deliveries')
    .where({ id: deliveryId, webhook_id: webhookId })
    // the attempts so far stay in the log; the retry window starts again
    .update({ status: 'PENDING', first_attempt_date: null, next_retry_date: null })
    .returning('document_id');
  return row ? Number(row.document_id) : undefined;
}

/** Documents (keys) of a subscription with pending deliveries: what re-activating it wakes. */
export async function pendingDocuments(knex: Knex, webhookId: number): Promise<number[]> {
  const rows = await knex('webhook_deliveries')
    .where({ webhook_id: webhookId, status: 'PENDING' })
    .distinct('document_id');
  return rows.map((r: { document_id: string }) => Number(r.document_id));
}

export interface PendingDelivery {
  id: number;
  eventId: string;
  body: string;
  attempts: number;
  firstAttemptDate: Date | null;
  url: string;
  secret: string;
}

/** The oldest pending delivery of a (subscription, document) while the subscription is active. */
export async function nextPendingDelivery(
  knex: Knex,
  webhookId: number,
  documentId: number,
): Promise<PendingDelivery | undefined> {
  const row = await knex('webhook_deliveries as d')
    .join('webhook_events as e', 'e.id', 'd.event_row_id')
    .join('webhooks as w', 'w.id', 'd.webhook_id')
    .where({
      'd.webhook_id': webhookId,
      'd.document_id': documentId,
      'd.status': 'PENDING',
      'w.active': true,
    })
    .orderBy('d.event_row_id')
    .first(
      'd.id',
      'e.event_id as eventId',
      'e.body',
      'd.attempts',
      'd.first_attempt_date as firstAttemptDate',
      'w.url',
      'w.secret',
    );
  if (!row) return undefined;
  return { ...row, id: Number(row.id), secret: openValue('webhooks', 'secret', row.secret) ?? '' };
}

export interface Attempt {
  status: WebhookDeliveryStatus;
  at: Date;
  responseStatus: number | null;
  responseMs: number | null;
  error: string | null;
  nextRetry: Date | null;
}

export async function recordAttempt(knex: Knex, deliveryId: number, a: Attempt): Promise<void> {
  await knex('webhook_deliveries')
    .where('id', deliveryId)
    .update({
      status: a.status,
      attempts: knex.raw('attempts + 1'),
      first_attempt_date: knex.raw('coalesce(first_attempt_date, ?)', [a.at]),
      last_attempt_date: a.at,
      response_status: a.responseStatus,
      response_ms: a.responseMs,
      last_error: a.error,
      next_retry_date: a.nextRetry,
      delivered_date: a.status === 'DELIVERED' ? a.at : null,
    });
}

/** (subscription, document) pairs with a delivery never attempted although older than `olderThanMs`. */
export async function unattemptedPairs(
  knex: Knex,
  olderThanMs: number,
  limit = 500,
): Promise<{ webhookId: number; documentId: number }[]> {
  const rows = await knex('webhook_deliveries')
    .where({ status: 'PENDING', attempts: 0 })
    .where('created_date', '<', new Date(Date.now() - olderThanMs))
    .distinct('webhook_id', 'document_id')
    .limit(limit);
  return rows.map((r: { webhook_id: string; document_id: string }) => ({
    webhookId: Number(r.webhook_id),
    documentId: Number(r.document_id),
  }));
}
