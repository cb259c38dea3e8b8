/**
 * Edge predicates (docs/api-graph.md "Edges and predicates"): reading needs READ on the edge's process,
 * every change ADMIN on it. `POST api/edges/{id}/predicate-dry-run` evaluates an unsaved predicate of the
 * edge over the process's last documents (READ: it only counts and names the process's own documents).
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
import {
  DRY_RUN_DEFAULT_DOCUMENTS,
  DRY_RUN_MAX_DOCUMENTS,
  dryRun,
  testedNodeIds,
  withDraft,
  type DryRunDTO,
} from '../../domain/predicate-dry-run';
import { outgoingEdgesWithPredicates, recentDocumentsWithTags } from '../../db/queries/predicates';

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
/** The draft of a dry run: a predicate of the edge as it would be saved (`id` when it edits one). */
export const dryRunSchema = z.object({
  ...fields,
  id: z.number().int().nullish(),
  edgeId: z.number().int().nullish(),
  limit: z.number().int().min(1).max(DRY_RUN_MAX_DOCUMENTS).nullish(),
});

const documentRef = z.strictObject({ id: z.number().int(), name: z.string() });
const dryRunAnswer = z.strictObject({
  evaluated: z.number().int(),
  branches: z.array(
    z.strictObject({
      edgeId: z.number().int().nullable(),
      toNodeId: z.number().int().nullable(),
      count: z.number().int(),
      documents: z.array(documentRef),
    }),
  ),
}) satisfies z.ZodType<DryRunDTO>;

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
        path: '/api/edges/:id/predicate-dry-run',
        access: onProcess('READ', param('id', 'edge')),
        body: { schema: dryRunSchema, object: 'predicate' },
        response: dryRunAnswer,
      },
      async (ctx, { body }) => {
        const user = currentUser(ctx);
        const edge = await edgeFor(user, idParam(ctx.params.id), 'READ');
        const p = body();
        const draft = {
          id: p.id ?? 0,
          edgeId: edge.id,
          parentId: p.parentId ?? null,
          predicateType: p.predicateType,
          logicalOperator: p.logicalOperator ?? null,
          nodeId: p.nodeId ?? null,
          equal: p.equal ?? true,
          clfTypeId: p.clfTypeId ?? null,
          nerTagTypeId: p.nerTagTypeId ?? null,
        };
        const edges = (await outgoingEdgesWithPredicates(knex, edge.fromId)).map((e) =>
          e.id === edge.id ? { ...e, predicates: withDraft(e.predicates, draft) } : e,
        );
        const nodeIds = testedNodeIds(edges.flatMap((e) => e.predicates));
        const documents = await recentDocumentsWithTags(
          knex,
          edge.processId,
          p.limit ?? DRY_RUN_DEFAULT_DOCUMENTS,
          nodeIds,
        );
        ctx.body = dryRun(edges, documents);
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
