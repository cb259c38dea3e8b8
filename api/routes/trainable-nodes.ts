/**
 * Training of trainable nodes (spec 3 section 7): `PUT api/trainable-nodes/{id}/train` has the worker post
 * the node's labels and finished documents to its requestPath now (trainNodeWorkflow, awaited) and answers
 * the recorded training. ADMIN or WRITE on the node. 400 when the node is not trainable or has no request path, or when
 * the net guard refuses the address (`error.outboundAddressRefused`); 409 while another training of the
 * node runs; 502 when the model server fails (the failed attempt is recorded and in `training`); 503 when
 * the engine is unreachable. The net guard's allowlist is the worker's OUTBOUND_ALLOWLIST.
 */
import { route, type Route } from '../route';
import { z } from 'zod';
import { id } from '../responses';

import { onNode, param } from './access';
import crypto from 'node:crypto';
import { untrainableReason } from '../../domain/training';
import {
  TRAIN_NODE_WORKFLOW,
  trainNodeWorkflowId,
  type TrainNodeInput,
  type TrainNodeResult,
} from '../../workflows/request-contract';
import type { AppDeps } from '../app';
import { assertNodeMode, currentUser } from '../auth';
import { appError, HttpError, notFound } from '../errors';
import * as nodes from '../services/nodes';
import { runWorkflow } from '../services/workflow-runs';
import { idParam } from '../validate';

/** How long the route waits for the training (the model server has 20 s; the payload is built first). */
const TRAIN_TIMEOUT_MS = 5 * 60_000;

const trainingDto = z.object({
  id,
  nodeId: id,
  reason: z.enum(['MANUAL', 'AUTOMATIC']),
  status: z.enum(['SUCCESS', 'FAILURE']),
  documents: z.number().int(),
  httpStatus: z.number().int().nullable(),
  error: z.string().nullable(),
  createdDate: z.string(),
});

export function trainableNodeRoutes({ knex, temporal, config }: AppDeps): Route[] {
  return [
    route(
      {
        method: 'PUT',
        path: '/api/trainable-nodes/:id/train',
        access: onNode('WRITE', param('id', 'node')),
        response: trainingDto,
      },
      async (ctx) => {
        const user = currentUser(ctx);
        const node = await nodes.findNode(knex, idParam(ctx.params.id, 'id'));
        if (!node) throw notFound('node');
        assertNodeMode(user, node.id, node.processId, 'WRITE');
        // A node that cannot be trained is answered here, without a run on the worker.
        const untrainable = untrainableReason(node.activityType, node.trainableConfig);
        if (untrainable) throw new HttpError(400, { message: 'error.http.400', detail: untrainable });
        const outcome = await runWorkflow<TrainNodeInput, TrainNodeResult>(
          temporal,
          config.taskQueue,
          TRAIN_NODE_WORKFLOW,
          trainNodeWorkflowId(node.id, crypto.randomUUID()),
          { nodeId: node.id },
          TRAIN_TIMEOUT_MS,
        );
        if ('notFound' in outcome) throw notFound('node');
        if ('notTrainable' in outcome)
          throw new HttpError(400, { message: 'error.http.400', detail: outcome.notTrainable });
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
          throw new HttpError(502, {
            message: 'error.http.502',
            detail: training.error ?? undefined,
            training,
          });
        ctx.body = training;
      },
    ),
  ];
}
