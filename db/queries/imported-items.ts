/**
 * The items the upload pollers saw (`imported_items`), one row per (node, source key): REJECTED with the
 * reason, IMPORTED with its document, STARTED once its workflow runs, or DONE with a detail (activities/pollers/).
 */
import type { Knex } from 'knex';

export type ImportedItemState = 'REJECTED' | 'IMPORTED' | 'STARTED' | 'DONE';

export interface ImportedItem {
  state: string;
  documentId: number | null;
  detail: string | null;
}

export async function importedItem(
  knex: Knex,
  nodeId: number,
  sourceKey: string,
): Promise<ImportedItem | undefined> {
  const row = await knex('imported_items')
    .where({ node_id: nodeId, source_key: sourceKey })
    .first('state', 'document_id', 'detail');
  return (
    row && {
      state: row.state,
      documentId: row.document_id === null ? null : Number(row.document_id),
      detail: row.detail ?? null,
    }
  );
}

/**
 * Records the item in `state` unless the node already has a row for its source key; the new row's id, or
 * undefined when another import got there first.
 */
export async function claimImportedItem(
  knex: Knex,
  nodeId: number,
  sourceKey: string,
  state: 'REJECTED' | 'IMPORTED',
  detail?: string,
): Promise<number | undefined> {
  const inserted = await knex('imported_items')
    .insert({ node_id: nodeId, source_key: sourceKey, state, ...(detail !== undefined ? { detail } : {}) })
    .onConflict(['node_id', 'source_key'])
    .ignore()
    .returning('id');
  return inserted.length ? Number(inserted[0].id) : undefined;
}

export async function setImportedDocument(knex: Knex, id: number, documentId: number): Promise<void> {
  await knex('imported_items').where('id', id).update({ document_id: documentId });
}

/** Marks an IMPORTED item STARTED (its workflow runs). */
export async function markImportedItemStarted(knex: Knex, nodeId: number, sourceKey: string): Promise<void> {
  await knex('imported_items')
    .where({ node_id: nodeId, source_key: sourceKey, state: 'IMPORTED' })
    .update({ state: 'STARTED', updated_date: knex.fn.now() });
}

/** The items of the node imported as a document whose workflow was not started yet. */
export async function importedUnstarted(
  knex: Knex,
  nodeId: number,
): Promise<{ sourceKey: string; documentId: number }[]> {
  const rows: { source_key: string; document_id: number }[] = await knex('imported_items')
    .where({ node_id: nodeId, state: 'IMPORTED' })
    .whereNotNull('document_id')
    .select('source_key', 'document_id');
  return rows.map((r) => ({ sourceKey: r.source_key, documentId: Number(r.document_id) }));
}

/** Sets the item's detail, and its state when given. */
export async function updateImportedItem(
  knex: Knex,
  nodeId: number,
  sourceKey: string,
  change: { detail: string | null; state?: ImportedItemState },
): Promise<void> {
  await knex('imported_items')
    .where({ node_id: nodeId, source_key: sourceKey })
    .update({ ...change, updated_date: knex.fn.now() });
}
