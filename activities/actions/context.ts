/**
 * The data wildcards render from, for one document at one step (INDIVIDUAL rendering): the document with
 * its content, classifier and span tags, its process, and what earlier nodes left for it (their latest
 * successful action execution results, their classifier tags, and LLM responses once that table exists).
 * Also the shared bookkeeping of executors: the node row, the execution key and the result rows.
 */
import { stepError } from '../../domain/step-errors';
import { Context } from '@temporalio/activity';
import { ApplicationFailure } from '@temporalio/common';
import type { Knex } from 'knex';
import {
  documentSuccesses,
  executionByKey,
  recordExecution,
  type ExecutionRecord,
  type ExecutionStatus,
} from '../../db/queries/action-results';
import { settingsNode, type SettingsNode } from '../../db/queries/nodes';
import { classifierTags } from '../../db/queries/tags';
import type { NodeResultData, RenderData, SpanTagData } from '../../domain/wildcard-render';
import type { RunAutomaticNodeInput } from './index';
import { stepResponsesOfDocument } from '../../db/queries/llm-chat-responses';
import { batchDocumentIds } from '../../db/queries/action-batches';
import { documentWithContent } from '../../db/queries/documents';
import { processOfNode } from '../../db/queries/processes';
import { spanTagTexts } from '../../db/queries/tags';

export type ActionNode = SettingsNode;

export async function loadActionNode(knex: Knex, nodeId: number): Promise<ActionNode> {
  const node = await settingsNode(knex, nodeId);
  if (!node) throw ApplicationFailure.nonRetryable(`Node ${nodeId} no longer exists`, 'NodeGone');
  return node;
}

/**
 * One key per run of a step: Temporal's retries of the activity keep `attempt` (the step's run number), so a
 * retry after a success finds the row and sends nothing; a deliberate rerun of the step is a new run.
 */
export const executionKey = (input: RunAutomaticNodeInput): string =>
  input.batchId ? `batch:${input.batchId}` : `step:${input.stepId}:${input.attempt}`;

export async function alreadySucceeded(knex: Knex, key: string): Promise<boolean> {
  return (await executionByKey(knex, key))?.status === 'SUCCESS';
}

/** Node and PostgreSQL errors that mean the database could not be reached (not that it refused the write). */
export function isDatabaseUnreachable(err: unknown): boolean {
  const e = err as { code?: unknown; name?: unknown; message?: unknown } | null;
  if (!e) return false;
  const code = typeof e.code === 'string' ? e.code : '';
  return (
    ['ECONNREFUSED', 'ECONNRESET', 'EPIPE', 'ETIMEDOUT', 'EHOSTUNREACH'].includes(code) ||
    // SQLSTATE class 08 (connection exception); admin, crash shutdown; cannot connect now (starting up).
    /^08/.test(code) ||
    ['57P01', '57P02', '57P03'].includes(code) ||
    e.name === 'KnexTimeoutError' ||
    /Connection terminated|Connection ended unexpectedly/i.test(String(e.message ?? ''))
  );
}

/**
 * Runs `write` again while the database cannot be reached, for up to `patienceMs` (then the last error).
 * Executors record what they know this way: the outcome of a send that happened must not be lost to a
 * database restart, or the activity's retry finds the outbox mark and fails the step ("it may have been
 * received") although the send is known; the caller's heartbeat keeps the attempt alive meanwhile.
 */
export async function whileDatabaseUnreachable<T>(
  write: () => Promise<T>,
  patienceMs = 60_000,
  pauseMs = 500,
): Promise<T> {
  const until = Date.now() + patienceMs;
  for (;;) {
    try {
      return await write();
    } catch (err) {
      if (!isDatabaseUnreachable(err) || Date.now() + pauseMs > until) throw err;
      await new Promise((r) => setTimeout(r, pauseMs));
    }
  }
}

/** The execution of a run to record, under its key (this module's unless an executor has its own). */
export const executionOf = (
  input: RunAutomaticNodeInput,
  status: ExecutionStatus,
  details: Record<string, unknown>,
  key = executionKey(input),
  batchId = input.batchId ?? null,
): ExecutionRecord => ({
  nodeId: input.nodeId,
  stepId: input.stepId,
  documentId: input.documentId,
  batchId,
  executionKey: key,
  status,
  details,
});

/**
 * Writes (or overwrites, on a retry) the result of one execution; while the database cannot be reached it
 * tries again for up to a minute (whileDatabaseUnreachable).
 */
export async function recordResult(
  knex: Knex,
  input: RunAutomaticNodeInput,
  status: 'SUCCESS' | 'FAILURE',
  details: Record<string, unknown>,
): Promise<void> {
  const timed = { ...details, ...attemptDuration() };
  await whileDatabaseUnreachable(() => recordExecution(knex, executionOf(input, status, timed), 'replace'));
}

/**
 * How long the current attempt of the activity has run (`durationMs`, shown in the node's panel), from when
 * it was scheduled; nothing outside an activity (tests calling an executor directly).
 */
function attemptDuration(): { durationMs?: number } {
  try {
    const started = Context.current().info.currentAttemptScheduledTimestampMs;
    return { durationMs: Math.max(0, Date.now() - started) };
  } catch {
    return {};
  }
}

/**
 * The outbox mark of a send that cannot be repeated safely (mail, request): written before the message leaves,
 * replaced by the outcome after. Finding the mark again means an earlier attempt stopped in the middle (its
 * worker died): the message may have gone, so it is not sent a second time; the execution fails with a
 * message saying so, and a user's rerun of the step (a new execution) sends it again.
 * Returns 'go' to send, 'done' when an earlier attempt succeeded, 'interrupted' for the case above.
 */
export async function beginSend(
  knex: Knex,
  input: RunAutomaticNodeInput,
): Promise<'go' | 'done' | 'interrupted'> {
  return knex.transaction(async (trx) => {
    const row = await executionByKey(trx, executionKey(input), { forUpdate: true });
    if (row?.status === 'SUCCESS') return 'done';
    if (row?.status === 'PENDING') return 'interrupted';
    await recordExecution(
      trx,
      executionOf(input, 'PENDING', { sendingSince: new Date().toISOString() }),
      'replace',
    );
    return 'go';
  });
}

/** Records a permanent failure and returns the non-retryable failure to throw (the step goes to ERROR). */
export async function permanentFailure(
  knex: Knex,
  input: RunAutomaticNodeInput,
  message: string,
  details: Record<string, unknown> = {},
): Promise<ApplicationFailure> {
  await recordResult(knex, input, 'FAILURE', { ...details, error: message });
  return ApplicationFailure.nonRetryable(message, 'ActionFailed');
}

/** A refusal of the net guard, with what an administrator can do about it. */
export const refusalMessage = (err: Error) => stepError.addressRefused.text({ detail: err.message });

/** Span tags as label and text: text spans cut from the content, token tags joined from their tokens. */
async function spanTags(knex: Knex, documentId: number, content: string): Promise<SpanTagData[]> {
  const rows: {
    id: number;
    name: string;
    start: number | null;
    end: number | null;
    tokens: string | null;
  }[] = await spanTagTexts(knex, documentId);
  return rows.map((r) => ({
    label: r.name,
    text: r.tokens ?? (r.start !== null && r.end !== null ? content.slice(r.start, r.end) : ''),
  }));
}

/** Per-node results for the document: latest successful action results, classifier tags, LLM responses. */
async function nodeResults(knex: Knex, documentId: number): Promise<Record<number, NodeResultData>> {
  const out: Record<number, NodeResultData> = {};
  const of = (nodeId: number) => (out[nodeId] ??= {});
  const str = (v: unknown) => (v === undefined || v === null ? undefined : String(v));
  for (const r of await documentSuccesses(knex, documentId)) {
    // Later rows overwrite earlier ones: the latest run of a node wins.
    const d = r.details ?? {};
    const n = of(Number(r.nodeId));
    switch (r.activityType) {
      case 'SEND_REQUEST':
        n.sendRequestBody = str(d.body);
        break;
      case 'SEND_TO_GOOGLE_DRIVE':
        n.driveFileId = str(d.createdFileId ?? d.fileId);
        n.driveFileUrl = str(d.fileUrl ?? d.url);
        break;
      case 'SEND_TO_SFTP':
        n.sftpFileAddress = str(d.createdFileAddress);
        break;
    }
  }
  for (const t of await classifierTags(knex, documentId)) {
    const n = of(Number(t.nodeId));
    n.classifierTypes ??= { selected: [] };
    (n.classifierTypes.selected as { id: number; name: string }[]).push({ id: Number(t.id), name: t.name });
  }
  for (const l of await stepResponsesOfDocument(knex, documentId))
    of(Number(l.node_id)).llmResponse = l.response;
  return out;
}

/**
 * Everything the wildcards of an execution may need: one document's data (INDIVIDUAL rendering), or for a
 * batch the data of every document it collected, oldest first (AGGREGATED rendering).
 */
export async function loadRenderData(
  knex: Knex,
  input: Pick<RunAutomaticNodeInput, 'documentId' | 'batchId' | 'nodeId'>,
  now = new Date(),
): Promise<RenderData> {
  if (input.batchId) return loadAggregateData(knex, input.nodeId, input.batchId, now);
  if (input.documentId === null)
    throw ApplicationFailure.nonRetryable('An execution needs a document or a batch', 'BadInput');
  return loadDocumentData(knex, input.documentId, now);
}

async function loadAggregateData(
  knex: Knex,
  nodeId: number,
  batchId: number,
  now: Date,
): Promise<RenderData> {
  const process = await processOfNode(knex, nodeId);
  if (!process) throw ApplicationFailure.nonRetryable(`Node ${nodeId} no longer exists`, 'NodeGone');
  const documentIds: number[] = await batchDocumentIds(knex, batchId);
  const aggregate = [];
  for (const id of [...new Set(documentIds)]) {
    const d = await loadDocumentData(knex, id, now).catch((err) => {
      // A document deleted since it was collected has nothing left to render.
      if (err instanceof ApplicationFailure && err.type === 'DocumentGone') return null;
      throw err;
    });
    if (d?.document) aggregate.push({ document: d.document, nodes: d.nodes });
  }
  return { process, aggregate, now };
}

/** Everything the wildcards of one document may need (INDIVIDUAL rendering). */
async function loadDocumentData(knex: Knex, documentId: number, now: Date): Promise<RenderData> {
  const doc = await documentWithContent(knex, documentId);
  if (!doc) throw ApplicationFailure.nonRetryable(`Document ${documentId} no longer exists`, 'DocumentGone');
  const content = doc.content;
  const [clfTags, spans, nodes] = await Promise.all([
    classifierTags(knex, documentId).then((tags) => tags.map((t) => t.name)),
    spanTags(knex, documentId, content),
    nodeResults(knex, documentId),
  ]);
  return {
    process: { id: doc.processId, name: doc.processName },
    document: { id: doc.id, filename: doc.filename, content, clfTags, spanTags: spans },
    nodes,
    now,
  };
}
