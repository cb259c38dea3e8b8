/**
 * Process tags (spec 1 sections 2, 3, 5, 6 and 7; docs/api-foundation.md). Any signed-in user lists them;
 * user tags are managed with the global WRITE permission, predefined (system) tags by ROLE_ADMIN only.
 */
import { NO_CONTENT, route, type Route } from '../route';
import { processTagDto } from '../responses';
import { SIGNED_IN, globalMode, withKeys } from './access';
import type { Knex } from 'knex';
import { z } from 'zod';
import type { AppDeps } from '../app';
import { assertGlobalPermission, currentUser, type AuthUser } from '../auth';
import { FieldErrorCollector, forbidden, notFound, setAlert } from '../errors';
import * as tags from '../services/process-tags';
import { idParam } from '../validate';
import { isAdmin } from '../../domain/access';
import { colorRule, tagNameRule } from '../../domain/validation';

export const createTagSchema = z.object({
  name: z.string().nullish(),
  color: z.string().nullish(),
  predefined: z.boolean().nullish(),
});

// `predefined` is not read: a tag stays a system tag or a user tag for life.
export const updateTagSchema = z.object({
  id: z.number().int(),
  name: z.string().nullish(),
  color: z.string().nullish(),
});

function assertMayManage(user: AuthUser, predefined: boolean): void {
  if (predefined) {
    if (!isAdmin(user)) throw forbidden();
  } else {
    assertGlobalPermission(user, 'WRITE');
  }
}

async function validateTag(knex: Knex, input: tags.TagInput, exceptId?: number): Promise<void> {
  const taken = input.name.trim() ? await tags.collidingTagNames(knex, input.name, exceptId) : [];
  new FieldErrorCollector('processTag')
    .check('name', tagNameRule(input.name, taken))
    .check('color', colorRule(input.color))
    .throwIfAny();
}

export function processTagRoutes({ knex }: AppDeps): Route[] {
  return [
    route(
      {
        method: 'GET',
        path: '/api/process-tags',
        access: withKeys(SIGNED_IN),
        response: z.array(processTagDto),
      },
      async (ctx) => {
        currentUser(ctx);
        ctx.body = await tags.listTags(knex);
      },
    ),

    // the handler asks the admin role for a predefined tag
    route(
      {
        method: 'POST',
        path: '/api/process-tags',
        access: globalMode('WRITE'),
        body: { schema: createTagSchema, object: 'processTag' },
        response: processTagDto,
        status: 201,
      },
      async (ctx, { body }) => {
        const user = currentUser(ctx);
        const input = body();
        const predefined = input.predefined ?? false;
        assertMayManage(user, predefined);
        const fields = { name: input.name ?? '', color: input.color ?? '' };
        await validateTag(knex, fields);
        const created = await tags.createTag(knex, { ...fields, predefined });
        ctx.status = 201;
        setAlert(ctx, 'soaApp.processTag.created', created.name);
        ctx.body = created;
      },
    ),

    route(
      {
        method: 'PUT',
        path: '/api/process-tags',
        access: globalMode('WRITE'),
        body: { schema: updateTagSchema, object: 'processTag' },
        response: processTagDto,
      },
      async (ctx, { body }) => {
        const user = currentUser(ctx);
        const input = body();
        const existing = await tags.findTag(knex, input.id);
        if (!existing) throw notFound('processTag');
        assertMayManage(user, existing.predefined);
        const fields = { name: input.name ?? '', color: input.color ?? '' };
        await validateTag(knex, fields, input.id);
        const updated = await tags.updateTag(knex, input.id, fields);
        if (!updated) throw notFound('processTag');
        setAlert(ctx, 'soaApp.processTag.updated', updated.name);
        ctx.body = updated;
      },
    ),

    route(
      { method: 'DELETE', path: '/api/process-tags/:id', access: globalMode('WRITE'), response: NO_CONTENT },
      async (ctx) => {
        const user = currentUser(ctx);
        const id = idParam(ctx.params.id);
        const existing = await tags.findTag(knex, id);
        if (!existing) throw notFound('processTag');
        assertMayManage(user, existing.predefined);
        await tags.deleteTag(knex, id);
        setAlert(ctx, 'soaApp.processTag.deleted', existing.name);
        ctx.status = 204;
      },
    ),
  ];
}
