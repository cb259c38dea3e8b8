/**
 * The body schema of every route that reads a JSON body with `body()` (api/validate.ts): the same zod objects
 * the handlers validate with, for the OpenAPI document (api/openapi.ts). In tests `body()` checks that a route
 * validates with the schema written here (installed by registerRoutes), so this table cannot drift from the
 * handlers unnoticed.
 */
import type { z } from 'zod';
import * as account from './account';
import * as apiKeys from './api-keys';
import * as connections from './connections';
import * as documents from './documents';
import * as edges from './edges';
import * as issues from './issues';
import * as labels from './labels';
import * as llmModels from './llm-models';
import * as llm from './llm';
import { loggerLevelSchema } from './logger-body';
import * as matchingRules from './matching-rules';
import * as nodes from './nodes';
import * as predicates from './predicates';
import * as processTags from './process-tags';
import * as processes from './processes';
import * as rag from './rag';
import * as relationGraphs from './relation-graphs';
import * as relationTypes from './relation-types';
import * as secrets from './secrets';
import * as webhooks from './webhooks';
import * as speech from './speech';
import * as statistics from './statistics';
import * as steps from './steps';
import * as sftpConnections from './sftp-connections';
import * as tags from './tags';
import * as users from './users';

/** A route whose body takes one of several shapes (by its `type`) lists them all. */
export type BodySchema = z.ZodType | readonly z.ZodType[];

export const ROUTE_BODIES: Readonly<Record<string, BodySchema>> = {
  'POST /api/authenticate': account.schemas.authenticate,
  'POST /api/account': account.schemas.account,
  'POST /api/account/change-password': account.schemas.changePassword,
  'POST /api/register': account.schemas.register,
  'POST /api/account/reset-password/finish': account.schemas.resetFinish,
  'POST /api/api-keys': apiKeys.createSchema,
  'POST /api/email-upload-connection-data': connections.emailSchema,
  'PUT /api/email-upload-connection-data': connections.emailSchema,
  'PUT /api/node/google-drive-connections': connections.driveSchema,
  'PUT /api/documents': documents.updateSchema,
  'POST /api/documents': documents.createSchema,
  'PUT /api/document-content': documents.contentSchema,
  'PUT /api/v2/document/:id/assignees': documents.userIdList,
  'POST /api/edges': edges.edgeSchema,
  'POST /api/issues': issues.issueSchema,
  'PUT /api/issues': issues.updateSchema,
  'POST /api/node/:nodeId/classifier-types': labels.classifierTypeSchema,
  'PUT /api/classifier-types': labels.classifierTypeUpdateSchema,
  'POST /api/node/:nodeId/ner-tag-type': labels.nerTagTypeSchema,
  'PUT /api/ner-tag-type': labels.nerTagTypeUpdateSchema,
  'POST /api/llm-models': llmModels.modelSchema,
  'PUT /api/llm-models': llmModels.modelSchema,
  'POST /api/llm-prompt-step/:stepId/rerun': llm.rerunBody,
  'PUT /api/matching-rules': matchingRules.ruleUpdateSchema,
  'POST /api/matching-rules/batch': matchingRules.batchSchema,
  'POST /api/nodes/fetch-by-ids': nodes.fetchByIds,
  'PUT /api/nodes/coordinates': nodes.coordinatesList,
  'POST /api/nodes': nodes.createSchema,
  'PUT /api/nodes': nodes.updateSchema,
  'PUT /api/nodes/:id/coordinates': nodes.coordinates,
  'POST /api/predicates': predicates.createSchema,
  'PUT /api/predicates': predicates.updateSchema,
  'POST /api/process-tags': processTags.createTagSchema,
  'PUT /api/process-tags': processTags.updateTagSchema,
  'POST /api/processes': processes.createProcessSchema,
  'PUT /api/processes/:id/process-tags': processes.processTagsSchema,
  'PUT /api/ner-tag-relation-graphs/validation': relationGraphs.graphSchema,
  'POST /api/ner-tag-relation-graphs': relationGraphs.graphSchema,
  'PUT /api/ner-tag-relation-graphs': relationGraphs.graphUpdateSchema,
  'POST /api/ner-tag-relation-types': relationTypes.relationSchema,
  'PUT /api/ner-tag-relation-types': relationTypes.relationUpdateSchema,
  'POST /api/secrets': secrets.secretSchema,
  'POST /api/processes/:id/webhooks': webhooks.webhookSchema,
  'PUT /api/webhooks/:id': webhooks.webhookSchema,
  'PUT /api/rag-templates': rag.templateSchema,
  'POST /api/rag': rag.querySchema,
  'PUT /api/processes/:id/rag': rag.processRagSchema,
  'PUT /api/steps': steps.stepSave,
  'PUT /api/ner-tags': tags.nerTagUpdateSchema,
  'POST /api/classifier-tags': tags.classifierTagSchema,
  'PUT /api/process/:id/process-actors': processes.actorsSchema,
  'POST /api/process/:id/process-actors': processes.actorsSchema,
  'POST /api/ner-tags': [tags.nerTagSchema, tags.speechTagSchema],
  'POST /api/ner-tags/batch': tags.nerTagBatchSchema,
  'PUT /api/issues/:id/status': issues.statusBody,
  'POST /api/issues/:id/replies': issues.replyBody,
  'PUT /api/issues/:id/replies/:replyId': issues.replyBody,
  'POST /api/sftp-connection-data': sftpConnections.sftpSchema,
  'PUT /api/sftp-connection-data': sftpConnections.sftpSchema,
  'POST /api/sftp-connection-data/test': sftpConnections.sftpSchema,
  'PUT /api/utterances': speech.utteranceUpdateSchema,
  'POST /api/utterances/batch': speech.batchSchema,
  'POST /api/utterance-tokens': speech.tokenCreateSchema,
  'PUT /api/utterance-tokens': speech.tokenUpdateSchema,
  'POST /api/asr-documents': speech.asrCreateSchema,
  'PUT /api/asr-documents': speech.asrUpdateSchema,
  'POST /api/statistics': statistics.statisticsSchema,
  'POST /api/work-time': statistics.workTimeSchema,
  'POST /api/users': users.schemas.user,
  'PUT /api/users': users.schemas.user,
  'POST /api/authorities': users.schemas.authority,
  'POST /api/roles': users.schemas.role,
  'PUT /api/roles': users.schemas.role,
  'POST /management/loggers/:name': loggerLevelSchema,
};
