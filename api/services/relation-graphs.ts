/**
 * Relation graphs of a document's NER tags (issue 12 section 1; rules in domain/relations.ts, queries in
 * db/queries/relation-graphs.ts, contract in docs/api-relations.md). Every write validates the whole graph
 * against the rules, then, in a transaction that holds the document row, checks the step it goes to like a
 * tag write does (./tag-steps.ts): a new graph goes to the caller's editable step of the tags' node, an
 * existing one stays on its step, which must be editable by the caller.
 */
import type { Knex } from 'knex';
import type { AuthUser } from '../auth';
import { HttpError } from '../errors';
import * as q from '../../db/queries/relation-graphs';
import {
  candidateRelationTypes,
  pairRefusal,
  RELATION_MESSAGES,
  validateGraph,
  type GraphValidation,
  type RelationGraphDTO,
  type RelationInput,
} from '../../domain/relations';
import { assertStepEditable, stepForWrite } from './tag-steps';

export const listGraphs = q.listGraphs;
export const graphRef = q.graphRef;
export const relationCountOfTag = q.relationCountOfTag;

export type RuleContext = Awaited<ReturnType<typeof q.ruleContext>>;

/** The rules' verdict on relations of the document, and the node and process of their tags. */
export async function validate(
  knex: Knex,
  documentId: number,
  relations: readonly RelationInput[],
): Promise<{ validation: GraphValidation; node: { nodeId: number; processId: number } | null }> {
  const tagIds = [...new Set(relations.flatMap((r) => [r.fromId, r.toId]))];
  const ctx = await q.ruleContext(knex, documentId, tagIds);
  const validation = validateGraph(relations, ctx);
  const first = relations.length ? ctx.tags.get(relations[0].fromId) : undefined;
  const node = first ? ctx.nodes.get(first.nodeId) : undefined;
  return { validation, node: node ? { nodeId: node.id, processId: node.processId } : null };
}

/** The relation types that may link tag `fromId` to tag `toId` of the document, best first (the menu's). */
export async function candidates(knex: Knex, documentId: number, fromId: number, toId: number) {
  const ctx = await q.ruleContext(knex, documentId, [fromId, toId]);
  const from = ctx.tags.get(fromId);
  const to = ctx.tags.get(toId);
  const node = from ? ctx.nodes.get(from.nodeId) : undefined;
  const refusal = pairRefusal(from, to, node);
  const types = candidateRelationTypes(from, to, node, [...ctx.types.values()], ctx.parents);
  return {
    message: refusal,
    candidates: types.map((t) => ({
      id: t.id,
      nodeId: t.nodeId,
      name: t.name,
      color: t.color,
      priority: t.priority,
      fromId: t.fromId,
      toId: t.toId,
      strict: t.strict,
      merge: t.merge,
    })),
  };
}

/** 422 with the validation in the body (the workspace keeps it and shows its message). */
export function invalidGraph(validation: GraphValidation): HttpError {
  const key = validation.message ?? 'error.graph.noCohesive';
  return new HttpError(422, {
    message: key,
    errorKey: key.split('.').pop(),
    detail: RELATION_MESSAGES[key],
    validation,
  });
}

export async function createGraph(
  knex: Knex,
  user: AuthUser,
  documentId: number,
  node: { nodeId: number; processId: number },
  relations: readonly RelationInput[],
): Promise<RelationGraphDTO> {
  const id = await knex.transaction(async (trx) => {
    const stepId = await stepForWrite(trx, user, node, documentId, null);
    return q.insertGraph(trx, { documentId, stepId, nodeId: node.nodeId, userId: user.id }, relations);
  });
  return (await q.graphById(knex, id))!;
}

/**
 * Replaces a graph's relations: they must pass the rules (422 with the rule's key) and stay on the graph's
 * node (`error.graph.mixedNodes`); the graph's step must be editable by the caller.
 */
export async function updateGraph(
  knex: Knex,
  user: AuthUser,
  graph: NonNullable<Awaited<ReturnType<typeof q.graphRef>>>,
  relations: readonly RelationInput[],
): Promise<RelationGraphDTO> {
  const { validation, node } = await validate(knex, graph.documentId, relations);
  if (!validation.valid || !node) throw invalidGraph(validation);
  if (node.nodeId !== graph.nodeId)
    throw invalidGraph({ ...validation, valid: false, message: 'error.graph.mixedNodes' });
  await knex.transaction(async (trx) => {
    await assertStepEditable(trx, user, graph, graph.documentId, graph.stepId);
    await q.replaceRelations(trx, graph.id, relations, user.id);
  });
  return (await q.graphById(knex, graph.id))!;
}

export async function deleteGraph(
  knex: Knex,
  user: AuthUser,
  graph: NonNullable<Awaited<ReturnType<typeof q.graphRef>>>,
): Promise<void> {
  await knex.transaction(async (trx) => {
    await assertStepEditable(trx, user, graph, graph.documentId, graph.stepId);
    await q.deleteGraph(trx, graph.id);
  });
}
