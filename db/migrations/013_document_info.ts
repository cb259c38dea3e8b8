/**
 * Indexes of the document-info list (db/queries/document-info.ts): a status tab walks
 * `documents (process_id, status, id)`; the step filter probes `steps (document_id, node_id, status)` per
 * document (the existing `(document_id, order)` would read every step of the document).
 */
import type { Knex } from 'knex';

export async function up(knex: Knex): Promise<void> {
  await knex.schema.alterTable('documents', (t) => {
    t.index(['process_id', 'status', 'id']);
  });
  await knex.schema.alterTable('steps', (t) => {
    t.index(['document_id', 'node_id', 'status']);
  });
}

export async function down(knex: Knex): Promise<void> {
  await knex.schema.alterTable('steps', (t) => {
    t.dropIndex(['document_id', 'node_id', 'status']);
  });
  await knex.schema.alterTable('documents', (t) => {
    t.dropIndex(['process_id', 'status', 'id']);
  });
}
