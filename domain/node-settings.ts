/**
 * Type-specific node settings (spec 3 sections 3 and 5): which fields each activity type has, their limits
 * and defaults, and how a submitted settings object is merged with the stored one and normalized. The API
 * stores these fields in `nodes.settings` (SFTP transfer rules in their own table) and flattens them into
 * the NodeDTO. The rules that check them are in ./node-settings-rules.ts.
 *
 * Decisions:
 * - Negative ids of new mail receivers and transfer rules are temporary: normalizeSettings makes them null.
 * - A string setting sent back as the masked placeholder '**********' keeps the stored value.
 *
 * In the workflow bundle (imported through domain/nodes.ts; no workflow decision depends on it): keep it free
 * of I/O, clocks and randomness, and a change that would reach a workflow decision follows the `patched()` rule
 * of domain/steps.ts.
 */
import type { ActivityType } from './enums';
import { MASKED_PASSWORD, type NodeSettings } from './graph-types';

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
  CLF: ['annotatorsSeeEachOther'],
  EMAIL_UPLOAD: [],
  SFTP_UPLOAD: ['sftpTransferRules'],
  GDU_UPLOAD: ['active'],
  SPAN: ['supportedTaggingTypes', 'relationPriorityMode', 'annotatorsSeeEachOther'],
  LEXICON: ['annotatorsSeeEachOther'],
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
      return {
        ...defaults,
        supportedTaggingTypes: [...DEFAULT_TAGGING_TYPES],
        relationPriorityMode: false,
        annotatorsSeeEachOther: false,
      };
    case 'CLF':
    case 'LEXICON':
      return { ...defaults, annotatorsSeeEachOther: false };
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
