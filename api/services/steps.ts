/**
 * Steps in the API: read a step with its node and document from the projection, authorize the caller
 * with domain/steps.ts (403 for a missing mode, 409 with the rule's message for a refused transition), send
 * the action to `document-<id>` as an Update (which returns once the projection is written), and shape
 * steps as the spec's stepDTO. The action as a whole (and its answer) is api/services/step-actions.ts.
 */
import { WorkflowNotFoundError, WorkflowUpdateFailedError } from '@temporalio/client';
import { ApplicationFailure } from '@temporalio/common';
import type { Knex } from 'knex';
import type { AuthUser } from '../auth';
import { forbidden, HttpError, notFound } from '../errors';
import type { TemporalGateway } from '../temporal';
import { rerunnableParserSteps, type RerunnableStepDTO } from '../../db/queries/steps';
import { documentStepViews, nodeSteps, stepNode, stepView, type StepView } from '../../db/queries/steps';
import { modeSatisfies, nodeMode } from '../../domain/access';
import type { StepDTO } from '../../domain/document-state-types';
import {
  availableActions,
  documentBlockRefusal,
  isStepEditable,
  modeAllows,
  transitionRefusal,
  type StepAction,
  type StepActor,
  type StepNode,
  type StepRefusal,
  type StepState,
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
  document: { id: number; processId: number; blockedBy: number | null };
}

export function actorFor(user: AuthUser, node: { id: number; processId: number }): StepActor {
  return { userId: user.id, nodeMode: nodeMode(user, node.id, node.processId) };
}

function toDTO({ step, node, blockedBy, documentBlockedBy }: StepView, user: AuthUser | null): StepDTO {
  const { lastModifiedDate, ...state } = step;
  const actor = user ? actorFor(user, node) : null;
  return {
    ...state,
    blockedBy,
    userId: step.blockedBy,
    nodeName: node.name,
    nodeDTO: {
      id: node.id,
      name: node.name,
      activityType: node.activityType,
      requiresAcceptance: node.requiresAcceptance,
      priority: node.priority,
      automatic: node.automatic,
    },
    lastModifiedDate: lastModifiedDate ? new Date(lastModifiedDate).toISOString() : null,
    actions: actor ? availableActions(step, node, actor) : [],
    editable:
      actor !== null &&
      modeSatisfies(actor.nodeMode, 'WRITE') &&
      isStepEditable(step, actor, documentBlockedBy),
  };
}

/** The steps of a document in walk order, as stepDTOs with the caller's actions. */
export async function documentSteps(
  knex: Knex,
  documentId: number,
  user: AuthUser | null,
): Promise<StepDTO[]> {
  return (await documentStepViews(knex, documentId)).map((v) => toDTO(v, user));
}

export async function stepDTO(knex: Knex, stepId: number, user: AuthUser | null): Promise<StepDTO> {
  const view = await stepView(knex, stepId);
  if (!view) throw notFound('step');
  return toDTO(view, user);
}

/** The node and process of a step, or undefined for an unknown step: what access is checked on. */
export async function findStepNode(
  knex: Knex,
  stepId: number,
): Promise<{ nodeId: number; processId: number } | undefined> {
  const row = await stepNode(knex, stepId);
  return row ? { nodeId: row.nodeId, processId: row.processId } : undefined;
}

/**
 * The step, its node and its document's block, in one read (the step view joins the document); undefined
 * for an unknown step.
 */
export async function findStepContext(knex: Knex, stepId: number): Promise<StepContext | undefined> {
  const view = await stepView(knex, stepId);
  if (!view) return undefined;
  const { lastModifiedDate: _, ...step } = view.step;
  return {
    step,
    node: view.node,
    document: { id: step.documentId, processId: view.node.processId, blockedBy: view.documentBlockedBy },
  };
}

/** findStepContext, 404 for an unknown step. */
export async function loadStepContext(knex: Knex, stepId: number): Promise<StepContext> {
  const ctx = await findStepContext(knex, stepId);
  if (!ctx) throw notFound('step');
  return ctx;
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
  const steps = await nodeSteps(knex, documentId, nodeId);
  if (steps.length === 0) throw notFound('step');
  if (stepId !== undefined) {
    if (!steps.some((s) => s.id === stepId)) throw notFound('step');
    return stepId;
  }
  const waiting = steps.filter((s) => s.status === 'WAITING');
  // overlap (issue 31 section 1): one person annotates a document once per node; a finished step of theirs
  // means the document needs the others
  if (!waiting.some((s) => s.blockedBy === userId) && steps.some((s) => s.blockedBy === userId))
    throw stepConflict({
      code: 'alreadyAnnotated',
      message: 'You have already annotated this document at this node',
    });
  const chosen = waiting.find((s) => s.blockedBy === userId) ?? waiting.find((s) => s.blockedBy === null);
  if (!chosen) throw stepConflict({ code: 'noFreeStep', message: 'No waiting step of this node is free' });
  return chosen.id;
}

export type { RerunnableStepDTO } from '../../db/queries/steps';
export { RERUNNABLE_STATUSES } from '../../db/queries/steps';
import type { RERUNNABLE_STATUSES } from '../../db/queries/steps';

/**
 * FILE_PARSER steps of a node that may be rerun (WAITING or ERROR, or only those of `status`), a page at a
 * time, by step id; each with the error message it failed with.
 */
export async function rerunnableSteps(
  knex: Knex,
  nodeId: number,
  page: number,
  size: number,
  status?: (typeof RERUNNABLE_STATUSES)[number],
): Promise<{ items: RerunnableStepDTO[]; total: number }> {
  return rerunnableParserSteps(knex, nodeId, page, size, status);
}
