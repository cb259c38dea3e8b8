/**
 * Nodes: the full row as the graph editor reads and writes it (`NodeRow`, type-specific fields in the
 * `settings` JSON), a node's identity (`NodeRef`), the fields the document engine runs on (`StepNode`,
 * domain/steps.ts), and the settings the executors and pollers of a node read.
 */
import type { Knex } from 'knex';
import type { ActivityType } from '../../domain/enums';
import type { NodeDTO, NodeSettings } from '../../domain/graph-types';
import { SETTINGS_FIELDS } from '../../domain/node-settings';
import { buildNodeDraft, OBLIGATORY_UPLOAD_NAME, type NodeDraft } from '../../domain/nodes';
import type { StepNode } from '../../domain/steps';
import { only, qualify } from './columns';

/** A node's identity: what access checks and references need. */
export interface NodeRef {
  id: number;
  processId: number;
  name: string;
  activityType: ActivityType;
}

export const NODE_REF_COLUMNS = ['id', 'process_id as processId', 'name', 'activity_type as activityType'];

/** The node fields the step rules and the document workflow read (StepNode). */
export const STEP_NODE_COLUMNS = [
  'id',
  'name',
  'activity_type as activityType',
  'automatic',
  'auto_step_status as autoStepStatus',
  'requires_acceptance as requiresAcceptance',
  'priority',
  'additional_node_submits as additionalNodeSubmits',
];

/** A StepNode row as stored: additional submits may be null. */
export type StepNodeRow = Omit<StepNode, 'additionalNodeSubmits'> & {
  additionalNodeSubmits: StepNode['additionalNodeSubmits'] | null;
};

export const toStepNode = <T extends StepNodeRow>(n: T): T & StepNode => ({
  ...n,
  additionalNodeSubmits: n.additionalNodeSubmits ?? [],
});

/** A node with its schedule and type-specific settings: what the executors and pollers of a node read. */
export interface SettingsNode extends NodeRef {
  cron: string | null;
  settings: NodeSettings;
}

const SETTINGS_NODE_COLUMNS = [...NODE_REF_COLUMNS, 'cron', 'settings'];

const toRef = <T extends NodeRef>(r: T): T => ({ ...r, id: Number(r.id), processId: Number(r.processId) });

export async function nodeRef(knex: Knex, id: number): Promise<NodeRef | undefined> {
  const row: NodeRef | undefined = await knex('nodes').where('id', id).first(NODE_REF_COLUMNS);
  return row && toRef(row);
}

/** Locks a node row until the transaction ends; false when the node is gone. */
export async function lockNode(trx: Knex.Transaction, id: number): Promise<boolean> {
  return Boolean(await trx('nodes').where('id', id).forUpdate().first('id'));
}

/** The nodes of the ids that exist, in no particular order. */
export async function nodeRefs(knex: Knex, ids: readonly number[]): Promise<NodeRef[]> {
  const rows: NodeRef[] = await knex('nodes').whereIn('id', ids).select(NODE_REF_COLUMNS);
  return rows.map(toRef);
}

/** The nodes of a process by id. */
export async function processNodeRefs(knex: Knex, processId: number): Promise<NodeRef[]> {
  return knex('nodes').where('process_id', processId).orderBy('id').select(NODE_REF_COLUMNS);
}

/** The HUP nodes serving an upload endpoint (of one process, or of every process using it), by id. */
export async function endpointNodeRefs(knex: Knex, endpoint: string, processId?: number): Promise<NodeRef[]> {
  const q = knex('nodes')
    .where('activity_type', 'HUP')
    .whereRaw(`settings->>'endpoint' = ?`, [endpoint])
    .orderBy('id')
    .select(NODE_REF_COLUMNS);
  if (processId !== undefined) q.where('process_id', processId);
  return q;
}

/** The obligatory Upload node of a process. */
export async function obligatoryUploadNode(knex: Knex, processId: number): Promise<NodeRef | undefined> {
  return knex('nodes')
    .where({ process_id: processId, activity_type: 'HUP', obligatory: true })
    .first(NODE_REF_COLUMNS);
}

/** The nodes of a process by id, as the document engine reads them. */
export async function processStepNodes(knex: Knex, processId: number): Promise<StepNode[]> {
  const rows: StepNodeRow[] = await knex('nodes')
    .where('process_id', processId)
    .orderBy('id')
    .select(STEP_NODE_COLUMNS);
  return rows.map(toStepNode);
}

/** The nodes of a process whose automatic training is on (the engine asks `maybeTrainNode` about them only). */
export async function automaticTrainingNodeIds(knex: Knex, processId: number): Promise<number[]> {
  const ids: (string | number)[] = await knex('nodes')
    .where('process_id', processId)
    .whereRaw(`(trainable_config ->> 'automaticTraining')::boolean`)
    .orderBy('id')
    .pluck('id');
  return ids.map(Number);
}

export async function settingsNode(knex: Knex, id: number): Promise<SettingsNode | undefined> {
  const row: SettingsNode | undefined = await knex('nodes').where('id', id).first(SETTINGS_NODE_COLUMNS);
  return row && { ...toRef(row), cron: row.cron ?? null, settings: (row.settings ?? {}) as NodeSettings };
}

// --- the full node (the graph editor's) ---

/** A step of a process graph as stored: the DTO's common fields, type-specific ones in `settings` (JSON). */
export type NodeRow = Omit<NodeDTO, keyof NodeSettings | 'accessMode' | 'pollerStatus'> & {
  settings: NodeSettings;
  createdDate: Date;
};

const NODE_COLUMNS = [
  'id',
  'process_id as processId',
  'name',
  'description',
  'activity_type as activityType',
  'x',
  'y',
  'automatic',
  'auto_step_status as autoStepStatus',
  'obligatory',
  'mandatory',
  'requires_acceptance as requiresAcceptance',
  'priority',
  'handles_relations as handlesRelations',
  'trigger_type as triggerType',
  'cron',
  'threshold',
  'external_config as externalConfig',
  'trainable_config as trainableConfig',
  'additional_node_submits as additionalNodeSubmits',
  'settings',
  'created_date as createdDate',
];

const json = (v: unknown) => (v === null || v === undefined ? null : JSON.stringify(v));

/** The columns of a node to insert or update, from a domain draft (settings split off into `settings`). */
function draftColumns(draft: NodeDraft) {
  const settings: Record<string, unknown> = {};
  for (const field of SETTINGS_FIELDS[draft.activityType]) {
    // Transfer rules have their own table.
    if (field !== 'sftpTransferRules') settings[field] = draft[field] ?? null;
  }
  return {
    process_id: draft.processId,
    name: draft.name,
    description: draft.description,
    activity_type: draft.activityType,
    x: draft.x,
    y: draft.y,
    automatic: draft.automatic,
    auto_step_status: draft.autoStepStatus,
    obligatory: draft.obligatory,
    mandatory: draft.mandatory,
    requires_acceptance: draft.requiresAcceptance,
    priority: draft.priority,
    handles_relations: draft.handlesRelations,
    trigger_type: draft.triggerType,
    cron: draft.cron,
    threshold: draft.threshold,
    external_config: json(draft.externalConfig),
    trainable_config: json(draft.trainableConfig),
    additional_node_submits: json(draft.additionalNodeSubmits),
    settings: json(settings),
  };
}

const toNodeRow = (r: NodeRow): NodeRow => ({ ...r, id: Number(r.id), processId: Number(r.processId) });

export async function nodeById(knex: Knex, id: number): Promise<NodeRow | undefined> {
  const row: NodeRow | undefined = await knex('nodes').where('id', id).first(NODE_COLUMNS);
  return row && toNodeRow(row);
}

/** The nodes of the ids that exist, by id. */
export async function nodesByIds(knex: Knex, ids: readonly number[]): Promise<NodeRow[]> {
  if (ids.length === 0) return [];
  const rows: NodeRow[] = await knex('nodes')
    .whereIn('id', [...new Set(ids)])
    .orderBy('id')
    .select(NODE_COLUMNS);
  return rows.map(toNodeRow);
}

/** The nodes of a process (of one type when given), by id. */
export async function processNodes(
  knex: Knex,
  processId: number,
  activityType?: ActivityType,
): Promise<NodeRow[]> {
  const q = knex('nodes').where('process_id', processId).orderBy('id').select(NODE_COLUMNS);
  if (activityType) q.where('activity_type', activityType);
  return (await q).map(toNodeRow);
}

/** Inserts a node from a draft; its id. A name the process has already fails with the unique violation. */
export async function insertNode(knex: Knex, draft: NodeDraft, obligatory = false): Promise<number> {
  const [row] = await knex('nodes')
    .insert({ ...draftColumns(draft), ...(obligatory ? { obligatory: true } : {}) })
    .returning('id');
  return Number(row.id);
}

export async function updateNodeRow(knex: Knex, id: number, draft: NodeDraft): Promise<void> {
  await knex('nodes').where('id', id).update(draftColumns(draft));
}

/** The obligatory HUP node every process starts with: "Upload" at (0, 0), a random endpoint, active. */
export async function insertObligatoryUploadNode(knex: Knex, processId: number): Promise<NodeRow> {
  const draft = buildNodeDraft('HUP', { name: OBLIGATORY_UPLOAD_NAME, processId, x: 0, y: 0 });
  return (await nodeById(knex, await insertNode(knex, draft, true)))!;
}

/** Deletes a node with its NODE authorities (its edges, predicates and the rows of its settings cascade). */
export async function deleteNodeRow(knex: Knex, id: number): Promise<void> {
  await knex('authorities').where({ component_id: id, type: 'NODE' }).del();
  await knex('nodes').where('id', id).del();
}

export async function setNodeCoordinates(knex: Knex, id: number, x: number, y: number): Promise<void> {
  await knex('nodes').where('id', id).update({ x, y });
}

/** Names of the process's nodes but `exceptId` that collide with `name` (case and surrounding spaces ignored). */
export async function collidingNodeNames(
  knex: Knex,
  processId: number,
  exceptId: number | null,
  name: string,
): Promise<string[]> {
  return knex('nodes')
    .where('process_id', processId)
    .whereNot('id', exceptId ?? -1)
    .whereRaw('lower(btrim(name)) = lower(btrim(?))', [name])
    .pluck('name');
}

/** The endpoints of the process's HUP nodes but `exceptId`. */
export async function hupEndpoints(
  knex: Knex,
  processId: number,
  exceptId: number | null,
): Promise<string[]> {
  const rows: { endpoint: string | null }[] = await knex('nodes')
    .where('process_id', processId)
    .whereNot('id', exceptId ?? -1)
    .where('activity_type', 'HUP')
    .select(knex.raw("settings->>'endpoint' as endpoint"));
  return rows.flatMap((e) => (e.endpoint ? [e.endpoint] : []));
}

/** The IPR nodes among the ids, with their process. */
export async function iprNodes(
  knex: Knex,
  ids: readonly number[],
): Promise<{ id: number; processId: number }[]> {
  if (!ids.length) return [];
  const rows: { id: number; processId: number }[] = await knex('nodes')
    .whereIn('id', [...ids])
    .where('activity_type', 'IPR')
    .select('id', 'process_id as processId');
  return rows.map((r) => ({ id: Number(r.id), processId: Number(r.processId) }));
}

/** Whether each of the nodes is mandatory, by id. */
export async function mandatoryOfNodes(knex: Knex, ids: readonly number[]): Promise<Map<number, boolean>> {
  const rows: { id: number; mandatory: boolean }[] = ids.length
    ? await knex('nodes')
        .whereIn('id', [...ids])
        .select('id', 'mandatory')
    : [];
  return new Map(rows.map((r) => [Number(r.id), r.mandatory]));
}

// --- schedules (server/schedules.ts) ---

/** What a node's schedules are made of. */
export interface NodeScheduleRow {
  id: number;
  activity_type: string;
  trigger_type: string | null;
  cron: string | null;
  settings: { active?: boolean } | null;
}

export async function nodeSchedule(knex: Knex, id: number): Promise<NodeScheduleRow | undefined> {
  return knex('nodes').where('id', id).first('id', 'activity_type', 'trigger_type', 'cron', 'settings');
}

/** The nodes that may have a schedule: polled upload nodes (of `polledTypes`) and nodes with a cron. */
export async function scheduledNodeIds(knex: Knex, polledTypes: readonly ActivityType[]): Promise<number[]> {
  const ids = await knex('nodes')
    .where((q) => q.whereIn('activity_type', [...polledTypes]).orWhereNotNull('cron'))
    .pluck('id');
  return ids.map(Number);
}

/** The ids among `ids` of nodes of the process. */
export async function nodeIdsOfProcess(
  knex: Knex,
  processId: number,
  ids: readonly number[],
): Promise<number[]> {
  if (!ids.length) return [];
  return (
    await knex('nodes')
      .where('process_id', processId)
      .whereIn('id', [...ids])
      .pluck('id')
  ).map(Number);
}

/** The IPR nodes (of the given processes, or of all) with their process's name, by process then id. */
export async function receiverNodes(
  knex: Knex,
  processIds: readonly number[] | null,
): Promise<{ id: number; name: string; processId: number; processName: string }[]> {
  const q = knex('nodes as n')
    .join('processes as p', 'p.id', 'n.process_id')
    .where('n.activity_type', 'IPR')
    .orderBy([{ column: 'p.id' }, { column: 'n.id' }])
    .select([...qualify('n', only(NODE_REF_COLUMNS, 'id', 'name', 'processId')), 'p.name as processName']);
  if (processIds) q.whereIn('n.process_id', [...processIds]);
  return q;
}

/** The trigger of an action node (ALWAYS when none is set); undefined when the node is gone. */
export async function nodeTrigger(
  knex: Knex,
  id: number,
): Promise<{ type: 'ALWAYS' | 'CRON' | 'THRESHOLD'; threshold: number | null } | undefined> {
  const row = await knex('nodes').where('id', id).first('trigger_type', 'threshold');
  return (
    row && {
      type: row.trigger_type ?? 'ALWAYS',
      threshold: row.threshold === null ? null : Number(row.threshold),
    }
  );
}

/** The node's type and trainable configuration; undefined when the node is gone. */
export async function trainableConfigRow(
  knex: Knex,
  id: number,
): Promise<
  { id: number; processId: number; activityType: ActivityType; trainableConfig: unknown } | undefined
> {
  const row = await knex('nodes')
    .where('id', id)
    .first('id', 'process_id', 'activity_type', 'trainable_config');
  return (
    row && {
      id: Number(row.id),
      processId: Number(row.process_id),
      activityType: row.activity_type,
      trainableConfig: row.trainable_config,
    }
  );
}

/** The node's external model configuration (null when none). */
export async function externalConfigOf(knex: Knex, id: number): Promise<unknown> {
  const row = await knex('nodes').where('id', id).first('external_config');
  return row?.external_config ?? null;
}

/** Of the nodes, those whose annotators see each other's tags after submitting (`annotatorsSeeEachOther`). */
export async function nodesWhereAnnotatorsSeeEachOther(
  knex: Knex,
  ids: readonly number[],
): Promise<Set<number>> {
  if (!ids.length) return new Set();
  const rows: { id: number | string }[] = await knex('nodes')
    .whereIn('id', [...ids])
    .whereRaw(`(settings->>'annotatorsSeeEachOther')::boolean is true`)
    .select('id');
  return new Set(rows.map((r) => Number(r.id)));
}
