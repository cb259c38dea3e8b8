/**
 * A route declared once (issue 28). `route({ method, path, access, body, response }, handler)` is the only
 * way a handler reaches the app: `mountRoutes` builds the routers from the declarations, each route behind
 * the gate of its `access` (api/access-gate.ts: 401/403 before a byte of the body is read) and then, unless
 * the body is multipart, the size-limited JSON/text parser. The same declaration gives:
 * - the body validation: the handler reads its body with `input.body()`, which parses the declared schema
 *   and names the declared object in the field errors (api/validate.ts `parse`, the spec's message keys);
 *   a route whose body takes one of several shapes declares them all and reads one with `input.body(shape)`;
 * - the OpenAPI entry (api/openapi.ts): the access in words, the body schema, the response schema when
 *   declared (under test every answer of such a route is checked against it, so it cannot drift);
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
  /** The answer's schema, for the OpenAPI document. */
  response?: z.ZodType;
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
      if (checkResponses && declaration.response && ctx.status < 300) {
        const answered = declaration.response.safeParse(ctx.body);
        if (!answered.success)
          throw new Error(
            `${routeKey(declaration)} answered outside its declared response: ${answered.error.message}`,
          );
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
