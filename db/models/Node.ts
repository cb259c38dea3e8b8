import type { ActivityType } from '../../domain/enums';
import type {
  AdditionalNodeSubmit,
  AutoStepStatus,
  ExternalConfig,
  NodeSettings,
  TrainableConfig,
  TriggerType,
} from '../../domain/graph-types';
import type { Knex } from 'knex';
import { buildNodeDraft, OBLIGATORY_UPLOAD_NAME, type NodeDraft } from '../../domain/nodes';
import { SETTINGS_FIELDS } from '../../domain/node-settings';
import { BaseModel } from './Base';

/** A step of a process graph; type-specific fields live in `settings` (JSON). */
export class Node extends BaseModel {
  static override tableName = 'nodes';
  static override get jsonAttributes() {
    return ['externalConfig', 'trainableConfig', 'additionalNodeSubmits', 'settings'];
  }
  id!: number;
  processId!: number;
  name!: string;
  description!: string | null;
  activityType!: ActivityType;
  x!: number;
  y!: number;
  automatic!: boolean;
  autoStepStatus!: AutoStepStatus;
  obligatory!: boolean;
  mandatory!: boolean;
  requiresAcceptance!: boolean;
  priority!: number;
  handlesRelations!: boolean;
  triggerType!: TriggerType;
  cron!: string | null;
  threshold!: number | null;
  externalConfig!: ExternalConfig | null;
  trainableConfig!: TrainableConfig | null;
  additionalNodeSubmits!: AdditionalNodeSubmit[];
  settings!: NodeSettings;
  createdDate!: Date;
}

/** The columns of a node to insert or update, from a domain draft (settings split off into `settings`). */
export function nodeColumns(draft: NodeDraft): Partial<Node> {
  const settings: Record<string, unknown> = {};
  for (const field of SETTINGS_FIELDS[draft.activityType]) {
    // Transfer rules have their own table.
    if (field !== 'sftpTransferRules') settings[field] = draft[field] ?? null;
  }
  return {
    processId: draft.processId,
    name: draft.name,
    description: draft.description,
    activityType: draft.activityType,
    x: draft.x,
    y: draft.y,
    automatic: draft.automatic,
    autoStepStatus: draft.autoStepStatus,
    obligatory: draft.obligatory,
    mandatory: draft.mandatory,
    requiresAcceptance: draft.requiresAcceptance,
    priority: draft.priority,
    handlesRelations: draft.handlesRelations,
    triggerType: draft.triggerType,
    cron: draft.cron,
    threshold: draft.threshold,
    externalConfig: draft.externalConfig,
    trainableConfig: draft.trainableConfig,
    additionalNodeSubmits: draft.additionalNodeSubmits,
    settings: settings as NodeSettings,
  };
}

/** The obligatory HUP node every process starts with: "Upload" at (0, 0), a random endpoint, active. */
export async function insertObligatoryUploadNode(knex: Knex, processId: number): Promise<Node> {
  const draft = buildNodeDraft('HUP', { name: OBLIGATORY_UPLOAD_NAME, processId, x: 0, y: 0 });
  return Node.query(knex).insert({ ...nodeColumns(draft), obligatory: true });
}
