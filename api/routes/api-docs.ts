/**
 * `GET /v3/api-docs` (issue 15 section 3): the OpenAPI document of every route (api/openapi.ts), for system
 * administrators, only with the `api-docs` profile (APP_PROFILES); without it the route answers 404.
 */
import Router from '@koa/router';
import type { AppDeps } from '../app';
import { notFound } from '../errors';
import { buildOpenApiDocument } from '../openapi';

export const API_VERSION = 'v1.11';

export function apiDocsRoutes({ config }: AppDeps, routers: readonly Router[]): Router {
  const router = new Router();
  let document: unknown;
  router.get('/v3/api-docs', (ctx) => {
    if (!config.profiles.includes('api-docs')) throw notFound();
    document ??= buildOpenApiDocument([...routers], { title: config.appName, version: API_VERSION });
    ctx.body = document;
  });
  return router;
}
