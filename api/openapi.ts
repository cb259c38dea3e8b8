/**
 * The OpenAPI 3 document of the API (issue 15 section 3), built from the route declarations the server
 * mounts (api/route.ts, so no route can be missing): each route's access (who may call it, where the
 * checked id is: api/routes/access.ts), the zod schema its handler reads the body with and, when declared,
 * the schema of its answer (converted by zod's own JSON Schema output). Served at `GET /v3/api-docs` with
 * the `api-docs` profile; the admin menu's API page shows it in Swagger UI.
 */
import { z } from 'zod';
import type { Route } from './route';
import { keyMayCall, type Ref, type RouteAccess } from './routes/access';
import { API_KEY_HEADER } from '../domain/api-keys';

type Json = Record<string, unknown>;

/** `/api/nodes/:id/steps` -> `/api/nodes/{id}/steps` and its path parameter names. */
export function openApiPath(path: string): { path: string; params: string[] } {
  const params: string[] = [];
  const converted = path.replace(/:(\w+)\??/g, (_, name: string) => {
    params.push(name);
    return `{${name}}`;
  });
  return { path: converted, params };
}

const refText = (ref: Ref | Ref[]): string =>
  (Array.isArray(ref) ? ref : [ref])
    .map((r) => `${r.kind} from ${r.from} \`${r.name}\`${r.many ? ' (each)' : ''}`)
    .join(' or ');

/** The access declaration in words, for the operation's description. */
export function accessText(access: RouteAccess): string {
  switch (access.who) {
    case 'public':
      return 'Public.';
    case 'signed-in':
      return 'Any signed-in user.';
    case 'role':
      return `Role ${access.role}.`;
    case 'global':
      return `${access.mode} process permission at global level.`;
    case 'process':
      return `${access.mode} on the process of the ${refText(access.ref)}${access.viaNode ? ' (or a grant on one of its nodes)' : ''}.`;
    case 'node':
      return `${access.mode} on the node of the ${refText(access.ref)}.`;
  }
}

/** A zod schema (or the shapes a body may take) as an OpenAPI 3.0 schema object. */
export function schemaOf(schema: z.ZodType | readonly z.ZodType[], io: 'input' | 'output' = 'input'): Json {
  if (Array.isArray(schema)) return { oneOf: schema.map((s: z.ZodType) => schemaOf(s, io)) };
  return z.toJSONSchema(schema as z.ZodType, {
    target: 'openapi-3.0',
    unrepresentable: 'any',
    io,
  }) as Json;
}

const tagOf = (path: string): string => {
  const parts = path.split('/').filter(Boolean);
  const start = parts[0] === 'api' ? (parts[1] === 'v2' ? 2 : 1) : 0;
  return parts[start]?.replace(/^_/, '') ?? 'root';
};

/** The operation of one declared route. */
function operationOf(r: Route): Json {
  const { access } = r;
  const { path, params } = openApiPath(r.path);
  const operation: Json = {
    operationId: `${r.method.toLowerCase()} ${path}`,
    tags: [tagOf(path)],
    description: `${accessText(access)}${keyMayCall(access) ? '' : ' Not with an API key: needs a session.'}`,
    parameters: params.map((name) => ({ name, in: 'path', required: true, schema: { type: 'string' } })),
    responses: {
      '200': r.response
        ? {
            description: 'Success',
            content: { 'application/json': { schema: schemaOf(r.response, 'output') } },
          }
        : { description: 'Success' },
      '400': { description: 'Invalid input (field errors with message keys)' },
      ...(access.who === 'public'
        ? {}
        : { '401': { description: 'Not signed in' }, '403': { description: 'Not allowed' } }),
    },
  };
  // API keys only where a key may call the route (api/routes/access.ts keyMayCall)
  if (access.who !== 'public')
    operation.security = keyMayCall(access) ? [{ bearer: [] }, { apiKey: [] }] : [{ bearer: [] }];
  if (r.body === 'multipart')
    operation.requestBody = {
      required: true,
      content: {
        'multipart/form-data': {
          schema: { type: 'object', properties: { file: { type: 'string', format: 'binary' } } },
        },
      },
    };
  else if (r.body)
    operation.requestBody = {
      required: true,
      content: { 'application/json': { schema: schemaOf(r.body.schema) } },
    };
  return operation;
}

export function buildOpenApiDocument(
  routes: readonly Route[],
  info: { title: string; version: string },
): Json {
  const paths: Record<string, Record<string, Json>> = {};
  for (const r of routes) (paths[openApiPath(r.path).path] ??= {})[r.method.toLowerCase()] = operationOf(r);
  return {
    openapi: '3.0.3',
    info: { title: `${info.title} API`, version: info.version },
    servers: [{ url: '/' }],
    components: {
      securitySchemes: {
        bearer: { type: 'http', scheme: 'bearer', bearerFormat: 'JWT' },
        apiKey: { type: 'apiKey', in: 'header', name: API_KEY_HEADER },
      },
    },
    paths,
  };
}
