/**
 * Running nodes now (spec 3 section 7), WRITE mode on the node:
 * - `POST api/action-nodes/{id}/execute-action`: a CRON or THRESHOLD action node executes once for the
 *   documents it has collected so far (even none); an ALWAYS node runs per document and is refused (400);
 * - `PUT api/email-upload-node/{id}/fetch-mail`, `PUT api/sftp-upload-node/{id}/fetch-sftp-content`,
 *   `PUT api/google-drive-upload-node/{id}/fetch-content`: one poll of the upload node now.
 * Both wait for the run (on the worker, as the schedules run them) and answer its outcome; 503 when the
 * engine is unreachable.
 */
import { route, type Route } from '../route';
import { z } from 'zod';
import { id } from '../responses';

import { onNode, param } from './access';
import crypto from 'node:crypto';
import type { Context } from 'koa';
import type { AppDeps } from '../app';
import { assertNodeMode, currentUser } from '../auth';
import { badRequest, notFound } from '../errors';
import { isActionType } from '../../domain/nodes';
import type { ActivityType } from '../../domain/enums';
import * as nodes from '../services/nodes';
import { runWorkflow } from '../services/workflow-runs';
import { idParam } from '../validate';
import {
  ACTION_BATCH_WORKFLOW,
  UPLOAD_POLLER_WORKFLOW,
  type ActionBatchInput,
  type ActionBatchResult,
  type UploadPollerInput,
  type UploadPollerResult,
} from '../../workflows/action-contract';

/** How long a request waits for the run it started. */
const RUN_TIMEOUT_MS = 5 * 60_000;

const FETCH_ROUTES: readonly { path: string; type: string; label: string }[] = [
  { path: '/api/email-upload-node/:id/fetch-mail', type: 'EMAIL_UPLOAD', label: 'an e-mail upload node' },
  { path: '/api/sftp-upload-node/:id/fetch-sftp-content', type: 'SFTP_UPLOAD', label: 'an SFTP upload node' },
  {
    path: '/api/google-drive-upload-node/:id/fetch-content',
    type: 'GDU_UPLOAD',
    label: 'a cloud-drive upload node',
  },
];

const actionBatchResult = z.object({
  nodeId: id,
  batchId: id.nullable(),
  documents: z.number().int(),
  status: z.enum(['SUCCESS', 'FAILURE', 'SKIPPED']),
  error: z.string().nullable(),
});
const pollerResult = z.object({
  nodeId: id,
  polled: z.boolean(),
  imported: z.number().int(),
  errors: z.array(z.string()),
});

export function runNowRoutes({ knex, temporal, config }: AppDeps): Route[] {
  async function writableNode(ctx: Context) {
    const user = currentUser(ctx);
    const node = await nodes.findNode(knex, idParam(ctx.params.id));
    if (!node) throw notFound('node');
    assertNodeMode(user, node.id, node.processId, 'WRITE');
    return node;
  }

  const run = <I, R>(workflowType: string, workflowId: string, input: I): Promise<R> =>
    runWorkflow<I, R>(temporal, config.taskQueue, workflowType, workflowId, input, RUN_TIMEOUT_MS);

  return [
    route(
      {
        method: 'POST',
        path: '/api/action-nodes/:id/execute-action',
        access: onNode('WRITE', param('id', 'node')),
        response: actionBatchResult,
      },
      async (ctx) => {
        const node = await writableNode(ctx);
        if (!isActionType(node.activityType as ActivityType))
          throw badRequest(`Node "${node.name}" is not an action node`);
        if (node.triggerType !== 'CRON' && node.triggerType !== 'THRESHOLD')
          throw badRequest(
            `Node "${node.name}" has the trigger ALWAYS: it runs for each document that reaches it, not on demand`,
          );
        ctx.body = await run<ActionBatchInput, ActionBatchResult>(
          ACTION_BATCH_WORKFLOW,
          `action-run-${node.id}-${crypto.randomUUID()}`,
          { nodeId: node.id, reason: 'MANUAL' },
        );
      },
    ),

    ...FETCH_ROUTES.map((fetch) =>
      route(
        {
          method: 'PUT',
          path: fetch.path,
          access: onNode('WRITE', param('id', 'node')),
          response: pollerResult,
        },
        async (ctx) => {
          const node = await writableNode(ctx);
          if (node.activityType !== fetch.type) throw badRequest(`Node "${node.name}" is not ${fetch.label}`);
          ctx.body = await run<UploadPollerInput, UploadPollerResult>(
            UPLOAD_POLLER_WORKFLOW,
            `upload-poll-${node.id}-${crypto.randomUUID()}`,
            { nodeId: node.id },
          );
        },
      ),
    ),
  ];
}
