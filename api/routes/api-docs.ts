/**
 * `GET /v3/api-docs` (issue 15 section 3): the OpenAPI document of every route (api/openapi.ts), for system
 * administrators, only with the `api-docs` profile (APP_PROFILES); without it the route answers 404.
 */
import { route, type Route } from '../route';
import { ADMIN_ROLE } from './access';
import type { AppDeps } from '../app';
import { notFound } from '../errors';
import { buildOpenApiDocument } from '../openapi';

export const API_VERSION = 'v1.11';

export function apiDocsRoutes({ config }: AppDeps, routes: () => readonly Route[]): Route[] {
  let document: unknown;

  return [
    // and only with the api-docs profile (404 otherwise)
    route({ method: 'GET', path: '/v3/api-docs', access: ADMIN_ROLE }, (ctx) => {
      if (!config.profiles.includes('api-docs')) throw notFound();
      document ??= buildOpenApiDocument(routes(), { title: config.appName, version: API_VERSION });
      ctx.body = document;
    }),
  ];
}
