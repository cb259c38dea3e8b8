/**
 * Edge predicates (docs/api-graph.md "Edges and predicates"): reading needs READ on the edge's process,
 * every change ADMIN on it.
 */
import { NO_CONTENT, route, type Route } from '../route';
import { id } from '../responses';

import { inBody, onProcess, param, query } from './access';
import { z } from 'zod';
import type { AppDeps } from '../app';
import { assertProcessMode, currentUser, unreachable } from '../auth';
import { HttpError, notFound, setAlert } from '../errors';
import { findEdge } from '../services/edges';
import * as predicates from '../services/predicates';
import { idParam } from '../validate';
import { LogicalOperators, PredicateTypes } from '../../domain/graph-types';

const fields = {
  edgeId: z.number().int(),
  parentId: z.number().int().nullish(),
  predicateType: z.enum(PredicateTypes),
  logicalOperator: z.enum(LogicalOperators).nullish(),
  nodeId: z.number().int().nullish(),
  equal: z.boolean().nullish(),
  clfTypeId: z.number().int().nullish(),
  nerTagTypeId: z.number().int().nullish(),
};
export const createSchema = z.object(fields);
export const updateSchema = z.object({ ...fields, id: z.number().int(), edgeId: z.number().int().nullish() });

const input = (p: z.infer<typeof updateSchema> | z.infer<typeof createSchema>) => ({
  ...p,
  edgeId: p.edgeId ?? 0,
  equal: p.equal ?? undefined,
});

/** A predicate as answered; its children are predicates too (described two levels deep). */
const predicateFields = {
  id,
  edgeId: id,
  parentId: id.nullable(),
  predicateType: z.enum(PredicateTypes),
  logicalOperator: z.enum(LogicalOperators).nullable(),
  nodeId: id.nullable(),
  nodeName: z.string().nullable(),
  equal: z.boolean(),
  clfTypeId: id.nullable(),
  clfTypeName: z.string().nullable(),
  nerTagTypeId: id.nullable(),
  nerTagTypeName: z.string().nullable(),
};
const predicateDto = z.object({
  ...predicateFields,
  predicates: z.array(z.object({ ...predicateFields, predicates: z.array(z.unknown()) })),
});

export function predicateRoutes({ knex }: AppDeps): Route[] {
  const edgeFor = async (user: ReturnType<typeof currentUser>, edgeId: number, mode: 'READ' | 'ADMIN') => {
    const edge = await findEdge(knex, edgeId);
    if (!edge) throw unreachable(user, 'edge');
    assertProcessMode(user, edge.processId, mode);
    return edge;
  };

  return [
    route(
      {
        method: 'GET',
        path: '/api/predicates',
        access: onProcess('READ', [query('edgeId', 'edge'), query('processId', 'process')]),
        response: z.array(predicateDto),
      },
      async (ctx) => {
        const user = currentUser(ctx);
        if (ctx.query.edgeId !== undefined) {
          const edge = await edgeFor(user, idParam(ctx.query.edgeId, 'edgeId'), 'READ');
          ctx.body = await predicates.listPredicates(knex, { edgeId: edge.id });
        } else if (ctx.query.processId !== undefined) {
          const processId = idParam(ctx.query.processId, 'processId');
          assertProcessMode(user, processId, 'READ');
          ctx.body = await predicates.listPredicates(knex, { processId });
        } else {
          throw new HttpError(400, {
            message: 'error.http.400',
            detail: 'Parameter edgeId or processId is required',
          });
        }
      },
    ),

    route(
      {
        method: 'POST',
        path: '/api/predicates',
        access: onProcess('ADMIN', inBody('edgeId', 'edge')),
        body: { schema: createSchema, object: 'predicate' },
        response: predicateDto,
        status: 201,
      },
      async (ctx, { body }) => {
        const user = currentUser(ctx);
        const p = body();
        const edge = await edgeFor(user, p.edgeId, 'ADMIN');
        const created = await predicates.createPredicate(knex, edge, input(p));
        ctx.status = 201;
        setAlert(ctx, 'soaApp.predicate.created', created.id);
        ctx.body = created;
      },
    ),

    route(
      {
        method: 'PUT',
        path: '/api/predicates',
        access: onProcess('ADMIN', inBody('id', 'predicate')),
        body: { schema: updateSchema, object: 'predicate' },
        response: predicateDto,
      },
      async (ctx, { body }) => {
        const user = currentUser(ctx);
        const p = body();
        const stored = await predicates.findPredicate(knex, p.id);
        if (!stored) throw unreachable(user, 'predicate');
        const edge = await edgeFor(user, stored.edgeId, 'ADMIN');
        const updated = await predicates.updatePredicate(knex, edge, stored, input(p));
        setAlert(ctx, 'soaApp.predicate.updated', updated.id);
        ctx.body = updated;
      },
    ),

    route(
      {
        method: 'DELETE',
        path: '/api/predicates/:id',
        access: onProcess('ADMIN', param('id', 'predicate')),
        response: NO_CONTENT,
      },
      async (ctx) => {
        const user = currentUser(ctx);
        const stored = await predicates.findPredicate(knex, idParam(ctx.params.id));
        if (!stored) throw notFound('predicate');
        await edgeFor(user, stored.edgeId, 'ADMIN');
        await predicates.deletePredicate(knex, stored.id);
        setAlert(ctx, 'soaApp.predicate.deleted', stored.id);
        ctx.status = 204;
      },
    ),
  ];
}
