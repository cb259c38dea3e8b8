/**
 * Relation graphs between a document's NER tags (spec 2 sections 3 to 7, issue 12 section 1; rules in
 * domain/relations.ts, contract in docs/api-relations.md):
 * - `GET api/ner-tag-relation-graphs?documentId&stepIds`: the document's graphs with their relations;
 * - `GET api/ner-tag-relation-graphs/candidates?documentId&fromId&toId`: `{message, candidates}`, the relation
 *   types that may link the two tags (best first; the relation menu's options), message the pair's refusal;
 * - `PUT api/ner-tag-relation-graphs/validation` `{documentId, relations}`: `{valid, message, graphs}`;
 * - `POST api/ner-tag-relation-graphs` `{documentId, relations}`: a new graph (201);
 * - `PUT api/ner-tag-relation-graphs` `{id, relations}`: the graph's relations replaced;
 * - `DELETE api/ner-tag-relation-graphs/{id}`.
 * Reading and validating need what reading the document needs; writing needs WRITE on the tags' node and a
 * step of that node in the document that the caller may edit (like a tag write). A graph that breaks a rule
 * answers 422 with the rule's key (error.graph.noCohesive for one that is not connected) and the validation.
 * A document of another process, or a graph the caller cannot reach, answers like an unknown one (403, or
 * 404 to an admin); tags are looked up in the document only.
 */
import { NO_CONTENT, route, type Route } from '../route';
import { id as intId } from '../responses';
import type { GraphValidation, RelationGraphDTO } from '../../domain/relations';

import { documentReader, inBody, onNode, param, query } from './access';
import { z } from 'zod';
import type { AppDeps } from '../app';
import { assertNodeMode, currentUser, mayReadDocumentOf, unreachable, type AuthUser } from '../auth';
import * as graphs from '../services/relation-graphs';
import { bodyId, idParam, MAX_ID, stepIdsQuery } from '../validate';
import { grantedNodeIds, modeSatisfies, nodeMode, processMode } from '../../domain/access';
import { documentProcessId } from '../../db/queries/documents';
import { nodeIdsOfProcess } from '../../db/queries/nodes';

const id = z.number().int().min(1).max(MAX_ID);
/** At most this many relations in one graph. */
export const GRAPH_MAX_RELATIONS = 1000;
const relationsSchema = z
  .array(z.object({ fromId: id, toId: id, relationTypeId: id }))
  .max(GRAPH_MAX_RELATIONS);
export const graphSchema = z.object({ documentId: id, relations: relationsSchema });
export const graphUpdateSchema = z.object({ id, relations: relationsSchema });

const relationGraphDto = z.object({
  id: intId,
  documentId: intId,
  stepId: intId.nullable(),
  nodeId: intId,
  relations: z.array(
    z.object({
      id: intId,
      relationGraphId: intId,
      fromId: intId,
      toId: intId,
      relationTypeId: intId,
      relationType: z.object({ id: intId, name: z.string(), color: z.string() }).optional(),
    }),
  ),
}) satisfies z.ZodType<RelationGraphDTO>;
const candidatesDto = z.object({
  message: z.string().nullable(),
  candidates: z.array(
    z.object({
      id: intId,
      nodeId: intId,
      name: z.string(),
      color: z.string(),
      priority: z.number().int(),
      fromId: intId.nullable(),
      toId: intId.nullable(),
      strict: z.boolean(),
      merge: z.boolean(),
    }),
  ),
});
const validationDto = z.object({
  valid: z.boolean(),
  message: z.string().nullable(),
  graphs: z.array(z.array(z.number().int())),
}) satisfies z.ZodType<Omit<GraphValidation, 'message'> & { message: string | null }>;

export function relationGraphRoutes({ knex }: AppDeps): Route[] {
  /** The document, readable by the caller, and its process; else 403 (404 to an admin). */
  const readableDocument = async (user: AuthUser, documentId: number) => {
    const processId = await documentProcessId(knex, documentId);
    if (processId === undefined || !(await mayReadDocumentOf(knex, user, processId)))
      throw unreachable(user, 'document');
    return { id: documentId, processId };
  };

  /** WRITE on the process, or on one of its nodes (the tags' node is checked once the body is read). */
  const mayWriteIn = async (user: AuthUser, processId: number): Promise<boolean> => {
    if (modeSatisfies(processMode(user, processId), 'WRITE')) return true;
    const nodeIds = grantedNodeIds(user);
    if (!nodeIds.length) return false;
    const inProcess = await nodeIdsOfProcess(knex, processId, nodeIds);
    return inProcess.some((n) => modeSatisfies(nodeMode(user, n, processId), 'WRITE'));
  };

  /** The graph, with WRITE on its node; else 403 (404 to an admin). */
  const writableGraph = async (user: AuthUser, graphId: number) => {
    const graph = await graphs.graphRef(knex, graphId);
    if (!graph) throw unreachable(user, 'relationGraph');
    assertNodeMode(user, graph.nodeId, graph.processId, 'WRITE');
    return graph;
  };

  return [
    // --- relation graphs of a document's tags (the handlers check WRITE on the tags' node once the body is
    // read, and an editable step of it: 409 / 423; a graph that breaks a rule: 422) ---
    route(
      {
        method: 'GET',
        path: '/api/ner-tag-relation-graphs',
        access: documentReader(query('documentId', 'document')),
        response: z.array(relationGraphDto),
      },
      async (ctx) => {
        const user = currentUser(ctx);
        const stepIds = stepIdsQuery(ctx);
        const doc = await readableDocument(user, idParam(ctx.query.documentId, 'documentId'));
        ctx.body = stepIds && !stepIds.length ? [] : await graphs.listGraphs(knex, doc.id, stepIds);
      },
    ),

    route(
      {
        method: 'GET',
        path: '/api/ner-tag-relation-graphs/candidates',
        access: documentReader(query('documentId', 'document')),
        response: candidatesDto,
      },
      async (ctx) => {
        const user = currentUser(ctx);
        const doc = await readableDocument(user, idParam(ctx.query.documentId, 'documentId'));
        ctx.body = await graphs.candidates(
          knex,
          doc.id,
          idParam(ctx.query.fromId, 'fromId'),
          idParam(ctx.query.toId, 'toId'),
        );
      },
    ),

    route(
      {
        method: 'PUT',
        path: '/api/ner-tag-relation-graphs/validation',
        access: documentReader(inBody('documentId', 'document')),
        body: { schema: graphSchema, object: 'relationGraph' },
        response: validationDto,
      },
      async (ctx, { body }) => {
        const user = currentUser(ctx);
        const doc = await readableDocument(user, bodyId(ctx, 'documentId', 'relationGraph'));
        const input = body();
        const { validation } = await graphs.validate(knex, doc.id, input.relations);
        ctx.body = validation;
      },
    ),

    // WRITE on the document's process or one of its nodes, then on the tags' node
    route(
      {
        method: 'POST',
        path: '/api/ner-tag-relation-graphs',
        access: onNode('WRITE', inBody('documentId', 'document')),
        body: { schema: graphSchema, object: 'relationGraph' },
        response: relationGraphDto,
        status: 201,
      },
      async (ctx, { body }) => {
        const user = currentUser(ctx);
        const doc = await readableDocument(user, bodyId(ctx, 'documentId', 'relationGraph'));
        if (!(await mayWriteIn(user, doc.processId))) throw unreachable(user, 'document');
        const input = body();
        const { validation, node } = await graphs.validate(knex, doc.id, input.relations);
        // WRITE on the tags' node before anything is said about the rules beyond the first tag's existence
        if (node) assertNodeMode(user, node.nodeId, node.processId, 'WRITE');
        if (!validation.valid || !node) throw graphs.invalidGraph(validation);
        ctx.status = 201;
        ctx.body = await graphs.createGraph(knex, user, doc.id, node, input.relations);
      },
    ),

    route(
      {
        method: 'PUT',
        path: '/api/ner-tag-relation-graphs',
        access: onNode('WRITE', inBody('id', 'relationGraph')),
        body: { schema: graphUpdateSchema, object: 'relationGraph' },
        response: relationGraphDto,
      },
      async (ctx, { body }) => {
        const user = currentUser(ctx);
        const graph = await writableGraph(user, bodyId(ctx, 'id', 'relationGraph'));
        const input = body();
        ctx.body = await graphs.updateGraph(knex, user, graph, input.relations);
      },
    ),

    route(
      {
        method: 'DELETE',
        path: '/api/ner-tag-relation-graphs/:id',
        access: onNode('WRITE', param('id', 'relationGraph')),
        response: NO_CONTENT,
      },
      async (ctx) => {
        const user = currentUser(ctx);
        const graph = await writableGraph(user, idParam(ctx.params.id));
        await graphs.deleteGraph(knex, user, graph);
        ctx.status = 204;
      },
    ),
  ];
}
