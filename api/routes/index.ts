/** Mounts every resource router. */
import type Koa from 'koa';
import type { AppDeps } from '../app';
import { accountRoutes } from './account';
import { actionResultRoutes } from './action-results';
import { stepActionResultRoutes } from './action-results-steps';
import { connectionRoutes } from './connections';
import { documentRoutes } from './documents';
import { edgeRoutes } from './edges';
import { fileUploadRoutes } from './file-upload';
import { i18nRoutes } from './i18n';
import { labelRoutes } from './labels';
import { llmRoutes } from './llm';
import { llmModelRoutes } from './llm-models';
import { managementRoutes } from './management';
import { matchingRuleRoutes } from './matching-rules';
import { nodeRoutes } from './nodes';
import { predicateRoutes } from './predicates';
import { processTagRoutes } from './process-tags';
import { processRoutes } from './processes';
import { relationTypeRoutes } from './relation-types';
import { runNowRoutes } from './run-now';
import { trainableNodeRoutes } from './trainable-nodes';
import { secretRoutes } from './secrets';
import { stepRoutes } from './steps';
import { documentStateRoutes } from './document-state';
import { sftpConnectionRoutes } from './sftp-connections';

export function registerRoutes(app: Koa, deps: AppDeps): void {
  for (const router of [
    managementRoutes(deps),
    i18nRoutes(deps),
    accountRoutes(deps),
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
    documentRoutes(deps),
    stepRoutes(deps),
    documentStateRoutes(deps),
    actionResultRoutes(deps),
    stepActionResultRoutes(deps),
    llmRoutes(deps),
    runNowRoutes(deps),
    trainableNodeRoutes(deps),
  ]) {
    app.use(router.routes());
    app.use(router.allowedMethods());
  }
}
