/**
 * Documents: intake by upload (server/document-intake.ts inserts the document and its empty content in one
 * transaction, then `document-<id>` is started; a failed start removes both again), the document DTO, the
 * content edit, deletion (workflows ended first, then rows, then files no other document uses), and the
 * utterances in linked-list order. The rows themselves (the name, block and assignees, page images, token
 * hints) are read and written by db/queries.
 */
import { WorkflowExecutionAlreadyStartedError, type Client } from '@temporalio/client';
import type { Knex } from 'knex';
import { documentAssignees } from '../../db/queries/document-assignees';
import { contentOf, updateContent as updateContentRow } from '../../db/queries/document-contents';
import { pagePaths } from '../../db/queries/document-pages';
import {
  deleteDocumentRows,
  documentById,
  touchDocument,
  type DocumentRow,
} from '../../db/queries/documents';
import { userRef, type UserRef } from '../../db/queries/users';
import {
  documentUtterances,
  tokenHints,
  utteranceTokens,
  type HintRow,
  type TokenRow,
  type UtteranceRow,
} from '../../db/queries/utterances';
import type { DocumentType } from '../../domain/enums';
import { insertDocument, type NewDocument } from '../../server/document-intake';
import { cancelDocumentWorkflow, startDocumentWorkflow } from '../../server/document-workflows';
import { removeUnusedFiles, type FileStore } from '../../server/files';
import type { DocumentStatus } from '../../workflows/document-contract';
import { HttpError, notFound } from '../errors';
import type { TemporalGateway } from '../temporal';
import { getLogger } from '../../server/logger';
import { wakeWebhookDeliveries, type WebhookQueues } from '../../server/webhook-dispatch';
import type { WebhookDeliveryInput } from '../../workflows/webhook-contract';
import { documentDeletedEvents } from './webhooks';

const log = getLogger('api.documents');

export interface DocumentDeps {
  knex: Knex;
  store: FileStore;
  temporal: TemporalGateway;
  taskQueue: string;
  /** WEBHOOK_TASK_QUEUE when set (the `document.deleted` deliveries start there); `<taskQueue>-webhooks` else. */
  webhookTaskQueue?: string;
}

/** The deps of the document services with the task queues of the API's configuration. */
export const documentDepsOf = (
  d: Pick<DocumentDeps, 'knex' | 'store' | 'temporal'>,
  config: WebhookQueues,
): DocumentDeps => ({ ...d, taskQueue: config.taskQueue, webhookTaskQueue: config.webhookTaskQueue });

export interface DocumentSummaryDTO {
  id: number;
  filename: string;
  path: string;
  documentType: DocumentType;
  processId: number;
  status: DocumentStatus;
}

export type DocumentUserDTO = UserRef;

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
    contentOf(knex, d.id),
    documentAssignees(knex, d.id, 'id'),
    d.blockedById ? userRef(knex, d.blockedById) : null,
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
    const row = await documentById(knex, id);
    await deleteDocumentRows(knex, [id]);
    if (row) await removeUnusedFiles(knex, store, [row.path]);
    if (process.env.NODE_ENV !== 'test' || process.env.LOG_ERRORS) {
      log.error(`document ${id}: workflow start failed, document removed`, { error: err as Error });
    }
    throw workflowUnavailable();
  }
  return (await documentById(knex, id))!;
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
      log.error('ending document workflows failed', { error: err as Error });
    }
    throw workflowUnavailable();
  }
  const ids = docs.map((d) => d.id);
  const keys = docs.map((d) => d.path);
  const woken: WebhookDeliveryInput[] = [];
  for (let i = 0; i < ids.length; i += 1000) {
    const chunk = ids.slice(i, i + 1000);
    keys.push(...(await pagePaths(knex, chunk)));
    // `document.deleted` is stored with the deletion (the projection never sees it: the workflow has ended).
    await knex.transaction(async (trx) => {
      woken.push(...(await documentDeletedEvents(trx, docs.slice(i, i + 1000))));
      await deleteDocumentRows(trx, chunk);
    });
  }
  await wakeWebhooks(client, deps, woken);
  await store.removePages(ids);
  await removeUnusedFiles(knex, store, keys);
  return ids;
}

async function wakeWebhooks(
  client: Client,
  queues: WebhookQueues,
  pairs: WebhookDeliveryInput[],
): Promise<void> {
  if (!pairs.length) return;
  // stored with the deletion: the worker's sweep wakes them if this fails
  await wakeWebhookDeliveries(client, queues, pairs).catch((err) =>
    log.warn('webhook deliveries not woken', { error: err as Error }),
  );
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
    if (!(await updateContentRow(trx, documentId, contentId, content))) throw notFound('documentContent');
    await touchDocument(trx, documentId);
    return { id: contentId, docId: documentId, content };
  });
}

export type TokenDTO = TokenRow;

export interface UtteranceDTO extends UtteranceRow {
  tokens: TokenDTO[];
}

/** Utterances in linked-list order (from the head along nextId); any left unreachable follow by id. */
export async function listUtterances(knex: Knex, documentId: number): Promise<UtteranceDTO[]> {
  const utterances = await documentUtterances(knex, documentId);
  if (utterances.length === 0) return [];
  const tokens = await utteranceTokens(
    knex,
    utterances.map((u) => u.id),
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

export type TokenHintDTO = HintRow;

/** The recognizer's alternatives of the document's tokens, best first per token. */
export async function listHints(
  knex: Knex,
  documentId: number,
  utteranceTokenId?: number,
): Promise<TokenHintDTO[]> {
  return tokenHints(knex, documentId, utteranceTokenId);
}
