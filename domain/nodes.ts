/**
 * Nodes (spec 3 sections 3-5, spec 1 section 5, docs/api-graph.md "NodeDTO" and "Nodes"): the static facts
 * per activity type, the defaults of a new node, the checkbox couplings and the common node rules.
 * Type-specific settings live in ./node-settings.ts, their rules in ./node-settings-rules.ts.
 *
 * Decisions:
 * - Upload types HUP, EMAIL_UPLOAD, SFTP_UPLOAD, GDU_UPLOAD, IPR are sources only (never an edge target).
 *   Edge whitelist: every type -> every non-upload type.
 * - Whitelists: multiprocessed (also the one allowing additionalNodeSubmits) CLF, SPAN, LEXICON;
 *   conditional acceptance CLF, SPAN, LEXICON, FILE_PARSER; custom external and LLM external CLF, SPAN;
 *   trainable CLF, SPAN.
 * - Defaults: automatic for FILE_PARSER, LEXICON, the action types (LLM_PROMPT, SEND_MAIL, SEND_REQUEST,
 *   SEND_TO_GOOGLE_DRIVE, SEND_TO_SFTP, IPS) and the upload types; manual for CLF, SPAN. autoStepStatus
 *   ACCEPTED for upload and action types, WAITING for FILE_PARSER, LEXICON, CLF, SPAN. Priority 2, trigger
 *   ALWAYS, temperature 1 (LLM_PROMPT), supported tagging types ['token'] (SPAN).
 * - Couplings: an external config forces automatic on; a trainable config with automatic on and no external
 *   config forces requiresAcceptance on; requiresAcceptance is cleared on types outside the
 *   conditional-acceptance whitelist. External / trainable configs and additional submits on types outside
 *   their whitelist are field errors (`soaApp.node.settingNotAllowed`).
 * - Additional submits: integers 0..5; an entry with 0 submits and no document is dropped.
 * - Triggers (ALWAYS / CRON / THRESHOLD) belong to the action types; other types are ALWAYS. CRON needs a
 *   cron, THRESHOLD a threshold >= 1; a threshold is kept only with THRESHOLD. An empty cron becomes null.
 * - Name: required, at most 100 characters, textPatternRule, unique in the process ignoring case and
 *   surrounding spaces.
 *
 * Runs inside the document workflow (workflows/document.ts, in the workflow bundle; what it decides there:
 * its whitelists (conditional acceptance, multiprocessed, upload types, trainable)). A change that alters a decision for a running document must be guarded by `patched()` in the
 * workflow and pass the replay suite (tests/replay/replay.test.ts); see docs/architecture.md.
 */
import type { ActivityType } from './enums';
import { ActivityTypes } from './enums';
import {
  ACTION_TYPES,
  AutoStepStatuses,
  TriggerTypes,
  UPLOAD_TYPES,
  WORK_TYPES,
  type AdditionalNodeSubmit,
  type AutoStepStatus,
  type ExternalConfig,
  type NodeDTO,
  type NodePropertiesDTO,
  type NodeSettings,
  type TrainableConfig,
} from './graph-types';
import { DEFAULT_TAGGING_TYPES, mergeSettings, normalizeSettings, SETTINGS_LIMITS } from './node-settings';
import { rangeRule, settingsRules, type FieldViolation, type SettingsContext } from './node-settings-rules';
import { maxLengthRule, TEXT_LIMITS } from './limits';
import { cronRule, textPatternRule, urlRule, type Violation } from './validation';

const types = (...list: readonly ActivityType[]): readonly ActivityType[] => list;

export const UPLOAD_NODE_TYPES = types(...UPLOAD_TYPES);
export const ACTION_NODE_TYPES = types(...ACTION_TYPES);
export const MULTIPROCESSED_WHITELIST = types('CLF', 'SPAN', 'LEXICON');
export const CONDITIONAL_ACCEPTANCE_WHITELIST = types('CLF', 'SPAN', 'LEXICON', 'FILE_PARSER');
export const CUSTOM_EXTERNAL_WHITELIST = types('CLF', 'SPAN');
export const LLM_EXTERNAL_WHITELIST = types('CLF', 'SPAN');
export const TRAINABLE_WHITELIST = types('CLF', 'SPAN');
/** Upload types polled on a schedule (e-mail, SFTP, cloud drive): their last poll shows on the node. */
export const POLLED_UPLOAD_TYPES = types('EMAIL_UPLOAD', 'SFTP_UPLOAD', 'GDU_UPLOAD');
/** Types whose new nodes run automatically. */
export const AUTOMATIC_TYPES = types('FILE_PARSER', 'LEXICON', ...ACTION_TYPES, ...UPLOAD_TYPES);
/** Types with the trigger section (ALWAYS / CRON / THRESHOLD). */
export const TRIGGER_NODE_TYPES = ACTION_NODE_TYPES;

export const isUploadType = (t: ActivityType): boolean => UPLOAD_NODE_TYPES.includes(t);
export const isActionType = (t: ActivityType): boolean => ACTION_NODE_TYPES.includes(t);

export const AUTO_STEP_STATUS_DEFAULTS = Object.fromEntries(
  ActivityTypes.map((t) => [t, (WORK_TYPES as readonly string[]).includes(t) ? 'WAITING' : 'ACCEPTED']),
) as Record<ActivityType, AutoStepStatus>;

/** `{[from type]: allowed target types}`: every type may point at every non-upload type. */
export const EDGE_WHITELIST = Object.fromEntries(
  ActivityTypes.map((t) => [t, ActivityTypes.filter((target) => !isUploadType(target))]),
) as Record<ActivityType, ActivityType[]>;

/** Name of the obligatory HUP node every process starts with. */
export const OBLIGATORY_UPLOAD_NAME = 'Upload';

export const NODE_LIMITS = {
  name: 100,
  priority: { min: 0, max: 4, default: 2 },
  additionalSubmits: { min: 0, max: 5 },
  threshold: { min: 1 },
  trainableThreshold: { min: 10, default: 10 },
} as const;

/** The common fields of a node (everything but the id, the type-specific settings and the access mode). */
export type NodeCommon = Omit<NodeDTO, 'id' | 'accessMode' | keyof NodeSettings>;

/** A node as the API is about to store it: common fields plus the type's settings. */
export type NodeDraft = NodeCommon & NodeSettings;

export function commonDefaults(type: ActivityType): Omit<NodeCommon, 'name' | 'processId'> {
  return {
    description: null,
    activityType: type,
    x: 0,
    y: 0,
    automatic: AUTOMATIC_TYPES.includes(type),
    autoStepStatus: AUTO_STEP_STATUS_DEFAULTS[type],
    obligatory: false,
    mandatory: false,
    requiresAcceptance: false,
    priority: NODE_LIMITS.priority.default,
    handlesRelations: false,
    triggerType: 'ALWAYS',
    cron: null,
    threshold: null,
    externalConfig: null,
    trainableConfig: null,
    additionalNodeSubmits: [],
  };
}

/** The checkbox couplings of spec 3 section 4, applied in the order the panel applies them. */
export function applyCouplings<
  T extends Pick<
    NodeCommon,
    'activityType' | 'automatic' | 'requiresAcceptance' | 'externalConfig' | 'trainableConfig'
  >,
>(node: T): T {
  const out = { ...node };
  if (out.externalConfig) out.automatic = true;
  if (out.trainableConfig && out.automatic && !out.externalConfig) out.requiresAcceptance = true;
  if (!CONDITIONAL_ACCEPTANCE_WHITELIST.includes(out.activityType)) out.requiresAcceptance = false;
  return out;
}

/** Drops the entries that mean nothing: 0 submits without a document. */
export function normalizeAdditionalSubmits(list: readonly AdditionalNodeSubmit[]): AdditionalNodeSubmit[] {
  return list
    .map((e) => ({ docId: e.docId ?? null, submits: e.submits }))
    .filter((e) => !(e.submits === 0 && e.docId === null));
}

/** An empty cron becomes null; surrounding spaces go. */
export const normalizeCron = (cron: string | null | undefined): string | null =>
  cron && cron.trim() ? cron.trim() : null;

const defined = <T extends object>(o: T): Partial<T> =>
  Object.fromEntries(Object.entries(o).filter(([, v]) => v !== undefined)) as Partial<T>;

/**
 * The node to store: defaults of the type, then the stored node (on update), then the input's defined
 * fields; settings restricted to the type's fields; normalized and coupled. The type comes from `type`.
 */
export function buildNodeDraft(
  type: ActivityType,
  input: Record<string, unknown>,
  stored: NodeDraft | null = null,
): NodeDraft {
  const base = { ...commonDefaults(type), ...(stored ?? {}) } as Record<string, unknown>;
  const common = { ...base, ...defined(input), activityType: type } as unknown as NodeCommon;
  const settings = normalizeSettings(mergeSettings(type, input, stored));
  const trigger = isActionType(type) ? common.triggerType : 'ALWAYS';
  const draft: NodeDraft = {
    ...settings,
    ...pickCommon(common),
    name: typeof common.name === 'string' ? common.name.trim() : common.name,
    description: common.description ?? null,
    cron: normalizeCron(common.cron),
    triggerType: trigger,
    threshold: trigger === 'THRESHOLD' ? (common.threshold ?? null) : null,
    additionalNodeSubmits: normalizeAdditionalSubmits(common.additionalNodeSubmits ?? []),
  };
  // Neither flag is the client's to set: the obligatory Upload node is made by the process's creation,
  // and its endpoint is not edited.
  draft.obligatory = stored?.obligatory ?? false;
  if (draft.obligatory && type === 'HUP' && stored) {
    draft.endpoint = stored.endpoint;
    draft.active = stored.active;
  }
  if (type === 'SPAN' && (!draft.supportedTaggingTypes || draft.supportedTaggingTypes.length === 0))
    draft.supportedTaggingTypes = [...DEFAULT_TAGGING_TYPES];
  if (type === 'LLM_PROMPT' && (draft.temperature === null || draft.temperature === undefined))
    draft.temperature = SETTINGS_LIMITS.temperature.default;
  return applyCouplings(draft);
}

const COMMON_KEYS: readonly (keyof NodeCommon)[] = [
  'name',
  'description',
  'activityType',
  'processId',
  'x',
  'y',
  'automatic',
  'autoStepStatus',
  'obligatory',
  'mandatory',
  'requiresAcceptance',
  'priority',
  'handlesRelations',
  'triggerType',
  'cron',
  'threshold',
  'externalConfig',
  'trainableConfig',
  'additionalNodeSubmits',
];

function pickCommon(o: NodeCommon): NodeCommon {
  return Object.fromEntries(COMMON_KEYS.map((k) => [k, o[k]])) as unknown as NodeCommon;
}

// --- rules ---

const REQUIRED: Violation = { code: 'NotBlank', key: 'entity.validation.required' };
const INVALID: Violation = { code: 'Pattern', key: 'entity.validation.pattern' };
const NOT_ALLOWED: Violation = { code: 'Match', key: 'soaApp.node.settingNotAllowed' };
const one = (field: string, violation: Violation | null): FieldViolation[] =>
  violation ? [{ field, violation }] : [];

/** Node name: required, max 100, the text pattern, unique among `existingNames` ignoring case and spaces. */
export function nodeNameRule(
  name: string | null | undefined,
  existingNames: readonly string[] = [],
): Violation | null {
  const v = (name ?? '').trim();
  if (!v) return REQUIRED;
  if (v.length > NODE_LIMITS.name)
    return { code: 'Size', key: 'entity.validation.maxlength', params: { max: NODE_LIMITS.name } };
  const pattern = textPatternRule()(v);
  if (pattern) return pattern;
  const lower = v.toLowerCase();
  if (existingNames.some((e) => e.trim().toLowerCase() === lower))
    return { code: 'NotUnique', key: 'soaApp.node.nameUniquenessError' };
  return null;
}

/** Optional cron of six or seven fields (an empty one is fine: it becomes null). */
export function nodeCronRule(cron: string | null | undefined): Violation | null {
  const v = normalizeCron(cron);
  if (v === null) return null;
  return cronRule(v) ? { code: 'Pattern', key: 'utils.fieldValidation.cronRegexError' } : null;
}

/** Trigger type, its cron (CRON) or threshold >= 1 (THRESHOLD). */
export function triggerRules(node: Pick<NodeCommon, 'triggerType' | 'cron' | 'threshold'>): FieldViolation[] {
  if (!(TriggerTypes as readonly string[]).includes(node.triggerType))
    return [{ field: 'triggerType', violation: INVALID }];
  if (node.triggerType === 'CRON' && !normalizeCron(node.cron))
    return [{ field: 'cron', violation: REQUIRED }];
  if (node.triggerType === 'THRESHOLD') {
    if (node.threshold === null || node.threshold === undefined)
      return [{ field: 'threshold', violation: REQUIRED }];
    return one(
      'threshold',
      rangeRule(node.threshold, NODE_LIMITS.threshold.min, Number.MAX_SAFE_INTEGER, true),
    );
  }
  return [];
}

/** Additional submits: only on multiprocessed types; each submits an integer 0..5. */
export function additionalSubmitsRules(
  type: ActivityType,
  list: readonly AdditionalNodeSubmit[],
): FieldViolation[] {
  if (list.length === 0) return [];
  if (!MULTIPROCESSED_WHITELIST.includes(type))
    return [{ field: 'additionalNodeSubmits', violation: NOT_ALLOWED }];
  const { min, max } = NODE_LIMITS.additionalSubmits;
  return list.flatMap((e, i) =>
    one(`additionalNodeSubmits[${i}].submits`, rangeRule(e.submits, min, max, true)),
  );
}

export interface ExternalConfigContext {
  llmModelIds?: readonly number[];
  secretIds?: readonly number[];
}

/** External config: whitelisted type; CUSTOM needs an http(s) REST URL; LLM needs a model. */
export function externalConfigRules(
  type: ActivityType,
  config: ExternalConfig | null,
  ctx: ExternalConfigContext = {},
): FieldViolation[] {
  if (!config) return [];
  if (config.configType === 'CUSTOM') {
    if (!CUSTOM_EXTERNAL_WHITELIST.includes(type))
      return [{ field: 'externalConfig', violation: NOT_ALLOWED }];
    const url = (config.restApiUrl ?? '').trim();
    if (!url) return [{ field: 'externalConfig.restApiUrl', violation: REQUIRED }];
    return one('externalConfig.restApiUrl', urlRule(url));
  }
  if (config.configType === 'LLM') {
    if (!LLM_EXTERNAL_WHITELIST.includes(type)) return [{ field: 'externalConfig', violation: NOT_ALLOWED }];
    const out: FieldViolation[] = [];
    const modelId = config.llmModel?.id;
    if (modelId === undefined || modelId === null)
      out.push({ field: 'externalConfig.llmModel', violation: REQUIRED });
    else if (ctx.llmModelIds && !ctx.llmModelIds.includes(modelId))
      out.push({ field: 'externalConfig.llmModel', violation: { code: 'Match', key: 'error.idnotfound' } });
    const secretId = config.secret?.id;
    if (secretId !== undefined && secretId !== null && ctx.secretIds && !ctx.secretIds.includes(secretId))
      out.push({ field: 'externalConfig.secret', violation: { code: 'Match', key: 'error.idnotfound' } });
    return out;
  }
  return [{ field: 'externalConfig.configType', violation: INVALID }];
}

/** Trainable config: whitelisted type; threshold >= 10; an http(s) request path when training a model. */
export function trainableConfigRules(type: ActivityType, config: TrainableConfig | null): FieldViolation[] {
  if (!config) return [];
  if (!TRAINABLE_WHITELIST.includes(type)) return [{ field: 'trainableConfig', violation: NOT_ALLOWED }];
  const out = one(
    'trainableConfig.threshold',
    rangeRule(config.threshold, NODE_LIMITS.trainableThreshold.min, Number.MAX_SAFE_INTEGER, true),
  );
  if (config.automaticTraining && (config.model ?? '').trim()) {
    const path = (config.requestPath ?? '').trim();
    out.push(
      ...(path
        ? one('trainableConfig.requestPath', urlRule(path))
        : [{ field: 'trainableConfig.requestPath', violation: REQUIRED }]),
    );
  }
  return out;
}

export interface NodeContext extends SettingsContext, ExternalConfigContext {
  /** Names of the process's other nodes. */
  existingNames?: readonly string[];
}

/** Every rule of a node draft (common and type-specific), as field violations. */
export function nodeRules(draft: NodeDraft, ctx: NodeContext = {}): FieldViolation[] {
  const type = draft.activityType;
  return [
    ...one('name', nodeNameRule(draft.name, ctx.existingNames)),
    ...one('description', maxLengthRule(TEXT_LIMITS.description)(draft.description)),
    ...one('cron', nodeCronRule(draft.cron)),
    ...((AutoStepStatuses as readonly string[]).includes(draft.autoStepStatus)
      ? []
      : [{ field: 'autoStepStatus', violation: INVALID }]),
    ...one('priority', rangeRule(draft.priority, NODE_LIMITS.priority.min, NODE_LIMITS.priority.max, true)),
    ...triggerRules(draft),
    ...additionalSubmitsRules(type, draft.additionalNodeSubmits),
    ...externalConfigRules(type, draft.externalConfig, ctx),
    ...trainableConfigRules(type, draft.trainableConfig),
    ...settingsRules(type, draft, { ...ctx, obligatory: draft.obligatory }),
  ];
}

/** The static per-type facts of GET /api/node-properties. */
export function nodeProperties(): NodePropertiesDTO {
  return {
    activityTypes: [...ActivityTypes],
    uploadTypes: [...UPLOAD_NODE_TYPES],
    actionTypes: [...ACTION_NODE_TYPES],
    automaticTypes: [...AUTOMATIC_TYPES],
    autoStepStatusDefaults: { ...AUTO_STEP_STATUS_DEFAULTS },
    multiprocessedWhitelist: [...MULTIPROCESSED_WHITELIST],
    conditionalAcceptanceWhitelist: [...CONDITIONAL_ACCEPTANCE_WHITELIST],
    customExternalWhitelist: [...CUSTOM_EXTERNAL_WHITELIST],
    llmExternalWhitelist: [...LLM_EXTERNAL_WHITELIST],
    trainableWhitelist: [...TRAINABLE_WHITELIST],
    edgeWhitelist: EDGE_WHITELIST,
    defaults: {
      temperature: SETTINGS_LIMITS.temperature.default,
      priority: NODE_LIMITS.priority.default,
      triggerType: 'ALWAYS',
      supportedTaggingTypes: [...DEFAULT_TAGGING_TYPES],
    },
    limits: {
      additionalSubmitsMin: NODE_LIMITS.additionalSubmits.min,
      additionalSubmitsMax: NODE_LIMITS.additionalSubmits.max,
      temperatureMin: SETTINGS_LIMITS.temperature.min,
      temperatureMax: SETTINGS_LIMITS.temperature.max,
      priorityMin: NODE_LIMITS.priority.min,
      priorityMax: NODE_LIMITS.priority.max,
      thresholdMin: NODE_LIMITS.threshold.min,
      trainableThresholdMin: NODE_LIMITS.trainableThreshold.min,
      nameMaxLength: NODE_LIMITS.name,
    },
  };
}
