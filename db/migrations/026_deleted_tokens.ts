/**
 * Undo of a word deletion in the speech workspace (issue 14): a deleted token's row, its hints and the token
 * tags it was linked to are kept here, so a batch that names the token again (the undo, by its old id)
 * brings it back with its id, confidence, hints and tag links (api/services/utterances.ts). Rows are kept a
 * day (the undo stack lives in the page and is emptied by a reload); a deletion prunes the older ones.
 * - `deleted_utterance_tokens`: one row per deleted token (the row, hints and tags as JSON), of its document.
 */
import type { Knex } from 'knex';

export async function up(knex: Knex): Promise<void> {
  await knex.schema.createTable('deleted_utterance_tokens', (t) => {
    t.bigInteger('token_id').primary();
    t.bigInteger('document_id').notNullable().references('documents.id').onDelete('CASCADE').index();
    t.jsonb('token').notNullable();
    t.jsonb('hints').notNullable().defaultTo('[]');
    t.jsonb('tags').notNullable().defaultTo('[]');
    t.timestamp('deleted_at', { useTz: true }).notNullable().defaultTo(knex.fn.now()).index();
  });
}

export async function down(knex: Knex): Promise<void> {
  await knex.schema.dropTableIfExists('deleted_utterance_tokens');
}
