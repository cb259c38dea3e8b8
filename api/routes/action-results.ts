/**
 * Action execution results (spec 3 section 7, issue 29 section 3):
 * - `GET api/action-execution-results?nodeId` lists a node's results newest first, pages of `size` (default
 *   20) from `page` 0, the total in X-Total-Count, filtered by `status` (SUCCESS or FAILURE) and `documentId`;
 *   each with its document's name, error and duration, and for inter-process sends the documents created in
 *   the receiving processes with their status. READ on the node is enough.
 * - `POST api/steps/{id}/resend` sends a failed inter-process send again (ADMIN on the process): the step,
 *   in ERROR, is rerun; the executor keeps the documents the failed attempt had created already
 *   (activities/actions/inter-process.ts), so only the missing receivers get one.
 */
import { z } from 'zod';
import { route, type Route } from '../route';
import { onNode, onProcess, param, query } from './access';
import {
  nodeExecutions,
  receiverNodes,
  sentDocuments,
  type NodeExecutionRow,
} from '../../db/queries/action-results';
import type { ActionExecutionResultDTO, DeliveryDTO } from '../../domain/action-results';
import type { AppDeps } from '../app';
import { assertNodeMode, currentUser, unreachable } from '../auth';
import { HttpError, notFound } from '../errors';
import * as nodes from '../services/nodes';
import { runStepAction } from '../services/step-actions';
import { findStepContext } from '../services/steps';
import { firstValue, idParam, pageQuery } from '../validate';

const statusFilter = z.enum(['SUCCESS', 'FAILURE']);

const deliverySchema = z.strictObject({
  receiverNodeId: z.number().int(),
  receiverName: z.string().nullable(),
  processId: z.number().int(),
  processName: z.string().nullable(),
  documentId: z.number().int(),
  documentName: z.string().nullable(),
  documentStatus: z.string().nullable(),
}) satisfies z.ZodType<DeliveryDTO>;

const resultSchema = z.strictObject({
  id: z.number().int(),
  nodeId: z.number().int(),
  stepId: z.number().int().nullable(),
  documentId: z.number().int().nullable(),
  documentName: z.string().nullable(),
  status: z.enum(['SUCCESS', 'FAILURE']),
  details: z.record(z.string(), z.unknown()),
  error: z.string().nullable(),
  durationMs: z.number().nullable(),
  createdDate: z.string(),
  deliveries: z.array(deliverySchema).optional(),
  resendable: z.boolean().optional(),
}) satisfies z.ZodType<ActionExecutionResultDTO>;

interface Sent {
  receiverNodeId: number;
  processId: number;
  documentId: number;
}

const sentOf = (r: NodeExecutionRow): Sent[] =>
  Array.isArray(r.details?.documents)
    ? (r.details.documents as Sent[]).filter((d) => Number.isInteger(Number(d?.documentId)))
    : [];

/** A failure's message (`error`; the lexicon's `message`). */
const errorOf = (details: Record<string, unknown>): string | null =>
  typeof details.error === 'string'
    ? details.error
    : typeof details.message === 'string'
      ? details.message
      : null;

export function actionResultRoutes({ knex, temporal }: AppDeps): Route[] {
  return [
    route(
      {
        method: 'GET',
        path: '/api/action-execution-results',
        access: onNode('READ', query('nodeId', 'node')),
        response: z.array(resultSchema),
      },
      async (ctx) => {
        const user = currentUser(ctx);
        const node = await nodes.findNode(knex, idParam(firstValue(ctx.query.nodeId), 'nodeId'));
        if (!node) throw notFound('node');
        assertNodeMode(user, node.id, node.processId, 'READ');
        const { page, size } = pageQuery(ctx, 20);
        const rawStatus = firstValue(ctx.query.status);
        const status = rawStatus ? statusFilter.safeParse(rawStatus) : undefined;
        if (status && !status.success)
          throw new HttpError(400, { message: 'error.http.400', detail: 'status is SUCCESS or FAILURE' });
        const rawDocument = firstValue(ctx.query.documentId);
        const documentId = rawDocument ? idParam(rawDocument, 'documentId') : undefined;
        const { rows, total } = await nodeExecutions(knex, node.id, page, size, {
          status: status?.data,
          documentId,
        });

        const ips = node.activityType === 'IPS';
        const sent = ips ? rows.flatMap(sentOf) : [];
        const [documents, receivers] = await Promise.all([
          sentDocuments(knex, [...new Set(sent.map((d) => Number(d.documentId)))]),
          receiverNodes(knex, [...new Set(sent.map((d) => Number(d.receiverNodeId)))]),
        ]);
        const delivery = (d: Sent): DeliveryDTO => {
          const doc = documents.find((x) => x.documentId === Number(d.documentId));
          const receiver = receivers.find((x) => x.id === Number(d.receiverNodeId));
          return {
            receiverNodeId: Number(d.receiverNodeId),
            receiverName: receiver?.name ?? null,
            processId: Number(d.processId),
            processName: receiver?.processName ?? doc?.processName ?? null,
            documentId: Number(d.documentId),
            documentName: doc?.documentName ?? null,
            documentStatus: doc ? (doc.failing ? 'ERROR' : doc.status) : null,
          };
        };

        ctx.set('X-Total-Count', String(total));
        ctx.set('Access-Control-Expose-Headers', 'X-Total-Count');
        ctx.body = rows.map((r): ActionExecutionResultDTO => {
          const details = r.details ?? {};
          const duration = Number(details.durationMs);
          return {
            id: Number(r.id),
            nodeId: Number(r.nodeId),
            stepId: r.stepId === null ? null : Number(r.stepId),
            documentId: r.documentId === null ? null : Number(r.documentId),
            documentName: r.documentName ?? null,
            status: r.status as ActionExecutionResultDTO['status'],
            details,
            error: r.status === 'FAILURE' ? errorOf(details) : null,
            durationMs: Number.isFinite(duration) ? duration : null,
            createdDate: new Date(r.createdDate).toISOString(),
            ...(ips && {
              deliveries: sentOf(r).map(delivery),
              resendable: r.status === 'FAILURE' && r.stepId !== null,
            }),
          };
        });
      },
    ),

    route(
      {
        method: 'POST',
        path: '/api/steps/:id/resend',
        access: onProcess('ADMIN', param('id', 'step')),
        // the step action's answer (api/services/step-actions.ts): the step after its rerun, with the document's state
        response: z.looseObject({
          id: z.number().int(),
          status: z.string(),
          documentStatus: z.string(),
          documentState: z.unknown(),
        }),
      },
      async (ctx) => {
        const user = currentUser(ctx);
        const stepContext = await findStepContext(knex, idParam(ctx.params.id));
        if (!stepContext) throw unreachable(user, 'step');
        assertNodeMode(user, stepContext.node.id, stepContext.node.processId, 'ADMIN');
        if (stepContext.node.activityType !== 'IPS')
          throw new HttpError(409, {
            message: 'error.step.notResendable',
            detail: 'Only the step of an inter-process send can be sent again',
          });
        if (stepContext.step.status !== 'ERROR')
          throw new HttpError(409, {
            message: 'error.step.notResendable',
            detail: `Only a failed send can be sent again (this step is ${stepContext.step.status})`,
          });
        ctx.body = await runStepAction({ knex, temporal }, user, stepContext, 'rerun');
      },
    ),
  ];
}
