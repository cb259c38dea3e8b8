/**
 * Edges (docs/api-graph.md "Edges and predicates"): reading needs READ on the process, adding and removing
 * ADMIN. An edge to a node of another process is refused like any edge the rules do not allow.
 */
import { NO_CONTENT, route, type Route } from '../route';
import { SIGNED_IN, inBody, onProcess, param, query, withKeys } from './access';
import { z } from 'zod';
import type { AppDeps } from '../app';
import { assertProcessMode, currentUser, unreachable } from '../auth';
import { appError, notFound } from '../errors';
import * as edges from '../services/edges';
import { findNode } from '../services/nodes';
import { idParam } from '../validate';
import { EDGE_WHITELIST } from '../../domain/nodes';
import { ActivityTypes } from '../../domain/enums';
import type { EdgeDTO } from '../../domain/graph-types';

export const edgeSchema = z.object({ fromId: z.number().int(), toId: z.number().int() });

/** An edge as answered. */
export const edgeDto = z.object({
  id: z.number().int(),
  fromId: z.number().int(),
  toId: z.number().int(),
  processId: z.number().int(),
}) satisfies z.ZodType<EdgeDTO>;
/** Per activity type, the types an edge may lead to. */
const whitelist = z.record(z.enum(ActivityTypes), z.array(z.enum(ActivityTypes)));

export function edgeRoutes({ knex }: AppDeps): Route[] {
  return [
    route(
      { method: 'GET', path: '/api/edges/whitelist', access: withKeys(SIGNED_IN), response: whitelist },
      (ctx) => {
        currentUser(ctx);
        ctx.body = EDGE_WHITELIST;
      },
    ),

    route(
      {
        method: 'GET',
        path: '/api/edges',
        access: onProcess('READ', query('processId', 'process')),
        response: z.array(edgeDto),
      },
      async (ctx) => {
        const user = currentUser(ctx);
        const processId = idParam(ctx.query.processId, 'processId');
        assertProcessMode(user, processId, 'READ');
        ctx.body = await edges.listEdges(knex, processId);
      },
    ),

    route(
      {
        method: 'POST',
        path: '/api/edges',
        access: onProcess('ADMIN', inBody('fromId', 'node')),
        body: { schema: edgeSchema, object: 'edge' },
        status: 201,
        response: edgeDto,
      },
      async (ctx, { body }) => {
        const user = currentUser(ctx);
        const { fromId, toId } = body();
        const [from, to] = await Promise.all([findNode(knex, fromId), findNode(knex, toId)]);
        if (!from) throw unreachable(user, 'node');
        assertProcessMode(user, from.processId, 'ADMIN');
        // The target too: unknown, or in a process the caller does not administer, answers alike.
        if (!to) throw unreachable(user, 'node');
        assertProcessMode(user, to.processId, 'ADMIN');
        if (to.processId !== from.processId)
          throw appError('error.graph.edgeNotAllowed', 'edge', 'edgeNotAllowed');
        ctx.status = 201;
        ctx.body = await edges.createEdge(knex, from.processId, fromId, toId);
      },
    ),

    route(
      {
        method: 'DELETE',
        path: '/api/edges/:id',
        access: onProcess('ADMIN', param('id', 'edge')),
        response: NO_CONTENT,
      },
      async (ctx) => {
        const user = currentUser(ctx);
        const edge = await edges.findEdge(knex, idParam(ctx.params.id));
        if (!edge) throw notFound('edge');
        assertProcessMode(user, edge.processId, 'ADMIN');
        await edges.deleteEdge(knex, edge);
        ctx.status = 204;
      },
    ),
  ];
}
