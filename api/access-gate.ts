/**
 * The access gate (issue 9): api/route.ts puts, in front of every declared route, the gate built from its
 * `access` declaration (vocabulary in api/routes/access.ts) and then the body parser it needs. So a caller is
 * authenticated (401), checked for the declared role or global permission (403) and, when the declared
 * reference is in the path or the query, for the declared mode on its process or node (403) BEFORE a byte
 * of the body is read. A caller signed in by an API key meets 403 first on every route not open to keys
 * (the account, key management, user administration: `keyMayCall` in api/routes/access.ts).
 */
import { bodyParser } from '@koa/bodyparser';
import type { Context, Middleware, Next } from 'koa';
import type { Knex } from 'knex';
import {
  hasAnyRole,
  hasGlobalProcessPermission,
  isAdmin,
  modeSatisfies,
  nodeMode,
  processMode,
  type Principal,
} from '../domain/access';
import type { AccessMode } from '../domain/enums';
import { endpointNodeRefs } from '../db/queries/nodes';
import { REFERENCE_TARGETS } from '../db/queries/reference-targets';
import { mayReadDocumentOf, type AppState } from './auth';
import { forbidden, unauthorized } from './errors';
import { keyMayCall, refsOf, type Ref, type RefKind, type RouteAccess } from './routes/access';
import { idParam } from './validate';

/** JSON bodies up to 2 MB, plain text (e-mail of a password reset) up to 64 KB. */
export const jsonBody = (): Middleware =>
  bodyParser({ enableTypes: ['json', 'text'], jsonLimit: '2mb', textLimit: '64kb' });

/** Where a reference leads: its process, and its node when it names one (or something of one). */
export interface Target {
  processId: number;
  nodeId?: number;
}

/** One query per reference kind (numeric ids only; upload endpoints are resolved apart). */
const RESOLVERS: Record<
  Exclude<RefKind, 'uploadEndpoint'>,
  (knex: Knex, id: number) => Promise<unknown>
> = REFERENCE_TARGETS;

const toTarget = (row: unknown): Target | null => {
  if (!row) return null;
  const r = row as { processId: unknown; nodeId?: unknown };
  return {
    processId: Number(r.processId),
    ...(r.nodeId === undefined || r.nodeId === null ? {} : { nodeId: Number(r.nodeId) }),
  };
};

/** The targets a reference value names (several for an upload endpoint used by several processes). */
export async function resolveTargets(
  knex: Knex,
  kind: RefKind,
  raw: string,
  ctx: Context,
): Promise<Target[]> {
  if (kind === 'uploadEndpoint') {
    const processId = ctx.query.processId;
    const nodes = await endpointNodeRefs(
      knex,
      raw,
      typeof processId === 'string' ? idParam(processId, 'processId') : undefined,
    );
    return nodes.map((n) => ({ processId: Number(n.processId), nodeId: Number(n.id) }));
  }
  const id = idParam(raw, kind);
  if (kind === 'process') return [{ processId: id }]; // the mode on an unknown process is none anyway
  const target = toTarget(await RESOLVERS[kind](knex, id));
  return target ? [target] : [];
}

/** The raw values of a path or query reference; null when it is absent (the handler answers 400). */
function refValues(ctx: Context, ref: Ref): string[] | null {
  const raw = ref.from === 'param' ? ctx.params?.[ref.name] : ctx.query[ref.name];
  if (raw === undefined) return null;
  const list = Array.isArray(raw) ? raw : [raw];
  if (!ref.many) return [String(list[0])];
  const parts = list
    .flatMap((v) => String(v).split(','))
    .map((v) => v.trim())
    .filter((v) => v !== '');
  return parts.length ? parts : null;
}

/** True when the principal holds the declared mode on the target. */
export async function allows(
  knex: Knex,
  principal: Principal,
  access: { who: 'process' | 'node'; mode: AccessMode; viaNode?: boolean },
  target: Target,
): Promise<boolean> {
  if (access.who === 'node' && target.nodeId !== undefined)
    return modeSatisfies(nodeMode(principal, target.nodeId, target.processId), access.mode);
  if (modeSatisfies(processMode(principal, target.processId), access.mode)) return true;
  // Document reads (viaNode): domain/access readsDocumentsOf.
  return (
    access.who === 'process' &&
    !!access.viaNode &&
    access.mode === 'READ' &&
    (await mayReadDocumentOf(knex, principal, target.processId))
  );
}

/** The gate of one declared route. */
export function accessGate(knex: Knex, access: RouteAccess): Middleware {
  const byKey = keyMayCall(access);
  return async (ctx: Context, next: Next) => {
    // An API key acts on its owner's data, never for the account (api/routes/access.ts keyMayCall).
    if (!byKey && (ctx.state as AppState).viaApiKey) throw forbidden();
    if (access.who === 'public') return next();
    const user = (ctx.state as AppState).user;
    if (!user) throw unauthorized();
    switch (access.who) {
      case 'signed-in':
        return next();
      case 'role':
        if (!hasAnyRole(user.roles, [access.role])) throw forbidden();
        return next();
      case 'global':
        if (!hasGlobalProcessPermission(user, access.mode)) throw forbidden();
        return next();
    }
    if (isAdmin(user)) return next(); // ADMIN everywhere: the handler answers 404 for an unknown id
    for (const ref of refsOf(access)) {
      if (ref.from === 'body') break; // after the parse, in the handler
      const values = refValues(ctx, ref);
      if (values === null) continue;
      for (const value of values) {
        const targets = await resolveTargets(knex, ref.kind, value, ctx);
        let allowed = false;
        for (const target of targets) if (!allowed) allowed = await allows(knex, user, access, target);
        // Unknown and unreachable answer alike.
        if (!allowed) throw forbidden();
      }
      break;
    }
    return next();
  };
}
