/**
 * Process secrets (spec 3 sections 2, 3, 5 and 7): every call needs ADMIN on the process, reading the
 * list included (the secrets page is admin-only). Values are write-only: no response carries them.
 */
import { NO_CONTENT, route, type Route } from '../route';
import { id } from '../responses';
import type { SecretDTO } from '../../domain/integration-types';

import { inBody, onProcess, param, query } from './access';
import { z } from 'zod';
import type { AppDeps } from '../app';
import { assertProcessMode, currentUser } from '../auth';
import { FieldErrorCollector, HttpError, notFound, setAlert } from '../errors';
import { findProcess } from '../services/processes';
import * as secrets from '../services/secrets';
import { firstValue, idParam } from '../validate';
import { secretNameRule, secretValueRule } from '../../domain/integrations';

export const secretSchema = z.object({
  name: z.string().nullish(),
  value: z.string().nullish(),
  active: z.boolean().nullish(),
  processId: z.number().int().nullish(),
});

function booleanParam(value: string | undefined, name: string): boolean {
  if (value === 'true') return true;
  if (value === 'false') return false;
  throw new HttpError(400, { message: 'error.http.400', detail: `Parameter ${name} must be true or false` });
}

const secretDto = z.object({
  id,
  name: z.string(),
  active: z.boolean(),
  processId: id,
}) satisfies z.ZodType<SecretDTO>;

export function secretRoutes({ knex }: AppDeps): Route[] {
  return [
    // the list has names and active flags only (values are never returned): readers pick one on the RAG page
    route(
      {
        method: 'GET',
        path: '/api/secrets',
        access: onProcess('READ', query('processId', 'process')),
        response: z.array(secretDto),
      },
      async (ctx) => {
        const user = currentUser(ctx);
        const processId = idParam(firstValue(ctx.query.processId), 'processId');
        assertProcessMode(user, processId, 'READ');
        if (!(await findProcess(knex, processId))) throw notFound('process');
        ctx.body = await secrets.listSecrets(knex, processId);
      },
    ),

    route(
      {
        method: 'POST',
        path: '/api/secrets',
        access: onProcess('ADMIN', inBody('processId', 'process')),
        body: { schema: secretSchema, object: 'secret' },
        response: secretDto,
        status: 201,
      },
      async (ctx, { body }) => {
        const user = currentUser(ctx);
        const input = body();
        if (input.processId === null || input.processId === undefined) {
          new FieldErrorCollector('secret')
            .check('processId', { code: 'NotBlank', key: 'entity.validation.required' })
            .throwIfAny();
        }
        const processId = input.processId!;
        assertProcessMode(user, processId, 'ADMIN');
        if (!(await findProcess(knex, processId))) throw notFound('process');
        const name = input.name ?? '';
        new FieldErrorCollector('secret')
          .check(
            'name',
            secretNameRule(
              name,
              name.trim() ? await secrets.collidingSecretNames(knex, processId, name) : [],
            ),
          )
          .check('value', secretValueRule(input.value ?? ''))
          .throwIfAny();
        const created = await secrets.createSecret(knex, {
          processId,
          name,
          value: input.value!,
          active: input.active ?? true,
        });
        ctx.status = 201;
        setAlert(ctx, 'soaApp.secret.created', created.name);
        ctx.body = created;
      },
    ),

    route(
      {
        method: 'PUT',
        path: '/api/secrets/:id',
        access: onProcess('ADMIN', param('id', 'secret')),
        response: secretDto,
      },
      async (ctx) => {
        const user = currentUser(ctx);
        const id = idParam(ctx.params.id);
        const active = booleanParam(firstValue(ctx.query.active), 'active');
        const secret = await secrets.findSecret(knex, id);
        if (!secret) throw notFound('secret');
        assertProcessMode(user, secret.processId, 'ADMIN');
        const updated = await secrets.setSecretActive(knex, id, active);
        if (!updated) throw notFound('secret');
        setAlert(ctx, 'soaApp.secret.updated', updated.name);
        ctx.body = updated;
      },
    ),

    route(
      {
        method: 'DELETE',
        path: '/api/secrets/:id',
        access: onProcess('ADMIN', param('id', 'secret')),
        response: NO_CONTENT,
      },
      async (ctx) => {
        const user = currentUser(ctx);
        const id = idParam(ctx.params.id);
        const secret = await secrets.findSecret(knex, id);
        if (!secret) throw notFound('secret');
        assertProcessMode(user, secret.processId, 'ADMIN');
        await secrets.deleteSecret(knex, id);
        setAlert(ctx, 'soaApp.secret.deleted', secret.name);
        ctx.status = 204;
      },
    ),
  ];
}
