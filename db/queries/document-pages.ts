/** A document's page images (files under FILES_DIR/pages): written by the parser, served by the API. */
import type { Knex } from 'knex';
import { insertChunked } from './bulk';

export async function pageCount(knex: Knex, documentId: number): Promise<number> {
  const row = await knex('document_pages').where('document_id', documentId).count('* as c').first();
  return Number(row?.c ?? 0);
}

export async function pagePath(knex: Knex, documentId: number, index: number): Promise<string | null> {
  const row = await knex('document_pages').where({ document_id: documentId, index }).first('path');
  return row?.path ?? null;
}

/** The stored paths of the documents' pages. */
export async function pagePaths(knex: Knex, documentIds: readonly number[]): Promise<string[]> {
  return knex('document_pages')
    .whereIn('document_id', [...documentIds])
    .pluck('path');
}

/** Replaces the document's page rows (inside the caller's transaction). */
export async function replacePages(
  trx: Knex.Transaction,
  documentId: number,
  pages: readonly { index: number; path: string }[],
): Promise<void> {
  await trx('document_pages').where({ document_id: documentId }).delete();
  await insertChunked(
    trx,
    'document_pages',
    pages.map((r) => ({ document_id: documentId, index: r.index, path: r.path })),
  );
}
