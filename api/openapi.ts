/**
 * The OpenAPI 3 document of the API (issue 15 section 3), built from the route declarations the server
 * mounts (api/route.ts, so no route can be missing): each route's access (who may call it, where the
 * checked id is: api/routes/access.ts), the zod schema its handler reads the body with and, when declared,
 * the schema of its answer (converted by zod's own JSON Schema output; a file by its content types), the
 * error body. Served at `GET /v3/api-docs` to any signed-in user and API key (issue 32), committed as
 * docs/openapi.json by `npm run openapi` (scripts/openapi.ts; the typed client in api/client/ is generated
 * from it); the admin menu's API page (profile `api-docs`) shows it in Swagger UI.
 */
import { z } from 'zod';
import { isFileResponse, NO_CONTENT, successStatuses, type Route } from './route';
import { keyMayCall, refsOf, type Ref, type RouteAccess } from './routes/access';
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

const ERROR = { $ref: '#/components/schemas/Error' };
const errorResponse = (description: string): Json => ({
  description,
  content: { 'application/json': { schema: ERROR } },
});

/** The error body of every refusal (api/errors.ts, domain/api-types.ts ErrorBodyDTO). */
const ERROR_SCHEMA: Json = {
  type: 'object',
  required: ['status', 'title', 'message'],
  properties: {
    status: { type: 'integer' },
    title: { type: 'string' },
    message: { type: 'string', description: 'a message key (translated by the web app)' },
    detail: { type: 'string' },
    key: { type: 'string' },
    errorKey: { type: 'string' },
    params: { type: 'object', additionalProperties: {} },
    fieldErrors: {
      type: 'array',
      items: {
        type: 'object',
        required: ['objectName', 'field', 'message', 'key'],
        properties: {
          objectName: { type: 'string' },
          field: { type: 'string' },
          message: { type: 'string', description: 'the constraint (NotBlank, Size, Pattern...)' },
          key: { type: 'string', description: 'the message key of the rule that failed' },
        },
      },
    },
  },
};

const STATUS_TEXT: Record<number, string> = { 200: 'OK', 201: 'Created', 202: 'Accepted', 204: 'No content' };

/** The success answer(s) of a route: its JSON schema, its file's content types, or no body. */
function successResponses(r: Route): Record<string, Json> {
  const declared = r.response;
  const body: Json | undefined =
    declared === undefined || declared === NO_CONTENT
      ? undefined
      : isFileResponse(declared)
        ? Object.fromEntries(
            declared.file.map((type) => [type, { schema: { type: 'string', format: 'binary' } }]),
          )
        : { 'application/json': { schema: schemaOf(declared, 'output') } };
  return Object.fromEntries(
    successStatuses(r).map((status) => [
      String(status),
      status === 204 || !body
        ? { description: STATUS_TEXT[status] ?? 'Success' }
        : { description: STATUS_TEXT[status] ?? 'Success', content: body },
    ]),
  );
}

/** The query parameters the access declaration names (the ids the gate checks). */
const queryParameters = (access: RouteAccess): Json[] => {
  const seen = new Set<string>();
  return refsOf(access).flatMap((ref) => {
    if (ref.from !== 'query' || seen.has(ref.name)) return [];
    seen.add(ref.name);
    return [
      {
        name: ref.name,
        in: 'query',
        required: false,
        description: `the ${ref.kind}${ref.many ? 's (repeated)' : ''} the access is checked on`,
        schema: ref.many ? { type: 'array', items: { type: 'string' } } : { type: 'string' },
      },
    ];
  });
};

/** The operation of one declared route. */
function operationOf(r: Route): Json {
  const { access } = r;
  const { path, params } = openApiPath(r.path);
  const operation: Json = {
    operationId: `${r.method.toLowerCase()} ${path}`,
    tags: [tagOf(path)],
    description: `${accessText(access)}${keyMayCall(access) ? '' : ' Not with an API key: needs a session.'}`,
    parameters: [
      ...params.map((name) => ({ name, in: 'path', required: true, schema: { type: 'string' } })),
      ...queryParameters(access),
    ],
    responses: {
      ...successResponses(r),
      '400': errorResponse('Invalid input (field errors with message keys)'),
      ...(access.who === 'public'
        ? {}
        : { '401': errorResponse('Not signed in'), '403': errorResponse('Not allowed') }),
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
    info: {
      title: `${info.title} API`,
      version: info.version,
      description:
        'Sign in with `POST /api/authenticate` (the token is in the Authorization answer header) and send ' +
        '`Authorization: Bearer <token>`, or send an API key in the `' +
        API_KEY_HEADER +
        '` header where the operation allows keys. Errors answer the Error schema. See docs/api.md.',
    },
    servers: [{ url: '/' }],
    components: {
      schemas: { Error: ERROR_SCHEMA },
      securitySchemes: {
        bearer: { type: 'http', scheme: 'bearer', bearerFormat: 'JWT' },
        apiKey: { type: 'apiKey', in: 'header', name: API_KEY_HEADER },
      },
    },
    paths,
  };
}
