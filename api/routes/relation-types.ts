/**
 * NER relation types of SPAN nodes (docs/api-graph.md). Reading needs READ on each node asked for;
 * changing needs ADMIN on the node's process. Rules and couplings: domain/labels.ts.
 */
import { NO_CONTENT, route, type Route } from '../route';
import { id } from '../responses';
import type { RelationTypeDTO } from '../../domain/label-types';

import { inBody, onNode, onProcess, param, query } from './access';
import { z } from 'zod';
import { acceptsRelationTypes, normalizeRelationType, relationTypeViolations } from '../../domain/labels';
import type { AppDeps } from '../app';
import { currentUser, unreachable } from '../auth';
import { appError, notFound, setAlert } from '../errors';
import * as relations from '../../db/queries/relation-types';
import { idParam } from '../validate';
import { checkViolations, nodeIdsParam, nodeWithAccess } from './labels';

export const relationSchema = z.object({
  id: z.number().int().nullish(),
  nodeId: z.number().int(),
  name: z.string().nullish(),
  color: z.string().nullish(),
  priority: z.number().nullish(),
  fromId: z.number().int().nullish(),
  toId: z.number().int().nullish(),
  strict: z.boolean().nullish(),
  merge: z.boolean().nullish(),
});
export const relationUpdateSchema = relationSchema.extend({
  id: z.number().int(),
  nodeId: z.number().int().nullish(),
});

type RelationBody = z.infer<typeof relationSchema> | z.infer<typeof relationUpdateSchema>;

function relationValues(input: RelationBody, tagTypeIds: number[]): relations.RelationTypeValues {
  const draft = { ...input, name: input.name ?? '', color: input.color ?? '' };
  checkViolations('nerRelationType', relationTypeViolations(draft, tagTypeIds));
  const n = normalizeRelationType(draft);
  return {
    name: n.name.trim(),
    color: n.color,
    priority: n.priority,
    fromId: n.fromId,
    toId: n.toId,
    strict: n.strict,
    merge: n.merge,
  };
}

const relationTypeDto = z.object({
  id,
  nodeId: id,
  name: z.string(),
  color: z.string(),
  priority: z.number().int(),
  fromId: id.nullable(),
  toId: id.nullable(),
  strict: z.boolean(),
  merge: z.boolean(),
}) satisfies z.ZodType<RelationTypeDTO>;

export function relationTypeRoutes({ knex }: AppDeps): Route[] {
  return [
    route(
      {
        method: 'GET',
        path: '/api/ner-tag-relation-types',
        access: onNode('READ', query('nodeIds', 'node', true)),
        response: z.array(relationTypeDto),
      },
      async (ctx) => {
        const user = currentUser(ctx);
        const nodeIds = nodeIdsParam(ctx);
        for (const nodeId of nodeIds) await nodeWithAccess(knex, user, nodeId, 'READ');
        ctx.body = nodeIds.length ? await relations.listRelationTypes(knex, nodeIds) : [];
      },
    ),

    route(
      {
        method: 'POST',
        path: '/api/ner-tag-relation-types',
        access: onProcess('ADMIN', inBody('nodeId', 'node')),
        body: { schema: relationSchema, object: 'nerRelationType' },
        response: relationTypeDto,
        status: 201,
      },
      async (ctx, { body }) => {
        const user = currentUser(ctx);
        const input = body();
        const node = await nodeWithAccess(knex, user, input.nodeId, 'ADMIN');
        if (!acceptsRelationTypes(node.activityType))
          throw appError('error.dataValidationUnexpectedError', 'nerRelationType');
        const values = relationValues(input, await relations.tagTypeIdsOfNode(knex, node.id));
        const created = await relations.createRelationType(knex, node.id, values);
        ctx.status = 201;
        setAlert(ctx, 'soaApp.nerRelationType.created', created.name);
        ctx.body = created;
      },
    ),

    route(
      {
        method: 'PUT',
        path: '/api/ner-tag-relation-types',
        access: onProcess('ADMIN', inBody('id', 'relationType')),
        body: { schema: relationUpdateSchema, object: 'nerRelationType' },
        response: relationTypeDto,
      },
      async (ctx, { body }) => {
        const user = currentUser(ctx);
        const input = body();
        const current = await relations.findRelationType(knex, input.id);
        if (!current) throw unreachable(user, 'nerRelationType');
        await nodeWithAccess(knex, user, current.nodeId, 'ADMIN');
        const values = relationValues(input, await relations.tagTypeIdsOfNode(knex, current.nodeId));
        const updated = await relations.updateRelationType(knex, current.id, values);
        setAlert(ctx, 'soaApp.nerRelationType.updated', updated.name);
        ctx.body = updated;
      },
    ),

    route(
      {
        method: 'DELETE',
        path: '/api/ner-tag-relation-types/:id',
        access: onProcess('ADMIN', param('id', 'relationType')),
        response: NO_CONTENT,
      },
      async (ctx) => {
        const user = currentUser(ctx);
        const current = await relations.findRelationType(knex, idParam(ctx.params.id));
        if (!current) throw notFound('nerRelationType');
        await nodeWithAccess(knex, user, current.nodeId, 'ADMIN');
        await relations.deleteRelationType(knex, current.id);
        setAlert(ctx, 'soaApp.nerRelationType.deleted', current.name);
        ctx.status = 204;
      },
    ),
  ];
}
