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

/** Holds the document row for the transaction; its block. */
export async function holdDocument(trx: Knex.Transaction, documentId: number): Promise<number | null> {
  const doc = await trx('documents').where('id', documentId).forShare().first('blocked_by_id');
  return doc ? doc.blocked_by_id : null;
}

export async function nodeSteps(
  trx: Knex.Transaction,
  documentId: number,
  nodeId: number,
): Promise<NodeStep[]> {
  return trx('steps')
    .where({ document_id: documentId, node_id: nodeId })
    .orderBy('order')
    .select('id', 'status', 'blocked_by_id as blockedBy', 'master', 'order');
}

/** The step of the node the caller's write goes to (domain/tags.ts chooseTagStep), or the refusal. */
export async function stepForWrite(
  trx: Knex.Transaction,
  user: AuthUser,
  node: { nodeId: number; processId: number },
  documentId: number,
  wantedStepId: number | null | undefined,
): Promise<number> {
  const blockedBy = await holdDocument(trx, documentId);
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
  const blockedBy = await holdDocument(trx, documentId);
  const step: NodeStep | undefined =
    stepId === null
      ? undefined
      : await trx('steps')
          .where('id', stepId)
          .first('id', 'status', 'blocked_by_id as blockedBy', 'master', 'order');
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
  const doc = await knex('documents').where('id', documentId).first('blocked_by_id');
  const steps: (NodeStep & { nodeId: number; name: string; activityType: string; processId: number })[] =
    await knex('steps as s')
      .join('nodes as n', 'n.id', 's.node_id')
      .where('s.document_id', documentId)
      .orderBy('s.order')
      .select(
        's.id',
        's.status',
        's.blocked_by_id as blockedBy',
        's.master',
        's.order',
        'n.id as nodeId',
        'n.name',
        'n.activity_type as activityType',
        'n.process_id as processId',
      );
  const nodes = steps
    .filter((s) => nodeIds === null || nodeIds.includes(s.nodeId))
    .filter((s) => {
      const actor = actorFor(user, { id: s.nodeId, processId: s.processId });
      return modeSatisfies(actor.nodeMode, 'WRITE') && isStepEditable(s, actor, doc?.blocked_by_id ?? null);
    })
    .map((s) => ({ id: s.nodeId, name: s.name, activityType: s.activityType }));
  if (!nodes.length) return [];
  const tagTypes = await knex('ner_tag_types')
    .whereIn(
      'node_id',
      nodes.map((n) => n.id),
    )
    .orderBy('id')
    .select(
      'id',
      'node_id as nodeId',
      'parent_id as parentId',
      'name',
      'background_color as backgroundColor',
      'selectable',
      'disabled',
    );
  return buildTagTypeOptions(nodes, tagTypes, type);
}
