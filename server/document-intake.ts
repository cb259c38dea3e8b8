/**
 * Document intake shared by every way a document arrives (upload routes in the API; pollers and
 * inter-process documents in the worker): the filename a document is shown under, and the insert of the
 * document with its empty content row inside the caller's transaction, the stored file held under its lock.
 * Starting `document-<id>` once committed is the caller's (server/document-workflows.ts).
 */
import type { Knex } from 'knex';
import { insertContent } from '../db/queries/document-contents';
import { insertDocumentRow } from '../db/queries/documents';
import type { DocumentType } from '../domain/enums';
import { BIDI_CONTROL, toWellFormedText } from '../domain/upload-check';
import { keyOfHash, sha256, withFileLock, type FileStore } from './files';

/**
 * The name shown for a file: no directories, no control or reserved characters, no bidirectional controls
 * (each becomes `_`), no lone surrogates, at most 255 characters.
 */
export function sanitizeFilename(name: string): string {
  const base = toWellFormedText(name).split(/[\\/]/).pop() ?? '';
  let clean = base
    // eslint-disable-next-line no-control-regex
    .replace(/[\u0000-\u001f\u007f<>:"|?*]/g, '_')
    .replace(new RegExp(BIDI_CONTROL.source, 'g'), '_')
    .replace(/\s+/g, ' ');
  clean = clean.trim().replace(/^\.+/, '').trim();
  if (!clean) clean = 'file';
  if (clean.length > 255) {
    const dot = clean.lastIndexOf('.');
    const ext = dot > 0 && clean.length - dot <= 16 ? clean.slice(dot) : '';
    clean = clean.slice(0, 255 - ext.length) + ext;
  }
  return clean;
}

export interface NewDocument {
  processId: number;
  uploadNodeId: number;
  filename: string;
  bytes: Uint8Array;
  mimeType: string;
  documentType: DocumentType;
  /** The user who uploaded it; null for documents the engine creates (pollers, inter-process). */
  createdById: number | null;
  /** Initial text of the content row (a document created from text); empty for uploads. */
  content?: string;
}

/**
 * Inside the caller's transaction: stores the file (holding its lock) and inserts the document with its
 * content row; returns the document's id. The workflow is the caller's to start once committed.
 */
export async function insertDocument(
  trx: Knex.Transaction,
  store: FileStore,
  input: NewDocument,
): Promise<number> {
  const hash = sha256(input.bytes);
  await withFileLock(trx, keyOfHash(hash));
  const file = await store.put(input.bytes, hash);
  const id = await insertDocumentRow(trx, {
    processId: input.processId,
    uploadNodeId: input.uploadNodeId,
    filename: input.filename,
    path: file.key,
    contentHash: file.hash,
    mimeType: input.mimeType,
    size: file.size,
    documentType: input.documentType,
    createdById: input.createdById,
  });
  await insertContent(trx, id, input.content ?? '');
  return id;
}
