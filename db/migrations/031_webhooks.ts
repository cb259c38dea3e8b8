/**
 * Webhooks (issue 32 section 1): subscriptions of a process (`webhooks`, the secret sealed like other
 * credentials), the outbox of events the projection writes in the transaction of the change it reports
 * (`webhook_events`, unique by a key stable across retries of that write, so one change is one event), and
 * one delivery per event and subscription (`webhook_deliveries`: its attempts, last answer and next retry).
 */
import type { Knex } from 'knex';

export async function up(knex: Knex): Promise<void> {
  await knex.schema.createTable('webhooks', (t) => {
    t.bigIncrements('id');
    t.bigInteger('process_id').notNullable().references('processes.id').onDelete('CASCADE');
    t.text('url').notNullable();
    t.specificType('events', 'text[]').notNullable();
    t.boolean('active').notNullable().defaultTo(true);
    t.text('secret').notNullable();
    t.timestamp('created_date', { useTz: true }).notNullable().defaultTo(knex.fn.now());
    t.timestamp('last_modified_date', { useTz: true }).notNullable().defaultTo(knex.fn.now());
    t.index(['process_id', 'id']);
  });
  await knex.schema.createTable('webhook_events', (t) => {
    t.bigIncrements('id');
    /** What a retried write repeats (the document, the workflow run and its activity): one change, one row. */
    t.text('change_key').notNullable().unique();
    /** The event id receivers de-duplicate on (`webhook-id`). */
    t.text('event_id').notNullable().unique();
    t.bigInteger('process_id').notNullable();
    t.bigInteger('document_id');
    t.text('type').notNullable();
    /** The JSON body exactly as it is sent (signed byte for byte). */
    t.text('body').notNullable();
    t.timestamp('created_date', { useTz: true }).notNullable().defaultTo(knex.fn.now());
    t.index(['process_id', 'id']);
  });
  await knex.schema.createTable('webhook_deliveries', (t) => {
    t.bigIncrements('id');
    t.bigInteger('webhook_id').notNullable().references('webhooks.id').onDelete('CASCADE');
    t.bigInteger('event_row_id').notNullable().references('webhook_events.id').onDelete('CASCADE');
    /** The event's document (0 for events of no document, such as test events): the unit of ordering. */
    t.bigInteger('document_id').notNullable();
    t.text('status').notNullable().defaultTo('PENDING');
    t.integer('attempts').notNullable().defaultTo(0);
    t.timestamp('first_attempt_date', { useTz: true });
    t.timestamp('last_attempt_date', { useTz: true });
    t.integer('response_status');
    t.integer('response_ms');
    t.text('last_error');
    t.timestamp('next_retry_date', { useTz: true });
    t.timestamp('delivered_date', { useTz: true });
    t.timestamp('created_date', { useTz: true }).notNullable().defaultTo(knex.fn.now());
    t.unique(['webhook_id', 'event_row_id']);
    t.index(['webhook_id', 'id']);
  });
  // What the delivery workflow of a (subscription, document) reads next, and what the sweep looks for.
  await knex.raw(
    `create index webhook_deliveries_pending on webhook_deliveries (webhook_id, document_id, event_row_id)
     where status = 'PENDING'`,
  );
  await knex.raw(
    `create index webhook_deliveries_unattempted on webhook_deliveries (created_date)
     where status = 'PENDING' and attempts = 0`,
  );
  await knex.raw(
    `alter table webhook_deliveries add constraint webhook_deliveries_status
     check (status in ('PENDING', 'DELIVERED', 'FAILED'))`,
  );
}

export async function down(knex: Knex): Promise<void> {
  await knex.schema.dropTable('webhook_deliveries');
  await knex.schema.dropTable('webhook_events');
  await knex.schema.dropTable('webhooks');
}
