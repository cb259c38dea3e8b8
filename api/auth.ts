/**
 * Authentication and authorization middleware. Credentials are resolved by a list of resolvers (JWT bearer
 * tokens, then API keys, which act on their owner's data only: api/routes/access.ts). Every route declares who
 * may call it (api/route.ts, enforced by its gate) and its handler checks again (defence in depth):
 * `currentUser`, `assertRole(...)`, and the access-mode helpers over domain/access.ts.
 */
import type { Context, Next } from 'koa';
import jwt from 'jsonwebtoken';
import type { Knex } from 'knex';
import {
  AccessMode,
  hasAnyRole,
  hasGlobalProcessPermission,
  modeSatisfies,
  nodeMode,
  processMode,
  type Principal,
} from '../domain';
import { grantedNodeIds, isAdmin, mergeAuthorities, readsDocumentsOf } from '../domain/access';
import { forbidden, notFound, unauthorized, type HttpError } from './errors';
import { nodeIdsOfProcess } from '../db/queries/nodes';
import { authUserRow } from '../db/queries/users';
import { resolveApiKey } from './services/api-keys';
import { API_KEY_HEADER, apiKeyFromHeaders } from '../domain/api-keys';

export const JWT_ALGORITHM = 'HS512' as const;

export interface AuthUser extends Principal {
  id: number;
  login: string;
  activated: boolean;
  langKey: string;
  /** users.token_version: a token carrying another one (claim `ver`) was revoked. */
  tokenVersion: number;
}

export interface AppState {
  user?: AuthUser;
  /** When the caller's token expires (seconds since the epoch): a token re-issued for the session keeps it. */
  tokenExpiresAt?: number;
  /** The caller signed in with an API key (domain/api-keys.ts), not a session token. */
  viaApiKey?: boolean;
}

/** Resolves the caller from the request, or returns null when this credential type is absent. */
export type CredentialResolver = (ctx: Context) => Promise<AuthUser | null>;

export function signToken(
  secret: string,
  user: { id: number; login: string; roles: string[]; tokenVersion: number },
  seconds: number,
) {
  return jwt.sign(
    { sub: user.login, uid: user.id, auth: user.roles.join(','), ver: user.tokenVersion },
    secret,
    { algorithm: JWT_ALGORITHM, expiresIn: seconds },
  );
}

/**
 * The only routes that take the token from an `access_token` query parameter: those a browser calls without
 * being able to send an Authorization header (media elements' src, the websocket handshake). Anywhere else a
 * query token is ignored, so tokens stay out of logs, history and referrers of ordinary calls.
 */
export const QUERY_TOKEN_ROUTES: readonly { method: string; path: RegExp }[] = [
  { method: 'GET', path: /^\/api\/asr-documents\/[^/]+\/audio$/ },
  { method: 'GET', path: /^\/api\/documents\/[^/]+\/images\/(?!length$)[^/]+$/ },
  { method: 'GET', path: /^\/websocket\/tracker(?:\/.*)?$/ },
];

export const acceptsQueryToken = (method: string, path: string): boolean =>
  QUERY_TOKEN_ROUTES.some(
    (r) => (r.method === method || (r.method === 'GET' && method === 'HEAD')) && r.path.test(path),
  );

/** The bearer token of the request: the Authorization header, or the query on QUERY_TOKEN_ROUTES. */
function requestToken(ctx: Context): string | undefined {
  const header = ctx.get('Authorization');
  if (header.startsWith('Bearer ')) return header.slice(7);
  const query = ctx.query.access_token;
  return typeof query === 'string' && acceptsQueryToken(ctx.method, ctx.path) ? query : undefined;
}

/** Loads a user with roles and merged authorities (roles' and own, without duplicates), in one query. */
export async function loadAuthUser(
  knex: Knex,
  where: { id: number } | { login: string },
): Promise<AuthUser | null> {
  const row = await authUserRow(knex, where);
  if (!row) return null;
  return {
    id: row.id,
    login: row.login,
    activated: row.activated,
    langKey: row.langKey,
    tokenVersion: row.tokenVersion,
    roles: row.roles,
    authorities: mergeAuthorities(row.roleAuthorities, row.ownAuthorities).sort(
      (a, b) => (a.id ?? 0) - (b.id ?? 0),
    ),
  };
}

/**
 * The user of a bearer token, or null for an invalid, expired or revoked one (a token of an older version
 * was revoked: password change or reset, logout, an administrator). Also the tracker websocket's check.
 */
export async function userOfToken(
  knex: Knex,
  secret: string,
  token: string,
): Promise<{ user: AuthUser; expiresAt?: number } | null> {
  let payload: jwt.JwtPayload;
  try {
    payload = jwt.verify(token, secret, { algorithms: [JWT_ALGORITHM] }) as jwt.JwtPayload;
  } catch {
    return null;
  }
  const uid = Number(payload.uid);
  if (!Number.isSafeInteger(uid) || !Number.isSafeInteger(payload.ver)) return null;
  const user = await loadAuthUser(knex, { id: uid });
  if (!user || !user.activated || user.tokenVersion !== payload.ver) return null;
  return { user, expiresAt: payload.exp };
}

export function jwtResolver(knex: Knex, secret: string): CredentialResolver {
  return async (ctx) => {
    const token = requestToken(ctx);
    if (!token) return null;
    // An invalid or expired token makes the caller anonymous: public routes still work (the stale token
    // does not lock a visitor out of sign-in) and protected routes answer 401 through currentUser().
    const found = await userOfToken(knex, secret, token);
    if (!found) return null;
    (ctx.state as AppState).tokenExpiresAt = found.expiresAt;
    return found.user;
  };
}

/** API keys (domain/api-keys.ts): the owner, with their roles and authorities of the moment, if activated. */
export function apiKeyResolver(knex: Knex): CredentialResolver {
  return async (ctx) => {
    const token = apiKeyFromHeaders(
      ctx.get(API_KEY_HEADER) || undefined,
      ctx.get('Authorization') || undefined,
    );
    if (!token) return null;
    const userId = await resolveApiKey(knex, token);
    if (userId === null) return null;
    const user = await loadAuthUser(knex, { id: userId });
    if (!user || !user.activated) return null;
    (ctx.state as AppState).viaApiKey = true;
    return user;
  };
}

/**
 * Refuses a caller signed in by an API key: the account-level handlers' own check (defence in depth) of what
 * the access gate already refuses (api/routes/access.ts keyMayCall; domain/api-keys.ts).
 */
export function refuseApiKeyCaller(ctx: Context): void {
  if ((ctx.state as AppState).viaApiKey) throw forbidden();
}

/** Runs the resolvers in order; the first that recognises a credential decides. */
export function authenticate(resolvers: CredentialResolver[]) {
  return async (ctx: Context, next: Next) => {
    for (const resolve of resolvers) {
      const user = await resolve(ctx);
      if (user) {
        (ctx.state as AppState).user = user;
        break;
      }
    }
    await next();
  };
}

export function currentUser(ctx: Context): AuthUser {
  const user = (ctx.state as AppState).user;
  if (!user) throw unauthorized();
  return user;
}

/** When the caller's token expires (seconds since the epoch), for a token re-issued to the same session. */
export function tokenExpiresAt(ctx: Context): number {
  return (ctx.state as AppState).tokenExpiresAt ?? Math.floor(Date.now() / 1000) + 1;
}

/** The signed-in caller when they hold one of the roles; 401 or 403 otherwise. */
export function assertRole(ctx: Context, ...roles: string[]): AuthUser {
  const user = currentUser(ctx);
  if (!hasAnyRole(user.roles, roles)) throw forbidden();
  return user;
}

export function assertProcessMode(user: AuthUser, processId: number, required: AccessMode): void {
  if (!modeSatisfies(processMode(user, processId), required)) throw forbidden();
}

export function assertNodeMode(
  user: AuthUser,
  nodeId: number,
  processId: number,
  required: AccessMode,
): void {
  if (!modeSatisfies(nodeMode(user, nodeId, processId), required)) throw forbidden();
}

export function assertGlobalPermission(user: AuthUser, required: AccessMode = 'WRITE'): void {
  if (!hasGlobalProcessPermission(user, required)) throw forbidden();
}

/**
 * The answer for an id the caller cannot reach or that does not exist, alike (issue 9): 403 for everyone
 * but an admin (who reaches every process, so learns nothing from a 404).
 */
export function unreachable(user: AuthUser, entity?: string): HttpError {
  return isAdmin(user) ? notFound(entity) : forbidden();
}

/** domain/access readsDocumentsOf, with the caller's node grants in the process read from the database. */
export async function mayReadDocumentOf(knex: Knex, user: Principal, processId: number): Promise<boolean> {
  if (processMode(user, processId)) return true;
  const nodeIds = grantedNodeIds(user);
  const inProcess = await nodeIdsOfProcess(knex, processId, nodeIds);
  return readsDocumentsOf(user, processId, inProcess);
}
