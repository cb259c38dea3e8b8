/**
 * Training of trainable nodes (spec 3 section 7): `PUT api/trainable-nodes/{id}/train` posts the node's
 * labels and finished documents to its requestPath now (activities/training.ts) and answers the recorded
 * training. ADMIN or WRITE on the node. 400 when the node is not trainable or has no request path, or when
 * the net guard refuses the address (`error.outboundAddressRefused`); 409 while another training of the
 * node runs; 502 when the model server fails (the failed attempt is recorded and in `training`).
 */
import Router from '@koa/router';
import { loadTrainableNode, trainNode } from '../../activities/training';
import type { AppDeps } from '../app';
import { assertNodeMode, currentUser } from '../auth';
import { appError, HttpError, notFound } from '../errors';
import * as nodes from '../services/nodes';
import { idParam } from '../validate';

export function trainableNodeRoutes({ knex, config }: AppDeps): Router {
  const router = new Router();

  router.put('/api/trainable-nodes/:id/train', async (ctx) => {
    const user = currentUser(ctx);
    const node = await nodes.findNode(knex, idParam(ctx.params.id, 'id'));
    if (!node) throw notFound('node');
    assertNodeMode(user, node.id, node.processId, 'WRITE');
    const trainable = await loadTrainableNode(knex, node.id);
    if (trainable === undefined) throw notFound('node');
    if (typeof trainable === 'string')
      throw new HttpError(400, { message: 'error.http.400', detail: trainable });
    const outcome = await trainNode(
      { knex, outboundAllowlist: config.outboundAllowlist },
      trainable,
      'MANUAL',
    );
    if ('skipped' in outcome)
      throw new HttpError(409, { message: 'error.http.409', detail: outcome.skipped });
    const { training } = outcome;
    if (outcome.refused) {
      const e = appError('error.outboundAddressRefused', 'trainableNode');
      e.body.detail = training.error ?? undefined;
      e.body.training = training;
      throw e;
    }
    if (training.status === 'FAILURE')
      throw new HttpError(502, { message: 'error.http.502', detail: training.error ?? undefined, training });
    ctx.body = training;
  });

  return router;
}
