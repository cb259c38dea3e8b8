/**
 * Waveform peaks of speech documents (issue 14 section 1): one row per document, the binary `.dat` of
 * domain/audio-peaks.ts (about 1.4 MB for 2 hours), written by the file parser in the transaction of its
 * results (activities/parser/store.ts) or on the first request of a document parsed before (the API),
 * removed with the document.
 */
import type { Knex } from 'knex';

export async function up(knex: Knex): Promise<void> {
  await knex.schema.createTable('document_peaks', (t) => {
    t.integer('document_id').primary().references('documents.id').onDelete('CASCADE');
    t.integer('sample_rate').notNullable();
    t.integer('samples_per_window').notNullable();
    t.integer('windows').notNullable();
    t.binary('data').notNullable();
    t.timestamp('created_at', { useTz: true }).notNullable().defaultTo(knex.fn.now());
  });
}

export async function down(knex: Knex): Promise<void> {
  await knex.schema.dropTable('document_peaks');
}
