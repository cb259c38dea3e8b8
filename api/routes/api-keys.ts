/**
 * API keys of the signed-in user (issue 15 section 3; spec 3 section 7: `GET api/api-keys?page&size=15`,
 * `POST api/api-keys {expirationDate}`, `DELETE api/api-keys/{id}`; rules in domain/api-keys.ts). Each
 * user sees and deletes only their own keys; a caller signed in by a key cannot manage keys.
 */
import { NO_CONTENT, route, type Route } from '../route';
import { SIGNED_IN } from './access';
import { z } from 'zod';
import type { AppDeps } from '../app';
import { currentUser, refuseApiKeyCaller } from '../auth';
import { FieldErrorCollector, notFound } from '../errors';
import { createApiKey, deleteApiKey, listApiKeys } from '../services/api-keys';
import { AuditTypes, recordAudit } from '../services/audits';
import { setTotal } from '../paging';
import { springPage } from '../responses';
import { idParam, pageQuery } from '../validate';
import {
  API_KEY_PAGE_SIZE,
  expirationDateRule,
  expirationInstant,
  type ApiKeyDTO,
  type ApiKeyPage,
} from '../../domain/api-keys';

export const createSchema = z.object({ expirationDate: z.string().nullish() });

/** A key as listed: never its token (strict, so a list answer carrying one fails every test calling it). */
const listedKey = z.strictObject({
  id: z.number().int(),
  prefix: z.string(),
  expirationDate: z.iso.datetime(),
  createdDate: z.iso.datetime(),
  lastUsedDate: z.iso.datetime().nullable(),
});
export const keyPageSchema = springPage(listedKey) satisfies z.ZodType<ApiKeyPage>;
/** The create answer: the only one with the token. */
export const createdKeySchema = listedKey.extend({ token: z.string() }) satisfies z.ZodType<ApiKeyDTO>;

export function apiKeyRoutes(deps: AppDeps): Route[] {
  const { knex } = deps;

  return [
    // own keys only; a caller signed in by a key is refused (domain/api-keys.ts)
    route(
      { method: 'GET', path: '/api/api-keys', access: SIGNED_IN, response: keyPageSchema },
      async (ctx) => {
        const user = currentUser(ctx);
        refuseApiKeyCaller(ctx);
        const { page, size } = pageQuery(ctx, API_KEY_PAGE_SIZE);
        const result = await listApiKeys(knex, user.id, page, size);
        setTotal(ctx, result.page.totalElements);
        ctx.body = result;
      },
    ),

    route(
      {
        method: 'POST',
        path: '/api/api-keys',
        access: SIGNED_IN,
        body: { schema: createSchema, object: 'apiKey' },
        status: 201,
        response: createdKeySchema,
      },
      async (ctx, { body }) => {
        const user = currentUser(ctx);
        refuseApiKeyCaller(ctx);
        const { expirationDate } = body();
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
      },
    ),

    route(
      { method: 'DELETE', path: '/api/api-keys/:id', access: SIGNED_IN, response: NO_CONTENT },
      async (ctx) => {
        const user = currentUser(ctx);
        refuseApiKeyCaller(ctx);
        const id = idParam(ctx.params.id);
        if (!(await deleteApiKey(knex, user.id, id))) throw notFound('apiKey');
        await recordAudit(deps, { principal: user.login, type: AuditTypes.API_KEY_DELETED, data: { id } });
        ctx.status = 204;
      },
    ),
  ];
}
