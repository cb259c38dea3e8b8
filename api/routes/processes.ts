/**
 * Processes (Spheres), their tags and actors, and the external document splitters (spec 1 sections 2, 3
 * and 7; docs/api-foundation.md). Every handler checks the caller itself: READ on a process to see it,
 * ADMIN to change or delete it, the global WRITE permission (or ROLE_ADMIN) to create one. For a process
 * the caller has no mode on the answer is 403 whether or not it exists; admins get 404 for a missing one.
 */
import { NO_CONTENT, route, type Route } from '../route';
import { id, processActorDto, processDto } from '../responses';
import { SIGNED_IN, globalMode, onProcess, param, withKeys } from './access';
import { z } from 'zod';
import type { AppDeps } from '../app';
import { assertGlobalPermission, assertProcessMode, currentUser } from '../auth';
import { appError, FieldErrorCollector, notFound, setAlert } from '../errors';
import { requireTags } from '../services/process-tags';
import * as documents from '../services/documents';
import { findDocuments } from '../../db/queries/documents';
import { processNodeRefs } from '../../db/queries/nodes';
import { openFileStore } from '../../server/files';
import * as processes from '../services/processes';
import { firstValue, idParam } from '../validate';
import { actorCodeRule, actorNameRule, predefinedTagRule, processNameRule } from '../../domain/validation';
import { keepSchedulesInStep } from '../../server/schedules';

const idRef = z.object({ id: z.number().int() });

export const createProcessSchema = z.object({
  name: z.string().nullish(),
  isRagEnabled: z.boolean().nullish(),
  processTags: z.array(idRef).nullish(),
  ragTextSplitter: idRef.nullish(),
});

export const processTagsSchema = z.array(idRef);

export const actorsSchema = z.array(
  z.object({
    processId: z.number().int().nullish(),
    actor: z.string().nullish(),
    name: z.string().nullish(),
  }),
);

export function processRoutes(deps: AppDeps): Route[] {
  const { config, knex, temporal } = deps;
  const documentDeps = documents.documentDepsOf({ knex, store: openFileStore(config), temporal }, config);

  return [
    // filtered to the readable processes
    route(
      { method: 'GET', path: '/api/processes', access: withKeys(SIGNED_IN), response: z.array(processDto) },
      async (ctx) => {
        const user = currentUser(ctx);
        const name = firstValue(ctx.query.name);
        const tagId = firstValue(ctx.query.tagId);
        ctx.body = await processes.listProcesses(knex, user, {
          name: name || undefined,
          tagId: tagId ? idParam(tagId, 'tagId') : undefined,
        });
      },
    ),

    route(
      {
        method: 'GET',
        path: '/api/processes/:id',
        access: onProcess('READ', param('id', 'process')),
        response: processDto,
      },
      async (ctx) => {
        const user = currentUser(ctx);
        const id = idParam(ctx.params.id);
        assertProcessMode(user, id, 'READ');
        const process = await processes.getProcess(knex, user, id);
        if (!process) throw notFound('process');
        ctx.body = process;
      },
    ),

    route(
      {
        method: 'POST',
        path: '/api/processes',
        access: globalMode('WRITE'),
        body: { schema: createProcessSchema, object: 'process' },
        response: processDto,
        status: 201,
      },
      async (ctx, { body }) => {
        const user = currentUser(ctx);
        assertGlobalPermission(user, 'WRITE');
        const input = body();
        const name = input.name ?? '';
        const isRagEnabled = input.isRagEnabled ?? false;
        const tags = await requireTags(knex, input.processTags?.map((t) => t.id) ?? []);
        // The splitter only matters with RAG on; otherwise it is dropped rather than validated.
        const ragTextSplitterId = isRagEnabled ? (input.ragTextSplitter?.id ?? null) : null;
        if (ragTextSplitterId !== null) await processes.requireSplitter(knex, ragTextSplitterId);
        new FieldErrorCollector('process')
          .check(
            'name',
            processNameRule(name, name.trim() ? await processes.collidingProcessNames(knex, name) : []),
          )
          .check('processTags', predefinedTagRule(tags))
          .throwIfAny();
        const created = await processes.createProcess(knex, user, {
          name,
          isRagEnabled,
          tagIds: tags.map((t) => t.id),
          ragTextSplitterId,
        });
        ctx.status = 201;
        setAlert(ctx, 'soaApp.process.created', created.name);
        ctx.body = created;
      },
    ),

    route(
      {
        method: 'DELETE',
        path: '/api/processes/:id',
        access: onProcess('ADMIN', param('id', 'process')),
        response: NO_CONTENT,
      },
      async (ctx) => {
        const user = currentUser(ctx);
        const id = idParam(ctx.params.id);
        assertProcessMode(user, id, 'ADMIN');
        const process = await processes.findProcess(knex, id);
        if (!process) throw notFound('process');
        // Its documents first: their workflows end and their files go (the rows would cascade, the rest not).
        await documents.deleteDocuments(documentDeps, await findDocuments(knex, { processId: id }));
        const nodeIds = (await processNodeRefs(knex, id)).map((n) => Number(n.id));
        await processes.deleteProcess(knex, id);
        await keepSchedulesInStep(deps, nodeIds);
        setAlert(ctx, 'soaApp.process.deleted', process.name);
        ctx.status = 204;
      },
    ),

    route(
      {
        method: 'PUT',
        path: '/api/processes/:id/process-tags',
        access: onProcess('ADMIN', param('id', 'process')),
        body: { schema: processTagsSchema, object: 'process' },
        response: processDto,
      },
      async (ctx, { body }) => {
        const user = currentUser(ctx);
        const id = idParam(ctx.params.id);
        assertProcessMode(user, id, 'ADMIN');
        const input = body();
        if (!(await processes.findProcess(knex, id))) throw notFound('process');
        const tags = await requireTags(
          knex,
          input.map((t) => t.id),
        );
        new FieldErrorCollector('process').check('processTags', predefinedTagRule(tags)).throwIfAny();
        const tagIds = tags.map((t) => t.id);
        const updated = await processes.replaceProcessTags(knex, user, id, tagIds);
        if (!updated) throw notFound('process');
        setAlert(ctx, 'soaApp.process.updated', updated.name);
        ctx.body = updated;
      },
    ),

    // PUT makes the body the process's only actors; POST adds to them. Both answer with all its actors.
    ...(['PUT', 'POST'] as const).map((method) =>
      route(
        {
          method,
          path: '/api/process/:id/process-actors',
          access: onProcess('ADMIN', param('id', 'process')),
          body: { schema: actorsSchema, object: 'processActor' },
          status: method === 'POST' ? 201 : 200,
          response: z.array(processActorDto),
        },
        async (ctx, { body }) => {
          const user = currentUser(ctx);
          const id = idParam(ctx.params.id);
          assertProcessMode(user, id, 'ADMIN');
          const input = body();
          const process = await processes.findProcess(knex, id);
          if (!process) throw notFound('process');
          const errors = new FieldErrorCollector('processActor');
          input.forEach((a, i) => {
            errors.check(`${i}.actor`, actorCodeRule(a.actor ?? ''));
            errors.check(`${i}.name`, actorNameRule(a.name ?? ''));
          });
          errors.throwIfAny();
          if (input.some((a) => a.processId != null && a.processId !== id)) {
            throw appError('error.idinvalid', 'processActor', 'idinvalid');
          }
          const actors = input.map((a) => ({ actor: a.actor ?? '', name: a.name ?? '' }));
          const saved = await processes.saveActors(knex, id, actors, method === 'PUT');
          if (!saved) throw notFound('process');
          ctx.status = method === 'POST' ? 201 : 200;
          setAlert(ctx, 'soaApp.process.updated', process.name);
          ctx.body = saved;
        },
      ),
    ),

    route(
      {
        method: 'GET',
        path: '/api/external-document-splitter',
        access: withKeys(SIGNED_IN),
        response: z.array(z.object({ id, name: z.string(), description: z.string().nullable() })),
      },
      async (ctx) => {
        currentUser(ctx);
        ctx.body = await processes.listSplitters(knex);
      },
    ),
  ];
}
