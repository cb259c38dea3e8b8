/**
 * The spec's validation rules (spec 1 section 5), one function per rule. Each returns null when the value
 * is valid, else a Violation: `code` is the constraint name the API reports in field errors (NotBlank, Size,
 * Pattern, ...) and `key` the i18n message key the forms show. Forms and API call the same functions.
 *
 * In the workflow bundle (imported through domain/nodes.ts; no workflow decision depends on it): keep it free
 * of I/O, clocks and randomness, and a change that would reach a workflow decision follows the `patched()` rule
 * of domain/steps.ts.
 */
import { temporalCron } from './cron';
import { TEXT_LIMITS } from './limits';
import { STATISTICS_DOCUMENTS_PAGE_SIZE } from './statistics-types';

export type ConstraintCode = 'NotBlank' | 'Size' | 'Pattern' | 'Email' | 'NotUnique' | 'Match' | 'Required';

export interface Violation {
  code: ConstraintCode;
  key: string;
  params?: Record<string, string | number>;
}

export type Rule<T = string> = (value: T) => Violation | null;

export const LIMITS = {
  processName: 255,
  tagName: 50,
  login: { min: 1, max: 50 },
  email: { min: 5, max: 254 },
  password: { min: 4, max: 50 },
  text: { min: 3, max: 35 },
  pageSizes: [10, 20, 50] as const,
  /** Sizes a list also answers that no pager offers: the statistics node activity's documents (spec 3 s. 7). */
  fixedPageSizes: [STATISTICS_DOCUMENTS_PAGE_SIZE] as const,
  textFilterMin: 2,
} as const;

const blank = (v: string | null | undefined) => v === null || v === undefined || v.trim() === '';

export const LOGIN_PATTERN = /^[a-zA-Z0-9_.@-]+$/;
export const EMAIL_PATTERN = /^[^@\s]+@[^@\s]+$/;

// --- account (register, settings, reset, login) ---

export const loginRule: Rule = (v) => {
  if (blank(v)) return { code: 'NotBlank', key: 'register.messages.validate.login.required' };
  if (v.length < LIMITS.login.min) return { code: 'Size', key: 'register.messages.validate.login.minlength' };
  if (v.length > LIMITS.login.max) return { code: 'Size', key: 'register.messages.validate.login.maxlength' };
  if (!LOGIN_PATTERN.test(v)) return { code: 'Pattern', key: 'register.messages.validate.login.pattern' };
  return null;
};

export const emailRule: Rule = (v) => {
  if (blank(v)) return { code: 'NotBlank', key: 'global.messages.validate.email.required' };
  if (v.length < LIMITS.email.min) return { code: 'Size', key: 'global.messages.validate.email.minlength' };
  if (v.length > LIMITS.email.max) return { code: 'Size', key: 'global.messages.validate.email.maxlength' };
  if (!EMAIL_PATTERN.test(v)) return { code: 'Email', key: 'global.messages.validate.email.invalid' };
  return null;
};

export const passwordRule: Rule = (v) => {
  if (v === null || v === undefined || v === '')
    return { code: 'NotBlank', key: 'global.messages.validate.newpassword.required' };
  if (v.length < LIMITS.password.min)
    return { code: 'Size', key: 'global.messages.validate.newpassword.minlength' };
  if (v.length > LIMITS.password.max)
    return { code: 'Size', key: 'global.messages.validate.newpassword.maxlength' };
  return null;
};

/** Whether an account's e-mail changes (addresses are stored and compared lower-case). */
export const emailChanges = (current: string, next: string): boolean =>
  current.toLowerCase() !== next.toLowerCase();

/**
 * The current password of the account settings (issue 25): required when the e-mail changes, the address
 * password resets go to, so a stolen session or key cannot take the account over. The API then checks it
 * against the stored hash (CURRENT_PASSWORD_INVALID).
 */
export const currentPasswordForEmailRule =
  (currentEmail: string, nextEmail: string): Rule<string | null | undefined> =>
  (v) =>
    emailChanges(currentEmail, nextEmail) && (v === null || v === undefined || v === '')
      ? { code: 'NotBlank', key: 'global.messages.validate.currentpassword.required' }
      : null;

export const CURRENT_PASSWORD_INVALID: Violation = {
  code: 'Pattern',
  key: 'global.messages.validate.currentpassword.invalid',
};

/** Repeated password: same length rules as the password, and equal to it. */
export function confirmPasswordRule(password: string, confirm: string): Violation | null {
  if (confirm === null || confirm === undefined || confirm === '')
    return { code: 'NotBlank', key: 'global.messages.validate.confirmpassword.required' };
  if (confirm.length < LIMITS.password.min)
    return { code: 'Size', key: 'global.messages.validate.confirmpassword.minlength' };
  if (confirm.length > LIMITS.password.max)
    return { code: 'Size', key: 'global.messages.validate.confirmpassword.maxlength' };
  if (confirm !== password) return { code: 'Match', key: 'global.messages.error.dontmatch' };
  return null;
}

export const requiredRule =
  (key = 'entity.validation.required'): Rule =>
  (v) =>
    blank(v) ? { code: 'NotBlank', key } : null;

// --- processes and tags ---

export function processNameRule(name: string, existingNames: readonly string[] = []): Violation | null {
  if (blank(name)) return { code: 'NotBlank', key: 'entity.validation.required' };
  if (name.length > LIMITS.processName)
    return { code: 'Size', key: 'entity.validation.maxlength', params: { max: LIMITS.processName } };
  const n = name.trim().toLowerCase();
  if (existingNames.some((e) => e.trim().toLowerCase() === n))
    return { code: 'NotUnique', key: 'soaApp.process.nameNotUnique' };
  return null;
}

/** Exactly one predefined (system) tag must be chosen for a process. */
export function predefinedTagRule(selected: readonly { predefined: boolean }[]): Violation | null {
  const count = selected.filter((t) => t.predefined).length;
  return count === 1 ? null : { code: 'Required', key: 'soaApp.process.predefinedTagRequired' };
}

export function tagNameRule(name: string, existingNames: readonly string[] = []): Violation | null {
  if (blank(name)) return { code: 'NotBlank', key: 'entity.validation.required' };
  if (name.length > LIMITS.tagName)
    return { code: 'Size', key: 'entity.validation.maxlength', params: { max: LIMITS.tagName } };
  const n = name.trim().toLowerCase();
  if (existingNames.some((e) => e.trim().toLowerCase() === n))
    return { code: 'NotUnique', key: 'soaApp.processTag.createEditModal.body.error.nameNotUnique' };
  return null;
}

/** Process actor code (SPEAKER1..n) and display name: required, and no longer than their columns. */
function requiredMax(max: number): Rule {
  return (v) =>
    blank(v)
      ? { code: 'NotBlank', key: 'entity.validation.required' }
      : v.length > max
        ? { code: 'Size', key: 'entity.validation.maxlength', params: { max } }
        : null;
}
export const actorCodeRule: Rule = requiredMax(100);
export const actorNameRule: Rule = requiredMax(255);

/** A document's filename: required, at most 255 characters (the column). */
export const DOCUMENT_FILENAME_MAX = 255;
export const documentFilenameRule: Rule = requiredMax(DOCUMENT_FILENAME_MAX);

/** A process tag colour: `#rrggbb`, as its palette produces it (spec 1). */
export const HEX_COLOR = /^#[0-9a-fA-F]{6}$/;
/** A label colour (classifier, NER and relation types): `#rrggbb` or its short form `#rgb`. */
export const LABEL_HEX_COLOR = /^#(?:[0-9a-fA-F]{3}|[0-9a-fA-F]{6})$/;
/** `#rgb` or `#rrggbb` (length checked before the bounded pattern). */
export const isHexColor = (v: string | null | undefined): boolean =>
  typeof v === 'string' && v.length <= 7 && LABEL_HEX_COLOR.test(v);
export const colorRule: Rule = (v) =>
  typeof v === 'string' && v.length === 7 && HEX_COLOR.test(v)
    ? null
    : { code: 'Pattern', key: 'soaApp.processTag.colorInvalid' };

/** Delete confirmation: the typed name must equal the process name exactly. */
export const deleteConfirmationMatches = (typed: string, processName: string): boolean =>
  typed === processName;

// --- shared field helpers (used by node forms in later issues) ---

export function textLengthRule(min: number = LIMITS.text.min, max: number = LIMITS.text.max): Rule {
  return (v) =>
    (v ?? '').length < min || (v ?? '').length > max
      ? { code: 'Size', key: 'textLengthError', params: { min, max } }
      : null;
}

const EDGE_CHAR = '[A-Za-z0-9\\-_\\u00C0-\\u024F]';
export const TEXT_PATTERN = new RegExp(`^${EDGE_CHAR}(?:[A-Za-z0-9\\-_ \\u00C0-\\u024F]*${EDGE_CHAR})?$`);
export const TEXT_PATTERN_EXTENDED = new RegExp(
  `^${EDGE_CHAR}(?:[A-Za-z0-9\\-_ /.,()\\u00C0-\\u024F]*${EDGE_CHAR})?$`,
);
export const textPatternRule =
  (extended = false): Rule =>
  (v) =>
    (extended ? TEXT_PATTERN_EXTENDED : TEXT_PATTERN).test(v ?? '')
      ? null
      : { code: 'Pattern', key: 'textRegexError' };

const IPV4 = /^(25[0-5]|2[0-4]\d|1\d\d|[1-9]?\d)(\.(25[0-5]|2[0-4]\d|1\d\d|[1-9]?\d)){3}$/;
const DOMAIN = /^(?=.{1,253}$)([a-zA-Z0-9](?:[a-zA-Z0-9-]{0,61}[a-zA-Z0-9])?\.)+[a-zA-Z]{2,63}$/;
/** URLs: at most TEXT_LIMITS.url characters (checked first), then http(s) or an IPv4 address. */
export const urlRule: Rule = (v) => {
  if ((v ?? '').length > TEXT_LIMITS.url)
    return { code: 'Size', key: 'entity.validation.maxlength', params: { max: TEXT_LIMITS.url } };
  if (IPV4.test(v ?? '')) return null;
  try {
    const u = new URL(v);
    if ((u.protocol === 'http:' || u.protocol === 'https:') && u.hostname) return null;
  } catch {
    /* fall through */
  }
  return { code: 'Pattern', key: 'urlRegexError' };
};
export const domainOrIpRule: Rule = (v) =>
  (v ?? '').length <= 253 && (v === 'localhost' || IPV4.test(v ?? '') || DOMAIN.test(v ?? ''))
    ? null
    : { code: 'Pattern', key: 'domainOrIpError' };
export const nameUniquenessRule =
  (existing: readonly string[]): Rule =>
  (v) =>
    existing.includes(v) ? { code: 'NotUnique', key: 'soaApp.node.nameUniquenessError' } : null;
/**
 * local@domain with a dot inside the domain. Length first (LIMITS.email.max), then a pattern whose parts
 * cannot overlap (`[^\s@]+@[^\s@]+`) and a string test for the dot: the old `[^\s@]+\.[^\s@]+$` backtracked
 * quadratically over a domain of many dots.
 */
export const simpleEmailRule: Rule = (v) => {
  const value = v ?? '';
  if (value.length > LIMITS.email.max)
    return { code: 'Size', key: 'entity.validation.maxlength', params: { max: LIMITS.email.max } };
  if (!EMAIL_PATTERN.test(value)) return { code: 'Email', key: 'emailError' };
  const domain = value.slice(value.indexOf('@') + 1);
  return domain.slice(1, -1).includes('.') ? null : { code: 'Email', key: 'emailError' };
};
export const identifierRule: Rule = (v) =>
  /^[A-Za-z0-9_-]+$/.test(v ?? '') ? null : { code: 'Pattern', key: 'identifierError' };

/** A cron pattern Temporal Schedules can run: every field parsed and in range (./cron.ts). */
export const cronRule: Rule = (v) => (temporalCron(v) ? null : { code: 'Pattern', key: 'cronError' });

export const pageSizeRule = (size: number): boolean =>
  (LIMITS.pageSizes as readonly number[]).includes(size) ||
  (LIMITS.fixedPageSizes as readonly number[]).includes(size);

// --- password strength meter (spec 1 section 5) ---

export function passwordStrength(password: string): number {
  const classes = [/[a-z]/, /[A-Z]/, /[0-9]/, /[^a-zA-Z0-9]/].filter((re) => re.test(password)).length;
  let force = 2 * password.length + (password.length >= 10 ? 1 : 0) + classes * 10;
  if (password.length <= 6 || classes === 1) force = Math.min(force, 10);
  else if (classes === 2) force = Math.min(force, 20);
  else if (classes === 3) force = Math.min(force, 40);
  return force;
}

export const STRENGTH_COLORS = ['#F00', '#F90', '#FF0', '#9F0', '#0F0'] as const;

/** Number of lit bars (0..5) and their colour for a strength score: bars light at 10, 20, 30, 40. */
export function strengthBars(score: number): { bars: number; color: string } {
  let idx: number;
  if (score <= 10) idx = 0;
  else if (score <= 20) idx = 1;
  else if (score <= 30) idx = 2;
  else if (score <= 40) idx = 3;
  else idx = 4;
  return { bars: idx + 1, color: STRENGTH_COLORS[idx] };
}
