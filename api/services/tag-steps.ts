/**
 * The step a person's tag write goes to, and whether it may be edited (domain/tags.ts chooseTagStep,
 * domain/steps.ts stepEditRefusal), read inside the write's transaction while it holds the document row
 * (FOR SHARE: the projection, which holds it FOR UPDATE, cannot change the steps, nor a block the document,
 * between the check and the write); the refusals as the API answers them; and the labelling menu's option
 * tree, which offers the nodes of the steps the caller may edit.
 */
import type { Knex } from 'knex';
import type { AuthUser } from '../auth';
import { HttpError, locked } from '../errors';
import { modeSatisfies } from '../../domain/access';
import type { StepRefusal, StepState } from '../../domain/steps';
import { isStepEditable, stepEditRefusal } from '../../domain/steps';
import {
  buildTagTypeOptions,
  chooseTagStep,
  TAG_MESSAGES,
  type LabellingType,
  type TagTypeOption,
} from '../../domain/tags';
import { actorFor } from './steps';
import { documentById, shareDocument } from '../../db/queries/documents';
import { documentStepNodes, nodeSteps, stepById } from '../../db/queries/steps';
import { tagTypeOptionRows } from '../../db/queries/labels';

// --- refusals ---

/** A refused step as the API answers it: 423 for another user's block, 400 for a foreign step, else 409. */
export function stepRefused(r: StepRefusal): HttpError {
  if (r.code === 'documentBlocked') return locked('error.document.blocked');
  if (r.code === 'stepUndefined')
    return new HttpError(409, { message: 'error.tag.stepUndefined', errorKey: r.code, detail: r.message });
  if (r.code === 'wrongStep')
    return new HttpError(400, { message: 'error.tag.wrongStep', errorKey: r.code, detail: r.message });
  return new HttpError(409, {
    message: 'error.tag.stepNotEditable',
    errorKey: r.code,
    detail: `${TAG_MESSAGES['error.tag.stepNotEditable']} ${r.message}`,
  });
}

export type NodeStep = Pick<StepState, 'id' | 'status' | 'blockedBy' | 'master' | 'order'>;

/** The step of the node the caller's write goes to (domain/tags.ts chooseTagStep), or the refusal. */
export async function stepForWrite(
  trx: Knex.Transaction,
  user: AuthUser,
  node: { nodeId: number; processId: number },
  documentId: number,
  wantedStepId: number | null | undefined,
): Promise<number> {
  const blockedBy = await shareDocument(trx, documentId);
  const steps = await nodeSteps(trx, documentId, node.nodeId);
  const actor = actorFor(user, { id: node.nodeId, processId: node.processId });
  const choice = chooseTagStep(steps, actor, blockedBy, wantedStepId);
  if ('refusal' in choice) throw stepRefused(choice.refusal);
  return choice.step.id;
}

/** Refuses unless the caller may edit this very step (the step a tag already belongs to). */
export async function assertStepEditable(
  trx: Knex.Transaction,
  user: AuthUser,
  node: { nodeId: number; processId: number },
  documentId: number,
  stepId: number | null,
): Promise<void> {
  const blockedBy = await shareDocument(trx, documentId);
  const step: NodeStep | undefined = stepId === null ? undefined : await stepById(trx, stepId);
  if (!step) throw stepRefused({ code: 'stepUndefined', message: TAG_MESSAGES['error.tag.stepUndefined'] });
  const r = stepEditRefusal(step, actorFor(user, { id: node.nodeId, processId: node.processId }), blockedBy);
  if (r) throw stepRefused(r);
}

// --- the labelling menu's options ---

/**
 * The tag-type option tree (domain/tags.ts buildTagTypeOptions) of a document for the caller: the nodes of
 * the document's steps the caller may edit and holds WRITE on (only `nodeIds` among them when given), that
 * take the labelling type, in walk order, each with its tag types.
 */
export async function tagTypeOptions(
  knex: Knex,
  user: AuthUser,
  documentId: number,
  nodeIds: readonly number[] | null,
  type: LabellingType,
): Promise<TagTypeOption[]> {
  const doc = await documentById(knex, documentId);
  const steps = await documentStepNodes(knex, documentId);
  const nodes = steps
    .filter((s) => nodeIds === null || nodeIds.includes(s.nodeId))
    .filter((s) => {
      const actor = actorFor(user, { id: s.nodeId, processId: s.processId });
      return modeSatisfies(actor.nodeMode, 'WRITE') && isStepEditable(s, actor, doc?.blockedById ?? null);
    })
    .map((s) => ({ id: s.nodeId, name: s.name, activityType: s.activityType }));
  if (!nodes.length) return [];
  const tagTypes = await tagTypeOptionRows(
    knex,
    nodes.map((n) => n.id),
  );
  return buildTagTypeOptions(nodes, tagTypes, type);
}
