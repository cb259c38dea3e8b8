/**
 * RAG (issue 16 section 3; spec 3 sections 3, 5, 7 and 9; spec 1 route table; docs/api-rag.md):
 * - `GET api/rag-templates?processId` (READ): the process's template, or the default with id null;
 *   `GET api/rag-templates/defaults` (signed in); `PUT api/rag-templates` (ADMIN on the body's process):
 *   the template must be non-empty and hold both RAG wildcards, else the field error
 *   'soaApp.ragTemplate.creatorModal.editorValidationError'; `DELETE api/rag-templates/{id}` (ADMIN): the
 *   process goes back to the default (204).
 * - `POST api/rag` (READ on the body's process): refused (400 with a detail) unless the rag profile is active
 *   (APP_PROFILES) and the process has RAG on; fields per spec 3 section 5 (400 field errors); the model must
 *   exist and the secret, when given, be the process's and active. Runs ragQueryWorkflow on the worker and
 *   answers RagResponse; 400 with the reason when the worker finds the configuration unusable, 502 with the
 *   API's message when the chat or embeddings API fails, 503 when the engine is unreachable.
 * - `PUT api/processes/{id}/rag` {isRagEnabled, ragTextSplitter} (ADMIN): turns RAG on or off and sets the
 *   splitter; turning it on (or changing the splitter) indexes the process's DONE documents on the worker,
 *   turning it off removes its chunks.
 */
import { NO_CONTENT, route, type Route } from '../route';
import { id, processDto } from '../responses';

import { SIGNED_IN, inBody, onProcess, param, query, withKeys } from './access';
import crypto from 'node:crypto';
import { z } from 'zod';
import { ragQueryDefaults, ragQueryViolations, ragTemplateRule } from '../../domain/rag';
import type { RagResponse, RagTemplateDTO, RagTemplateDefaults } from '../../domain/rag-types';
import {
  RAG_QUERY_TIMEOUT_MS,
  RAG_QUERY_WORKFLOW,
  ragQueryWorkflowId,
  type RagQueryInput,
  type RagQueryResult,
} from '../../workflows/rag-contract';
import type { AppDeps } from '../app';
import { assertProcessMode, currentUser } from '../auth';
import { FieldErrorCollector, HttpError, badRequest, notFound, setAlert } from '../errors';
import { findLlmModel } from '../services/llm-models';
import * as processes from '../services/processes';
import * as rag from '../services/rag';
import { findSecret } from '../services/secrets';
import { runWorkflow } from '../services/workflow-runs';
import { firstValue, idParam } from '../validate';

const idRef = z.object({ id: z.number().int() });

export const templateSchema = z.object({
  id: z.number().int().nullish(),
  processId: z.number().int(),
  template: z.string().nullish(),
  templateEditorState: z.string().nullish(),
  active: z.boolean().nullish(),
});

export const querySchema = z.object({
  query: z.string().max(10_000).nullish(),
  processId: z.number().int(),
  topK: z.number().nullish(),
  similarityThreshold: z.number().nullish(),
  temperature: z.number().nullish(),
  llmModel: z.object({ id: z.number().int().nullish() }).nullish(),
  secret: z.object({ id: z.number().int().nullish() }).nullish(),
});

export const processRagSchema = z.object({
  isRagEnabled: z.boolean(),
  ragTextSplitter: idRef.nullish(),
});

const refused = (message: string, detail: string) => new HttpError(400, { message, detail });

const ragTemplateDto = z.object({
  id: id.nullable(),
  processId: id,
  template: z.string(),
  templateEditorState: z.string().nullable(),
  active: z.boolean(),
}) satisfies z.ZodType<RagTemplateDTO>;
const ragDefaults = z.object({
  template: z.string(),
  templateEditorState: z.string().nullable(),
}) satisfies z.ZodType<RagTemplateDefaults>;
const ragAnswer = z.object({
  llmResponse: z.string(),
  matchedDocuments: z.array(
    z.object({
      docId: id,
      filename: z.string(),
      chunks: z.array(
        z.object({
          id,
          text: z.string(),
          startOffset: z.number().int(),
          endOffset: z.number().int(),
          score: z.number(),
        }),
      ),
    }),
  ),
}) satisfies z.ZodType<RagResponse>;

export function ragRoutes(deps: AppDeps): Route[] {
  const { config, knex, temporal } = deps;

  return [
    // --- RAG (issue 16 section 3; docs/api-rag.md): the query page is ADMIN, WRITE and READ (spec 1 route
    // table); templates are read with the page and changed by process admins ---
    route(
      {
        method: 'GET',
        path: '/api/rag-templates/defaults',
        access: withKeys(SIGNED_IN),
        response: ragDefaults,
      },
      async (ctx) => {
        currentUser(ctx);
        ctx.body = rag.ragTemplateDefaults();
      },
    ),

    route(
      {
        method: 'GET',
        path: '/api/rag-templates',
        access: onProcess('READ', query('processId', 'process')),
        response: ragTemplateDto,
      },
      async (ctx) => {
        const user = currentUser(ctx);
        const processId = idParam(firstValue(ctx.query.processId), 'processId');
        assertProcessMode(user, processId, 'READ');
        if (!(await processes.findProcess(knex, processId))) throw notFound('process');
        ctx.body = await rag.templateOf(knex, processId);
      },
    ),

    route(
      {
        method: 'PUT',
        path: '/api/rag-templates',
        access: onProcess('ADMIN', inBody('processId', 'process')),
        body: { schema: templateSchema, object: 'ragTemplate' },
        response: ragTemplateDto,
      },
      async (ctx, { body }) => {
        const user = currentUser(ctx);
        const input = body();
        assertProcessMode(user, input.processId, 'ADMIN');
        if (!(await processes.findProcess(knex, input.processId))) throw notFound('process');
        new FieldErrorCollector('ragTemplate')
          .check('template', ragTemplateRule(input.template))
          .throwIfAny();
        ctx.body = await rag.saveTemplate(knex, {
          processId: input.processId,
          template: input.template!,
          templateEditorState: input.templateEditorState ?? null,
          active: input.active ?? true,
        });
      },
    ),

    route(
      {
        method: 'DELETE',
        path: '/api/rag-templates/:id',
        access: onProcess('ADMIN', param('id', 'ragTemplate')),
        response: NO_CONTENT,
      },
      async (ctx) => {
        const user = currentUser(ctx);
        const found = await rag.templateById(knex, idParam(ctx.params.id));
        if (!found) throw notFound('ragTemplate');
        assertProcessMode(user, found.processId, 'ADMIN');
        await rag.deleteTemplate(knex, found.id!);
        ctx.status = 204;
      },
    ),

    route(
      {
        method: 'PUT',
        path: '/api/processes/:id/rag',
        access: onProcess('ADMIN', param('id', 'process')),
        body: { schema: processRagSchema, object: 'process' },
        response: processDto,
      },
      async (ctx, { body }) => {
        const user = currentUser(ctx);
        const id = idParam(ctx.params.id);
        assertProcessMode(user, id, 'ADMIN');
        const input = body();
        const process = await processes.findProcess(knex, id);
        if (!process) throw notFound('process');
        const splitterId = input.isRagEnabled ? (input.ragTextSplitter?.id ?? null) : null;
        if (splitterId !== null) await processes.requireSplitter(knex, splitterId);
        if (await rag.setProcessRag(knex, id, input.isRagEnabled, splitterId))
          await rag.startRagIndex(temporal, config.taskQueue, { processId: id });
        setAlert(ctx, 'soaApp.process.updated', process.name);
        ctx.body = await processes.getProcess(knex, user, id);
      },
    ),

    route(
      {
        method: 'POST',
        path: '/api/rag',
        access: onProcess('READ', inBody('processId', 'process')),
        body: { schema: querySchema, object: 'ragQuery' },
        response: ragAnswer,
      },
      async (ctx, { body }) => {
        const user = currentUser(ctx);
        const input = body();
        assertProcessMode(user, input.processId, 'READ');
        const process = await processes.findProcess(knex, input.processId);
        if (!process) throw notFound('process');
        if (!config.profiles.includes('rag'))
          throw refused('error.rag.profileOff', 'RAG is off on this server: the rag profile is not active');
        if (!process.isRagEnabled)
          throw refused('error.rag.processOff', `RAG is not enabled on the process "${process.name}"`);
        const q = { ...input, ...ragQueryDefaults(input) };
        const errors = new FieldErrorCollector('ragQuery');
        for (const v of ragQueryViolations(q)) errors.check(v.field, v.violation);
        errors.throwIfAny();
        const modelId = q.llmModel!.id!;
        const secretId = q.secret?.id ?? null;
        const [model, secret] = await Promise.all([
          findLlmModel(knex, modelId),
          secretId === null ? undefined : findSecret(knex, secretId),
        ]);
        // a secret of another process is as unknown as a missing one (no existence leak)
        const foreignSecret = secretId !== null && secret?.processId !== input.processId;
        new FieldErrorCollector('ragQuery')
          .check('llmModel', model ? null : { code: 'Match', key: 'error.idnotfound' })
          .check('secret', foreignSecret ? { code: 'Match', key: 'error.idnotfound' } : null)
          .throwIfAny();
        if (secret && !secret.active) throw badRequest(`The secret "${secret.name}" is inactive`);
        const result = await runWorkflow<RagQueryInput, RagQueryResult>(
          temporal,
          config.taskQueue,
          RAG_QUERY_WORKFLOW,
          ragQueryWorkflowId(input.processId, crypto.randomUUID()),
          {
            processId: input.processId,
            query: q.query ?? '',
            topK: q.topK,
            similarityThreshold: q.similarityThreshold,
            temperature: q.temperature,
            llmModelId: modelId,
            secretId,
          },
          RAG_QUERY_TIMEOUT_MS + 60_000,
        );
        if ('invalid' in result) throw badRequest(result.invalid);
        if ('failed' in result)
          throw new HttpError(502, { message: 'error.http.502', detail: result.failed });
        const response: RagResponse = result.response;
        ctx.body = response;
      },
    ),
  ];
}
