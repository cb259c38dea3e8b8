/**
 * A route declared once (issue 28). `route({ method, path, access, body, response }, handler)` is the only
 * way a handler reaches the app: `mountRoutes` builds the routers from the declarations, each route behind
 * the gate of its `access` (api/access-gate.ts: 401/403 before a byte of the body is read) and then, unless
 * the body is multipart, the size-limited JSON/text parser. The same declaration gives:
 * - the body validation: the handler reads its body with `input.body()`, which parses the declared schema
 *   and names the declared object in the field errors (api/validate.ts `parse`, the spec's message keys);
 *   a route whose body takes one of several shapes declares them all and reads one with `input.body(shape)`;
 * - the OpenAPI entry (api/openapi.ts): the access in words, the body schema, the response (issue 32):
 *   a zod schema of the JSON answer, a file's content type(s), or none (204); under test every successful
 *   answer is checked against it (`responseProblem`: a field the schema lacks, a field it has that the
 *   answer lacks, another status or content type all fail the calling test), so it cannot drift;
 * - the authorization matrix (tests/integration/authz-matrix.test.ts), which calls every declared route as
 *   every kind of principal and checks that every route the app mounts is a declared one behind its gate.
 * The vocabulary of `access` (who may call, where the checked id is, API keys) is in api/routes/access.ts.
 * A route without a valid access declaration, or a second route with the same method and path, stops the
 * start.
 */
import Router, { type Layer, type RouterContext } from '@koa/router';
import type { Knex } from 'knex';
import type { Middleware } from 'koa';
import type { z } from 'zod';
import { accessGate, jsonBody } from './access-gate';
import { accessProblem, type RouteAccess } from './routes/access';
import { parse } from './validate';

export const METHODS = ['GET', 'POST', 'PUT', 'DELETE'] as const;
export type Method = (typeof METHODS)[number];

/** A JSON body: its zod schema (or the shapes it may take) and the object name its field errors carry. */
export interface JsonBody<S extends z.ZodType | readonly z.ZodType[] = z.ZodType | readonly z.ZodType[]> {
  schema: S;
  object: string;
}

/** How a route reads its body: JSON validated by a schema, or multipart (the handler streams it). */
export type BodyDeclaration = JsonBody | 'multipart';

export interface RouteDeclaration<B extends BodyDeclaration | undefined = BodyDeclaration | undefined> {
  method: Method;
  /** The path exactly as the router matches it (`/api/nodes/:id`), prefix included. */
  path: string;
  access: RouteAccess;
  /**
   * Unset: the JSON/text parser still runs, and a handler reading a body its own way (a plain-text e-mail,
   * a file, a body a service parses) reads `ctx.request.body`.
   */
  body?: B;
  /** What a successful call answers (the OpenAPI document's response; checked under test). */
  response?: ResponseDeclaration;
  /** The status of a successful answer: 200 unless said (204 for `NO_CONTENT`); several when it varies. */
  status?: number | readonly number[];
}

/**
 * A binary or streamed answer (a file, an export, audio): described by its content type(s); a type ending
 * in `/*` takes any subtype.
 */
export interface FileResponse {
  file: readonly string[];
}
/** No body (204). */
export const NO_CONTENT = 'no-content' as const;
/** The answer of a route: a zod schema of its JSON, a file, or no body. */
export type ResponseDeclaration = z.ZodType | FileResponse | typeof NO_CONTENT;

/** A file answer of the given content type(s). */
export const fileResponse = (...types: string[]): FileResponse => ({ file: types });

export const isFileResponse = (r: ResponseDeclaration | undefined): r is FileResponse =>
  typeof r === 'object' && r !== null && 'file' in r && Array.isArray((r as FileResponse).file);

/** The success status(es) a declaration documents. */
export function successStatuses(decl: Pick<RouteDeclaration, 'response' | 'status'>): number[] {
  if (decl.status !== undefined) return typeof decl.status === 'number' ? [decl.status] : [...decl.status];
  return [decl.response === NO_CONTENT ? 204 : 200];
}

/** `input.body()` of a route: the declared schema parsed, or one declared shape chosen by the handler. */
export type BodyReader<B> =
  B extends JsonBody<infer S>
    ? S extends z.ZodType
      ? () => z.infer<S>
      : S extends readonly z.ZodType[]
        ? <T extends S[number]>(shape: T) => z.infer<T>
        : never
    : never;

export interface RouteInput<B> {
  body: BodyReader<B>;
}

export type RouteContext = RouterContext;
export type Handler<B> = (ctx: RouteContext, input: RouteInput<B>) => unknown;

/** A declared route: its declaration and the handler bound to it. */
export interface Route extends RouteDeclaration {
  handler: (ctx: RouteContext) => unknown;
}

/** `METHOD path`: how messages, tests and the documentation name a route. */
export const routeKey = (r: { method: string; path: string }): string => `${r.method} ${r.path}`;

/** What is wrong with a declaration (null when nothing). */
function declarationProblem(decl: Partial<RouteDeclaration>): string | null {
  if (!decl || typeof decl !== 'object') return 'no declaration';
  if (!METHODS.includes(decl.method as Method))
    return `method ${String(decl.method)} is not one of ${METHODS}`;
  if (typeof decl.path !== 'string' || !decl.path.startsWith('/')) return 'the path must start with /';
  const access = accessProblem(decl.access);
  if (access) return access;
  const body = decl.body;
  if (body !== undefined && body !== 'multipart' && !(body.schema && typeof body.object === 'string'))
    return "the body must be 'multipart' or { schema, object }";
  return null;
}

function assertDeclared(decl: Partial<RouteDeclaration>): void {
  const problem = declarationProblem(decl);
  if (problem)
    throw new Error(`Route ${decl?.method ?? '?'} ${decl?.path ?? '?'} is not declared properly: ${problem}`);
}

/** The reader of the declared body (a programming error, not a client's, when the handler asks for another). */
function bodyReader(decl: RouteDeclaration, ctx: RouteContext) {
  return (shape?: z.ZodType) => {
    const declared = decl.body;
    if (!declared || declared === 'multipart')
      throw new Error(`${routeKey(decl)} declares no JSON body to read`);
    const shapes: readonly z.ZodType[] = Array.isArray(declared.schema) ? declared.schema : [declared.schema];
    const schema = shape ?? (shapes.length === 1 ? shapes[0] : undefined);
    if (!schema || !shapes.includes(schema))
      throw new Error(`${routeKey(decl)} reads its body with a schema it does not declare`);
    return parse(schema, (ctx.request as unknown as { body: unknown }).body, declared.object);
  };
}

/** Under test every answer of a route that declares its response is checked against it. */
const checkResponses = process.env.NODE_ENV === 'test';

type Json = null | boolean | number | string | Json[] | { [key: string]: Json };

/** Where two JSON values first differ (`$.a[0].b`), or null: the keys parsing dropped or added. */
function firstDifference(parsed: unknown, sent: unknown, at = '$'): string | null {
  if (parsed === sent) return null;
  if (Array.isArray(parsed) && Array.isArray(sent)) {
    if (parsed.length !== sent.length) return at;
    for (let i = 0; i < sent.length; i++) {
      const d = firstDifference(parsed[i], sent[i], `${at}[${i}]`);
      if (d) return d;
    }
    return null;
  }
  if (parsed && sent && typeof parsed === 'object' && typeof sent === 'object') {
    const a = parsed as Record<string, unknown>;
    const b = sent as Record<string, unknown>;
    for (const key of Object.keys(b)) if (!(key in a)) return `${at}.${key} (answered, not in the schema)`;
    for (const key of Object.keys(a)) if (!(key in b)) return `${at}.${key} (in the schema, not answered)`;
    for (const key of Object.keys(b)) {
      const d = firstDifference(a[key], b[key], `${at}.${key}`);
      if (d) return d;
    }
    return null;
  }
  return `${at} (the schema changes it)`;
}

/** A body as the client reads it (what JSON.stringify sends), or undefined for a file, stream or text. */
function sentJson(ctx: RouteContext): { json: Json } | undefined {
  const body: unknown = ctx.body;
  if (body === null || body === undefined) return undefined;
  if (
    typeof body === 'string' ||
    Buffer.isBuffer(body) ||
    typeof (body as { pipe?: unknown }).pipe === 'function'
  )
    return undefined;
  return { json: JSON.parse(JSON.stringify(body)) as Json };
}

const mediaType = (header: string): string => header.split(';')[0].trim().toLowerCase();

/**
 * What is wrong with a successful answer against its declaration (null when nothing): its status, and
 * its body exactly as the schema says (every key the schema has, no other: unknown keys fail even where
 * the schema is a plain `z.object`), a file's content type, no body for NO_CONTENT.
 */
export function responseProblem(decl: RouteDeclaration, ctx: RouteContext): string | null {
  const statuses = successStatuses(decl);
  if (!statuses.includes(ctx.status)) return `status ${ctx.status}, declared ${statuses.join(' or ')}`;
  const declared = decl.response;
  if (declared === undefined) return null;
  if (ctx.status === 204) return ctx.body === null || ctx.body === undefined ? null : 'a body with 204';
  if (declared === NO_CONTENT)
    return ctx.body === null || ctx.body === undefined ? null : 'a body, declared none';
  if (isFileResponse(declared)) {
    const type = mediaType(ctx.response.get('Content-Type') || ctx.type || '');
    const matches = declared.file.some((t) =>
      t.endsWith('/*') ? type.startsWith(t.slice(0, -1)) : type === t.toLowerCase(),
    );
    return matches ? null : `content type ${type || 'none'}, declared ${declared.file.join(' or ')}`;
  }
  const sent = sentJson(ctx);
  if (!sent) return 'no JSON body, declared one';
  const answered = declared.safeParse(sent.json);
  if (!answered.success) return answered.error.message;
  const difference = firstDifference(answered.data, sent.json);
  return difference ? `differs from the schema at ${difference}` : null;
}

/** Declares a route. Throws when the declaration is incomplete (no access, a bad method or path). */
export function route<B extends BodyDeclaration | undefined = undefined>(
  decl: RouteDeclaration<B>,
  handler: Handler<B>,
): Route {
  assertDeclared(decl);
  const declaration = decl as RouteDeclaration;
  return {
    ...declaration,
    handler: async (ctx) => {
      await handler(ctx, { body: bodyReader(declaration, ctx) as BodyReader<B> });
      if (checkResponses && ctx.status < 300 && declaration.response !== undefined) {
        const problem = responseProblem(declaration, ctx);
        if (problem) {
          const message = `${routeKey(declaration)} answered outside its declaration: ${problem}`;
          console.error(message); // the 500 carries no detail: the test's output names the field
          throw new Error(message);
        }
      }
    },
  };
}

const GATED = new WeakMap<Middleware, RouteAccess>();

/** The declaration whose gate `mw` is (undefined for any other middleware): for the matrix test. */
export const gateAccess = (mw: unknown): RouteAccess | undefined =>
  typeof mw === 'function' ? GATED.get(mw as Middleware) : undefined;

/** `METHOD path` of each method of a mounted router layer (HEAD rides along with GET). */
export const layerKeys = (layer: Pick<Layer, 'methods' | 'path'>): string[] =>
  layer.methods.filter((m) => m !== 'HEAD').map((m) => `${m} ${String(layer.path)}`);

/**
 * One router per group of routes (a resource module), each route as [its gate, the body parser unless
 * multipart, its handler]. Throws on a route that is not properly declared and on a method and path
 * declared twice.
 */
export function mountRoutes(groups: readonly (readonly Route[])[], knex: Knex): Router[] {
  const seen = new Set<string>();
  const parser = jsonBody();
  return groups.map((routes) => {
    const router = new Router();
    for (const r of routes) {
      assertDeclared(r);
      if (typeof r.handler !== 'function') throw new Error(`${routeKey(r)} has no handler`);
      const key = routeKey(r);
      if (seen.has(key)) throw new Error(`${key} is declared twice`);
      seen.add(key);
      const gate = accessGate(knex, r.access);
      GATED.set(gate, r.access);
      const handler: Middleware = async (ctx) => {
        await r.handler(ctx as RouteContext);
      };
      router.register(r.path, [r.method], [gate, ...(r.body === 'multipart' ? [] : [parser]), handler]);
    }
    return router;
  });
}
