/**
 * Mounts every resource router, each route behind its access gate and body parser (api/access-gate.ts,
 * declarations in ./access.ts).
 */
import type Router from '@koa/router';
import type Koa from 'koa';
import { guardRouters } from '../access-gate';
import { checkBodySchemas } from '../validate';
import { ROUTE_BODIES } from './bodies';
import type { AppDeps } from '../app';
import { accountRoutes } from './account';
import { apiDocsRoutes } from './api-docs';
import { apiKeyRoutes } from './api-keys';
import { auditRoutes } from './audits';
import { actionResultRoutes } from './action-results';
import { stepActionResultRoutes } from './action-results-steps';
import { connectionRoutes } from './connections';
import { documentRoutes } from './documents';
import { documentInfoRoutes } from './document-info';
import { edgeRoutes } from './edges';
import { fileUploadRoutes } from './file-upload';
import { documentFileRoutes } from './document-file';
import { i18nRoutes } from './i18n';
import { issueRoutes } from './issues';
import { exportRoutes } from './export';
import { labelRoutes } from './labels';
import { llmRoutes } from './llm';
import { llmModelRoutes } from './llm-models';
import { managementRoutes } from './management';
import { matchingRuleRoutes } from './matching-rules';
import { nodeRoutes } from './nodes';
import { predicateRoutes } from './predicates';
import { processTagRoutes } from './process-tags';
import { processRoutes } from './processes';
import { ragRoutes } from './rag';
import { relationGraphRoutes } from './relation-graphs';
import { relationTypeRoutes } from './relation-types';
import { runNowRoutes } from './run-now';
import { trainableNodeRoutes } from './trainable-nodes';
import { secretRoutes } from './secrets';
import { stepRoutes } from './steps';
import { documentStateRoutes } from './document-state';
import { sftpConnectionRoutes } from './sftp-connections';
import { speechRoutes } from './speech';
import { statisticsRoutes } from './statistics';
import { tagRoutes } from './tags';
import { userRoutes } from './users';

/** Every router the app serves, in the order they are mounted (the matrix test enumerates them). */
export function buildRouters(deps: AppDeps): Router[] {
  const routers = [
    managementRoutes(deps),
    i18nRoutes(deps),
    accountRoutes(deps),
    apiKeyRoutes(deps),
    processRoutes(deps),
    processTagRoutes(deps),
    nodeRoutes(deps),
    edgeRoutes(deps),
    predicateRoutes(deps),
    labelRoutes(deps),
    matchingRuleRoutes(deps),
    relationTypeRoutes(deps),
    llmModelRoutes(deps),
    secretRoutes(deps),
    connectionRoutes(deps),
    sftpConnectionRoutes(deps),
    fileUploadRoutes(deps),
    documentFileRoutes(deps),
    documentRoutes(deps),
    documentInfoRoutes(deps),
    stepRoutes(deps),
    documentStateRoutes(deps),
    tagRoutes(deps),
    speechRoutes(deps),
    issueRoutes(deps),
    relationGraphRoutes(deps),
    actionResultRoutes(deps),
    stepActionResultRoutes(deps),
    llmRoutes(deps),
    ragRoutes(deps),
    runNowRoutes(deps),
    trainableNodeRoutes(deps),
    statisticsRoutes(deps),
    userRoutes(deps),
    auditRoutes(deps),
    exportRoutes(deps),
  ];
  // the API documentation describes every router, itself included
  routers.push(apiDocsRoutes(deps, routers));
  return routers;
}

export function registerRoutes(app: Koa, deps: AppDeps): void {
  const routers = buildRouters(deps);
  // Under test every body a route validates must be the schema the API documentation shows for it.
  if (process.env.NODE_ENV === 'test')
    checkBodySchemas((route, schema) => {
      const documented = ROUTE_BODIES[route];
      if (!(Array.isArray(documented) ? documented.includes(schema) : documented === schema))
        throw new Error(`${route} validates its body with a schema that api/routes/bodies.ts does not name`);
    });
  guardRouters(routers, deps.knex);
  for (const router of routers) {
    app.use(router.routes());
    app.use(router.allowedMethods());
  }
}
