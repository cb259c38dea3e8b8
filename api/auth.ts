/**
 * Authentication and authorization middleware. Credentials are resolved by a list of resolvers (JWT bearer
 * tokens now; API keys slot in as a second resolver). Every route states its own checks:
 * `requireAuth`, `requireRole(...)`, and the access-mode helpers over domain/access.ts.
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
  type AuthorityGrant,
  type Principal,
} from '../domain';
import { mergeAuthorities } from '../domain/access';
import { forbidden, unauthorized } from './errors';

export const JWT_ALGORITHM = 'HS512' as const;

export interface AuthUser extends Principal {
  id: number;
  login: string;
  activated: boolean;
  langKey: string;
}

export interface AppState {
  user?: AuthUser;
}

/** Resolves the caller from the request, or returns null when this credential type is absent. */
export type CredentialResolver = (ctx: Context) => Promise<AuthUser | null>;

export function signToken(secret: string, user: { id: number; login: string; roles: string[] }, seconds: number) {
  return jwt.sign({ sub: user.login, uid: user.id, auth: user.roles.join(',') }, secret, {
    algorithm: JWT_ALGORITHM,
    expiresIn: seconds,
  });
}

/** Loads a user with roles and merged authorities (roles' and own, without duplicates). */
export async function loadAuthUser(knex: Knex, where: { id: number } | { login: string }): Promise<AuthUser | null> {
  const user = await knex('users').where(where).first();
  if (!user) return null;
  const roles: { name: string }[] = await knex('roles')
    .join('user_roles', 'roles.id', 'user_roles.role_id')
    .where('user_roles.user_id', user.id)
    .select('roles.name');
  const cols = ['authorities.id', 'authorities.component_id as componentId', 'authorities.type', 'authorities.mode'];
  const roleAuth: AuthorityGrant[] = await knex('authorities')
    .join('role_authorities', 'authorities.id', 'role_authorities.authority_id')
    .join('user_roles', 'user_roles.role_id', 'role_authorities.role_id')
    .where('user_roles.user_id', user.id)
    .select(cols);
  const ownAuth: AuthorityGrant[] = await knex('authorities')
    .join('user_authorities', 'authorities.id', 'user_authorities.authority_id')
    .where('user_authorities.user_id', user.id)
    .select(cols);
  return {
    id: user.id,
    login: user.login,
    activated: user.activated,
    langKey: user.lang_key,
    roles: roles.map((r) => r.name).sort(),
    authorities: mergeAuthorities(roleAuth, ownAuth).sort((a, b) => (a.id ?? 0) - (b.id ?? 0)),
  };
}

export function jwtResolver(knex: Knex, secret: string): CredentialResolver {
  return async (ctx) => {
    const header = ctx.get('Authorization');
    const token = header.startsWith('Bearer ') ? header.slice(7) : (ctx.query.access_token as string | undefined);
    if (!token) return null;
    let payload: jwt.JwtPayload;
    try {
      payload = jwt.verify(token, secret, { algorithms: [JWT_ALGORITHM] }) as jwt.JwtPayload;
    } catch {
      // An invalid or expired token makes the caller anonymous: public routes still work (the stale token
      // does not lock a visitor out of sign-in) and protected routes answer 401 through currentUser().
      return null;
    }
    const user = await loadAuthUser(knex, { id: Number(payload.uid) });
    return user && user.activated ? user : null;
  };
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

export async function requireAuth(ctx: Context, next: Next) {
  currentUser(ctx);
  await next();
}

export function requireRole(...roles: string[]) {
  return async (ctx: Context, next: Next) => {
    if (!hasAnyRole(currentUser(ctx).roles, roles)) throw forbidden();
    await next();
  };
}

export function assertProcessMode(user: AuthUser, processId: number, required: AccessMode): void {
  if (!modeSatisfies(processMode(user, processId), required)) throw forbidden();
}

export function assertNodeMode(user: AuthUser, nodeId: number, processId: number, required: AccessMode): void {
  if (!modeSatisfies(nodeMode(user, nodeId, processId), required)) throw forbidden();
}

export function assertGlobalPermission(user: AuthUser, required: AccessMode = 'WRITE'): void {
  if (!hasGlobalProcessPermission(user, required)) throw forbidden();
}
