/**
 * Indexes of the document list's search (issue 13 section 2, db/queries/document-search.ts):
 * - a trigram index on `document_contents.content` (pg_trgm, created by 016): BY_CONTENT is a substring
 *   match (ILIKE '%text%') that no B-tree serves; the trigrams find the few matching contents of a million;
 * - `ner_tags (ner_tag_type_id, document_id)` and `classifier_tags (classifier_type_id, document_id)`: the
 *   BY_NER_TAG and BY_CLASSIFIER_TAG probes start from the tag type (the existing indexes start from the
 *   document).
 */
import type { Knex } from 'knex';

export async function up(knex: Knex): Promise<void> {
  await knex.raw('create extension if not exists pg_trgm');
  await knex.raw(
    'create index document_contents_content_trgm_index on document_contents using gin (content gin_trgm_ops)',
  );
  await knex.schema.alterTable('ner_tags', (t) => {
    t.index(['ner_tag_type_id', 'document_id']);
  });
  await knex.schema.alterTable('classifier_tags', (t) => {
    t.index(['classifier_type_id', 'document_id']);
  });
}

export async function down(knex: Knex): Promise<void> {
  await knex.schema.alterTable('classifier_tags', (t) => {
    t.dropIndex(['classifier_type_id', 'document_id']);
  });
  await knex.schema.alterTable('ner_tags', (t) => {
    t.dropIndex(['ner_tag_type_id', 'document_id']);
  });
  await knex.raw('drop index if exists document_contents_content_trgm_index');
}
