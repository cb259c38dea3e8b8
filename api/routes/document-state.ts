/**
 * The document's state and history for the workspace and operators: `GET /api/v2/document/{id}/state` (the
 * projection: document, steps with node info, assignees, blockedBy, grouped) and
 * `GET /api/v2/document/{id}/history` (the workflow's history across continue-as-new runs, readable) and
 * `GET /api/v2/document/{id}/timeline` (that history read as steps and people's actions, with the document's
 * action results and inter-process sends: issue 29 section 1).
 * Both need READ on the document's process, or a mode on one of its nodes (an annotator granted a node only
 * still reads the documents passing through it).
 */
import { documentTimeline } from '../services/document-timeline';
import { route, type Route } from '../route';
import { z } from 'zod';
import { documentStateDto, id } from '../responses';
import { TimelineKinds } from '../../domain/timeline';
import { StepStatuses } from '../../domain/steps';

const historyEvent = z.object({
  time: z.string(),
  runId: z.string(),
  eventId: z.number().int(),
  type: z.string(),
  name: z.string().nullable(),
  stepId: id.nullable(),
  who: z.string().nullable(),
  result: z.string().nullable(),
  failure: z.string().nullable(),
  ref: z.number().int().optional(),
  created: z.array(id).optional(),
});
const timeline = z.object({
  documentId: id,
  workflowId: z.string(),
  runs: z.array(z.object({ runId: z.string(), startedAt: z.string() })),
  entries: z.array(
    z.object({
      id: z.string(),
      time: z.string(),
      kind: z.enum(TimelineKinds),
      type: z.string(),
      outcome: z.enum(['ok', 'failed', 'refused']),
      stepId: id.nullable(),
      nodeId: id.nullable(),
      nodeName: z.string().nullable(),
      activityType: z.string().nullable(),
      who: z.string().nullable(),
      status: z.enum(StepStatuses).nullable(),
      durationMs: z.number().nullable(),
      message: z.string().nullable(),
      detail: z.string().nullable(),
      runId: z.string().nullable(),
      documents: z.array(z.object({ documentId: id, processId: id })).optional(),
    }),
  ),
});
import { documentReader, param } from './access';
import { WorkflowNotFoundError } from '@temporalio/client';
import type { Context } from 'koa';
import type { AppDeps } from '../app';
import { currentUser, mayReadDocumentOf, unreachable } from '../auth';
import { notFound } from '../errors';
import { documentHistory } from '../services/document-history';
import { documentById } from '../../db/queries/documents';
import { documentState } from '../services/document-state';
import { idParam } from '../validate';

export function documentStateRoutes({ knex, temporal }: AppDeps): Route[] {
  const readable = async (ctx: Context) => {
    const user = currentUser(ctx);
    const id = idParam(ctx.params.id);
    const doc = await documentById(knex, id);
    if (!doc || !(await mayReadDocumentOf(knex, user, Number(doc.processId))))
      throw unreachable(user, 'document');
    return { user, id, doc };
  };

  return [
    route(
      {
        method: 'GET',
        path: '/api/v2/document/:id/state',
        access: documentReader(param('id', 'document')),
        response: documentStateDto,
      },
      async (ctx) => {
        const { user, id, doc } = await readable(ctx);
        const state = await documentState(knex, id, user, doc);
        if (!state) throw notFound('document');
        ctx.body = state;
      },
    ),

    route(
      {
        method: 'GET',
        path: '/api/v2/document/:id/history',
        access: documentReader(param('id', 'document')),
        response: z.array(historyEvent),
      },
      async (ctx) => {
        const { id } = await readable(ctx);
        try {
          ctx.body = await documentHistory(await temporal.client(), id);
        } catch (err) {
          if (err instanceof WorkflowNotFoundError) ctx.body = [];
          else throw err;
        }
      },
    ),

    route(
      {
        method: 'GET',
        path: '/api/v2/document/:id/timeline',
        access: documentReader(param('id', 'document')),
        response: timeline,
      },
      async (ctx) => {
        const { id } = await readable(ctx);
        ctx.body = await documentTimeline(knex, await temporal.client(), id);
      },
    ),
  ];
}
