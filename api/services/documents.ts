/**
 * Documents: intake by upload (server/document-intake.ts inserts the document and its empty content in one
 * transaction, then `document-<id>` is started; a failed start removes both again), the document DTO, filename and content edits, the
 * document block and assignees, deletion (workflows ended first, then rows, then files no other document
 * uses), and the reads of the parser's output (page images, utterances with tokens, token hints).
 */
import { WorkflowExecutionAlreadyStartedError } from '@temporalio/client';
import type { Knex } from 'knex';
import type { DocumentType } from '../../domain/enums';
import { insertDocument, type NewDocument } from '../../server/document-intake';
import { cancelDocumentWorkflow, startDocumentWorkflow } from '../../server/document-workflows';
import { removeUnusedFiles, type FileStore } from '../../server/files';
import type { DocumentStatus } from '../../workflows/document-contract';
import { HttpError, notFound } from '../errors';
import type { TemporalGateway } from '../temporal';

export interface DocumentDeps {
  knex: Knex;
  store: FileStore;
  temporal: TemporalGateway;
  taskQueue: string;
}

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

export interface DocumentSummaryDTO {
  id: number;
  filename: string;
  path: string;
  documentType: DocumentType;
  processId: number;
  status: DocumentStatus;
}

export interface DocumentUserDTO {
  id: number;
  login: string;
  firstName: string | null;
  lastName: string | null;
  email: string;
}

export interface DocumentDTO extends DocumentSummaryDTO {
  uploadNodeId: number | null;
  mimeType: string;
  size: number;
  createdDate: Date;
  lastModifiedDate: Date | null;
  content: { id: number; content: string } | null;
  assignees: DocumentUserDTO[];
  blockedBy: DocumentUserDTO | null;
}

const DOCUMENT_COLUMNS = [
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

const USER_COLUMNS = [
  'users.id',
  'users.login',
  'users.first_name as firstName',
  'users.last_name as lastName',
  'users.email',
];

export async function findDocument(knex: Knex, id: number): Promise<DocumentRow | undefined> {
  return knex('documents').where('id', id).first(DOCUMENT_COLUMNS);
}

export async function findDocuments(
  knex: Knex,
  where: { ids?: readonly number[]; processId?: number },
): Promise<DocumentRow[]> {
  const q = knex('documents').select(DOCUMENT_COLUMNS).orderBy('id');
  if (where.ids) q.whereIn('id', [...where.ids]);
  if (where.processId !== undefined) q.where('process_id', where.processId);
  return q;
}

export const toSummary = (d: DocumentRow): DocumentSummaryDTO => ({
  id: d.id,
  filename: d.filename,
  path: d.path,
  documentType: d.documentType,
  processId: d.processId,
  status: d.status,
});

export async function toDocumentDTO(knex: Knex, d: DocumentRow): Promise<DocumentDTO> {
  const [content, assignees, blockedBy] = await Promise.all([
    knex('document_contents').where('document_id', d.id).first('id', 'content'),
    knex('document_assignees')
      .join('users', 'users.id', 'document_assignees.user_id')
      .where('document_assignees.document_id', d.id)
      .orderBy('users.id')
      .select(USER_COLUMNS),
    d.blockedById ? knex('users').where('id', d.blockedById).first(USER_COLUMNS) : null,
  ]);
  return {
    ...toSummary(d),
    uploadNodeId: d.uploadNodeId,
    mimeType: d.mimeType,
    size: d.size,
    createdDate: d.createdDate,
    lastModifiedDate: d.lastModifiedDate,
    content: content ?? null,
    assignees,
    blockedBy: blockedBy ?? null,
  };
}

export const workflowUnavailable = () =>
  new HttpError(503, {
    title: 'Service Unavailable',
    message: 'error.document.workflowUnavailable',
    detail: 'The document engine (Temporal) is unavailable; nothing was stored. Try again later.',
  });

/**
 * Stores the file and inserts the document with its content row (one transaction, holding the file's lock),
 * then starts `document-<id>`. When the start fails the rows and the file (unless another document uses it)
 * are removed again, so no document exists without its workflow.
 */
export async function createDocument(deps: DocumentDeps, input: NewDocument): Promise<DocumentRow> {
  const { knex, store } = deps;
  const id = await knex.transaction((trx) => insertDocument(trx, store, input));
  try {
    const client = await deps.temporal.client();
    await startDocumentWorkflow(
      client,
      { documentId: id, processId: input.processId, uploadNodeId: input.uploadNodeId },
      deps.taskQueue,
    ).catch((err) => {
      // Started already: by the workers' sweep of documents without a workflow, on a slow start.
      if (!(err instanceof WorkflowExecutionAlreadyStartedError)) throw err;
    });
  } catch (err) {
    const row = await findDocument(knex, id);
    await knex('documents').where('id', id).delete();
    if (row) await removeUnusedFiles(knex, store, [row.path]);
    if (process.env.NODE_ENV !== 'test' || process.env.LOG_ERRORS) {
      console.error(`[api] document ${id}: workflow start failed, document removed:`, err);
    }
    throw workflowUnavailable();
  }
  return (await findDocument(knex, id))!;
}

/** Runs `fn` over the items with at most `limit` at a time. */
async function eachLimited<T>(items: readonly T[], limit: number, fn: (item: T) => Promise<void>) {
  let next = 0;
  const run = async () => {
    while (next < items.length) await fn(items[next++]);
  };
  await Promise.all(Array.from({ length: Math.min(limit, items.length) }, run));
}

/**
 * Deletes documents: their workflows are ended first (a document whose workflow cannot be reached is not
 * deleted: 503), then the rows (contents, steps, transcripts and tags cascade), then the page images and the
 * stored files that no remaining document uses.
 */
export async function deleteDocuments(deps: DocumentDeps, docs: readonly DocumentRow[]): Promise<number[]> {
  if (docs.length === 0) return [];
  const { knex, store } = deps;
  let client;
  try {
    client = await deps.temporal.client();
  } catch {
    throw workflowUnavailable();
  }
  try {
    await eachLimited(docs, 8, (d) => cancelDocumentWorkflow(client, d.id));
  } catch (err) {
    if (process.env.NODE_ENV !== 'test' || process.env.LOG_ERRORS) {
      console.error('[api] ending document workflows failed:', err);
    }
    throw workflowUnavailable();
  }
  const ids = docs.map((d) => d.id);
  const keys = docs.map((d) => d.path);
  for (let i = 0; i < ids.length; i += 1000) {
    const chunk = ids.slice(i, i + 1000);
    const pages = await knex('document_pages').whereIn('document_id', chunk).pluck('path');
    keys.push(...pages);
    await knex('documents').whereIn('id', chunk).delete();
  }
  await store.removePages(ids);
  await removeUnusedFiles(knex, store, keys);
  return ids;
}

export async function renameDocument(knex: Knex, id: number, filename: string): Promise<void> {
  await knex('documents').where('id', id).update({ filename, last_modified_date: knex.fn.now() });
}

/** A document is locked for a user when someone else blocks it. */
export const lockedFor = (d: DocumentRow, userId: number) =>
  d.blockedById !== null && d.blockedById !== userId;

export async function updateContent(
  knex: Knex,
  documentId: number,
  contentId: number,
  content: string,
): Promise<{ id: number; docId: number; content: string }> {
  return knex.transaction(async (trx) => {
    const n = await trx('document_contents')
      .where({ id: contentId, document_id: documentId })
      .update({ content });
    if (n === 0) throw notFound('documentContent');
    await trx('documents').where('id', documentId).update({ last_modified_date: trx.fn.now() });
    return { id: contentId, docId: documentId, content };
  });
}

/** Blocks the document for a user, who becomes (or stays) an assignee. */
export async function block(knex: Knex, documentId: number, userId: number): Promise<void> {
  await knex.transaction(async (trx) => {
    await trx('documents').where('id', documentId).update({ blocked_by_id: userId });
    await trx('document_assignees')
      .insert({ document_id: documentId, user_id: userId })
      .onConflict(['document_id', 'user_id'])
      .ignore();
  });
}

export async function unblock(knex: Knex, documentId: number): Promise<void> {
  await knex('documents').where('id', documentId).update({ blocked_by_id: null });
}

export async function addAssignee(knex: Knex, documentId: number, userId: number): Promise<void> {
  await knex('document_assignees')
    .insert({ document_id: documentId, user_id: userId })
    .onConflict(['document_id', 'user_id'])
    .ignore();
}

/** Removes an assignee; removing the one who blocks the document unblocks it first. */
export async function removeAssignee(knex: Knex, documentId: number, userId: number): Promise<void> {
  await knex.transaction(async (trx) => {
    await trx('documents').where({ id: documentId, blocked_by_id: userId }).update({ blocked_by_id: null });
    await trx('document_assignees').where({ document_id: documentId, user_id: userId }).delete();
  });
}

/** Replaces the assignees; a blocking user left out of the list no longer blocks the document. */
export async function replaceAssignees(
  knex: Knex,
  documentId: number,
  userIds: readonly number[],
): Promise<void> {
  const ids = [...new Set(userIds)];
  await knex.transaction(async (trx) => {
    const q = trx('documents').where('id', documentId).whereNotNull('blocked_by_id');
    if (ids.length) q.whereNotIn('blocked_by_id', ids);
    await q.update({ blocked_by_id: null });
    await trx('document_assignees').where('document_id', documentId).delete();
    if (ids.length) {
      await trx('document_assignees').insert(ids.map((user_id) => ({ document_id: documentId, user_id })));
    }
  });
}

export async function pageCount(knex: Knex, documentId: number): Promise<number> {
  const row = await knex('document_pages').where('document_id', documentId).count('* as c').first();
  return Number(row?.c ?? 0);
}

export async function pagePath(knex: Knex, documentId: number, index: number): Promise<string | null> {
  const row = await knex('document_pages').where({ document_id: documentId, index }).first('path');
  return row?.path ?? null;
}

export interface TokenDTO {
  id: number;
  utteranceId: number;
  value: string;
  tsStart: number | null;
  tsEnd: number | null;
  confidence: number | null;
  properties: string[];
  unclear: boolean;
}

export interface UtteranceDTO {
  id: number;
  docId: number;
  actor: string;
  prevId: number | null;
  nextId: number | null;
  tokens: TokenDTO[];
}

/** Utterances in linked-list order (from the head along nextId); any left unreachable follow by id. */
export async function listUtterances(knex: Knex, documentId: number): Promise<UtteranceDTO[]> {
  const utterances: Omit<UtteranceDTO, 'tokens'>[] = await knex('utterances')
    .where('document_id', documentId)
    .orderBy('id')
    .select('id', 'document_id as docId', 'actor', 'prev_id as prevId', 'next_id as nextId');
  if (utterances.length === 0) return [];
  const tokens: TokenDTO[] = await knex('utterance_tokens')
    .whereIn(
      'utterance_id',
      utterances.map((u) => u.id),
    )
    .orderBy(['utterance_id', 'position', 'id'])
    .select(
      'id',
      'utterance_id as utteranceId',
      'value',
      'ts_start as tsStart',
      'ts_end as tsEnd',
      'confidence',
      'properties',
      'unclear',
    );
  const byUtterance = new Map<number, TokenDTO[]>();
  for (const t of tokens) {
    const list = byUtterance.get(t.utteranceId) ?? [];
    list.push(t);
    byUtterance.set(t.utteranceId, list);
  }
  const byId = new Map(utterances.map((u) => [u.id, u]));
  const ordered: Omit<UtteranceDTO, 'tokens'>[] = [];
  const seen = new Set<number>();
  const walk = (start: Omit<UtteranceDTO, 'tokens'> | undefined) => {
    for (let u = start; u && !seen.has(u.id); u = u.nextId ? byId.get(u.nextId) : undefined) {
      seen.add(u.id);
      ordered.push(u);
    }
  };
  for (const u of utterances) if (u.prevId === null || !byId.has(u.prevId)) walk(u);
  for (const u of utterances) walk(u);
  return ordered.map((u) => ({ ...u, tokens: byUtterance.get(u.id) ?? [] }));
}

export interface TokenHintDTO {
  id: number;
  utteranceTokenId: number;
  value: string;
  confidence: number | null;
}

/** The recognizer's alternatives of the document's tokens, best first per token. */
export async function listHints(
  knex: Knex,
  documentId: number,
  utteranceTokenId?: number,
): Promise<TokenHintDTO[]> {
  const q = knex('token_hints as h')
    .join('utterance_tokens as t', 't.id', 'h.utterance_token_id')
    .join('utterances as u', 'u.id', 't.utterance_id')
    .where('u.document_id', documentId)
    .orderBy([
      { column: 'h.utterance_token_id' },
      { column: 'h.confidence', order: 'desc', nulls: 'last' },
      { column: 'h.id' },
    ])
    .select('h.id', 'h.utterance_token_id as utteranceTokenId', 'h.value', 'h.confidence');
  if (utteranceTokenId !== undefined) q.where('h.utterance_token_id', utteranceTokenId);
  return q;
}
