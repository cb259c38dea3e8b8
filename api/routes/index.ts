/** Mounts every resource router. */
import type Koa from 'koa';
import type { AppDeps } from '../app';
import { accountRoutes } from './account';
import { i18nRoutes } from './i18n';
import { managementRoutes } from './management';
import { processTagRoutes } from './process-tags';
import { processRoutes } from './processes';

export function registerRoutes(app: Koa, deps: AppDeps): void {
  for (const router of [
    managementRoutes(deps),
    i18nRoutes(deps),
    accountRoutes(deps),
    processRoutes(deps),
    processTagRoutes(deps),
  ]) {
    app.use(router.routes());
    app.use(router.allowedMethods());
  }
}
