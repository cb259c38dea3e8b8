/**
 * CRON / THRESHOLD action triggers and the upload pollers (issue 5):
 * - `action_batches`: one aggregated execution of an action node (CRON tick, THRESHOLD reached, or run now);
 * - `action_trigger_items`: a document that reached a CRON/THRESHOLD node and waits for the next batch;
 * - `imported_items`: what an upload poller (IMAP, SFTP, drive) has imported, one row per source item and
 *   node, so an item is imported once even across restarts;
 * - `poller_status`: the last poll of an upload node (time, imported count, last error and its time).
 */
import type { Knex } from 'knex';

export async function up(knex: Knex): Promise<void> {
  await knex.schema.createTable('action_batches', (t) => {
    t.bigIncrements('id');
    t.bigInteger('node_id').notNullable().references('nodes.id').onDelete('CASCADE').index();
    /** CRON, THRESHOLD or MANUAL (execute-action). */
    t.string('reason', 10).notNullable();
    /** The workflow that claimed the batch (CRON, MANUAL): a retried claim finds its batch. */
    t.string('claim_key', 300).unique();
    t.timestamp('created_date', { useTz: true }).notNullable().defaultTo(knex.fn.now());
  });
  await knex.schema.createTable('action_trigger_items', (t) => {
    t.bigIncrements('id');
    t.bigInteger('node_id').notNullable().references('nodes.id').onDelete('CASCADE');
    t.bigInteger('document_id').notNullable().references('documents.id').onDelete('CASCADE');
    t.bigInteger('step_id').references('steps.id').onDelete('SET NULL');
    /** The step run that collected the document (`step:<id>:<run>`): a retry collects once. */
    t.string('collect_key', 200).notNullable().unique();
    t.bigInteger('batch_id').references('action_batches.id').onDelete('SET NULL');
    t.timestamp('created_date', { useTz: true }).notNullable().defaultTo(knex.fn.now());
    t.index(['node_id', 'batch_id']);
    t.index(['batch_id']);
  });
  await knex.schema.alterTable('action_execution_results', (t) => {
    t.bigInteger('batch_id').references('action_batches.id').onDelete('SET NULL');
  });
  await knex.schema.alterTable('llm_chat_responses', (t) => {
    t.setNullable('step_id');
    t.setNullable('document_id');
    t.bigInteger('batch_id').references('action_batches.id').onDelete('CASCADE');
  });
  await knex.schema.createTable('imported_items', (t) => {
    t.bigIncrements('id');
    t.bigInteger('node_id').notNullable().references('nodes.id').onDelete('CASCADE');
    /** What identifies the item at its source, e.g. `imap:<conn>:<uidvalidity>:<uid>:<part>`. */
    t.string('source_key', 1024).notNullable();
    t.bigInteger('document_id').references('documents.id').onDelete('SET NULL');
    /** IMPORTED (document row written), STARTED (workflow started), REJECTED (not a document), DONE. */
    t.string('state', 12).notNullable();
    t.text('detail');
    t.timestamp('created_date', { useTz: true }).notNullable().defaultTo(knex.fn.now());
    t.timestamp('updated_date', { useTz: true }).notNullable().defaultTo(knex.fn.now());
    t.unique(['node_id', 'source_key']);
  });
  await knex.schema.createTable('poller_status', (t) => {
    t.bigInteger('node_id').primary().references('nodes.id').onDelete('CASCADE');
    t.timestamp('last_run_date', { useTz: true });
    t.timestamp('last_success_date', { useTz: true });
    t.integer('last_imported').notNullable().defaultTo(0);
    t.text('last_error');
    t.timestamp('last_error_date', { useTz: true });
  });
}

export async function down(knex: Knex): Promise<void> {
  await knex.schema.dropTableIfExists('poller_status');
  await knex.schema.dropTableIfExists('imported_items');
  await knex.schema.alterTable('llm_chat_responses', (t) => t.dropColumn('batch_id'));
  await knex.schema.alterTable('action_execution_results', (t) => t.dropColumn('batch_id'));
  await knex.schema.dropTableIfExists('action_trigger_items');
  await knex.schema.dropTableIfExists('action_batches');
}
