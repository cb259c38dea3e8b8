/**
 * Nodes as the API and the worker read them apart from the full node (db/models/Node.ts): a node's identity
 * (`NodeRef`), the fields the document engine runs on (`StepNode`, domain/steps.ts), and the settings the
 * executors and pollers of a node read.
 */
import type { Knex } from 'knex';
import type { ActivityType } from '../../domain/enums';
import type { NodeSettings } from '../../domain/graph-types';
import type { StepNode } from '../../domain/steps';

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
