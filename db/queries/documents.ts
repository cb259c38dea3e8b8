/**
 * Documents: inserted by intake (server/document-intake.ts) for the API's uploads and the worker's pollers
 * and inter-process sends; read by both; their status written by the document workflow's projection, their
 * name, block and content edits by the API, their parse by the parser.
 */
import type { Knex } from 'knex';
import type { DocumentType } from '../../domain/enums';
import type { DocumentStatus } from '../../domain/steps';

export interface DocumentRow {
  id: number;
  processId: number;
  uploadNodeId: number | null;
  filename: string;
  path: string;
  contentHash: string;
  mimeType: string;
  size: number;
  documentType: DocumentType;
  status: DocumentStatus;
  blockedById: number | null;
  createdById: number | null;
  createdDate: Date;
  lastModifiedDate: Date | null;
}

export const DOCUMENT_COLUMNS = [
  'id',
  'process_id as processId',
  'upload_node_id as uploadNodeId',
  'filename',
  'path',
  'content_hash as contentHash',
  'mime_type as mimeType',
  'size',
  'document_type as documentType',
  'status',
  'blocked_by_id as blockedById',
  'created_by_id as createdById',
  'created_date as createdDate',
  'last_modified_date as lastModifiedDate',
];

export async function documentById(knex: Knex, id: number): Promise<DocumentRow | undefined> {
  return knex('documents').where('id', id).first(DOCUMENT_COLUMNS);
}

export async function documentExists(knex: Knex, id: number): Promise<boolean> {
  return Boolean(await knex('documents').where('id', id).first('id'));
}

/** Whether a document or a page of one refers to the stored file `key`. */
export async function fileInUse(knex: Knex, key: string): Promise<boolean> {
  return Boolean(
    (await knex('documents').where('path', key).first('id')) ??
    (await knex('document_pages').where('path', key).first('document_id')),
  );
}

/** The process of the document; undefined when the document is gone. */
export async function documentProcessId(knex: Knex, id: number): Promise<number | undefined> {
  const row = await knex('documents').where('id', id).first('process_id');
  return row ? Number(row.process_id) : undefined;
}

/** The document's filename; null when the document is gone. */
export async function documentFilename(knex: Knex, id: number): Promise<string | null> {
  const row = await knex('documents').where('id', id).first('filename');
  return row ? String(row.filename) : null;
}

/** The document, if it belongs to the process (a document of another process is not found). */
export async function documentInProcess(
  knex: Knex,
  documentId: number,
  processId: number,
): Promise<{ id: number; documentType: string } | undefined> {
  return knex('documents')
    .where({ id: documentId, process_id: processId })
    .first('id', 'document_type as documentType');
}

/** The documents with the given ids and/or of the given process, by id. */
export async function findDocuments(
  knex: Knex,
  where: { ids?: readonly number[]; processId?: number },
): Promise<DocumentRow[]> {
  const q = knex('documents').select(DOCUMENT_COLUMNS).orderBy('id');
  if (where.ids) q.whereIn('id', [...where.ids]);
  if (where.processId !== undefined) q.where('process_id', where.processId);
  return q;
}

/** The columns of a new document (its status starts WAITING). */
export type NewDocumentRow = Omit<
  DocumentRow,
  'id' | 'status' | 'blockedById' | 'createdDate' | 'lastModifiedDate' | 'uploadNodeId'
> & { uploadNodeId: number };

export async function insertDocumentRow(knex: Knex, d: NewDocumentRow): Promise<number> {
  const [row] = await knex('documents')
    .insert({
      process_id: d.processId,
      upload_node_id: d.uploadNodeId,
      filename: d.filename,
      path: d.path,
      content_hash: d.contentHash,
      mime_type: d.mimeType,
      size: d.size,
      document_type: d.documentType,
      status: 'WAITING',
      created_by_id: d.createdById,
    })
    .returning('id');
  return Number(row.id);
}

/** Locks the document row until the transaction ends; false when the document is gone. */
export async function lockDocument(trx: Knex.Transaction, id: number): Promise<boolean> {
  return Boolean(await trx('documents').where('id', id).forUpdate().first('id'));
}

/**
 * Holds the document row FOR SHARE until the transaction ends (the projection, which takes it FOR UPDATE,
 * waits); who blocks it, null when no one does or the document is gone.
 */
export async function shareDocument(trx: Knex.Transaction, id: number): Promise<number | null> {
  const doc = await trx('documents').where('id', id).forShare().first('blocked_by_id');
  return doc ? doc.blocked_by_id : null;
}

/** Marks the document as modified now (its content, parse or name changed). */
export async function touchDocument(knex: Knex, id: number): Promise<void> {
  await knex('documents').where('id', id).update({ last_modified_date: knex.fn.now() });
}

export async function renameDocument(knex: Knex, id: number, filename: string): Promise<void> {
  await knex('documents').where('id', id).update({ filename, last_modified_date: knex.fn.now() });
}

/** The document's status as the workflow decided it, at the time of its projection. */
export async function setDocumentStatus(
  knex: Knex,
  id: number,
  status: DocumentStatus,
  at: Date,
): Promise<void> {
  await knex('documents').where('id', id).update({ status, last_modified_date: at });
}

export async function setBlockedBy(knex: Knex, id: number, userId: number | null): Promise<void> {
  await knex('documents').where('id', id).update({ blocked_by_id: userId });
}

/** Unblocks the document when `userId` blocks it. */
export async function unblockBy(knex: Knex, id: number, userId: number): Promise<void> {
  await knex('documents').where({ id, blocked_by_id: userId }).update({ blocked_by_id: null });
}

/** Unblocks the document when it is blocked by anyone but the listed users. */
export async function unblockUnless(knex: Knex, id: number, userIds: readonly number[]): Promise<void> {
  const q = knex('documents').where('id', id).whereNotNull('blocked_by_id');
  if (userIds.length) q.whereNotIn('blocked_by_id', [...userIds]);
  await q.update({ blocked_by_id: null });
}

/** Deletes document rows (their contents, steps, transcripts, pages and tags cascade). */
export async function deleteDocumentRows(knex: Knex, ids: readonly number[]): Promise<void> {
  await knex('documents')
    .whereIn('id', [...ids])
    .delete();
}

/**
 * Documents of an upload node that have no step and were created more than `olderThanMs` ago (of the given
 * processes only, when given), by id: documents whose workflow never started.
 */
export async function documentsWithoutSteps(
  knex: Knex,
  olderThanMs: number,
  processIds?: readonly number[],
): Promise<{ id: number; process_id: number; upload_node_id: number | null }[]> {
  const q = knex('documents as d')
    .whereNotExists(knex('steps as s').whereRaw('s.document_id = d.id').select(knex.raw('1')))
    .andWhere('d.created_date', '<', knex.raw(`now() - make_interval(secs => ?)`, [olderThanMs / 1000]))
    .whereNotNull('d.upload_node_id')
    .orderBy('d.id')
    .select('d.id', 'd.process_id', 'd.upload_node_id');
  if (processIds) q.whereIn('d.process_id', [...processIds]);
  return q;
}

// --- asr documents ---

/** An AUDIOFILE document as the asr-document screens list it (api/services/asr-documents.ts). */
export interface AsrDocumentDTO {
  id: number;
  processId: number;
  filename: string;
  status: string;
}

const ASR_COLUMNS = ['id', 'process_id as processId', 'filename', 'status'];

export interface Page {
  page: number;
  size: number;
}

const audio = (knex: Knex) => knex('documents').where('document_type', 'AUDIOFILE');

/** A page of the process's asr documents by id, and their count. */
export async function asrDocumentPage(
  knex: Knex,
  processIds: readonly number[],
  query: string | null,
  { page, size }: Page,
): Promise<{ rows: AsrDocumentDTO[]; total: number }> {
  const base = () => {
    const q = audio(knex).whereIn('process_id', [...processIds]);
    if (query) {
      const text = query.trim();
      q.where((w) => {
        w.whereRaw('filename ilike ?', [`%${text.replace(/[\\%_]/g, (c) => `\\${c}`)}%`]);
        if (/^\d{1,10}$/.test(text) && Number(text) <= 2147483647) w.orWhere('id', Number(text));
      });
    }
    return q;
  };
  const [rows, count] = await Promise.all([
    base()
      .orderBy('id')
      .offset(page * size)
      .limit(size)
      .select(ASR_COLUMNS),
    base().count<{ count: string }[]>('* as count'),
  ]);
  return { rows, total: Number(count[0].count) };
}

export async function findAsrDocument(knex: Knex, id: number): Promise<AsrDocumentDTO | undefined> {
  return audio(knex).where('id', id).first(ASR_COLUMNS);
}

/** The document's status and whether its process has RAG on. */
export async function documentRagState(
  knex: Knex,
  id: number,
): Promise<{ status: DocumentStatus; ragEnabled: boolean } | undefined> {
  const row = await knex('documents as d')
    .join('processes as p', 'p.id', 'd.process_id')
    .where('d.id', id)
    .first('d.status', 'p.is_rag_enabled');
  return row && { status: row.status, ragEnabled: !!row.is_rag_enabled };
}

/** A document's file replaced by another stored file (issue 29 section 2): its name, key, hash, type and size. */
export async function setDocumentFile(
  knex: Knex,
  id: number,
  file: { filename: string; path: string; contentHash: string; mimeType: string; size: number },
): Promise<void> {
  await knex('documents').where('id', id).update({
    filename: file.filename,
    path: file.path,
    content_hash: file.contentHash,
    mime_type: file.mimeType,
    size: file.size,
    last_modified_date: knex.fn.now(),
  });
}

/** The document with its text content ('' when none) and its process's name, for rendering and models. */
export async function documentWithContent(
  knex: Knex,
  id: number,
): Promise<
  | {
      id: number;
      filename: string;
      documentType: string;
      content: string;
      processId: number;
      processName: string;
    }
  | undefined
> {
  const row = await knex('documents as d')
    .join('processes as p', 'p.id', 'd.process_id')
    .leftJoin('document_contents as c', 'c.document_id', 'd.id')
    .where('d.id', id)
    .first(
      'd.id',
      'd.filename',
      'd.document_type as documentType',
      'c.content',
      'p.id as processId',
      'p.name as processName',
    );
  return (
    row && {
      id: Number(row.id),
      filename: row.filename,
      documentType: row.documentType,
      content: row.content ?? '',
      processId: Number(row.processId),
      processName: row.processName,
    }
  );
}
