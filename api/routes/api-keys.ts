/**
 * API keys of the signed-in user (issue 15 section 3; spec 3 section 7: `GET api/api-keys?page&size=15`,
 * `POST api/api-keys {expirationDate}`, `DELETE api/api-keys/{id}`; rules in domain/api-keys.ts). Each
 * user sees and deletes only their own keys; a caller signed in by a key cannot manage keys.
 */
import Router from '@koa/router';
import { z } from 'zod';
import type { AppDeps } from '../app';
import { currentUser, refuseApiKeyCaller } from '../auth';
import { FieldErrorCollector, notFound } from '../errors';
import { createApiKey, deleteApiKey, listApiKeys } from '../services/api-keys';
import { AuditTypes, recordAudit } from '../services/audits';
import { setTotal } from '../paging';
import { body, idParam, pageQuery } from '../validate';
import { API_KEY_PAGE_SIZE, expirationDateRule, expirationInstant } from '../../domain/api-keys';

export const createSchema = z.object({ expirationDate: z.string().nullish() });

export function apiKeyRoutes(deps: AppDeps): Router {
  const { knex } = deps;
  const router = new Router();

  router.get('/api/api-keys', async (ctx) => {
    const user = currentUser(ctx);
    refuseApiKeyCaller(ctx);
    const { page, size } = pageQuery(ctx, API_KEY_PAGE_SIZE);
    const result = await listApiKeys(knex, user.id, page, size);
    setTotal(ctx, result.page.totalElements);
    ctx.body = result;
  });

  router.post('/api/api-keys', async (ctx) => {
    const user = currentUser(ctx);
    refuseApiKeyCaller(ctx);
    const { expirationDate } = body(ctx, createSchema, 'apiKey');
    new FieldErrorCollector('apiKey')
      .check('expirationDate', expirationDateRule(expirationDate, new Date()))
      .throwIfAny();
    const created = await createApiKey(knex, user.id, expirationInstant(expirationDate!.trim())!);
    // the key's id, prefix and expiry: never its token
    await recordAudit(deps, {
      principal: user.login,
      type: AuditTypes.API_KEY_CREATED,
      data: { id: created.id, prefix: created.prefix, expirationDate: created.expirationDate },
    });
    ctx.set('Cache-Control', 'no-store');
    ctx.status = 201;
    ctx.body = created;
  });

  router.delete('/api/api-keys/:id', async (ctx) => {
    const user = currentUser(ctx);
    refuseApiKeyCaller(ctx);
    const id = idParam(ctx.params.id);
    if (!(await deleteApiKey(knex, user.id, id))) throw notFound('apiKey');
    await recordAudit(deps, { principal: user.login, type: AuditTypes.API_KEY_DELETED, data: { id } });
    ctx.status = 204;
  });

  return router;
}
