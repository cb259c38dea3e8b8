/**
 * Every route the app serves, declared in its resource module with `route()` (api/route.ts), grouped by
 * module; `registerRoutes` mounts each group as one router, every route behind its access gate and body
 * parser.
 */
import type Koa from 'koa';
import { mountRoutes, type Route } from '../route';
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
import { agreementRoutes } from './agreement';
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
import { webhookRoutes } from './webhooks';

/**
 * Every declared route, one group per resource module in the order they are mounted (the matrix test and
 * the API documentation read them).
 */
export function buildRoutes(deps: AppDeps): Route[][] {
  const groups = [
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
    agreementRoutes(deps),
    webhookRoutes(deps),
  ];
  // the API documentation describes every route, its own included
  groups.push(apiDocsRoutes(deps, () => groups.flat()));
  return groups;
}

export function registerRoutes(app: Koa, deps: AppDeps): void {
  for (const router of mountRoutes(buildRoutes(deps), deps.knex)) {
    app.use(router.routes());
    app.use(router.allowedMethods());
  }
}
