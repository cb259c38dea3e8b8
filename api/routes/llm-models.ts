/**
 * LLM models (spec 3 sections 3 and 7): any signed-in user lists them (node panels, RAG); only system
 * administrators (ROLE_ADMIN) create, rename or delete them.
 */
import Router from '@koa/router';
import { z } from 'zod';
import type { AppDeps } from '../app';
import { currentUser, requireRole } from '../auth';
import { FieldErrorCollector, notFound, setAlert } from '../errors';
import * as models from '../services/llm-models';
import { body, idParam } from '../validate';
import { llmModelNameRule, modalitiesRule } from '../../domain/integrations';
import { Roles } from '../../domain/enums';

export const modelSchema = z.object({
  id: z.number().int().nullish(),
  name: z.string().nullish(),
  modalities: z.array(z.unknown()).nullish(),
});

export function llmModelRoutes({ knex }: AppDeps): Router {
  const router = new Router();
  const adminOnly = requireRole(Roles.ADMIN);

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

  router.get('/api/llm-models', async (ctx) => {
    currentUser(ctx);
    ctx.body = await models.listLlmModels(knex);
  });

  router.get('/api/llm-models/:id', async (ctx) => {
    currentUser(ctx);
    const model = await models.findLlmModel(knex, idParam(ctx.params.id));
    if (!model) throw notFound('llmModel');
    ctx.body = model;
  });

  router.post('/api/llm-models', adminOnly, async (ctx) => {
    const created = await models.createLlmModel(knex, await validated(body(ctx, modelSchema, 'llmModel')));
    ctx.status = 201;
    setAlert(ctx, 'soaApp.llmModel.created', created.name);
    ctx.body = created;
  });

  router.put('/api/llm-models', adminOnly, async (ctx) => {
    const input = body(ctx, modelSchema, 'llmModel');
    const id = idParam(input.id, 'id');
    if (!(await models.findLlmModel(knex, id))) throw notFound('llmModel');
    const updated = await models.updateLlmModel(knex, id, await validated(input, id));
    if (!updated) throw notFound('llmModel');
    setAlert(ctx, 'soaApp.llmModel.updated', updated.name);
    ctx.body = updated;
  });

  router.delete('/api/llm-models/:id', adminOnly, async (ctx) => {
    const id = idParam(ctx.params.id);
    const model = await models.findLlmModel(knex, id);
    if (!model || !(await models.deleteLlmModel(knex, id))) throw notFound('llmModel');
    setAlert(ctx, 'soaApp.llmModel.deleted', model.name);
    ctx.status = 204;
  });

  return router;
}
