/**
 * `GET /v3/api-docs` (issue 15 section 3, issue 32): the OpenAPI document of every route (api/openapi.ts),
 * for any signed-in user and any API key: an integrator generates a client from it. The same document is
 * committed as docs/openapi.json (`npm run openapi`, scripts/openapi.ts). The `api-docs` profile now only
 * shows the Swagger UI page in the admin menu.
 */
import { z } from 'zod';
import { route, type Route } from '../route';
import { SIGNED_IN, withKeys } from './access';
import type { AppDeps } from '../app';
import { buildOpenApiDocument } from '../openapi';

export const API_VERSION = 'v1.11';

/** The document's top level (its paths and components as JSON Schema objects). */
const openApiDocument = z.object({
  openapi: z.string(),
  info: z.object({ title: z.string(), version: z.string(), description: z.string() }),
  servers: z.array(z.object({ url: z.string() })),
  components: z.record(z.string(), z.unknown()),
  paths: z.record(z.string(), z.record(z.string(), z.unknown())),
});

/** The OpenAPI document of the routes, titled after the application. */
export const apiDocument = (appName: string, routes: readonly Route[]) =>
  buildOpenApiDocument(routes, { title: appName, version: API_VERSION });

export function apiDocsRoutes({ config }: AppDeps, routes: () => readonly Route[]): Route[] {
  let document: unknown;

  return [
    route(
      { method: 'GET', path: '/v3/api-docs', access: withKeys(SIGNED_IN), response: openApiDocument },
      (ctx) => {
        document ??= apiDocument(config.appName, routes());
        ctx.body = document;
      },
    ),
  ];
}
