/**
 * Steps: the projection of the document workflow. The workflow's projection activity is their only writer
 * (`insertStep`, `updateStep`); the API reads them with their node and the user working on them
 * (`stepView`, `documentStepViews`) and checks access on a step's node (`stepNode`).
 */
import type { Knex } from 'knex';
import type { ActivityType } from '../../domain/enums';
import type { StepPatch } from '../../domain/document-transition';
import type { NewStep, StepNode, StepState, StepStatus } from '../../domain/steps';
import { except, only, qualify, unprefix } from './columns';
import { NODE_REF_COLUMNS, STEP_NODE_COLUMNS, toStepNode, type StepNodeRow } from './nodes';
import { USER_REF_COLUMNS, type UserRef } from './users';

export const STEP_COLUMNS = [
  'id',
  'document_id as documentId',
  'node_id as nodeId',
  'status',
  'master',
  'rejected',
  'blocked_by_id as blockedBy',
  'order',
  'error_message as errorMessage',
  'last_modified_date as lastModifiedDate',
];

export interface StepRow extends StepState {
  documentId: number;
  lastModifiedDate: Date | null;
}

/** A step with its node (and the node's process) and the user working on it. */
export interface StepView {
  step: StepRow;
  node: StepNode & { processId: number };
  blockedBy: UserRef | null;
  /** Who blocks the step's document (documents.blocked_by_id): what decides whether the step is editable. */
  documentBlockedBy: number | null;
}

const VIEW_NODE_COLUMNS = [...except(STEP_NODE_COLUMNS, 'id'), ...only(NODE_REF_COLUMNS, 'processId')];
const VIEW_USER_COLUMNS = except(USER_REF_COLUMNS, 'id');

const viewQuery = (knex: Knex) =>
  knex('steps as s')
    .join('nodes as n', 'n.id', 's.node_id')
    .leftJoin('users as u', 'u.id', 's.blocked_by_id')
    .join('documents as d', 'd.id', 's.document_id')
    .select([
      'd.blocked_by_id as documentBlockedBy',
      ...qualify('s', STEP_COLUMNS),
      ...qualify('n', VIEW_NODE_COLUMNS, 'node'),
      ...qualify('u', VIEW_USER_COLUMNS, 'user'),
    ]);

function toView(row: Record<string, unknown>): StepView {
  const step = unprefix<StepRow>(row, STEP_COLUMNS, '');
  const node = unprefix<Omit<StepNodeRow, 'id'> & { processId: number }>(row, VIEW_NODE_COLUMNS, 'node');
  const user = unprefix<Omit<UserRef, 'id'>>(row, VIEW_USER_COLUMNS, 'user');
  return {
    step,
    node: toStepNode({ id: step.nodeId, ...node }),
    blockedBy:
      step.blockedBy === null
        ? null
        : { ...user, id: step.blockedBy, login: user.login ?? '', email: user.email ?? '' },
    documentBlockedBy: (row.documentBlockedBy as number | null) ?? null,
  };
}

/** The steps of a document in walk order. */
export async function documentStepViews(knex: Knex, documentId: number): Promise<StepView[]> {
  const rows = await viewQuery(knex).where('s.document_id', documentId).orderBy('s.order');
  return rows.map(toView);
}

export async function stepView(knex: Knex, stepId: number): Promise<StepView | undefined> {
  const row = await viewQuery(knex).where('s.id', stepId).first();
  return row ? toView(row) : undefined;
}

/** A step's node and process: what access to a step is checked on. */
export interface StepNodeRef {
  id: number;
  documentId: number;
  nodeId: number;
  processId: number;
  activityType: ActivityType;
}

export async function stepNode(knex: Knex, stepId: number): Promise<StepNodeRef | undefined> {
  const row: StepNodeRef | undefined = await knex('steps as s')
    .join('nodes as n', 'n.id', 's.node_id')
    .where('s.id', stepId)
    .first([
      ...qualify('s', only(STEP_COLUMNS, 'id', 'documentId', 'nodeId')),
      ...qualify('n', only(NODE_REF_COLUMNS, 'processId', 'activityType')),
    ]);
  return (
    row && {
      ...row,
      id: Number(row.id),
      documentId: Number(row.documentId),
      nodeId: Number(row.nodeId),
      processId: Number(row.processId),
    }
  );
}

/** The steps of a document at a node, in walk order. */
export async function nodeSteps(knex: Knex, documentId: number, nodeId: number): Promise<StepRow[]> {
  return knex('steps')
    .where({ document_id: documentId, node_id: nodeId })
    .orderBy('order')
    .select(STEP_COLUMNS);
}

/**
 * The next document a person may annotate at a node (issue 31 section 1, overlap): one with a free WAITING step
 * of the node (it still needs an annotator) where the person has no step of the node yet and that nobody else
 * blocks; their own started document first, then the oldest. Null when none.
 */
export async function nextDocumentToAnnotate(
  knex: Knex,
  nodeId: number,
  userId: number,
): Promise<number | null> {
  const mine = await knex('steps')
    .where({ node_id: nodeId, status: 'WAITING', blocked_by_id: userId })
    .orderBy('document_id')
    .first('document_id');
  if (mine) return Number(mine.document_id);
  const row = await knex('steps as s')
    .join('documents as d', 'd.id', 's.document_id')
    .where({ 's.node_id': nodeId, 's.status': 'WAITING' })
    .whereNull('s.blocked_by_id')
    .where((q) => q.whereNull('d.blocked_by_id').orWhere('d.blocked_by_id', userId))
    .whereNotExists(
      knex('steps as o')
        .whereRaw('o.document_id = s.document_id and o.node_id = s.node_id')
        .where('o.blocked_by_id', userId),
    )
    .orderBy('s.document_id')
    .first('s.document_id');
  return row ? Number(row.document_id) : null;
}

export async function stepById(knex: Knex, id: number): Promise<StepRow | undefined> {
  return knex('steps').where('id', id).first(STEP_COLUMNS);
}

/** A step with its node's identity. */
export type StepWithNode = StepRow & { name: string; activityType: ActivityType; processId: number };

/** The steps of a document in walk order, each with its node's name, type and process. */
export async function documentStepNodes(knex: Knex, documentId: number): Promise<StepWithNode[]> {
  return knex('steps as s')
    .join('nodes as n', 'n.id', 's.node_id')
    .where('s.document_id', documentId)
    .orderBy('s.order')
    .select([
      ...qualify('s', STEP_COLUMNS),
      ...qualify('n', only(NODE_REF_COLUMNS, 'name', 'activityType', 'processId')),
    ]);
}

/** Locks a step row until the transaction ends; false when the step is gone. */
export async function lockStep(trx: Knex.Transaction, stepId: number): Promise<boolean> {
  return Boolean(await trx('steps').where('id', stepId).forUpdate().first('id'));
}

/** The ids of a document's steps at the given orders, by order. */
export async function stepIdsByOrder(
  knex: Knex,
  documentId: number,
  orders: readonly number[],
): Promise<Map<number, number>> {
  const rows: { id: number; order: number }[] = await knex('steps')
    .where('document_id', documentId)
    .whereIn('order', [...orders])
    .select('id', 'order');
  return new Map(rows.map((r) => [r.order, r.id]));
}

export async function insertStep(knex: Knex, documentId: number, step: NewStep, at: Date): Promise<number> {
  const [{ id }] = await knex('steps')
    .insert({
      document_id: documentId,
      node_id: step.nodeId,
      order: step.order,
      status: step.status,
      master: step.master,
      last_modified_date: at,
    })
    .returning('id');
  return id;
}

/** Writes a step's projected fields (absolute values: writing them twice changes nothing). */
export async function updateStep(knex: Knex, documentId: number, s: StepPatch, at: Date): Promise<void> {
  await knex('steps').where({ id: s.id, document_id: documentId }).update({
    status: s.status,
    master: s.master,
    rejected: s.rejected,
    blocked_by_id: s.blockedBy,
    error_message: s.errorMessage,
    last_modified_date: at,
  });
}

/**
 * The projection of a transition that creates no step, as one statement (atomic on its own, one round trip
 * instead of a transaction's five): locks the document row, writes each changed step's projected fields
 * (absolute values), the document's status and, when given, adds the assignee and stores the webhook
 * events (answering the subscriptions given deliveries). exists false when the document is gone (nothing
 * is written then).
 */
export async function projectChanges(
  knex: Knex,
  documentId: number,
  documentStatus: string,
  changes: readonly StepPatch[],
  at: Date,
  assignee: number | null,
  outbox?: { sql: string; bindings: Knex.RawBinding[] },
): Promise<{ exists: boolean; woken: number[] }> {
  const bindings: Knex.RawBinding[] = [documentId];
  let steps = '';
  if (changes.length) {
    const values = changes
      .map(() => '(?::bigint, ?::text, ?::boolean, ?::boolean, ?::bigint, ?::text)')
      .join(', ');
    // In the order of the placeholders: the time (set clause), then the values.
    bindings.push(at);
    for (const c of changes) bindings.push(c.id, c.status, c.master, c.rejected, c.blockedBy, c.errorMessage);
    steps = `, changed as (
      update steps s set status = v.status, master = v.master, rejected = v.rejected,
        blocked_by_id = v.blocked_by_id, error_message = v.error_message, last_modified_date = ?
      from (values ${values}) as v(id, status, master, rejected, blocked_by_id, error_message), doc
      where s.id = v.id and s.document_id = doc.id
      returning s.id)`;
  }
  let assignees = '';
  if (assignee !== null) {
    assignees = `, assigned as (
      insert into document_assignees (document_id, user_id) select doc.id, ?::bigint from doc
      on conflict (document_id, user_id) do nothing returning 1)`;
    bindings.push(assignee);
  }
  if (outbox) bindings.push(...outbox.bindings);
  bindings.push(documentStatus, at);
  // Webhook events (db/queries/webhooks.ts outboxCte) are stored by this same statement, under the lock.
  const { rows } = await knex.raw(
    `with doc as (select id from documents where id = ? for update)${steps}${assignees}${outbox ? `, ${outbox.sql}` : ''},
     status as (update documents d set status = ?, last_modified_date = ? from doc where d.id = doc.id returning d.id)
     select id${outbox ? ', (select ids from wh_woken) as woken' : ''} from status`,
    bindings,
  );
  return { exists: rows.length > 0, woken: (rows[0]?.woken ?? []).map(Number) };
}

/** A parser step that may be rerun, with its document's name. */
export interface RerunnableStepDTO {
  id: number;
  documentId: number;
  documentName: string;
  status: StepStatus;
  master: boolean;
  errorMessage: string | null;
}

/** The statuses in which a FILE_PARSER step may be rerun. */
export const RERUNNABLE_STATUSES = ['WAITING', 'ERROR'] as const;

/**
 * FILE_PARSER steps of a node that may be rerun (WAITING or ERROR, or only those of `status`), a page at a
 * time, by step id; each with the error message it failed with.
 */
export async function rerunnableParserSteps(
  knex: Knex,
  nodeId: number,
  page: number,
  size: number,
  status?: (typeof RERUNNABLE_STATUSES)[number],
): Promise<{ items: RerunnableStepDTO[]; total: number }> {
  const base = knex('steps as s')
    .join('nodes as n', 'n.id', 's.node_id')
    .join('documents as d', 'd.id', 's.document_id')
    .where('s.node_id', nodeId)
    .where('n.activity_type', 'FILE_PARSER')
    .whereIn('s.status', status ? [status] : [...RERUNNABLE_STATUSES]);
  const [items, count] = await Promise.all([
    base
      .clone()
      .orderBy('s.id')
      .offset(page * size)
      .limit(size)
      .select([
        ...qualify('s', only(STEP_COLUMNS, 'id', 'documentId', 'status', 'master', 'errorMessage')),
        'd.filename as documentName',
      ]),
    base.clone().count<{ count: string }[]>('* as count').first(),
  ]);
  return { items, total: Number(count?.count ?? 0) };
}

/** The document's file parser steps that may be rerun (WAITING or ERROR), in walk order. */
export async function documentRerunnableParserSteps(
  knex: Knex,
  documentId: number,
): Promise<{ id: number; nodeId: number }[]> {
  return knex('steps as s')
    .join('nodes as n', 'n.id', 's.node_id')
    .where('s.document_id', documentId)
    .where('n.activity_type', 'FILE_PARSER')
    .whereIn('s.status', ['WAITING', 'ERROR'])
    .orderBy('s.order')
    .select('s.id', 's.node_id as nodeId');
}

/** Documents with a DONE or ACCEPTED step at the node, oldest first. */
export async function finishedDocumentIds(knex: Knex, nodeId: number): Promise<number[]> {
  const ids = await knex('steps')
    .where('node_id', nodeId)
    .whereIn('status', ['DONE', 'ACCEPTED'])
    .distinct('document_id')
    .orderBy('document_id')
    .pluck('document_id');
  return ids.map(Number);
}

/** Where a count of held documents stops (an exact count of a large node's steps is not worth its time). */
export const HELD_COUNT_CAP = 10_000;

/**
 * Per file parser node of the process with documents held at it (a step WAITING: the parse is over and a
 * person is to proofread it), their count up to HELD_COUNT_CAP + 1, by node id (the dashboard's notice).
 */
export async function parserWaitingCounts(
  knex: Knex,
  processId: number,
): Promise<{ nodeId: number; nodeName: string; count: number }[]> {
  const parsers: { id: number; name: string }[] = await knex('nodes')
    .where({ process_id: processId, activity_type: 'FILE_PARSER' })
    .orderBy('id')
    .select('id', 'name');
  const counts = await Promise.all(
    parsers.map(async (p) => {
      const [{ count }] = await knex
        .from(
          knex('steps')
            .where({ node_id: p.id, status: 'WAITING' })
            .limit(HELD_COUNT_CAP + 1)
            .select(knex.raw('1'))
            .as('held'),
        )
        .count<{ count: string }[]>({ count: '*' });
      return { nodeId: Number(p.id), nodeName: p.name, count: Number(count) };
    }),
  );
  return counts.filter((c) => c.count > 0);
}
