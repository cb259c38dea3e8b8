/**
 * Import of one polled item as a document of the upload node's process: checked by content and size like an
 * upload (a refused item is recorded REJECTED with the reason and never fetched again), stored by hash, the
 * document, its content row and the imported-item row written in one transaction (the unique (node,
 * source key) makes a concurrent second import a duplicate), then the workflow started at the upload node and
 * the item marked STARTED. An item left IMPORTED (the worker stopped before the start) is started by the next
 * poll (`restartPending`).
 */
import { WorkflowExecutionAlreadyStartedError } from '@temporalio/client';
import { checkUpload } from '../../domain/upload-check';
import { openFileStore } from '../../server/files';
import { insertDocument, sanitizeFilename } from '../../server/document-intake';
import type { ImportItem, ImportOutcome, PollContext, PollerDeps, UploadNode } from './types';

const DEFAULT_MAX_BYTES = 50 * 1024 * 1024;

async function startAndMark(deps: PollerDeps, node: UploadNode, documentId: number, key: string) {
  if (!deps.startDocument) throw new Error('This worker cannot start documents (no Temporal client)');
  try {
    await deps.startDocument({ documentId, processId: node.processId, uploadNodeId: node.id });
  } catch (err) {
    if (!(err instanceof WorkflowExecutionAlreadyStartedError)) throw err;
  }
  await deps
    .knex('imported_items')
    .where({ node_id: node.id, source_key: key, state: 'IMPORTED' })
    .update({ state: 'STARTED', updated_date: deps.knex.fn.now() });
}

export async function importFile(
  deps: PollerDeps,
  node: UploadNode,
  item: ImportItem,
): Promise<ImportOutcome> {
  const { knex } = deps;
  const existing = await knex('imported_items')
    .where({ node_id: node.id, source_key: item.sourceKey })
    .first('document_id');
  if (existing)
    return {
      status: 'duplicate',
      documentId: existing.document_id === null ? null : Number(existing.document_id),
    };
  const filename = sanitizeFilename(item.filename);
  const check = checkUpload(
    filename,
    item.bytes,
    deps.uploadMaxBytes ?? DEFAULT_MAX_BYTES,
    deps.officeMaxUncompressedBytes,
  );
  if (!check.ok) {
    const inserted = await knex('imported_items')
      .insert({ node_id: node.id, source_key: item.sourceKey, state: 'REJECTED', detail: check.message })
      .onConflict(['node_id', 'source_key'])
      .ignore()
      .returning('id');
    return inserted.length
      ? { status: 'rejected', message: check.message }
      : { status: 'duplicate', documentId: null };
  }
  const store = openFileStore(deps);
  const documentId = await knex.transaction(async (trx) => {
    const claimed = await trx('imported_items')
      .insert({ node_id: node.id, source_key: item.sourceKey, state: 'IMPORTED' })
      .onConflict(['node_id', 'source_key'])
      .ignore()
      .returning('id');
    if (claimed.length === 0) return null;
    const id = await insertDocument(trx, store, {
      processId: node.processId,
      uploadNodeId: node.id,
      filename,
      bytes: item.bytes,
      mimeType: check.mime,
      documentType: check.documentType,
      createdById: null,
    });
    await trx('imported_items').where('id', claimed[0].id).update({ document_id: id });
    return id;
  });
  if (documentId === null) return { status: 'duplicate', documentId: null };
  await startAndMark(deps, node, documentId, item.sourceKey);
  return { status: 'imported', documentId };
}

/** Starts the workflows of documents a poll imported but could not start (worker stopped in between). */
export async function restartPending(deps: PollerDeps, node: UploadNode): Promise<void> {
  const rows: { source_key: string; document_id: number | null }[] = await deps
    .knex('imported_items')
    .where({ node_id: node.id, state: 'IMPORTED' })
    .whereNotNull('document_id')
    .select('source_key', 'document_id');
  for (const r of rows) await startAndMark(deps, node, Number(r.document_id), r.source_key);
}

export function pollContext(deps: PollerDeps, node: UploadNode): PollContext {
  const { knex } = deps;
  const itemState = async (sourceKey: string): Promise<string | null> => {
    const row = await knex('imported_items')
      .where({ node_id: node.id, source_key: sourceKey })
      .first('state');
    return row?.state ?? null;
  };
  return {
    deps,
    node,
    itemState,
    seen: async (sourceKey) => (await itemState(sourceKey)) !== null,
    importFile: (item) => importFile(deps, node, item),
    maxBytes: deps.uploadMaxBytes ?? DEFAULT_MAX_BYTES,
    reject: async (sourceKey, detail) => {
      await knex('imported_items')
        .insert({ node_id: node.id, source_key: sourceKey, state: 'REJECTED', detail })
        .onConflict(['node_id', 'source_key'])
        .ignore();
    },
    itemDetail: async (sourceKey) => {
      const row = await knex('imported_items')
        .where({ node_id: node.id, source_key: sourceKey })
        .first('detail');
      return row?.detail ?? null;
    },
    setDetail: async (sourceKey, detail) => {
      await knex('imported_items')
        .where({ node_id: node.id, source_key: sourceKey })
        .update({ detail, updated_date: knex.fn.now() });
    },
    markDone: async (sourceKey, detail) => {
      await knex('imported_items')
        .where({ node_id: node.id, source_key: sourceKey })
        .update({ state: 'DONE', detail: detail ?? null, updated_date: knex.fn.now() });
    },
  };
}
