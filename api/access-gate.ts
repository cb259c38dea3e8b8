/**
 * The access gate (issue 9): every route of every router gets, in front of its own middleware, a gate
 * built from its declaration in api/routes/access.ts and then the body parser it needs. So a caller is
 * authenticated (401), checked for the declared role or global permission (403) and, when the declared
 * reference is in the path or the query, for the declared mode on its process or node (403) BEFORE a byte
 * of the body is read. A caller signed in by an API key meets 403 first on every route not open to keys
 * (the account, key management, user administration: `keyMayCall` in api/routes/access.ts). A route without a declaration (or a declaration without a route) stops the start.
 */
import { bodyParser } from '@koa/bodyparser';
import type Router from '@koa/router';
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
import { documentById } from '../db/queries/documents';
import { endpointNodeRefs, nodeRef } from '../db/queries/nodes';
import { stepNode } from '../db/queries/steps';
import { mayReadDocumentOf, type AppState } from './auth';
import { forbidden, unauthorized } from './errors';
import { keyMayCall, ROUTE_ACCESS, refsOf, type Ref, type RefKind, type RouteAccess } from './routes/access';
import { idParam } from './validate';

/** JSON bodies up to 2 MB, plain text (e-mail of a password reset) up to 64 KB. */
export const jsonBody = (): Middleware =>
  bodyParser({ enableTypes: ['json', 'text'], jsonLimit: '2mb', textLimit: '64kb' });

/** Where a reference leads: its process, and its node when it names one (or something of one). */
export interface Target {
  processId: number;
  nodeId?: number;
}

const NODE_OF = (table: string, alias: string) => (knex: Knex, id: number) =>
  knex(`${table} as ${alias}`)
    .join('nodes as n', 'n.id', `${alias}.node_id`)
    .where(`${alias}.id`, id)
    .first('n.id as nodeId', 'n.process_id as processId');
const PROCESS_OF = (table: string) => (knex: Knex, id: number) =>
  knex(table).where('id', id).first('process_id as processId');

/** One query per reference kind (numeric ids only; upload endpoints are resolved apart). */
const RESOLVERS: Record<Exclude<RefKind, 'uploadEndpoint'>, (knex: Knex, id: number) => Promise<unknown>> = {
  process: (knex, id) => knex('processes').where('id', id).first('id as processId'),
  node: async (knex, id) => {
    const node = await nodeRef(knex, id);
    return node && { nodeId: node.id, processId: node.processId };
  },
  document: documentById,
  edge: PROCESS_OF('edges'),
  secret: PROCESS_OF('secrets'),
  ragTemplate: PROCESS_OF('rag_templates'),
  webhook: PROCESS_OF('webhooks'),
  predicate: (knex, id) =>
    knex('predicates as p')
      .join('edges as e', 'e.id', 'p.edge_id')
      .where('p.id', id)
      .first('e.process_id as processId'),
  step: stepNode,
  classifierType: NODE_OF('classifier_types', 'c'),
  nerTagType: NODE_OF('ner_tag_types', 't'),
  nerTag: (knex, id) =>
    knex('ner_tags as g')
      .join('ner_tag_types as t', 't.id', 'g.ner_tag_type_id')
      .join('nodes as n', 'n.id', 't.node_id')
      .where('g.id', id)
      .first('n.id as nodeId', 'n.process_id as processId'),
  classifierTag: NODE_OF('classifier_tags', 'c'),
  relationType: NODE_OF('ner_relation_types', 'r'),
  issue: (knex, id) =>
    knex('issues as i')
      .join('documents as d', 'd.id', 'i.document_id')
      .where('i.id', id)
      .first('d.process_id as processId'),
  relationGraph: NODE_OF('ner_tag_relation_graphs', 'g'),
  utteranceToken: (knex, id) =>
    knex('utterance_tokens as k')
      .join('utterances as u', 'u.id', 'k.utterance_id')
      .join('documents as d', 'd.id', 'u.document_id')
      .where('k.id', id)
      .first('d.process_id as processId'),
  emailConnection: NODE_OF('email_upload_connections', 'c'),
  sftpConnection: NODE_OF('sftp_connections', 'c'),
  matchingRule: (knex, id) =>
    knex('matching_rules as m')
      .join('ner_tag_types as t', 't.id', 'm.ner_tag_type_id')
      .join('nodes as n', 'n.id', 't.node_id')
      .where('m.id', id)
      .first('n.id as nodeId', 'n.process_id as processId'),
};

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

/** `METHOD path` of each method of a router layer (HEAD rides along with GET). */
export const routeKeys = (layer: { methods: string[]; path: string | RegExp }): string[] =>
  layer.methods.filter((m) => m !== 'HEAD').map((m) => `${m} ${String(layer.path)}`);

/**
 * Puts [gate, body parser] in front of every layer of the routers; throws on a route without a
 * declaration and on a declaration without a route.
 */
export function guardRouters(routers: Router[], knex: Knex, table = ROUTE_ACCESS): void {
  const seen = new Set<string>();
  const parser = jsonBody();
  for (const router of routers) {
    for (const layer of router.stack) {
      const keys = routeKeys(layer);
      const declared = keys.map((k) => table[k]);
      const missing = keys.filter((_, i) => !declared[i]);
      if (missing.length)
        throw new Error(`No access declaration for ${missing.join(', ')} (api/routes/access.ts)`);
      if (new Set(declared).size !== 1)
        throw new Error(`The methods of ${String(layer.path)} need one declaration each: split the route`);
      keys.forEach((k) => seen.add(k));
      const access = declared[0];
      const chain: Middleware[] = [accessGate(knex, access)];
      if (access.body !== 'multipart') chain.push(parser);
      layer.stack.unshift(...(chain as typeof layer.stack));
    }
  }
  const unrouted = Object.keys(table).filter((k) => !seen.has(k));
  if (unrouted.length) throw new Error(`Access declarations without a route: ${unrouted.join(', ')}`);
}
