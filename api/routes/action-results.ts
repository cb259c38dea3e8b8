/**
 * Action execution results (spec 3 section 7): `GET api/action-execution-results?nodeId` lists a node's
 * results newest first, pages of `size` (default 20) from `page` 0, the total in X-Total-Count. READ on the
 * node is enough.
 */
import { route, type Route } from '../route';
import { z } from 'zod';
import { id } from '../responses';

import { onNode, query } from './access';
import { nodeExecutions } from '../../db/queries/action-results';
import type { AppDeps } from '../app';
import { assertNodeMode, currentUser } from '../auth';
import { notFound } from '../errors';
import * as nodes from '../services/nodes';
import { firstValue, idParam, pageQuery } from '../validate';

export interface ActionExecutionResultDTO {
  id: number;
  nodeId: number;
  stepId: number | null;
  documentId: number | null;
  status: 'SUCCESS' | 'FAILURE';
  details: Record<string, unknown>;
  createdDate: string;
}

const executionResult = z.object({
  id,
  nodeId: id,
  stepId: id.nullable(),
  documentId: id.nullable(),
  status: z.enum(['SUCCESS', 'FAILURE']),
  details: z.record(z.string(), z.unknown()),
  createdDate: z.string(),
}) satisfies z.ZodType<ActionExecutionResultDTO>;

export function actionResultRoutes({ knex }: AppDeps): Route[] {
  return [
    route(
      {
        method: 'GET',
        path: '/api/action-execution-results',
        access: onNode('READ', query('nodeId', 'node')),
        response: z.array(executionResult),
      },
      async (ctx) => {
        const user = currentUser(ctx);
        const node = await nodes.findNode(knex, idParam(firstValue(ctx.query.nodeId), 'nodeId'));
        if (!node) throw notFound('node');
        assertNodeMode(user, node.id, node.processId, 'READ');
        const { page, size } = pageQuery(ctx, 20);
        const { rows, total } = await nodeExecutions(knex, node.id, page, size);
        ctx.set('X-Total-Count', String(total));
        ctx.set('Access-Control-Expose-Headers', 'X-Total-Count');
        ctx.body = rows.map((r): ActionExecutionResultDTO => ({
          id: Number(r.id),
          nodeId: Number(r.nodeId),
          stepId: r.stepId === null ? null : Number(r.stepId),
          documentId: r.documentId === null ? null : Number(r.documentId),
          status: r.status as ActionExecutionResultDTO['status'],
          details: r.details ?? {},
          createdDate: new Date(r.createdDate).toISOString(),
        }));
      },
    ),
  ];
}
