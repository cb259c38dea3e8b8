/**
 * Nodes of a process graph: reads shaped as NodeDTO (settings flattened, SFTP transfer rules and IPS
 * receivers joined in, the caller's node mode), creation and update through the domain's draft, defaults,
 * couplings and rules (domain/nodes.ts, domain/node-settings.ts, domain/node-settings-rules.ts), deletion
 * guarded by the obligatory flag and the graph's cohesion, coordinates. Graph-changing writes lock the process row so they run one at a time.
 */
import type { Knex } from 'knex';
import { UniqueViolationError } from 'objection';
import { Node, nodeColumns } from '../../db/models/Node';
import { processGraph } from '../../db/queries/graph';
import { nodeRefs } from '../../db/queries/nodes';
import { modeSatisfies, nodeMode, processMode, type Principal } from '../../domain/access';
import type { ActivityType } from '../../domain/enums';
import { ancestors as ancestorsOf, isCohesive, withoutNode } from '../../domain/graph';
import type {
  NodeCoordinatesDTO,
  NodeDTO,
  NodeSettings,
  PollerStatusDTO,
  ReceiverRef,
  SftpTransferRuleDTO,
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

/** Serializes graph changes of one process (the row lock lasts until the transaction ends). */
export async function lockProcess(trx: Knex.Transaction, processId: number): Promise<boolean> {
  return Boolean(await trx('processes').where('id', processId).forUpdate().first('id'));
}

export async function findNode(knex: Knex, id: number): Promise<Node | undefined> {
  return Node.query(knex).findById(id);
}

export async function findNodes(knex: Knex, ids: readonly number[]): Promise<Node[]> {
  if (ids.length === 0) return [];
  return Node.query(knex)
    .whereIn('id', [...new Set(ids)])
    .orderBy('id');
}

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
  if (sftpIds.length) {
    const rules = await knex('sftp_transfer_rules').whereIn('node_id', sftpIds).orderBy('id');
    for (const id of sftpIds) out.set(id, { sftpTransferRules: [] });
    for (const r of rules) {
      out.get(r.node_id)!.sftpTransferRules!.push({
        id: r.id,
        name: r.name,
        sourceId: r.source_id,
        targetId: r.target_id,
        deleteAfterTransfer: r.delete_after_transfer,
      } satisfies SftpTransferRuleDTO);
    }
  }
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

const iso = (d: Date | string | null) => (d === null ? null : new Date(d).toISOString());

/** The last poll of each e-mail, SFTP and drive upload node among `nodes` (null when never polled). */
async function pollerStatuses(
  knex: Knex,
  nodes: readonly Node[],
): Promise<Map<number, PollerStatusDTO | null>> {
  const ids = nodes.filter((n) => POLLED_UPLOAD_TYPES.includes(n.activityType)).map((n) => n.id);
  const out = new Map<number, PollerStatusDTO | null>(ids.map((id) => [id, null]));
  if (ids.length === 0) return out;
  for (const r of await knex('poller_status').whereIn('node_id', ids)) {
    out.set(Number(r.node_id), {
      lastRunDate: iso(r.last_run_date),
      lastSuccessDate: iso(r.last_success_date),
      lastImported: Number(r.last_imported),
      lastError: r.last_error,
      lastErrorDate: iso(r.last_error_date),
    });
  }
  return out;
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
  const q = Node.query(knex).where('process_id', processId).orderBy('id');
  if (activityType) q.where('activity_type', activityType);
  return toNodeDTOs(knex, principal, await q);
}

/** The facts the rules compare a draft with: other names, endpoints, referenced rows the caller may use. */
async function ruleContext(
  knex: Knex,
  principal: Principal,
  draft: NodeDraft,
  nodeId: number | null,
): Promise<NodeContext> {
  const others = () =>
    knex('nodes')
      .where('process_id', draft.processId)
      .whereNot('id', nodeId ?? -1);
  const ids = (...refs: ({ id: number } | null | undefined)[]) =>
    refs.flatMap((r) => (r && typeof r.id === 'number' ? [r.id] : []));
  const external = draft.externalConfig?.configType === 'LLM' ? draft.externalConfig : null;
  const modelRefs = ids(draft.llmModel, external?.llmModel);
  const secretRefs = ids(draft.secret, external?.secret);
  const receiverRefs = ids(...(draft.receivers ?? []));
  const [existingNames, endpoints, llmModelIds, secretIds, connections, storedRules, receivers] =
    await Promise.all([
      draft.name ? others().whereRaw('lower(btrim(name)) = lower(btrim(?))', [draft.name]).pluck('name') : [],
      draft.activityType === 'HUP'
        ? others().where('activity_type', 'HUP').select(knex.raw("settings->>'endpoint' as endpoint"))
        : [],
      modelRefs.length ? knex('llm_models').whereIn('id', modelRefs).pluck('id') : [],
      secretRefs.length
        ? knex('secrets').where('process_id', draft.processId).whereIn('id', secretRefs).pluck('id')
        : [],
      nodeId ? knex('sftp_connections').where('node_id', nodeId).pluck('id') : [],
      nodeId ? knex('sftp_transfer_rules').where('node_id', nodeId).pluck('id') : [],
      receiverRefs.length
        ? knex('nodes').whereIn('id', receiverRefs).where('activity_type', 'IPR').select('id', 'process_id')
        : [],
    ]);
  return {
    existingNames,
    otherEndpoints: (endpoints as { endpoint: string | null }[]).flatMap((e) =>
      e.endpoint ? [e.endpoint] : [],
    ),
    llmModelIds,
    secretIds,
    sftpConnectionIds: connections,
    storedRuleIds: storedRules,
    iprNodeIds: (receivers as { id: number; process_id: number }[])
      .filter((r) => modeSatisfies(processMode(principal, r.process_id), 'READ'))
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
    const types: { id: number; name: string; nodeId: number }[] = clfIds.length
      ? await knex('classifier_types')
          .whereIn('node_id', clfIds)
          .orderBy('id')
          .select('id', 'name', 'node_id as nodeId')
      : [];
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

/** Makes the node's transfer rules exactly `rules` (ids null: new rows). */
async function saveTransferRules(
  trx: Knex.Transaction,
  nodeId: number,
  rules: readonly SftpTransferRuleDTO[],
): Promise<void> {
  const keep = rules.flatMap((r) => (r.id ? [r.id] : []));
  await trx('sftp_transfer_rules').where('node_id', nodeId).whereNotIn('id', keep).del();
  for (const r of rules) {
    const row = {
      name: r.name ?? null,
      source_id: r.sourceId,
      target_id: r.targetId ?? null,
      delete_after_transfer: r.deleteAfterTransfer ?? false,
    };
    if (r.id) await trx('sftp_transfer_rules').where({ id: r.id, node_id: nodeId }).update(row);
    else await trx('sftp_transfer_rules').insert({ ...row, node_id: nodeId });
  }
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
      const created = await Node.query(trx).insert(nodeColumns(draft));
      if (draft.activityType === 'SFTP_UPLOAD')
        await saveTransferRules(trx, created.id, draft.sftpTransferRules ?? []);
      return created;
    }),
  );
  return toNodeDTO(knex, principal, (await findNode(knex, node.id))!);
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
      await Node.query(trx).findById(stored.id).patch(nodeColumns(draft));
      if (draft.activityType === 'SFTP_UPLOAD')
        await saveTransferRules(trx, stored.id, draft.sftpTransferRules ?? []);
    }),
  );
  return toNodeDTO(knex, principal, (await findNode(knex, stored.id))!);
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
    await trx('authorities').where({ component_id: node.id, type: 'NODE' }).del();
    await trx('nodes').where('id', node.id).del();
  });
}

export async function saveCoordinates(
  knex: Knex,
  list: readonly NodeCoordinatesDTO[],
): Promise<NodeCoordinatesDTO[]> {
  await knex.transaction(async (trx) => {
    for (const c of list) await trx('nodes').where('id', c.id).update({ x: c.x, y: c.y });
  });
  return list.map((c) => ({ id: c.id, x: c.x, y: c.y }));
}

/** Maps a lost race on the name index to the same field error as the domain rule. */
async function onNameTaken<T>(name: string, write: () => PromiseLike<T>): Promise<T> {
  try {
    return await write();
  } catch (err) {
    if (err instanceof UniqueViolationError && err.constraint === NAME_INDEX) {
      throw fieldErrors('node', [{ field: 'name', violation: nodeNameRule(name, [name])! }]);
    }
    throw err;
  }
}

/** All ancestors of a node, as NodeDTOs in id order. */
export async function previousNodes(knex: Knex, principal: Principal, node: Node): Promise<NodeDTO[]> {
  const graph = await processGraph(knex, node.processId);
  const ids = ancestorsOf(graph, node.id);
  return toNodeDTOs(knex, principal, await findNodes(knex, [...ids]));
}
