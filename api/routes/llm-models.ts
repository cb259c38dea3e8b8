/**
 * LLM models (spec 3 sections 3 and 7): any signed-in user lists them (node panels, RAG); only system
 * administrators (ROLE_ADMIN) create, rename or delete them.
 */
import { NO_CONTENT, route, type Route } from '../route';
import { id } from '../responses';
import type { LlmModelDTO } from '../../domain/integration-types';

import { ADMIN_ROLE, SIGNED_IN, withKeys } from './access';
import { z } from 'zod';
import type { AppDeps } from '../app';
import { currentUser, assertRole } from '../auth';
import { FieldErrorCollector, notFound, setAlert } from '../errors';
import * as models from '../services/llm-models';
import { idParam } from '../validate';
import { llmModelNameRule, modalitiesRule } from '../../domain/integrations';
import { Roles } from '../../domain/enums';

export const modelSchema = z.object({
  id: z.number().int().nullish(),
  name: z.string().nullish(),
  modalities: z.array(z.unknown()).nullish(),
});

const llmModelDto = z.object({
  id,
  name: z.string(),
  modalities: z.array(z.string()),
}) satisfies z.ZodType<LlmModelDTO>;

export function llmModelRoutes({ knex }: AppDeps): Route[] {
  async function validated(input: z.infer<typeof modelSchema>, exceptId?: number) {
    const name = input.name ?? '';
    const modalities = input.modalities ?? [];
    new FieldErrorCollector('llmModel')
      .check(
        'name',
        llmModelNameRule(name, name.trim() ? await models.collidingLlmModelNames(knex, name, exceptId) : []),
      )
      .check('modalities', modalitiesRule(modalities))
      .throwIfAny();
    return { name, modalities: (modalities as string[]).map((m) => m.trim()) };
  }

  return [
    route(
      { method: 'GET', path: '/api/llm-models', access: withKeys(SIGNED_IN), response: z.array(llmModelDto) },
      async (ctx) => {
        currentUser(ctx);
        ctx.body = await models.listLlmModels(knex);
      },
    ),

    route(
      { method: 'GET', path: '/api/llm-models/:id', access: withKeys(SIGNED_IN), response: llmModelDto },
      async (ctx) => {
        currentUser(ctx);
        const model = await models.findLlmModel(knex, idParam(ctx.params.id));
        if (!model) throw notFound('llmModel');
        ctx.body = model;
      },
    ),

    route(
      {
        method: 'POST',
        path: '/api/llm-models',
        access: ADMIN_ROLE,
        body: { schema: modelSchema, object: 'llmModel' },
        response: llmModelDto,
        status: 201,
      },
      async (ctx, { body }) => {
        assertRole(ctx, Roles.ADMIN);
        const created = await models.createLlmModel(knex, await validated(body()));
        ctx.status = 201;
        setAlert(ctx, 'soaApp.llmModel.created', created.name);
        ctx.body = created;
      },
    ),

    route(
      {
        method: 'PUT',
        path: '/api/llm-models',
        access: ADMIN_ROLE,
        body: { schema: modelSchema, object: 'llmModel' },
        response: llmModelDto,
      },
      async (ctx, { body }) => {
        assertRole(ctx, Roles.ADMIN);
        const input = body();
        const id = idParam(input.id, 'id');
        if (!(await models.findLlmModel(knex, id))) throw notFound('llmModel');
        const updated = await models.updateLlmModel(knex, id, await validated(input, id));
        if (!updated) throw notFound('llmModel');
        setAlert(ctx, 'soaApp.llmModel.updated', updated.name);
        ctx.body = updated;
      },
    ),

    route(
      { method: 'DELETE', path: '/api/llm-models/:id', access: ADMIN_ROLE, response: NO_CONTENT },
      async (ctx) => {
        assertRole(ctx, Roles.ADMIN);
        const id = idParam(ctx.params.id);
        const model = await models.findLlmModel(knex, id);
        if (!model || !(await models.deleteLlmModel(knex, id))) throw notFound('llmModel');
        setAlert(ctx, 'soaApp.llmModel.deleted', model.name);
        ctx.status = 204;
      },
    ),
  ];
}
