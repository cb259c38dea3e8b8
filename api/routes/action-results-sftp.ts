/**
 * The SFTP result of a step (spec 3 section 7): `GET api/action-execution-results/send-to-sftp?stepId`
 * answers {status, createdFileAddress} of the step's latest execution (createdFileAddress null unless it
 * succeeded); 404 when the step is not a send-to-SFTP step or has not run. READ on the step's node.
 */
import Router from '@koa/router';
import type { AppDeps } from '../app';
import { assertNodeMode, currentUser } from '../auth';
import { notFound } from '../errors';
import { idParam } from '../validate';

const firstValue = (v: string | string[] | undefined): string | undefined => (Array.isArray(v) ? v[0] : v);

export interface SftpResultDTO {
  status: 'SUCCESS' | 'FAILURE';
  createdFileAddress: string | null;
}

export function sftpActionResultRoutes({ knex }: AppDeps): Router {
  const router = new Router();

  router.get('/api/action-execution-results/send-to-sftp', async (ctx) => {
    const user = currentUser(ctx);
    const stepId = idParam(firstValue(ctx.query.stepId), 'stepId');
    const step = await knex('steps as s')
      .join('nodes as n', 'n.id', 's.node_id')
      .where('s.id', stepId)
      .first('n.id as nodeId', 'n.process_id as processId', 'n.activity_type as activityType');
    if (!step || step.activityType !== 'SEND_TO_SFTP') throw notFound('step');
    assertNodeMode(user, Number(step.nodeId), Number(step.processId), 'READ');
    const row = await knex('action_execution_results')
      .where('step_id', stepId)
      .orderBy('id', 'desc')
      .first('status', 'details');
    if (!row) throw notFound('actionExecutionResult');
    const address = row.details?.createdFileAddress;
    ctx.body = {
      status: row.status,
      createdFileAddress: row.status === 'SUCCESS' && typeof address === 'string' ? address : null,
    } satisfies SftpResultDTO;
  });

  return router;
}
