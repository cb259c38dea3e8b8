/**
 * Action execution results (spec 3 section 7): `GET api/action-execution-results?nodeId` lists a node's
 * results newest first, pages of `size` (default 20) from `page` 0, the total in X-Total-Count. READ on the
 * node is enough.
 */
import Router from '@koa/router';
import { nodeExecutions } from '../../db/queries/action-results';
import type { AppDeps } from '../app';
import { assertNodeMode, currentUser } from '../auth';
import { notFound } from '../errors';
import * as nodes from '../services/nodes';
import { idParam, pageQuery } from '../validate';

const firstValue = (v: string | string[] | undefined): string | undefined => (Array.isArray(v) ? v[0] : v);

export interface ActionExecutionResultDTO {
  id: number;
  nodeId: number;
  stepId: number | null;
  documentId: number | null;
  status: 'SUCCESS' | 'FAILURE';
  details: Record<string, unknown>;
  createdDate: string;
}

export function actionResultRoutes({ knex }: AppDeps): Router {
  const router = new Router();

  router.get('/api/action-execution-results', async (ctx) => {
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
  });

  return router;
}
