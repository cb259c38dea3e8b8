/**
 * Step actions of the API: read a step with its node and document from the projection, authorize the caller
 * with domain/steps.ts (403 for a missing mode, 409 with the rule's message for a refused transition), send
 * the action to `document-<id>` as an Update (which returns once the projection is written), and shape
 * steps as the spec's stepDTO.
 */
import { WorkflowNotFoundError, WorkflowUpdateFailedError } from '@temporalio/client';
import { ApplicationFailure } from '@temporalio/common';
import type { Knex } from 'knex';
import type { AuthUser } from '../auth';
import { forbidden, HttpError, notFound } from '../errors';
import type { TemporalGateway } from '../temporal';
import { nodeMode } from '../../domain/access';
import type { ActivityType } from '../../domain/enums';
import type { StepDTO } from '../../domain/document-state-types';
import {
  availableActions,
  documentBlockRefusal,
  modeAllows,
  transitionRefusal,
  type StepAction,
  type StepActor,
  type StepNode,
  type StepRefusal,
  type StepState,
  type StepStatus,
} from '../../domain/steps';
import {
  STEP_REFUSED,
  documentWorkflowId,
  stepActionUpdates,
  type StepActionInput,
  type StepActionResult,
} from '../../workflows/contract';

export type { StepDTO, StepNodeDTO, UserRefDTO } from '../../domain/document-state-types';

export interface StepContext {
  step: StepState & { documentId: number };
  node: StepNode & { processId: number };
  document: { id: number; processId: number; blockedBy: number | null; filename: string };
}

const STEP_COLUMNS = [
  's.id',
  's.document_id as documentId',
  's.node_id as nodeId',
  's.status',
  's.master',
  's.rejected',
  's.blocked_by_id as blockedBy',
  's.order',
  's.error_message as errorMessage',
  's.last_modified_date as lastModifiedDate',
  'n.name as nodeName',
  'n.activity_type as activityType',
  'n.automatic',
  'n.auto_step_status as autoStepStatus',
  'n.requires_acceptance as requiresAcceptance',
  'n.priority',
  'n.additional_node_submits as additionalNodeSubmits',
  'n.process_id as processId',
  'u.login as userLogin',
  'u.first_name as userFirstName',
  'u.last_name as userLastName',
  'u.email as userEmail',
];

type StepJoinRow = StepState & {
  documentId: number;
  lastModifiedDate: Date | null;
  nodeName: string;
  activityType: ActivityType;
  automatic: boolean;
  autoStepStatus: StepNode['autoStepStatus'];
  requiresAcceptance: boolean;
  priority: number;
  additionalNodeSubmits: StepNode['additionalNodeSubmits'] | null;
  processId: number;
  userLogin: string | null;
  userFirstName: string | null;
  userLastName: string | null;
  userEmail: string | null;
};

const stepQuery = (knex: Knex) =>
  knex('steps as s')
    .join('nodes as n', 'n.id', 's.node_id')
    .leftJoin('users as u', 'u.id', 's.blocked_by_id')
    .select(STEP_COLUMNS);

function nodeOf(r: StepJoinRow): StepNode & { processId: number } {
  return {
    id: r.nodeId,
    name: r.nodeName,
    activityType: r.activityType,
    automatic: r.automatic,
    autoStepStatus: r.autoStepStatus,
    requiresAcceptance: r.requiresAcceptance,
    priority: r.priority,
    additionalNodeSubmits: r.additionalNodeSubmits ?? [],
    processId: r.processId,
  };
}

function stateOf(r: StepJoinRow): StepState & { documentId: number } {
  return {
    id: r.id,
    documentId: r.documentId,
    nodeId: r.nodeId,
    status: r.status,
    master: r.master,
    rejected: r.rejected,
    blockedBy: r.blockedBy,
    order: r.order,
    errorMessage: r.errorMessage,
  };
}

export function actorFor(user: AuthUser, node: { id: number; processId: number }): StepActor {
  return { userId: user.id, nodeMode: nodeMode(user, node.id, node.processId) };
}

function toDTO(r: StepJoinRow, user: AuthUser | null): StepDTO {
  const node = nodeOf(r);
  const step = stateOf(r);
  return {
    ...step,
    blockedBy:
      r.blockedBy === null
        ? null
        : {
            id: r.blockedBy,
            login: r.userLogin ?? '',
            firstName: r.userFirstName,
            lastName: r.userLastName,
            email: r.userEmail ?? '',
          },
    userId: r.blockedBy,
    nodeName: r.nodeName,
    nodeDTO: {
      id: node.id,
      name: node.name,
      activityType: node.activityType,
      requiresAcceptance: node.requiresAcceptance,
      priority: node.priority,
      automatic: node.automatic,
    },
    lastModifiedDate: r.lastModifiedDate ? new Date(r.lastModifiedDate).toISOString() : null,
    actions: user ? availableActions(step, node, actorFor(user, node)) : [],
  };
}

/** The steps of a document in walk order, as stepDTOs with the caller's actions. */
export async function documentSteps(
  knex: Knex,
  documentId: number,
  user: AuthUser | null,
): Promise<StepDTO[]> {
  const rows: StepJoinRow[] = await stepQuery(knex).where('s.document_id', documentId).orderBy('s.order');
  return rows.map((r) => toDTO(r, user));
}

export async function stepDTO(knex: Knex, stepId: number, user: AuthUser | null): Promise<StepDTO> {
  const row: StepJoinRow | undefined = await stepQuery(knex).where('s.id', stepId).first();
  if (!row) throw notFound('step');
  return toDTO(row, user);
}

/** The node and process of a step, or undefined for an unknown step: what access is checked on. */
export async function findStepNode(
  knex: Knex,
  stepId: number,
): Promise<{ nodeId: number; processId: number } | undefined> {
  const row = await knex('steps as s')
    .join('nodes as n', 'n.id', 's.node_id')
    .where('s.id', stepId)
    .first('n.id as nodeId', 'n.process_id as processId');
  return row ? { nodeId: Number(row.nodeId), processId: Number(row.processId) } : undefined;
}

export async function loadStepContext(knex: Knex, stepId: number): Promise<StepContext> {
  const row: StepJoinRow | undefined = await stepQuery(knex).where('s.id', stepId).first();
  if (!row) throw notFound('step');
  const doc = await knex('documents')
    .where('id', row.documentId)
    .first('id', 'process_id as processId', 'blocked_by_id as blockedBy', 'filename');
  if (!doc) throw notFound('document');
  return { step: stateOf(row), node: nodeOf(row), document: doc };
}

/** 409 with the rule's message (`error.step.<code>` as the key the UI may translate). */
export function stepConflict(r: StepRefusal): HttpError {
  const key = `error.step.${r.code}`;
  return new HttpError(409, { message: key, errorKey: r.code, detail: r.message });
}

/** Authorizes an action on a step from the projection: 403 without the mode, 409 for a refused transition. */
export function authorizeStepAction(ctx: StepContext, action: StepAction, user: AuthUser): StepActor {
  const actor = actorFor(user, ctx.node);
  if (!actor.nodeMode || !modeAllows(action, ctx.step, ctx.node, actor)) throw forbidden();
  const r =
    documentBlockRefusal(ctx.document.blockedBy, actor) ??
    transitionRefusal(action, ctx.step, ctx.node, actor);
  if (r) throw stepConflict(r);
  return actor;
}

/** Sends the action to the document's workflow; a rejection (validator or handler) becomes a 409. */
export async function sendStepAction(
  temporal: TemporalGateway,
  documentId: number,
  action: StepAction,
  input: StepActionInput,
): Promise<StepActionResult> {
  const client = await temporal.client();
  try {
    return await client.workflow
      .getHandle(documentWorkflowId(documentId))
      .executeUpdate(stepActionUpdates[action], { args: [input] });
  } catch (err) {
    if (err instanceof WorkflowUpdateFailedError) {
      const cause = err.cause;
      if (cause instanceof ApplicationFailure && cause.type === STEP_REFUSED)
        throw stepConflict({ code: String(cause.details?.[0] ?? 'refused'), message: cause.message });
      throw stepConflict({ code: 'failed', message: cause?.message ?? err.message });
    }
    if (err instanceof WorkflowNotFoundError)
      throw stepConflict({ code: 'noWorkflow', message: 'The document is not being processed' });
    throw err;
  }
}

/** Authorize from the projection, send the Update, answer the step as it is now. */
export async function runStepAction(
  deps: { knex: Knex; temporal: TemporalGateway },
  user: AuthUser,
  stepId: number,
  action: StepAction,
): Promise<StepDTO & { documentStatus: string }> {
  const ctx = await loadStepContext(deps.knex, stepId);
  const actor = authorizeStepAction(ctx, action, user);
  const result = await sendStepAction(deps.temporal, ctx.step.documentId, action, {
    stepId,
    actor: { userId: actor.userId, login: user.login, nodeMode: actor.nodeMode },
  });
  return { ...(await stepDTO(deps.knex, stepId, user)), documentStatus: result.documentStatus };
}

/**
 * The step `POST api/step/assign` starts for the caller: the given one, else the caller's own waiting step
 * of the node, else its first free waiting step.
 */
export async function stepToAssign(
  knex: Knex,
  documentId: number,
  nodeId: number,
  userId: number,
  stepId?: number,
): Promise<number> {
  const steps: { id: number; status: StepStatus; blockedBy: number | null }[] = await knex('steps')
    .where({ document_id: documentId, node_id: nodeId })
    .orderBy('order')
    .select('id', 'status', 'blocked_by_id as blockedBy');
  if (steps.length === 0) throw notFound('step');
  if (stepId !== undefined) {
    if (!steps.some((s) => s.id === stepId)) throw notFound('step');
    return stepId;
  }
  const waiting = steps.filter((s) => s.status === 'WAITING');
  const chosen = waiting.find((s) => s.blockedBy === userId) ?? waiting.find((s) => s.blockedBy === null);
  if (!chosen) throw stepConflict({ code: 'noFreeStep', message: 'No waiting step of this node is free' });
  return chosen.id;
}

export interface RerunnableStepDTO {
  id: number;
  documentId: number;
  documentName: string;
  status: StepStatus;
  master: boolean;
}

/** FILE_PARSER steps of a node that may be rerun (WAITING or ERROR), a page at a time, by step id. */
export async function rerunnableSteps(
  knex: Knex,
  nodeId: number,
  page: number,
  size: number,
): Promise<{ items: RerunnableStepDTO[]; total: number }> {
  const base = knex('steps as s')
    .join('nodes as n', 'n.id', 's.node_id')
    .join('documents as d', 'd.id', 's.document_id')
    .where('s.node_id', nodeId)
    .where('n.activity_type', 'FILE_PARSER')
    .whereIn('s.status', ['WAITING', 'ERROR']);
  const [items, count] = await Promise.all([
    base
      .clone()
      .orderBy('s.id')
      .offset(page * size)
      .limit(size)
      .select('s.id', 's.document_id as documentId', 'd.filename as documentName', 's.status', 's.master'),
    base.clone().count<{ count: string }[]>('* as count').first(),
  ]);
  return { items, total: Number(count?.count ?? 0) };
}
