/**
 * API keys (issue 15 section 3; spec 3 "API keys page", section 7 `api/api-keys`): the rules both the API
 * and the account page apply. Decisions where the spec is silent:
 * - A token is `wbk_` and 43 base64url characters (32 random bytes). Only its SHA-256 is stored; the create
 *   answer carries it once.
 * - A key authenticates as its owner with the owner's access of the moment (roles and authorities are read
 *   per request, like a JWT's), in the `X-API-Key` header or as `Authorization: Bearer wbk_...`. It stops
 *   working at its expiration date, when it is deleted, or when its owner is deactivated or deleted. It
 *   survives a password change and a sign-out (a sign-out ends sessions, not integrations).
 * - A key acts for its owner's data, never for the account (issue 25): the routes of processes and nodes and
 *   a few reads are open to it; the account (its update and e-mail, the password and its reset, the logout of
 *   every session), key management, users, roles and authorities answer 403 (`keyMayCall` in
 *   api/routes/access.ts, enforced by the access gate), so a leaked key cannot take the account over, mint a
 *   longer-lived key or an administrator, or lock its owner out.
 * - The expiration date is a calendar day (`YYYY-MM-DD`, the key works until that day ends in UTC) or an
 *   ISO date-time; it must lie in the future and at most API_KEY_MAX_DAYS ahead.
 */
import type { Violation } from './validation';

export const API_KEY_PREFIX = 'wbk_';
export const API_KEY_TOKEN_PATTERN = /^wbk_[A-Za-z0-9_-]{43}$/;
export const API_KEY_MAX_DAYS = 366;
export const API_KEY_PAGE_SIZE = 15;
export const API_KEY_HEADER = 'X-API-Key';
/** Characters of the token kept in clear to tell keys apart ("wbk_" and 8 more). */
export const API_KEY_SHOWN_PREFIX = 12;

export interface ApiKeyDTO {
  id: number;
  /** the first characters of the token, e.g. `wbk_Ab3dE6gH` */
  prefix: string;
  expirationDate: string;
  createdDate: string;
  lastUsedDate: string | null;
  /** only in the create answer */
  token?: string;
}

/** Spring's page shape the spec names: content plus page {size, totalElements, totalPages, number}. */
export interface ApiKeyPage {
  content: ApiKeyDTO[];
  page: { size: number; totalElements: number; totalPages: number; number: number };
}

const DAY_MS = 24 * 60 * 60 * 1000;
const CALENDAR_DAY = /^(\d{4})-(\d{2})-(\d{2})$/;
const DATE_TIME = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}(?::\d{2}(?:\.\d{1,9})?)?(?:Z|[+-]\d{2}:\d{2})$/;

/** The instant a key given this expiration stops working, or null when the text is no date. */
export function expirationInstant(value: string): Date | null {
  const day = CALENDAR_DAY.exec(value);
  if (day) {
    const [y, m, d] = [Number(day[1]), Number(day[2]), Number(day[3])];
    const start = Date.UTC(y, m - 1, d);
    const back = new Date(start);
    if (back.getUTCFullYear() !== y || back.getUTCMonth() !== m - 1 || back.getUTCDate() !== d) return null;
    return new Date(start + DAY_MS - 1);
  }
  if (!DATE_TIME.test(value)) return null;
  const t = Date.parse(value);
  return Number.isFinite(t) ? new Date(t) : null;
}

/** The rule of the create payload's expirationDate. */
export function expirationDateRule(value: string | null | undefined, now: Date): Violation | null {
  if (!value || !value.trim()) return { code: 'NotBlank', key: 'entity.validation.required' };
  const at = expirationInstant(value.trim());
  if (!at) return { code: 'Pattern', key: 'apiKeys.validation.date' };
  if (at.getTime() <= now.getTime()) return { code: 'Pattern', key: 'apiKeys.validation.future' };
  if (at.getTime() - now.getTime() > API_KEY_MAX_DAYS * DAY_MS)
    return { code: 'Size', key: 'apiKeys.validation.tooFar', params: { max: API_KEY_MAX_DAYS } };
  return null;
}

/** The token a request carries as an API key: the X-API-Key header, or a bearer token that looks like one. */
export function apiKeyFromHeaders(
  xApiKey: string | undefined,
  authorization: string | undefined,
): string | null {
  if (xApiKey) return xApiKey;
  if (authorization?.startsWith(`Bearer ${API_KEY_PREFIX}`)) return authorization.slice(7);
  return null;
}
