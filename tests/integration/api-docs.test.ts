/**
 * The OpenAPI document (issue 15 section 3, issue 32): `GET /v3/api-docs` for any signed-in user and any API
 * key, with or without the api-docs profile (which only shows the Swagger UI page); every route the routers
 * serve is in it with its access in words, and a route that reads a JSON body carries the very schema its
 * handler reads the body with (both come from the route's declaration, api/route.ts: the handler cannot
 * read another). The served document is the committed docs/openapi.json (scripts/openapi.test.ts keeps
 * that file current).
 */
import fs from 'node:fs';
import path from 'node:path';
import { z } from 'zod';
import type { AppDeps } from '../../api/app';
import { routeKey } from '../../api/route';
import { buildRoutes } from '../../api/routes';
import { openApiPath } from '../../api/openapi';
import { loadConfig } from '../../server/config';
import { buildUser, setupSuite } from '../support/harness';

describe('API documentation', () => {
  const suite = setupSuite({ config: { profiles: ['dev', 'api-docs'] } });

  const deps = {
    config: loadConfig({ ...process.env, PORT: '0' }),
    knex: {},
    temporal: {},
    mailer: {},
  } as unknown as AppDeps;
  const declared = buildRoutes(deps).flat();
  const served = declared.map(routeKey);

  it('is for any signed-in user and any API key, and is the committed docs/openapi.json', async () => {
    expect((await suite.get('/v3/api-docs')).status).toBe(401);
    const user = await suite.signIn(await buildUser(suite.knex));
    const asUser = await suite.get('/v3/api-docs', user);
    expect(asUser.status).toBe(200);
    expect((await suite.get('/v3/api-docs', suite.admin)).body).toEqual(asUser.body);
    const expirationDate = new Date(Date.now() + 30 * 86_400_000).toISOString().slice(0, 10);
    const key = await suite.apiClient(user).POST('/api/api-keys', { body: { expirationDate } });
    expect(key.response.status).toBe(201);
    const byKey = await suite.apiClient({ apiKey: key.data!.token }).GET('/v3/api-docs');
    expect(byKey.response.status).toBe(200);
    const committed = JSON.parse(fs.readFileSync(path.resolve(__dirname, '../../docs/openapi.json'), 'utf8'));
    expect({ ...asUser.body, info: { ...asUser.body.info, title: committed.info.title } }).toEqual(committed);
  });

  it('documents every route of the routers, with its access and the body schema the handler validates', async () => {
    const doc = (await suite.get('/v3/api-docs', suite.admin)).body;
    expect(doc.openapi).toMatch(/^3\./);
    expect(served.length).toBeGreaterThan(140);
    const missing = served.filter((key) => {
      const [method, path] = key.split(' ');
      return !doc.paths[openApiPath(path).path]?.[method.toLowerCase()];
    });
    expect(missing).toEqual([]);

    const op = (key: string) => {
      const [method, path] = key.split(' ');
      return doc.paths[openApiPath(path).path][method.toLowerCase()];
    };
    expect(op('POST /api/api-keys').description).toBe(
      'Any signed-in user. Not with an API key: needs a session.',
    );
    expect(op('GET /api/account').description).toBe('Any signed-in user.');
    expect(op('DELETE /api/processes/:id').description).toMatch(
      /^ADMIN on the process of the process from param `id`/,
    );
    expect(op('POST /api/authenticate').security).toBeUndefined();
    expect(op('GET /api/processes').security).toEqual([{ bearer: [] }, { apiKey: [] }]);
    // account-level routes need a session (api/routes/access.ts keyMayCall)
    expect(op('POST /api/account').security).toEqual([{ bearer: [] }]);
    expect(op('POST /api/users').security).toEqual([{ bearer: [] }]);
    expect(op('GET /api/nodes/:id').parameters).toEqual([
      { name: 'id', in: 'path', required: true, schema: { type: 'string' } },
    ]);

    // every documented body is its handler's schema, converted
    const withBodies = declared.flatMap((r) =>
      r.body && r.body !== 'multipart' ? [[routeKey(r), r.body.schema] as const] : [],
    );
    expect(withBodies.length).toBeGreaterThan(70);
    for (const [key, schema] of withBodies) {
      const documented = op(key).requestBody.content['application/json'].schema;
      const converted = (one: z.ZodType) =>
        JSON.parse(
          JSON.stringify(z.toJSONSchema(one, { target: 'openapi-3.0', unrepresentable: 'any', io: 'input' })),
        );
      expect(documented).toEqual(
        Array.isArray(schema)
          ? { oneOf: schema.map((one: z.ZodType) => converted(one)) }
          : converted(schema as z.ZodType),
      );
    }
    const apiKey = op('POST /api/api-keys').requestBody.content['application/json'].schema;
    expect(apiKey.properties.expirationDate).toMatchObject({ type: 'string', nullable: true });
  });
});

describe('API documentation without the api-docs profile', () => {
  const suite = setupSuite({ config: { profiles: ['dev'] } });

  it('is served all the same (the profile only shows the Swagger UI page)', async () => {
    const user = await suite.signIn(await buildUser(suite.knex));
    expect((await suite.get('/v3/api-docs', user)).status).toBe(200);
  });
});
