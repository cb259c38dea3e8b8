/**
 * Results of action executions (spec 3 section 7), one row per execution key (a run of a step, or a batch):
 * written by the executors on the worker (SUCCESS, FAILURE, or PENDING while a send that cannot be repeated
 * is under way), listed by the API.
 */
import type { Knex } from 'knex';
import { only, qualify } from './columns';
import { NODE_REF_COLUMNS } from './nodes';

export type ExecutionStatus = 'SUCCESS' | 'FAILURE' | 'PENDING';

export interface ExecutionResultRow {
  id: number;
  nodeId: number;
  stepId: number | null;
  documentId: number | null;
  status: ExecutionStatus;
  details: Record<string, any> | null;
  createdDate: Date;
}

export const EXECUTION_RESULT_COLUMNS = [
  'id',
  'node_id as nodeId',
  'step_id as stepId',
  'document_id as documentId',
  'status',
  'details',
  'created_date as createdDate',
];

/** An execution to record; the key identifies it across retries. */
export interface ExecutionRecord {
  nodeId: number;
  stepId: number | null;
  documentId: number | null;
  batchId?: number | null;
  executionKey: string;
  status: ExecutionStatus;
  details: Record<string, unknown>;
}

/**
 * What recording an execution whose key has a row already does: `replace` its status, details and date,
 * `update` its status and details (keeping the date of the first record), or `keep` the row as it is.
 */
export type OnRecorded = 'replace' | 'update' | 'keep';

export async function recordExecution(knex: Knex, r: ExecutionRecord, onRecorded: OnRecorded): Promise<void> {
  const q = knex('action_execution_results')
    .insert({
      node_id: r.nodeId,
      step_id: r.stepId,
      document_id: r.documentId,
      batch_id: r.batchId ?? null,
      execution_key: r.executionKey,
      status: r.status,
      details: JSON.stringify(r.details),
    })
    .onConflict('execution_key');
  if (onRecorded === 'keep') await q.ignore();
  else
    await q.merge(onRecorded === 'replace' ? ['status', 'details', 'created_date'] : ['status', 'details']);
}

/** The execution recorded under the key (locked until the transaction ends with `forUpdate`). */
export async function executionByKey(
  knex: Knex,
  key: string,
  opts: { forUpdate?: boolean } = {},
): Promise<ExecutionResultRow | undefined> {
  const q = knex('action_execution_results').where('execution_key', key);
  if (opts.forUpdate) q.forUpdate();
  return q.first(EXECUTION_RESULT_COLUMNS);
}

/** The latest finished (SUCCESS or FAILURE) execution of a step. */
export async function latestStepExecution(
  knex: Knex,
  stepId: number,
): Promise<ExecutionResultRow | undefined> {
  return knex('action_execution_results')
    .where('step_id', stepId)
    .whereIn('status', ['SUCCESS', 'FAILURE'])
    .orderBy('id', 'desc')
    .first(EXECUTION_RESULT_COLUMNS);
}

/** What a node's list of executions may be narrowed to (its panel's filters). */
export interface ExecutionFilter {
  status?: 'SUCCESS' | 'FAILURE';
  documentId?: number;
}

/** A finished execution with the name of its document (null for a batch, or a document deleted since). */
export type NodeExecutionRow = ExecutionResultRow & { documentName: string | null };

/** A page of a node's finished executions, newest first, with their total (index node_id, id). */
export async function nodeExecutions(
  knex: Knex,
  nodeId: number,
  page: number,
  size: number,
  filter: ExecutionFilter = {},
): Promise<{ rows: NodeExecutionRow[]; total: number }> {
  // A send in progress (its outbox mark, PENDING) is no result yet.
  const base = knex('action_execution_results as r')
    .where('r.node_id', nodeId)
    .whereIn('r.status', filter.status ? [filter.status] : ['SUCCESS', 'FAILURE']);
  if (filter.documentId !== undefined) base.where('r.document_id', filter.documentId);
  const [{ count }] = await base.clone().count<{ count: string }[]>({ count: '*' });
  const rows = await base
    .clone()
    .leftJoin('documents as d', 'd.id', 'r.document_id')
    .orderBy('r.id', 'desc')
    .offset(page * size)
    .limit(size)
    .select([...qualify('r', EXECUTION_RESULT_COLUMNS), 'd.filename as documentName']);
  return { rows, total: Number(count) };
}

/** A document an inter-process send created, as it is now (absent when deleted since). */
export interface SentDocumentRow {
  documentId: number;
  documentName: string;
  status: string;
  failing: boolean;
  processId: number;
  processName: string;
}

/** The documents of these ids with their process, for the receivers of inter-process sends. */
export async function sentDocuments(knex: Knex, ids: readonly number[]): Promise<SentDocumentRow[]> {
  if (ids.length === 0) return [];
  return knex('documents as d')
    .join('processes as p', 'p.id', 'd.process_id')
    .whereIn('d.id', ids)
    .orderBy('d.id')
    .select([
      'd.id as documentId',
      'd.filename as documentName',
      'd.status',
      // a step in ERROR says more than the document's WAITING
      knex.raw(
        `exists (select 1 from steps s where s.document_id = d.id and s.status = 'ERROR') as "failing"`,
      ),
      'd.process_id as processId',
      'p.name as processName',
    ]);
}

/** The names and processes of nodes (the receivers an inter-process send names). */
export async function receiverNodes(
  knex: Knex,
  ids: readonly number[],
): Promise<{ id: number; name: string; processId: number; processName: string }[]> {
  if (ids.length === 0) return [];
  return knex('nodes as n')
    .join('processes as p', 'p.id', 'n.process_id')
    .whereIn('n.id', ids)
    .select(['n.id', 'n.name', 'n.process_id as processId', 'p.name as processName']);
}

/** The document's successful executions by id, with their node's type (later runs of a node come later). */
export async function documentSuccesses(
  knex: Knex,
  documentId: number,
): Promise<{ nodeId: number; activityType: string; details: Record<string, any> | null }[]> {
  return knex('action_execution_results as r')
    .join('nodes as n', 'n.id', 'r.node_id')
    .where({ 'r.document_id': documentId, 'r.status': 'SUCCESS' })
    .orderBy('r.id', 'asc')
    .select([
      ...qualify('r', only(EXECUTION_RESULT_COLUMNS, 'nodeId', 'details')),
      ...qualify('n', only(NODE_REF_COLUMNS, 'activityType')),
    ]);
}

/** A finished execution of a document, with its node. */
export interface DocumentExecutionRow extends ExecutionResultRow {
  nodeName: string;
  activityType: string;
}

/** The document's finished executions (SUCCESS or FAILURE) in the order they were recorded. */
export async function documentExecutions(knex: Knex, documentId: number): Promise<DocumentExecutionRow[]> {
  return knex('action_execution_results as r')
    .join('nodes as n', 'n.id', 'r.node_id')
    .where('r.document_id', documentId)
    .whereIn('r.status', ['SUCCESS', 'FAILURE'])
    .orderBy('r.id', 'asc')
    .select([
      ...qualify('r', EXECUTION_RESULT_COLUMNS),
      'n.name as nodeName',
      ...qualify('n', only(NODE_REF_COLUMNS, 'activityType')),
    ]);
}

/** An inter-process send that created a document: the sending node, document and process. */
export interface ReceiptRow {
  id: number;
  nodeId: number;
  nodeName: string;
  documentId: number | null;
  processId: number;
  createdDate: Date;
}

/**
 * The sends (IPS results) that created the document (details.documents holds `{ documentId }` of each
 * document created; served by the GIN index of migration 030).
 */
export async function executionsSendingTo(knex: Knex, documentId: number): Promise<ReceiptRow[]> {
  return knex('action_execution_results as r')
    .join('nodes as n', 'n.id', 'r.node_id')
    .whereRaw(`r.details -> 'documents' @> ?::jsonb`, [JSON.stringify([{ documentId }])])
    .orderBy('r.id', 'asc')
    .select([
      'r.id',
      'r.node_id as nodeId',
      'n.name as nodeName',
      'r.document_id as documentId',
      'n.process_id as processId',
      'r.created_date as createdDate',
    ]);
}
