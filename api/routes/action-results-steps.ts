/**
 * The result of one step of a send-to-SFTP or send-to-drive node (spec 3 section 7), its latest execution:
 * - `GET api/action-execution-results/send-to-sftp?stepId` → {status, createdFileAddress};
 * - `GET api/action-execution-results/send-to-google-drive?stepId` → {status, createdFileId, fileUrl}.
 * The file fields are null unless the execution succeeded; 404 when the step is not one of that node type or
 * has not run (a send in progress is no result yet). READ on the step's node.
 */
import { route, type Route } from '../route';
import { z } from 'zod';
import { onNode, query } from './access';
import { latestStepExecution } from '../../db/queries/action-results';
import { stepNode } from '../../db/queries/steps';
import type { AppDeps } from '../app';
import { assertNodeMode, currentUser } from '../auth';
import { notFound } from '../errors';
import { firstValue, idParam } from '../validate';

export interface SftpResultDTO {
  status: 'SUCCESS' | 'FAILURE';
  createdFileAddress: string | null;
}

export interface DriveResultDTO {
  status: 'SUCCESS' | 'FAILURE';
  createdFileId: string | null;
  fileUrl: string | null;
}

const RESULT_STATUS = z.enum(['SUCCESS', 'FAILURE']);

/** A string detail of a successful execution, else null. */
type Pick = (name: string) => string | null;

const ROUTES: readonly {
  path: string;
  activityType: string;
  body: (pick: Pick) => Omit<SftpResultDTO, 'status'> | Omit<DriveResultDTO, 'status'>;
  response: z.ZodType;
}[] = [
  {
    path: '/api/action-execution-results/send-to-sftp',
    activityType: 'SEND_TO_SFTP',
    body: (pick) => ({ createdFileAddress: pick('createdFileAddress') }),
    response: z.object({ status: RESULT_STATUS, createdFileAddress: z.string().nullable() }),
  },
  {
    path: '/api/action-execution-results/send-to-google-drive',
    activityType: 'SEND_TO_GOOGLE_DRIVE',
    body: (pick) => ({ createdFileId: pick('createdFileId'), fileUrl: pick('fileUrl') }),
    response: z.object({
      status: RESULT_STATUS,
      createdFileId: z.string().nullable(),
      fileUrl: z.string().nullable(),
    }),
  },
];

export function stepActionResultRoutes({ knex }: AppDeps): Route[] {
  return ROUTES.map((declared) =>
    route(
      {
        method: 'GET',
        path: declared.path,
        access: onNode('READ', query('stepId', 'step')),
        response: declared.response,
      },
      async (ctx) => {
        const user = currentUser(ctx);
        const stepId = idParam(firstValue(ctx.query.stepId), 'stepId');
        const step = await stepNode(knex, stepId);
        if (!step || step.activityType !== declared.activityType) throw notFound('step');
        assertNodeMode(user, step.nodeId, step.processId, 'READ');
        const row = await latestStepExecution(knex, stepId);
        if (!row) throw notFound('actionExecutionResult');
        const pick: Pick = (name) => {
          const v = row.details?.[name];
          return row.status === 'SUCCESS' && typeof v === 'string' ? v : null;
        };
        ctx.body = { status: row.status, ...declared.body(pick) };
      },
    ),
  );
}
