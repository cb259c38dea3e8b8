/**
 * Nodes of a process graph: reads shaped as NodeDTO (settings flattened, SFTP transfer rules and IPS
 * receivers joined in, the caller's node mode), creation and update through the domain's draft, defaults,
 * couplings and rules (domain/nodes.ts, domain/node-settings.ts, domain/node-settings-rules.ts), deletion
 * guarded by the obligatory flag and the graph's cohesion, coordinates. Graph-changing writes lock the process row so they run one at a time.
 */
import type { Knex } from 'knex';
import { processGraph } from '../../db/queries/graph';
import { classifierTypeNames } from '../../db/queries/labels';
import { existingLlmModelIds } from '../../db/queries/llm-models';
import {
  collidingNodeNames,
  deleteNodeRow,
  hupEndpoints,
  insertNode,
  iprNodes,
  nodeById,
  nodeRefs,
  nodesByIds,
  processNodes,
  setNodeCoordinates,
  updateNodeRow,
  type NodeRow,
} from '../../db/queries/nodes';
import { pollerStatuses as lastPolls } from '../../db/queries/poller-status';
import { lockProcess } from '../../db/queries/processes';
import { processSecretIds } from '../../db/queries/secrets';
import {
  saveTransferRules,
  sftpConnectionIds,
  transferRuleIds,
  transferRulesOfNodes,
} from '../../db/queries/sftp-connections';
import { modeSatisfies, nodeMode, processMode, type Principal } from '../../domain/access';
import type { ActivityType } from '../../domain/enums';
import { ancestors as ancestorsOf, isCohesive, withoutNode } from '../../domain/graph';
import type {
  NodeCoordinatesDTO,
  NodeDTO,
  NodeSettings,
  PollerStatusDTO,
  ReceiverRef,
} from '../../domain/graph-types';
import { SETTINGS_FIELDS } from '../../domain/node-settings';
import type { FieldViolation } from '../../domain/node-settings-rules';
import {
  POLLED_UPLOAD_TYPES,
  buildNodeDraft,
  nodeNameRule,
  nodeRules,
  type NodeContext,
  type NodeDraft,
} from '../../domain/nodes';
import {
  availableWildcards,
  findUnknownWildcards,
  type WildcardContext,
  type WildcardSourceNode,
} from '../../domain/wildcards';
import { appError, fieldErrors, unprocessable } from '../errors';

const NAME_INDEX = 'nodes_process_name_unique';

/** A stored node (db/queries/nodes.ts). */
export type Node = NodeRow;
export { lockProcess, nodeById as findNode, nodesByIds as findNodes };

/** A stored node as a domain draft (common fields plus its type's settings). */
function toDraft(node: Node, related: NodeSettings = {}): NodeDraft {
  const settings: Record<string, unknown> = {};
  for (const field of SETTINGS_FIELDS[node.activityType]) {
    settings[field] = related[field] ?? node.settings?.[field] ?? null;
  }
  return {
    ...(settings as NodeSettings),
    name: node.name,
    description: node.description,
    activityType: node.activityType,
    processId: node.processId,
    x: node.x,
    y: node.y,
    automatic: node.automatic,
    autoStepStatus: node.autoStepStatus,
    obligatory: node.obligatory,
    mandatory: node.mandatory,
    requiresAcceptance: node.requiresAcceptance,
    priority: node.priority,
    handlesRelations: node.handlesRelations,
    triggerType: node.triggerType,
    cron: node.cron,
    threshold: node.threshold,
    externalConfig: node.externalConfig,
    trainableConfig: node.trainableConfig,
    additionalNodeSubmits: node.additionalNodeSubmits ?? [],
  };
}

/** The rows kept outside `settings`: transfer rules of SFTP upload nodes, receiver details of IPS nodes. */
async function relatedSettings(knex: Knex, nodes: readonly Node[]): Promise<Map<number, NodeSettings>> {
  const out = new Map<number, NodeSettings>();
  const sftpIds = nodes.filter((n) => n.activityType === 'SFTP_UPLOAD').map((n) => n.id);
  for (const [id, sftpTransferRules] of await transferRulesOfNodes(knex, sftpIds))
    out.set(id, { sftpTransferRules });
  const ips = nodes.filter((n) => n.activityType === 'IPS');
  const receiverIds = ips.flatMap((n) => (n.settings?.receivers ?? []).map((r) => r.id));
  if (receiverIds.length) {
    const rows = await nodeRefs(knex, [...new Set(receiverIds)]);
    const byId = new Map<number, ReceiverRef>(
      rows.map((r) => [r.id, { id: r.id, name: r.name, processId: r.processId }]),
    );
    for (const n of ips) {
      // A receiver deleted since is dropped from the answer.
      const receivers = (n.settings?.receivers ?? []).flatMap((r) =>
        byId.has(r.id) ? [byId.get(r.id)!] : [],
      );
      out.set(n.id, { receivers });
    }
  }
  return out;
}

/** The last poll of each e-mail, SFTP and drive upload node among `nodes` (null when never polled). */
async function pollerStatuses(
  knex: Knex,
  nodes: readonly Node[],
): Promise<Map<number, PollerStatusDTO | null>> {
  const ids = nodes.filter((n) => POLLED_UPLOAD_TYPES.includes(n.activityType)).map((n) => n.id);
  const polls = await lastPolls(knex, ids);
  return new Map(ids.map((id) => [id, polls.get(id) ?? null]));
}

/** NodeDTOs of stored nodes, with the caller's mode on each. */
export async function toNodeDTOs(
  knex: Knex,
  principal: Principal,
  nodes: readonly Node[],
): Promise<NodeDTO[]> {
  const related = await relatedSettings(knex, nodes);
  const polls = await pollerStatuses(knex, nodes);
  return nodes.map((n) => ({
    id: n.id,
    ...toDraft(n, related.get(n.id)),
    accessMode: nodeMode(principal, n.id, n.processId),
    ...(polls.has(n.id) ? { pollerStatus: polls.get(n.id)! } : {}),
  }));
}

export async function toNodeDTO(knex: Knex, principal: Principal, node: Node): Promise<NodeDTO> {
  return (await toNodeDTOs(knex, principal, [node]))[0];
}

export async function listNodes(
  knex: Knex,
  principal: Principal,
  processId: number,
  activityType?: ActivityType,
): Promise<NodeDTO[]> {
  return toNodeDTOs(knex, principal, await processNodes(knex, processId, activityType));
}

/** The facts the rules compare a draft with: other names, endpoints, referenced rows the caller may use. */
async function ruleContext(
  knex: Knex,
  principal: Principal,
  draft: NodeDraft,
  nodeId: number | null,
): Promise<NodeContext> {
  const ids = (...refs: ({ id: number } | null | undefined)[]) =>
    refs.flatMap((r) => (r && typeof r.id === 'number' ? [r.id] : []));
  const external = draft.externalConfig?.configType === 'LLM' ? draft.externalConfig : null;
  const modelRefs = ids(draft.llmModel, external?.llmModel);
  const secretRefs = ids(draft.secret, external?.secret);
  const receiverRefs = ids(...(draft.receivers ?? []));
  const [existingNames, endpoints, llmModelIds, secretIds, connections, storedRules, receivers] =
    await Promise.all([
      draft.name ? collidingNodeNames(knex, draft.processId, nodeId, draft.name) : [],
      draft.activityType === 'HUP' ? hupEndpoints(knex, draft.processId, nodeId) : [],
      existingLlmModelIds(knex, modelRefs),
      processSecretIds(knex, draft.processId, secretRefs),
      nodeId ? sftpConnectionIds(knex, nodeId) : [],
      nodeId ? transferRuleIds(knex, nodeId) : [],
      iprNodes(knex, receiverRefs),
    ]);
  return {
    existingNames,
    otherEndpoints: endpoints,
    llmModelIds,
    secretIds,
    sftpConnectionIds: connections,
    storedRuleIds: storedRules,
    iprNodeIds: receivers
      .filter((r) => modeSatisfies(processMode(principal, r.processId), 'READ'))
      .map((r) => r.id),
  };
}

/** The node's template fields with the wildcard editor context each belongs to, by field path. */
function templateFields(draft: NodeDraft): [string, string | null | undefined, WildcardContext][] {
  const fields: [string, string | null | undefined, WildcardContext][] = [
    ['subject', draft.subject, 'node'],
    ['template', draft.template, 'node'],
    ['url', draft.url, 'node'],
    ['fileContent', draft.fileContent, 'node'],
    ['preferredFilename', draft.preferredFilename, 'filename'],
    ['payload', draft.payload, 'node'],
    ['preferredDocName', draft.preferredDocName, 'filename'],
    ['prompt', draft.prompt, 'node'],
    ['requestBody.plainTextBody', draft.requestBody?.plainTextBody, 'node'],
  ];
  for (const [name, h] of Object.entries(draft.headers ?? {}))
    fields.push([`headers.${name}`, h?.value, 'node']);
  for (const [key, v] of Object.entries(draft.requestBody?.jsonBody ?? {}))
    fields.push([`requestBody.jsonBody.${key}`, v?.value, 'node']);
  return fields;
}

/**
 * Unknown or unavailable wildcards in the node's templates: each is a field error, so a template never
 * renders a blank at run time. Per-node wildcards come from the node's ancestors (none for a new node).
 */
async function wildcardViolations(
  knex: Knex,
  draft: NodeDraft,
  nodeId: number | null,
): Promise<FieldViolation[]> {
  const fields = templateFields(draft).filter(([, text]) => text?.includes('${'));
  if (!fields.length) return [];
  let previousNodes: WildcardSourceNode[] = [];
  if (nodeId !== null) {
    const graph = await processGraph(knex, draft.processId);
    const ids = ancestorsOf(graph, nodeId);
    const ancestors = graph.nodes.filter((n) => ids.has(n.id));
    const clfIds = ancestors.filter((n) => n.activityType === 'CLF').map((n) => n.id);
    const types = await classifierTypeNames(knex, clfIds);
    previousNodes = ancestors.map((n) => ({
      id: n.id,
      name: n.name,
      activityType: n.activityType,
      classifierTypes: types.filter((t) => Number(t.nodeId) === n.id),
    }));
  }
  return fields.flatMap(([field, text, context]) => {
    const unknown = findUnknownWildcards(
      text,
      availableWildcards({ context, triggerType: draft.triggerType, previousNodes }),
    );
    return unknown.length
      ? [
          {
            field,
            violation: {
              code: 'Match' as const,
              key: 'soaApp.node.unknownWildcard',
              params: { wildcards: unknown.join(', ') },
            },
          },
        ]
      : [];
  });
}

async function validate(
  knex: Knex,
  principal: Principal,
  draft: NodeDraft,
  nodeId: number | null,
  extra: FieldViolation[] = [],
): Promise<void> {
  const ctx = await ruleContext(knex, principal, draft, nodeId);
  const violations = [
    ...extra,
    ...nodeRules(draft, { ...ctx, partial: nodeId === null }),
    ...(await wildcardViolations(knex, draft, nodeId)),
  ];
  if (violations.length) throw fieldErrors('node', violations);
}

/** Creates a node from a POST body (defaults and couplings applied; missing settings are not reported). */
export async function createNode(
  knex: Knex,
  principal: Principal,
  input: Record<string, unknown> & { activityType: ActivityType; processId: number },
): Promise<NodeDTO> {
  const draft = buildNodeDraft(input.activityType, input);
  draft.processId = input.processId;
  await validate(knex, principal, draft, null);
  const node = await onNameTaken(draft.name, () =>
    knex.transaction(async (trx) => {
      const id = await insertNode(trx, draft);
      if (draft.activityType === 'SFTP_UPLOAD')
        await saveTransferRules(trx, id, draft.sftpTransferRules ?? []);
      return { id };
    }),
  );
  return toNodeDTO(knex, principal, (await nodeById(knex, node.id))!);
}

/** Replaces a node's configuration with a PUT body; the type and the process stay as stored. */
export async function updateNode(
  knex: Knex,
  principal: Principal,
  stored: Node,
  input: Record<string, unknown>,
): Promise<NodeDTO> {
  const typeChanged =
    input.activityType !== undefined && input.activityType !== stored.activityType
      ? [
          {
            field: 'activityType',
            violation: { code: 'Match', key: 'soaApp.node.activityTypeImmutable' },
          } as const,
        ]
      : [];
  const [related] = (await relatedSettings(knex, [stored])).values();
  const draft = buildNodeDraft(stored.activityType, input, toDraft(stored, related));
  draft.processId = stored.processId;
  await validate(knex, principal, draft, stored.id, typeChanged);
  await onNameTaken(draft.name, () =>
    knex.transaction(async (trx) => {
      await updateNodeRow(trx, stored.id, draft);
      if (draft.activityType === 'SFTP_UPLOAD')
        await saveTransferRules(trx, stored.id, draft.sftpTransferRules ?? []);
    }),
  );
  return toNodeDTO(knex, principal, (await nodeById(knex, stored.id))!);
}

/**
 * Deletes a node with its edges (and their predicates) and its NODE authorities. Refused for the obligatory
 * node (400) and when the rest of the graph would fall apart (422 noCohesive).
 */
export async function deleteNode(knex: Knex, node: Node): Promise<void> {
  if (node.obligatory) throw appError('soaApp.node.obligatoryNodeDeletion', 'node', 'obligatoryNodeDeletion');
  await knex.transaction(async (trx) => {
    await lockProcess(trx, node.processId);
    const graph = await processGraph(trx, node.processId);
    if (!isCohesive(withoutNode(graph, node.id))) throw unprocessable('error.graph.noCohesive');
    await deleteNodeRow(trx, node.id);
  });
}

export async function saveCoordinates(
  knex: Knex,
  list: readonly NodeCoordinatesDTO[],
): Promise<NodeCoordinatesDTO[]> {
  await knex.transaction(async (trx) => {
    for (const c of list) await setNodeCoordinates(trx, c.id, c.x, c.y);
  });
  return list.map((c) => ({ id: c.id, x: c.x, y: c.y }));
}

/** Maps a lost race on the name index to the same field error as the domain rule. */
async function onNameTaken<T>(name: string, write: () => PromiseLike<T>): Promise<T> {
  try {
    return await write();
  } catch (err) {
    const e = err as { code?: string; constraint?: string };
    if (e.code === '23505' && e.constraint === NAME_INDEX) {
      throw fieldErrors('node', [{ field: 'name', violation: nodeNameRule(name, [name])! }]);
    }
    throw err;
  }
}

/** All ancestors of a node, as NodeDTOs in id order. */
export async function previousNodes(knex: Knex, principal: Principal, node: Node): Promise<NodeDTO[]> {
  const graph = await processGraph(knex, node.processId);
  const ids = ancestorsOf(graph, node.id);
  return toNodeDTOs(knex, principal, await nodesByIds(knex, [...ids]));
}
