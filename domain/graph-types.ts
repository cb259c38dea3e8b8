/**
 * Payload types of the process graph (docs/api-graph.md: NodeDTO, edges, predicates, node properties).
 * Shared by the API and the web app.
 *
 * In the workflow bundle (imported through domain/nodes.ts; no workflow decision depends on it): keep it free
 * of I/O, clocks and randomness, and a change that would reach a workflow decision follows the `patched()` rule
 * of domain/steps.ts.
 */
import type { AccessMode, ActivityType } from './enums';

export const UPLOAD_TYPES = ['HUP', 'EMAIL_UPLOAD', 'SFTP_UPLOAD', 'GDU_UPLOAD', 'IPR'] as const;
export type UploadType = (typeof UPLOAD_TYPES)[number];

export const ACTION_TYPES = [
  'SEND_MAIL',
  'SEND_REQUEST',
  'SEND_TO_GOOGLE_DRIVE',
  'SEND_TO_SFTP',
  'IPS',
  'LLM_PROMPT',
] as const;
export type ActionType = (typeof ACTION_TYPES)[number];

/** Node types that are document steps awaiting people or a model (WAITING by default). */
export const WORK_TYPES = ['FILE_PARSER', 'CLF', 'SPAN', 'LEXICON'] as const;

export const AutoStepStatuses = ['WAITING', 'DONE', 'ACCEPTED'] as const;
export type AutoStepStatus = (typeof AutoStepStatuses)[number];

export const TriggerTypes = ['ALWAYS', 'CRON', 'THRESHOLD'] as const;
export type TriggerType = (typeof TriggerTypes)[number];

export const MailTypes = ['DO', 'DW', 'UDW'] as const;
export type MailType = (typeof MailTypes)[number];

export const HttpRequestMethods = ['GET', 'POST', 'PUT', 'PATCH', 'DELETE'] as const;
export type HttpRequestMethod = (typeof HttpRequestMethods)[number];

export const BodyTypes = ['JSON', 'PLAIN_TEXT'] as const;
export type BodyType = (typeof BodyTypes)[number];

export const TaggingTypes = ['token', 'timespan', 'text'] as const;
export type TaggingType = (typeof TaggingTypes)[number];

export const PredicateTypes = ['COMPLEX', 'CLF', 'NER'] as const;
export type PredicateType = (typeof PredicateTypes)[number];

export const LogicalOperators = ['AND', 'OR'] as const;
export type LogicalOperator = (typeof LogicalOperators)[number];

/** Placeholder the API sends instead of a stored password; sending it (or null) back means "unchanged". */
export const MASKED_PASSWORD = '**********';

export interface IdRef {
  id: number;
}

export interface CustomExternalConfig {
  configType: 'CUSTOM';
  model: string | null;
  restApiUrl: string | null;
  restApiUrlEditorState?: string | null;
}
export interface LlmExternalConfig {
  configType: 'LLM';
  llmModel: IdRef | null;
  secret: IdRef | null;
}
export type ExternalConfig = CustomExternalConfig | LlmExternalConfig;

export interface TrainableConfig {
  model: string | null;
  requestPath: string | null;
  automaticTraining: boolean;
  threshold: number;
}

export interface AdditionalNodeSubmit {
  docId: number | null;
  submits: number;
}

export interface MailReceiver {
  /** Negative = temporary id of a new receiver (dropped on save). */
  id: number | null;
  email: string;
  type: MailType;
}

export interface HeaderValue {
  value: string;
  editorState?: string | null;
}

export interface RequestBody {
  bodyType: BodyType | null;
  jsonBody?: Record<string, HeaderValue> | null;
  plainTextBody?: string | null;
  plainTextBodyEditorState?: string | null;
}

export interface ReceiverRef {
  id: number;
  name?: string;
  processId?: number;
}

export interface SftpTransferRuleDTO {
  /** Negative = temporary id of a new rule (inserted on save). */
  id: number | null;
  name: string | null;
  sourceId: number;
  targetId: number | null;
  deleteAfterTransfer: boolean;
}

/** Type-specific fields (spec 3 section 3); present for their node types only. */
export interface NodeSettings {
  supportedTaggingTypes?: TaggingType[];
  /** SPAN: the relation menu offers only the candidates of the top priority (domain/relations.ts). */
  relationPriorityMode?: boolean;
  /**
   * CLF, SPAN, LEXICON with several steps per document: an annotator sees the others' tags once their own step
   * is finished (domain/blind-annotation.ts); false by default (blind).
   */
  annotatorsSeeEachOther?: boolean;
  llmModel?: IdRef | null;
  secret?: IdRef | null;
  prompt?: string | null;
  promptEditorState?: string | null;
  temperature?: number | null;
  attachFile?: boolean;
  endpoint?: string | null;
  active?: boolean;
  smtpHost?: string | null;
  smtpPort?: number | null;
  username?: string | null;
  subject?: string | null;
  template?: string | null;
  templateEditorState?: string | null;
  mailReceivers?: MailReceiver[];
  httpRequestMethod?: HttpRequestMethod | null;
  url?: string | null;
  urlEditorState?: string | null;
  headers?: Record<string, HeaderValue>;
  requestBody?: RequestBody | null;
  fileContent?: string | null;
  fileContentEditorState?: string | null;
  preferredFilename?: string | null;
  preferredFilenameEditorState?: string | null;
  sftpConnection?: IdRef | null;
  payload?: string | null;
  payloadEditorState?: string | null;
  preferredDocName?: string | null;
  preferredDocNameEditorState?: string | null;
  receivers?: ReceiverRef[];
  sftpTransferRules?: SftpTransferRuleDTO[];
}

export interface NodeDTO extends NodeSettings {
  id: number;
  name: string;
  description: string | null;
  activityType: ActivityType;
  processId: number;
  x: number;
  y: number;
  automatic: boolean;
  autoStepStatus: AutoStepStatus;
  obligatory: boolean;
  mandatory: boolean;
  requiresAcceptance: boolean;
  priority: number;
  handlesRelations: boolean;
  triggerType: TriggerType;
  cron: string | null;
  threshold: number | null;
  externalConfig: ExternalConfig | null;
  trainableConfig: TrainableConfig | null;
  additionalNodeSubmits: AdditionalNodeSubmit[];
  /** The caller's access mode on the node (derived; ignored on input). */
  accessMode: AccessMode | null;
  /** E-mail, SFTP and cloud-drive upload nodes: their last poll (derived; ignored on input). */
  pollerStatus?: PollerStatusDTO | null;
}

/** The last poll of an upload node: when, how many documents, and the last error with its time. */
export interface PollerStatusDTO {
  lastRunDate: string | null;
  lastSuccessDate: string | null;
  lastImported: number;
  lastError: string | null;
  lastErrorDate: string | null;
}

/** Body of POST /api/nodes: a NodeDTO without id; omitted common fields take the per-type defaults. */
export type NodeInput = Partial<Omit<NodeDTO, 'id' | 'accessMode'>> & {
  id?: number | null;
  name: string;
  activityType: ActivityType;
  processId: number;
};

export interface NodeCoordinatesDTO {
  id: number;
  x: number;
  y: number;
}

export interface EdgeDTO {
  id: number;
  fromId: number;
  toId: number;
  processId: number;
}

export interface PredicateDTO {
  id: number;
  edgeId: number;
  parentId: number | null;
  predicateType: PredicateType;
  logicalOperator: LogicalOperator | null;
  nodeId: number | null;
  nodeName: string | null;
  equal: boolean;
  clfTypeId: number | null;
  clfTypeName: string | null;
  nerTagTypeId: number | null;
  nerTagTypeName: string | null;
  predicates: PredicateDTO[];
}

/** Body of POST / PUT /api/predicates (names and children are ignored on input). */
export interface PredicateInput {
  id?: number | null;
  edgeId: number;
  parentId?: number | null;
  predicateType: PredicateType;
  logicalOperator?: LogicalOperator | null;
  nodeId?: number | null;
  equal?: boolean;
  clfTypeId?: number | null;
  nerTagTypeId?: number | null;
}

/** `{[activityType]: allowed follow-up activity types}` (GET /api/edges/whitelist). */
export type EdgeWhitelist = Record<ActivityType, ActivityType[]>;

/** GET /api/node-properties: the static per-type facts the UI needs, in one call. */
export interface NodePropertiesDTO {
  activityTypes: ActivityType[];
  uploadTypes: ActivityType[];
  actionTypes: ActivityType[];
  /** Types whose new nodes are automatic by default. */
  automaticTypes: ActivityType[];
  autoStepStatusDefaults: Record<ActivityType, AutoStepStatus>;
  multiprocessedWhitelist: ActivityType[];
  conditionalAcceptanceWhitelist: ActivityType[];
  customExternalWhitelist: ActivityType[];
  llmExternalWhitelist: ActivityType[];
  trainableWhitelist: ActivityType[];
  edgeWhitelist: EdgeWhitelist;
  defaults: {
    temperature: number;
    priority: number;
    triggerType: TriggerType;
    supportedTaggingTypes: TaggingType[];
  };
  limits: {
    additionalSubmitsMin: number;
    additionalSubmitsMax: number;
    temperatureMin: number;
    temperatureMax: number;
    priorityMin: number;
    priorityMax: number;
    thresholdMin: number;
    trainableThresholdMin: number;
    nameMaxLength: number;
  };
}
