/**
 * A document's text (one row per document): created empty (or with the text a document was created from) by
 * intake, replaced by the parser, edited through the API, read by the API and the executors.
 */
import type { Knex } from 'knex';

export interface ContentRow {
  id: number;
  content: string;
}

export async function contentOf(knex: Knex, documentId: number): Promise<ContentRow | undefined> {
  return knex('document_contents').where('document_id', documentId).first('id', 'content');
}

export async function insertContent(knex: Knex, documentId: number, content: string): Promise<void> {
  await knex('document_contents').insert({ document_id: documentId, content });
}

/** Writes the document's content, whether its row exists or not. */
export async function writeContent(knex: Knex, documentId: number, content: string): Promise<void> {
  await knex('document_contents')
    .insert({ document_id: documentId, content })
    .onConflict('document_id')
    .merge(['content']);
}

/** Updates the content row `contentId` of the document; false when there is no such row. */
export async function updateContent(
  knex: Knex,
  documentId: number,
  contentId: number,
  content: string,
): Promise<boolean> {
  const n = await knex('document_contents')
    .where({ id: contentId, document_id: documentId })
    .update({ content });
  return n > 0;
}
