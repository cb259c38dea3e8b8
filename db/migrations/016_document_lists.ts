/**
 * Indexes of the document lists at a million documents (issue 13 section 2, db/queries/document-info.ts):
 * - `documents (process_id, filename, id)`: the filename sorts walk it (page after page) instead of sorting
 *   every document of the process;
 * - a trigram index on `documents.filename` (pg_trgm, a trusted extension): the NAME filter is a substring
 *   match (ILIKE '%text%'), which no B-tree serves; a rare name is found through the trigrams instead of a
 *   walk over every document of the process.
 */
import type { Knex } from 'knex';

export async function up(knex: Knex): Promise<void> {
  await knex.raw('create extension if not exists pg_trgm');
  await knex.schema.alterTable('documents', (t) => {
    t.index(['process_id', 'filename', 'id']);
  });
  await knex.raw('create index documents_filename_trgm_index on documents using gin (filename gin_trgm_ops)');
}

export async function down(knex: Knex): Promise<void> {
  await knex.raw('drop index if exists documents_filename_trgm_index');
  await knex.schema.alterTable('documents', (t) => {
    t.dropIndex(['process_id', 'filename', 'id']);
  });
}
