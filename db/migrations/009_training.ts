/**
 * Trainings of trainable CLF / SPAN nodes (spec 3: trainableConfig, `PUT api/trainable-nodes/{id}/train`):
 * one row per attempt to post the node's labels and annotated documents to its requestPath, manual (the
 * route) or automatic (after `threshold` new finished documents). `documents` is how many documents the
 * attempt sent; the latest SUCCESS row's count is the watermark automatic training counts new documents from.
 */
import type { Knex } from 'knex';

export async function up(knex: Knex): Promise<void> {
  await knex.schema.createTable('node_trainings', (t) => {
    t.bigIncrements('id');
    t.bigInteger('node_id').notNullable().references('nodes.id').onDelete('CASCADE');
    /** MANUAL (the train route) or AUTOMATIC (threshold reached). */
    t.string('reason', 10).notNullable();
    /** SUCCESS (the model server answered 2xx) or FAILURE. */
    t.string('status', 10).notNullable();
    t.integer('documents').notNullable().defaultTo(0);
    t.integer('http_status');
    t.text('error');
    t.timestamp('created_date', { useTz: true }).notNullable().defaultTo(knex.fn.now());
    t.index(['node_id', 'id']);
  });
}

export async function down(knex: Knex): Promise<void> {
  await knex.schema.dropTableIfExists('node_trainings');
}
