/**
 * Type-specific node settings (spec 3 sections 3 and 5): which fields each activity type has, their
 * defaults, and one rule per spec rule. A rule returns FieldViolation[] (empty when valid) with the field
 * path the API reports and the forms highlight. The API stores these fields in `nodes.settings` (SFTP
 * transfer rules in their own table) and flattens them into the NodeDTO.
 *
 * Decisions:
 * - Creating a node (POST) is lenient: a setting that is missing is not reported (the add-node modal only
 *   asks for a type and a name); a setting that is given is checked. Saving a node (PUT) checks everything.
 * - The obligatory HUP node keeps its endpoint and active flag (its panel is not shown).
 * - Negative ids of new mail receivers and transfer rules are temporary: normalizeSettings makes them null.
 * - A string setting sent back as the masked placeholder '**********' keeps the stored value.
 */
import type { ActivityType } from './enums';
import {
  BodyTypes,
  HttpRequestMethods,
  MailTypes,
  MASKED_PASSWORD,
  TaggingTypes,
  type NodeSettings,
} from './graph-types';
import {
  domainOrIpRule,
  identifierRule,
  simpleEmailRule,
  textLengthRule,
  type Violation,
} from './validation';

export interface FieldViolation {
  field: string;
  violation: Violation;
}

export type SettingsField = keyof NodeSettings;

const CONTENT_FIELDS: SettingsField[] = [
  'fileContent',
  'fileContentEditorState',
  'preferredFilename',
  'preferredFilenameEditorState',
];

/** The type-specific fields each activity type has (present in its NodeDTO, absent from the others). */
export const SETTINGS_FIELDS: Record<ActivityType, readonly SettingsField[]> = {
  HUP: ['endpoint', 'active'],
  FILE_PARSER: [],
  CLF: [],
  EMAIL_UPLOAD: [],
  SFTP_UPLOAD: ['sftpTransferRules'],
  GDU_UPLOAD: ['active'],
  SPAN: ['supportedTaggingTypes'],
  LEXICON: [],
  LLM_PROMPT: ['llmModel', 'secret', 'prompt', 'promptEditorState', 'temperature', 'attachFile'],
  IPS: ['payload', 'payloadEditorState', 'preferredDocName', 'preferredDocNameEditorState', 'receivers'],
  IPR: [],
  SEND_TO_GOOGLE_DRIVE: CONTENT_FIELDS,
  SEND_MAIL: [
    'smtpHost',
    'smtpPort',
    'username',
    'secret',
    'subject',
    'template',
    'templateEditorState',
    'mailReceivers',
  ],
  SEND_REQUEST: ['httpRequestMethod', 'url', 'urlEditorState', 'headers', 'requestBody'],
  SEND_TO_SFTP: [...CONTENT_FIELDS, 'sftpConnection'],
};

export const SETTINGS_LIMITS = {
  temperature: { min: 0, max: 2, default: 1 },
  smtpPort: { min: 1, max: 65535 },
  endpoint: { min: 3, max: 64 },
  transferRuleName: 100,
} as const;

export const DEFAULT_TAGGING_TYPES = ['token'] as const;

/** Characters allowed in a preferred file name (wildcards `${...}` included); a single line. */
export const FILENAME_PATTERN = /^[A-Za-z0-9 ._()${}-]+$/;

/** A random HTTP-upload endpoint: 16 characters of [a-z0-9]. */
export function randomEndpoint(): string {
  const alphabet = 'abcdefghijklmnopqrstuvwxyz0123456789';
  const bytes = new Uint8Array(16);
  globalThis.crypto.getRandomValues(bytes);
  return [...bytes].map((b) => alphabet[b % alphabet.length]).join('');
}

/** Default values of a type's settings for a new node. */
export function defaultSettings(type: ActivityType): NodeSettings {
  const defaults: NodeSettings = {};
  for (const field of SETTINGS_FIELDS[type]) (defaults as Record<string, unknown>)[field] = null;
  switch (type) {
    case 'HUP':
      return { ...defaults, endpoint: randomEndpoint(), active: true };
    case 'GDU_UPLOAD':
      return { ...defaults, active: true };
    case 'SPAN':
      return { ...defaults, supportedTaggingTypes: [...DEFAULT_TAGGING_TYPES] };
    case 'LLM_PROMPT':
      return { ...defaults, temperature: SETTINGS_LIMITS.temperature.default, attachFile: false };
    case 'SEND_MAIL':
      return { ...defaults, mailReceivers: [] };
    case 'SEND_REQUEST':
      return { ...defaults, headers: {} };
    case 'IPS':
      return { ...defaults, receivers: [] };
    case 'SFTP_UPLOAD':
      return { ...defaults, sftpTransferRules: [] };
    default:
      return defaults;
  }
}

/** Keeps the type's fields only; masked or absent values fall back to `stored`, then to the defaults. */
export function mergeSettings(
  type: ActivityType,
  input: Record<string, unknown>,
  stored: NodeSettings | null,
): NodeSettings {
  const base: Record<string, unknown> = { ...defaultSettings(type), ...(stored ?? {}) };
  const out: Record<string, unknown> = {};
  for (const field of SETTINGS_FIELDS[type]) {
    const value = input[field];
    out[field] = value === undefined || value === MASKED_PASSWORD ? base[field] : value;
  }
  return out as NodeSettings;
}

/** Negative (temporary) ids of new mail receivers and transfer rules become null. */
export function normalizeSettings(settings: NodeSettings): NodeSettings {
  const out = { ...settings };
  if (out.mailReceivers) {
    out.mailReceivers = out.mailReceivers.map((r) => ({ ...r, id: r.id !== null && r.id > 0 ? r.id : null }));
  }
  if (out.sftpTransferRules) {
    out.sftpTransferRules = out.sftpTransferRules.map((r) => ({
      ...r,
      id: r.id !== null && r.id > 0 ? r.id : null,
      targetId: r.targetId ?? null,
      deleteAfterTransfer: r.deleteAfterTransfer ?? false,
    }));
  }
  return out;
}

// --- rule helpers ---

const REQUIRED: Violation = { code: 'NotBlank', key: 'entity.validation.required' };
const INVALID: Violation = { code: 'Pattern', key: 'entity.validation.pattern' };
const NOT_FOUND: Violation = { code: 'Match', key: 'error.idnotfound' };
const min = (value: number): Violation => ({
  code: 'Size',
  key: 'entity.validation.min',
  params: { min: value },
});
const max = (value: number): Violation => ({
  code: 'Size',
  key: 'entity.validation.max',
  params: { max: value },
});

const blank = (v: unknown) => v === null || v === undefined || (typeof v === 'string' && v.trim() === '');
const one = (field: string, violation: Violation | null): FieldViolation[] =>
  violation ? [{ field, violation }] : [];

/** Options of the checks: `partial` (creation) skips the "required" checks of missing values. */
export interface SettingsCheck {
  partial?: boolean;
}

function required(field: string, value: unknown, opts: SettingsCheck): FieldViolation[] {
  return blank(value) && !opts.partial ? [{ field, violation: REQUIRED }] : [];
}

/** A number within [lo, hi] (integers only when `integer`). */
export function rangeRule(value: number, lo: number, hi: number, integer = false): Violation | null {
  if (typeof value !== 'number' || Number.isNaN(value) || (integer && !Number.isInteger(value)))
    return INVALID;
  if (value < lo) return min(lo);
  if (value > hi) return max(hi);
  return null;
}

/** Reference to a row known to the caller (`known` undefined: not checked). */
function refRule(
  field: string,
  ref: { id: number } | null | undefined,
  known: readonly number[] | undefined,
): FieldViolation[] {
  if (!ref || known === undefined) return [];
  return known.includes(ref.id) ? [] : [{ field, violation: NOT_FOUND }];
}

// --- LLM prompt ---

export interface LlmPromptContext extends SettingsCheck {
  llmModelIds?: readonly number[];
  secretIds?: readonly number[];
}

export function llmPromptRules(s: NodeSettings, ctx: LlmPromptContext = {}): FieldViolation[] {
  return [
    ...required('llmModel', s.llmModel?.id, ctx),
    ...refRule('llmModel', s.llmModel, ctx.llmModelIds),
    ...refRule('secret', s.secret, ctx.secretIds),
    ...required('prompt', s.prompt, ctx),
    ...temperatureRule(s.temperature),
  ];
}

/** Temperature 0..2 (null takes the default 1). */
export function temperatureRule(value: number | null | undefined): FieldViolation[] {
  if (value === null || value === undefined) return [];
  const { min: lo, max: hi } = SETTINGS_LIMITS.temperature;
  return one('temperature', rangeRule(value, lo, hi));
}

// --- send mail ---

export interface MailContext extends SettingsCheck {
  secretIds?: readonly number[];
}

export function sendMailRules(s: NodeSettings, ctx: MailContext = {}): FieldViolation[] {
  return [
    ...smtpHostRule(s.smtpHost, ctx),
    ...smtpPortRule(s.smtpPort, ctx),
    ...required('username', s.username, ctx),
    ...refRule('secret', s.secret, ctx.secretIds),
    ...required('subject', s.subject, ctx),
    ...required('template', s.template, ctx),
    ...mailReceiversRule(s.mailReceivers ?? []),
  ];
}

export function smtpHostRule(host: string | null | undefined, opts: SettingsCheck = {}): FieldViolation[] {
  if (blank(host)) return required('smtpHost', host, opts);
  return one('smtpHost', domainOrIpRule(host!.trim()));
}

export function smtpPortRule(port: number | null | undefined, opts: SettingsCheck = {}): FieldViolation[] {
  if (port === null || port === undefined) return required('smtpPort', port, opts);
  return one('smtpPort', rangeRule(port, SETTINGS_LIMITS.smtpPort.min, SETTINGS_LIMITS.smtpPort.max, true));
}

/** Each receiver needs an e-mail (simple local@domain) and a mail type DO, DW or UDW. */
export function mailReceiversRule(receivers: NodeSettings['mailReceivers'] & object): FieldViolation[] {
  return receivers.flatMap((r, i) => [
    ...(blank(r.email)
      ? [{ field: `mailReceivers[${i}].email`, violation: REQUIRED }]
      : one(`mailReceivers[${i}].email`, simpleEmailRule(r.email.trim()))),
    ...(blank(r.type)
      ? [{ field: `mailReceivers[${i}].type`, violation: REQUIRED }]
      : (MailTypes as readonly string[]).includes(r.type)
        ? []
        : [{ field: `mailReceivers[${i}].type`, violation: INVALID }]),
  ]);
}

// --- send request ---

/** URL of a request: http(s)://... or a leading wildcard such as `${document.url}`. */
export function requestUrlRule(url: string | null | undefined, opts: SettingsCheck = {}): FieldViolation[] {
  if (blank(url)) return required('url', url, opts);
  const v = url!.trim();
  return v.startsWith('${') || /^https?:\/\/\S+$/i.test(v)
    ? []
    : [{ field: 'url', violation: { code: 'Pattern', key: 'urlRegexError' } }];
}

export function sendRequestRules(s: NodeSettings, opts: SettingsCheck = {}): FieldViolation[] {
  const method = s.httpRequestMethod;
  const out: FieldViolation[] = [];
  if (blank(method)) out.push(...required('httpRequestMethod', method, opts));
  else if (!(HttpRequestMethods as readonly string[]).includes(method!))
    out.push({ field: 'httpRequestMethod', violation: INVALID });
  out.push(...requestUrlRule(s.url, opts));
  out.push(...keysRule('headers', s.headers));
  const body = s.requestBody;
  if (method && method !== 'GET') {
    if (blank(body?.bodyType)) out.push(...required('requestBody.bodyType', body?.bodyType, opts));
    else if (!(BodyTypes as readonly string[]).includes(body!.bodyType!))
      out.push({ field: 'requestBody.bodyType', violation: INVALID });
  }
  if (body?.bodyType === 'JSON') out.push(...keysRule('requestBody.jsonBody', body.jsonBody));
  return out;
}

/** Every key of a header or JSON-field map is required (an empty key is reported). */
export function keysRule(field: string, map: Record<string, unknown> | null | undefined): FieldViolation[] {
  return Object.keys(map ?? {})
    .filter((k) => k.trim() === '')
    .map(() => ({ field: `${field}.key`, violation: REQUIRED }));
}

// --- send to cloud drive / SFTP ---

/** Preferred file name: required, one line, characters [A-Za-z0-9 ._()${}-] only. */
export function preferredFilenameRule(
  name: string | null | undefined,
  opts: SettingsCheck = {},
): FieldViolation[] {
  if (blank(name)) return required('preferredFilename', name, opts);
  return FILENAME_PATTERN.test(name!) ? [] : [{ field: 'preferredFilename', violation: INVALID }];
}

export interface FileActionContext extends SettingsCheck {
  /** SFTP connections of this node (SEND_TO_SFTP). */
  sftpConnectionIds?: readonly number[];
}

export function sendFileRules(
  type: ActivityType,
  s: NodeSettings,
  ctx: FileActionContext = {},
): FieldViolation[] {
  const out = [
    ...preferredFilenameRule(s.preferredFilename, ctx),
    ...required('fileContent', s.fileContent, ctx),
  ];
  if (type === 'SEND_TO_SFTP') {
    out.push(...required('sftpConnection', s.sftpConnection?.id, ctx));
    out.push(...refRule('sftpConnection', s.sftpConnection, ctx.sftpConnectionIds));
  }
  return out;
}

// --- inter-process sender ---

export interface IpsContext extends SettingsCheck {
  /** IPR nodes the caller may send to (undefined: not checked). */
  iprNodeIds?: readonly number[];
}

export function ipsRules(s: NodeSettings, ctx: IpsContext = {}): FieldViolation[] {
  return [
    ...required('payload', s.payload, ctx),
    ...required('preferredDocName', s.preferredDocName, ctx),
    ...(s.receivers ?? []).flatMap((r, i) =>
      ctx.iprNodeIds && !ctx.iprNodeIds.includes(r.id)
        ? [{ field: `receivers[${i}]`, violation: NOT_FOUND }]
        : [],
    ),
  ];
}

// --- HTTP upload ---

export interface HupContext extends SettingsCheck {
  /** Endpoints of the process's other HUP nodes. */
  otherEndpoints?: readonly string[];
}

/** Endpoint: required, [A-Za-z0-9_-]{3,64}, unique among the process's HUP nodes (case-insensitive). */
export function endpointRule(endpoint: string | null | undefined, ctx: HupContext = {}): FieldViolation[] {
  if (blank(endpoint)) return [{ field: 'endpoint', violation: REQUIRED }];
  const v = endpoint!;
  const { min: lo, max: hi } = SETTINGS_LIMITS.endpoint;
  const shape = identifierRule(v) ?? textLengthRule(lo, hi)(v);
  if (shape) return one('endpoint', shape);
  const taken = (ctx.otherEndpoints ?? []).some((e) => e.toLowerCase() === v.toLowerCase());
  return taken
    ? [{ field: 'endpoint', violation: { code: 'NotUnique', key: 'soaApp.httpUploadNode.uniqWarning' } }]
    : [];
}

// --- span ---

export function supportedTaggingTypesRule(types: readonly string[] | null | undefined): FieldViolation[] {
  if (!types || types.length === 0) return [{ field: 'supportedTaggingTypes', violation: REQUIRED }];
  return types.every((t) => (TaggingTypes as readonly string[]).includes(t))
    ? []
    : [{ field: 'supportedTaggingTypes', violation: INVALID }];
}

// --- SFTP upload transfer rules ---

export interface SftpUploadContext extends SettingsCheck {
  /** SFTP connections of this node. */
  sftpConnectionIds?: readonly number[];
  /** Ids of the transfer rules stored for this node. */
  storedRuleIds?: readonly number[];
}

/** Each rule: a source among the node's connections, an optional target among them, a known id if any. */
export function transferRulesRule(
  rules: NodeSettings['sftpTransferRules'] & object,
  ctx: SftpUploadContext = {},
): FieldViolation[] {
  const known = ctx.sftpConnectionIds;
  return rules.flatMap((r, i) => {
    const at = (f: string) => `sftpTransferRules[${i}].${f}`;
    const out: FieldViolation[] = [];
    if (r.id !== null && ctx.storedRuleIds && !ctx.storedRuleIds.includes(r.id))
      out.push({ field: at('id'), violation: NOT_FOUND });
    if (r.sourceId === null || r.sourceId === undefined)
      out.push({ field: at('sourceId'), violation: REQUIRED });
    else if (known && !known.includes(r.sourceId)) out.push({ field: at('sourceId'), violation: NOT_FOUND });
    if (r.targetId !== null && r.targetId !== undefined && known && !known.includes(r.targetId))
      out.push({ field: at('targetId'), violation: NOT_FOUND });
    if (r.name && r.name.length > SETTINGS_LIMITS.transferRuleName)
      out.push({
        field: at('name'),
        violation: {
          code: 'Size',
          key: 'entity.validation.maxlength',
          params: { max: SETTINGS_LIMITS.transferRuleName },
        },
      });
    return out;
  });
}

// --- per type ---

export type SettingsContext = LlmPromptContext &
  MailContext &
  FileActionContext &
  IpsContext &
  HupContext &
  SftpUploadContext & {
    /** The obligatory HUP node's endpoint is not edited, so not checked. */
    obligatory?: boolean;
  };

/** Every settings rule of a node type. */
export function settingsRules(
  type: ActivityType,
  s: NodeSettings,
  ctx: SettingsContext = {},
): FieldViolation[] {
  switch (type) {
    case 'LLM_PROMPT':
      return llmPromptRules(s, ctx);
    case 'SEND_MAIL':
      return sendMailRules(s, ctx);
    case 'SEND_REQUEST':
      return sendRequestRules(s, ctx);
    case 'SEND_TO_GOOGLE_DRIVE':
    case 'SEND_TO_SFTP':
      return sendFileRules(type, s, ctx);
    case 'IPS':
      return ipsRules(s, ctx);
    case 'HUP':
      return ctx.obligatory ? [] : endpointRule(s.endpoint, ctx);
    case 'SPAN':
      return supportedTaggingTypesRule(s.supportedTaggingTypes);
    case 'SFTP_UPLOAD':
      return transferRulesRule(s.sftpTransferRules ?? [], ctx);
    default:
      return [];
  }
}
