/**
 * `POST api/v2/document-info?page&size&sort&paged` with body {paged, filters[{type, value}]} (spec 2
 * section 7): a page of one process's documents for the dashboards and the workspace's documents panel,
 * or with issue filters the issues dashboard's documents with their issue counts; the total in X-Total-Count
 * (of documents: exact up to 1,000 matches, else the planner's estimate, X-Total-Count-Exact false). Paging
 * (domain/paging.ts, api/services/list-paging.ts): page numbers inside the result window (X-Result-Window
 * rows), beyond it for documents the `?after=` / `?before=` cursors of X-Next-Cursor / X-Prev-Cursor
 * (keyset: deep pages cost what the first does), and `?last=true` from the end (the issue view too). The
 * process is the body's PROCESS filter (checked by the service after the parse, declared in ./access.ts).
 *
 * `GET api/processes/{id}/waiting-for-proofreading` (issue 29 section 2): per file parser node, how many
 * documents wait at it for proofreading (its step WAITING), so the dashboard says why none goes on; counts
 * stop past 10,000 (`capped`).
 */
import { z } from 'zod';
import { route, type Route } from '../route';
import { documentReader, inBody, param } from './access';
import { HELD_COUNT_CAP, parserWaitingCounts } from '../../db/queries/steps';
import { idParam } from '../validate';
import { id, userRefDto } from '../responses';
import { StepStatuses } from '../../domain/steps';
import { ActivityTypes } from '../../domain/enums';

import type { AppDeps } from '../app';
import { currentUser, mayReadDocumentOf } from '../auth';
import { forbidden } from '../errors';
import { listDocumentInfo, pageRequest } from '../services/document-info';
import { listHeaders } from '../services/list-paging';

const listed = {
  id,
  processId: id,
  filename: z.string(),
  documentType: z.string(),
  status: z.enum(['WAITING', 'DONE']),
};
/** The dashboard's rows: documents with their steps, or (with an ISSUE* filter) documents with issue counts. */
const documentInfoRows = z.union([
  z.array(
    z.object({
      ...listed,
      blockedBy: userRefDto.nullable(),
      assignees: z.array(userRefDto),
      steps: z.array(
        z.object({
          id,
          status: z.enum(StepStatuses),
          master: z.boolean(),
          rejected: z.boolean(),
          order: z.number().int(),
          nodeId: id,
          nodeName: z.string(),
          activityType: z.enum(ActivityTypes),
          userId: id.nullable(),
          errorMessage: z.string().nullable(),
        }),
      ),
    }),
  ),
  z.array(
    z.object({
      ...listed,
      issueCount: z.number().int(),
      resolvedCount: z.number().int(),
      commentCount: z.number().int(),
    }),
  ),
]);

export function documentInfoRoutes({ knex, config }: AppDeps): Route[] {
  return [
    route(
      {
        method: 'GET',
        path: '/api/processes/:id/waiting-for-proofreading',
        access: documentReader(param('id', 'process')),
        response: z.array(
          z.strictObject({
            nodeId: z.number().int(),
            nodeName: z.string(),
            count: z.number().int(),
            capped: z.boolean(),
          }),
        ),
      },
      async (ctx) => {
        const processId = idParam(ctx.params.id);
        if (!(await mayReadDocumentOf(knex, currentUser(ctx), processId))) throw forbidden();
        const counts = await parserWaitingCounts(knex, processId);
        ctx.body = counts.map((c) => ({
          ...c,
          count: Math.min(c.count, HELD_COUNT_CAP),
          capped: c.count > HELD_COUNT_CAP,
        }));
      },
    ),

    // the process is the body's PROCESS filter; below ADMIN the service narrows what may be listed
    route(
      {
        method: 'POST',
        path: '/api/v2/document-info',
        access: documentReader(inBody('filters[PROCESS]', 'process')),
        response: documentInfoRows,
      },
      async (ctx) => {
        const user = currentUser(ctx);
        const window = config.listResultWindow;
        const paging = pageRequest(ctx.query, window);
        const { rows, ...answer } = await listDocumentInfo(
          knex,
          user,
          (ctx.request as unknown as { body: unknown }).body,
          paging,
        );
        ctx.set(listHeaders(answer, window));
        ctx.body = rows;
      },
    ),
  ];
}
