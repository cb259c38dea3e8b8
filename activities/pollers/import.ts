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
import {
  claimImportedItem,
  importedItem,
  importedUnstarted,
  markImportedItemStarted,
  setImportedDocument,
  updateImportedItem,
} from '../../db/queries/imported-items';

const DEFAULT_MAX_BYTES = 50 * 1024 * 1024;

async function startAndMark(deps: PollerDeps, node: UploadNode, documentId: number, key: string) {
  if (!deps.startDocument) throw new Error('This worker cannot start documents (no Temporal client)');
  try {
    await deps.startDocument({ documentId, processId: node.processId, uploadNodeId: node.id });
  } catch (err) {
    if (!(err instanceof WorkflowExecutionAlreadyStartedError)) throw err;
  }
  await markImportedItemStarted(deps.knex, node.id, key);
}

export async function importFile(
  deps: PollerDeps,
  node: UploadNode,
  item: ImportItem,
): Promise<ImportOutcome> {
  const { knex } = deps;
  const existing = await importedItem(knex, node.id, item.sourceKey);
  if (existing) return { status: 'duplicate', documentId: existing.documentId };
  const filename = sanitizeFilename(item.filename);
  const check = checkUpload(
    filename,
    item.bytes,
    deps.uploadMaxBytes ?? DEFAULT_MAX_BYTES,
    deps.officeMaxUncompressedBytes,
  );
  if (!check.ok) {
    const inserted = await claimImportedItem(knex, node.id, item.sourceKey, 'REJECTED', check.message);
    return inserted !== undefined
      ? { status: 'rejected', message: check.message }
      : { status: 'duplicate', documentId: null };
  }
  const store = openFileStore(deps);
  const documentId = await knex.transaction(async (trx) => {
    const claimed = await claimImportedItem(trx, node.id, item.sourceKey, 'IMPORTED');
    if (claimed === undefined) return null;
    const id = await insertDocument(trx, store, {
      processId: node.processId,
      uploadNodeId: node.id,
      filename,
      bytes: item.bytes,
      mimeType: check.mime,
      documentType: check.documentType,
      createdById: null,
    });
    await setImportedDocument(trx, claimed, id);
    return id;
  });
  if (documentId === null) return { status: 'duplicate', documentId: null };
  await startAndMark(deps, node, documentId, item.sourceKey);
  return { status: 'imported', documentId };
}

/** Starts the workflows of documents a poll imported but could not start (worker stopped in between). */
export async function restartPending(deps: PollerDeps, node: UploadNode): Promise<void> {
  for (const r of await importedUnstarted(deps.knex, node.id))
    await startAndMark(deps, node, r.documentId, r.sourceKey);
}

export function pollContext(deps: PollerDeps, node: UploadNode): PollContext {
  const { knex } = deps;
  const itemState = async (sourceKey: string): Promise<string | null> =>
    (await importedItem(knex, node.id, sourceKey))?.state ?? null;
  return {
    deps,
    node,
    itemState,
    seen: async (sourceKey) => (await itemState(sourceKey)) !== null,
    importFile: (item) => importFile(deps, node, item),
    maxBytes: deps.uploadMaxBytes ?? DEFAULT_MAX_BYTES,
    reject: async (sourceKey, detail) => {
      await claimImportedItem(knex, node.id, sourceKey, 'REJECTED', detail);
    },
    itemDetail: async (sourceKey) => (await importedItem(knex, node.id, sourceKey))?.detail ?? null,
    setDetail: (sourceKey, detail) => updateImportedItem(knex, node.id, sourceKey, { detail }),
    markDone: (sourceKey, detail) =>
      updateImportedItem(knex, node.id, sourceKey, { state: 'DONE', detail: detail ?? null }),
  };
}
