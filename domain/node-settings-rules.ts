/**
 * Rules of the type-specific node settings (spec 3 sections 3 and 5): one rule per spec rule, each with the
 * context it needs (known ids of models, secrets, connections, IPR nodes, stored transfer rules, the other
 * HUP endpoints), and settingsRules, every rule of a node type. A rule returns FieldViolation[] (empty when
 * valid) with the field path the API reports and the forms highlight. The fields, limits and defaults the
 * rules check are in ./node-settings.ts.
 *
 * Decisions:
 * - Creating a node (POST) is lenient: a setting that is missing is not reported (the add-node modal only
 *   asks for a type and a name); a setting that is given is checked. Saving a node (PUT) checks everything.
 * - The obligatory HUP node keeps its endpoint and active flag (its panel is not shown), so its endpoint is
 *   not checked.
 *
 * In the workflow bundle (imported through domain/nodes.ts; no workflow decision depends on it): keep it free
 * of I/O, clocks and randomness, and a change that would reach a workflow decision follows the `patched()` rule
 * of domain/steps.ts.
 */
import type { ActivityType } from './enums';
import { BodyTypes, HttpRequestMethods, MailTypes, TaggingTypes, type NodeSettings } from './graph-types';
import { maxLengthViolation, TEXT_LIMITS } from './limits';
import { FILENAME_PATTERN, SETTINGS_LIMITS } from './node-settings';
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

/** The longest each free-text setting may be (the editor states are bounded by TEXT_LIMITS.anyString). */
export const SETTINGS_TEXT_LIMITS: Partial<Record<keyof NodeSettings, number>> = {
  prompt: TEXT_LIMITS.prompt,
  smtpHost: 253,
  username: TEXT_LIMITS.name,
  subject: TEXT_LIMITS.mailSubject,
  template: TEXT_LIMITS.template,
  url: TEXT_LIMITS.url,
  fileContent: TEXT_LIMITS.template,
  preferredFilename: TEXT_LIMITS.fileName,
  payload: TEXT_LIMITS.template,
  preferredDocName: TEXT_LIMITS.fileName,
};

/**
 * Length limits of the free-text settings, whatever the node type: checked before the type's own rules, so
 * a megabyte URL or prompt is refused by its length and never reaches a pattern. Header and JSON-body
 * values are at most TEXT_LIMITS.headerValue, a plain-text request body TEXT_LIMITS.template.
 */
export function settingsLengthRules(s: NodeSettings): FieldViolation[] {
  const out: FieldViolation[] = [];
  const check = (field: string, value: unknown, limit: number) => {
    if (typeof value === 'string' && value.length > limit)
      out.push({ field, violation: maxLengthViolation(limit) });
  };
  for (const [field, limit] of Object.entries(SETTINGS_TEXT_LIMITS))
    check(field, (s as Record<string, unknown>)[field], limit!);
  for (const [k, v] of Object.entries(s.headers ?? {})) {
    check('headers.key', k, TEXT_LIMITS.name);
    check('headers', v?.value, TEXT_LIMITS.headerValue);
  }
  const body = s.requestBody;
  check('requestBody.plainTextBody', body?.plainTextBody, TEXT_LIMITS.template);
  for (const [k, v] of Object.entries(body?.jsonBody ?? {})) {
    check('requestBody.jsonBody.key', k, TEXT_LIMITS.name);
    check('requestBody.jsonBody', v?.value, TEXT_LIMITS.headerValue);
  }
  return out;
}

/** Every settings rule of a node type: the length limits first, then the type's rules. */
export function settingsRules(
  type: ActivityType,
  s: NodeSettings,
  ctx: SettingsContext = {},
): FieldViolation[] {
  const lengths = settingsLengthRules(s);
  return lengths.length ? lengths : typeRules(type, s, ctx);
}

function typeRules(type: ActivityType, s: NodeSettings, ctx: SettingsContext): FieldViolation[] {
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
