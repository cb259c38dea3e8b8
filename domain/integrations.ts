/**
 * Validation rules of the integrations configuration (spec 3 sections 3, 5 and 9): LLM models, process
 * secrets, e-mail upload, SFTP and cloud-drive connections. Each rule returns the spec's message key; the
 * form-level checks return `{field, violation}` lists so the API reports them as field errors and the web
 * forms show them beside their fields. Masked secrets (`**********`) mean "keep the stored value".
 */
import {
  cronRule,
  domainOrIpRule,
  requiredRule,
  simpleEmailRule,
  type Rule,
  type Violation,
} from './validation';
import { MASKED_SECRET, type EmailContentType, type ImapPort } from './integration-types';
import { maxLengthViolation, TEXT_LIMITS } from './limits';

export const INTEGRATION_LIMITS = {
  llmModelName: 100,
  modality: 50,
  secretName: 50,
  emailHost: 255,
  emailAddress: 254,
  folder: 255,
  sftpName: 100,
  sftpAddress: 255,
  sftpFolder: 1024,
  username: 255,
  driveName: 100,
  driveFolderId: 255,
  port: { min: 1, max: 65535 },
} as const;

export const IMAP_PORTS: readonly ImapPort[] = [993, 143];
export const DEFAULT_IMAP_PORT: ImapPort = 993;
export const EMAIL_CONTENT_TYPES: readonly EmailContentType[] = ['MESSAGE', 'ATTACHMENT'];
export const DEFAULT_EMAIL_FOLDER = 'INBOX';
export const DEFAULT_SFTP_PORT = 22;
export const DEFAULT_SFTP_FOLDER = '/';

/** Node types that own each kind of connection. */
export const EMAIL_CONNECTION_NODE_TYPES = ['EMAIL_UPLOAD'] as const;
export const SFTP_CONNECTION_NODE_TYPES = ['SFTP_UPLOAD', 'SEND_TO_SFTP'] as const;
export const DRIVE_CONNECTION_NODE_TYPES = ['GDU_UPLOAD', 'SEND_TO_GOOGLE_DRIVE'] as const;
/** Only one cloud-drive connection per node (spec 3 section 9). */
export const MAX_DRIVE_CONNECTIONS_PER_NODE = 1;

export const CRON_FIELD_ERROR_KEY = 'utils.fieldValidation.cronRegexError';

export interface FieldViolation {
  field: string;
  violation: Violation;
}

const REQUIRED = 'entity.validation.required';
const blank = (v: string | null | undefined): boolean => v === null || v === undefined || v.trim() === '';

export const isMasked = (v: string | null | undefined): boolean => v === MASKED_SECRET;

/** A secret sent back by a form: null, empty or the mask keep the stored value; anything else replaces it. */
export function keepOrReplaceSecret(
  incoming: string | null | undefined,
  stored: string | null,
): string | null {
  return incoming === null || incoming === undefined || incoming === '' || isMasked(incoming)
    ? stored
    : incoming;
}

/** What a response shows for a stored secret: the mask when one is stored, else null. */
export const maskSecret = (stored: string | null | undefined): string | null =>
  stored === null || stored === undefined || stored === '' ? null : MASKED_SECRET;

/** Required, then at most `max` characters (`entity.validation.maxlength` with the limit). */
export function requiredMaxRule(max: number): Rule {
  return (v) => {
    if (blank(v)) return { code: 'NotBlank', key: REQUIRED };
    if (v.length > max) return { code: 'Size', key: 'entity.validation.maxlength', params: { max } };
    return null;
  };
}

const optionalMaxRule =
  (max: number): Rule =>
  (v) =>
    v && v.length > max ? { code: 'Size', key: 'entity.validation.maxlength', params: { max } } : null;

const uniqueAmong = (name: string, existing: readonly string[], key: string): Violation | null => {
  const n = name.trim().toLowerCase();
  return existing.some((e) => e.trim().toLowerCase() === n) ? { code: 'NotUnique', key } : null;
};

/** Cron fields of connections: optional; when given, six or seven fields (the cron pattern). */
export const optionalCronRule: Rule<string | null | undefined> = (v) => {
  if (blank(v)) return null;
  return cronRule(v!.trim()) ? { code: 'Pattern', key: CRON_FIELD_ERROR_KEY } : null;
};

/** Empty cron becomes null (spec 3 section 5). */
export const normalizeCron = (v: string | null | undefined): string | null => (blank(v) ? null : v!.trim());

/** A port within 1..65535 (min / max messages with the limit). */
export const portRule: Rule<number | null | undefined> = (v): Violation | null => {
  if (v === null || v === undefined || Number.isNaN(v)) return { code: 'NotBlank', key: REQUIRED };
  const { min, max }: { min: number; max: number } = INTEGRATION_LIMITS.port;
  if (!Number.isInteger(v) || v < min) return { code: 'Size', key: 'entity.validation.min', params: { min } };
  if (v > max) return { code: 'Size', key: 'entity.validation.max', params: { max } };
  return null;
};

// --- LLM models ---

export function llmModelNameRule(name: string, existingNames: readonly string[] = []): Violation | null {
  return (
    requiredMaxRule(INTEGRATION_LIMITS.llmModelName)(name) ??
    uniqueAmong(name, existingNames, 'soaApp.llmModel.nameNotUnique')
  );
}

/** Modalities: a list of non-empty strings (e.g. text, image); an empty list is allowed. */
export function modalitiesRule(modalities: readonly unknown[] | null | undefined): Violation | null {
  if (!Array.isArray(modalities)) return { code: 'NotBlank', key: REQUIRED };
  const bad = modalities.some(
    (m) => typeof m !== 'string' || m.trim() === '' || m.length > INTEGRATION_LIMITS.modality,
  );
  return bad ? { code: 'Pattern', key: 'entity.validation.pattern' } : null;
}

// --- secrets ---

/** Secret name: required, at most 50, unique within the process. */
export function secretNameRule(name: string, existingNames: readonly string[] = []): Violation | null {
  return (
    requiredMaxRule(INTEGRATION_LIMITS.secretName)(name) ??
    uniqueAmong(name, existingNames, 'soaApp.secret.nameNotUnique')
  );
}

/** Secret value (also connection passwords): required, at most TEXT_LIMITS.secretValue characters. */
export const secretValueRule: Rule = (v) => {
  if (v === null || v === undefined || v === '') return { code: 'NotBlank', key: REQUIRED };
  return v.length > TEXT_LIMITS.secretValue ? maxLengthViolation(TEXT_LIMITS.secretValue) : null;
};

// --- e-mail upload connections ---

export interface EmailConnectionInput {
  imapHost?: string | null;
  imapPort?: number | null;
  address?: string | null;
  password?: string | null;
  folder?: string | null;
  contentType?: string | null;
  cron?: string | null;
}

/**
 * E-mail upload connection: host required and a domain or IP; port 993 or 143; address required and an
 * e-mail; password required unless a stored one is kept (masked or null on edit); cron optional.
 */
export function emailConnectionViolations(
  input: EmailConnectionInput,
  opts: { hasStoredPassword?: boolean } = {},
): FieldViolation[] {
  const out: FieldViolation[] = [];
  const add = (field: string, v: Violation | null) => {
    if (v) out.push({ field, violation: v });
  };
  const host = input.imapHost ?? '';
  add('imapHost', requiredRule()(host) ?? domainOrIpRule(host.trim()) ?? optionalMaxRule(255)(host));
  if (
    input.imapPort !== null &&
    input.imapPort !== undefined &&
    !IMAP_PORTS.includes(input.imapPort as ImapPort)
  )
    add('imapPort', { code: 'Pattern', key: 'entity.validation.pattern' });
  const address = input.address ?? '';
  add(
    'address',
    requiredRule()(address) ??
      simpleEmailRule(address.trim()) ??
      optionalMaxRule(INTEGRATION_LIMITS.emailAddress)(address),
  );
  const keeps = opts.hasStoredPassword && (blank(input.password) || isMasked(input.password));
  if (!keeps) add('password', secretValueRule(isMasked(input.password) ? '' : (input.password ?? '')));
  add('folder', optionalMaxRule(INTEGRATION_LIMITS.folder)(input.folder ?? ''));
  if (input.contentType && !EMAIL_CONTENT_TYPES.includes(input.contentType as EmailContentType))
    add('contentType', { code: 'Pattern', key: 'entity.validation.pattern' });
  add('cron', optionalCronRule(input.cron));
  return out;
}

// --- SFTP connections ---

export interface SftpConnectionInput {
  name?: string | null;
  address?: string | null;
  port?: number | null;
  folder?: string | null;
  password?: {
    useKey?: boolean | null;
    username?: string | null;
    password?: string | null;
    publicKey?: string | null;
    privateKey?: string | null;
  } | null;
  /**
   * The pinned host key, an OpenSSH SHA256 fingerprint. Absent: the stored pin is kept unless the address
   * or the port changes; null or empty: not pinned (the worker pins the key it meets first).
   */
  hostKey?: string | null;
}

/** An OpenSSH SHA256 fingerprint as `ssh-keygen -lf key.pub -E sha256` prints it: 32 bytes in base64. */
export const SFTP_HOST_KEY_PATTERN = /^SHA256:[A-Za-z0-9+/]{42}[AEIMQUYcgkosw048]$/;
export const SFTP_HOST_KEY_INVALID = 'soaApp.sftpConnection.hostKeyInvalid';

/** Host key: optional; when given, `SHA256:` and the 43 base64 characters of a SHA-256 digest. */
export const sftpHostKeyRule: Rule<string | null | undefined> = (v) =>
  blank(v) || SFTP_HOST_KEY_PATTERN.test(v!.trim()) ? null : { code: 'Pattern', key: SFTP_HOST_KEY_INVALID };

/**
 * The pin a saved (or tested) connection has: the one given; none when given null or empty; when absent,
 * the stored one, unless the address or the port changed (another server: its key is not the stored one).
 */
export function sftpHostKeyOf(
  input: Pick<SftpConnectionInput, 'address' | 'port' | 'hostKey'>,
  stored?: { address: string; port: number; hostKey: string | null },
): string | null {
  if (input.hostKey !== undefined) return blank(input.hostKey) ? null : input.hostKey!.trim();
  if (!stored) return null;
  const sameServer =
    (input.address ?? '').trim().toLowerCase() === stored.address.trim().toLowerCase() &&
    (input.port ?? DEFAULT_SFTP_PORT) === stored.port;
  return sameServer ? stored.hostKey : null;
}

/** An input that passed `sftpConnectionViolations`: what is saved and connected to. */
export type ValidSftpConnectionInput = SftpConnectionInput & { name: string; address: string };

/**
 * SFTP connection: name required; address required and a domain or IP; port 1..65535; with useKey the
 * public and private keys are required, otherwise the username and the password. A stored password or
 * private key is kept when the form sends null or the mask (the "change" checkbox left off). The host key,
 * when given, is an OpenSSH SHA256 fingerprint.
 */
export function sftpConnectionViolations(
  input: SftpConnectionInput,
  stored: { password?: boolean; privateKey?: boolean } = {},
): FieldViolation[] {
  const out: FieldViolation[] = [];
  const add = (field: string, v: Violation | null) => {
    if (v) out.push({ field, violation: v });
  };
  add('name', requiredMaxRule(INTEGRATION_LIMITS.sftpName)(input.name ?? ''));
  const address = input.address ?? '';
  add(
    'address',
    requiredRule()(address) ??
      domainOrIpRule(address.trim()) ??
      optionalMaxRule(INTEGRATION_LIMITS.sftpAddress)(address),
  );
  add('port', portRule(input.port));
  add('folder', optionalMaxRule(INTEGRATION_LIMITS.sftpFolder)(input.folder ?? ''));
  const creds = input.password ?? {};
  const kept = (v: string | null | undefined, has?: boolean) => !!has && (blank(v) || isMasked(v));
  const given = (v: string | null | undefined) => !blank(v) && !isMasked(v);
  if (creds.useKey) {
    add('password.publicKey', requiredRule()(creds.publicKey ?? ''));
    if (!kept(creds.privateKey, stored.privateKey) && !given(creds.privateKey))
      add('password.privateKey', { code: 'NotBlank', key: REQUIRED });
  } else {
    add('password.username', requiredRule()(creds.username ?? ''));
    if (!kept(creds.password, stored.password) && !given(creds.password))
      add('password.password', { code: 'NotBlank', key: REQUIRED });
  }
  add('password.username', optionalMaxRule(INTEGRATION_LIMITS.username)(creds.username ?? ''));
  add('hostKey', sftpHostKeyRule(input.hostKey));
  return out;
}

// --- cloud-drive connections ---

export interface DriveConnectionInput {
  name?: string | null;
  folderId?: string | null;
}

export function driveConnectionViolations(input: DriveConnectionInput): FieldViolation[] {
  const out: FieldViolation[] = [];
  const name = requiredMaxRule(INTEGRATION_LIMITS.driveName)(input.name ?? '');
  if (name) out.push({ field: 'name', violation: name });
  const folder = requiredMaxRule(INTEGRATION_LIMITS.driveFolderId)(input.folderId ?? '');
  if (folder) out.push({ field: 'folderId', violation: folder });
  return out;
}

/** The OAuth scopes granted (space-separated) include every scope required (space-separated). */
export function scopeGranted(granted: string | null | undefined, required: string): boolean {
  const have = new Set((granted ?? '').split(/\s+/).filter(Boolean));
  const need = required.split(/\s+/).filter(Boolean);
  return need.length > 0 && need.every((s) => have.has(s));
}

/** Connections a node would hold after a change; more than one is refused. */
export function driveConnectionCountAllowed(count: number): boolean {
  return count <= MAX_DRIVE_CONNECTIONS_PER_NODE;
}
