/**
 * Step calls (spec 2 section 7, issue 4 section 2): start working (`POST /api/step/assign`), save blockedBy /
 * master (`PUT /api/steps`), the action buttons (`PUT /api/steps/{id}/complete|accept|activate|
 * cancel-acceptance|rerun`) and the rerun list of a FILE_PARSER node. Each action is authorized here with
 * domain/steps.ts and carried out by the document's workflow; the answer is the step as projected after it,
 * with the document's state (`documentState`, as GET api/v2/document/{id}/state answers it).
 */
import { route, type Route } from '../route';
import { id, stepActionDto, stepDto } from '../responses';
import { StepStatuses } from '../../domain/steps';

const rerunnableStep = z.object({
  id,
  documentId: id,
  documentName: z.string(),
  status: z.enum(StepStatuses),
  master: z.boolean(),
  errorMessage: z.string().nullable(),
});
import { inBody, onNode, param, query } from './access';
import { z } from 'zod';
import type { AppDeps } from '../app';
import { assertNodeMode, currentUser, unreachable } from '../auth';
import { HttpError, notFound } from '../errors';
import * as nodes from '../services/nodes';
import { runStepAction } from '../services/step-actions';
import {
  RERUNNABLE_STATUSES,
  findStepContext,
  findStepNode,
  loadStepContext,
  rerunnableSteps,
  stepDTO,
  stepToAssign,
} from '../services/steps';
import { idParam, pageQuery } from '../validate';
import type { StepAction } from '../../domain/steps';
import { nextDocumentToAnnotate } from '../../db/queries/steps';

const rerunStatus = z.enum(RERUNNABLE_STATUSES);

const ACTION_PATHS: Record<string, StepAction> = {
  complete: 'complete',
  accept: 'accept',
  activate: 'activate',
  'cancel-acceptance': 'cancelAcceptance',
  rerun: 'rerun',
};

const userRef = z.union([z.number().int(), z.object({ id: z.number().int() })]);
export const stepSave = z.object({
  id: z.number().int(),
  blockedBy: userRef.nullish(),
  master: z.boolean().nullish(),
});

export function stepRoutes({ knex, temporal }: AppDeps): Route[] {
  const deps = { knex, temporal };

  return [
    // --- steps (domain/steps.ts refines the mode per action: ADMIN to accept with acceptance, rerun...) ---
    route(
      {
        method: 'POST',
        path: '/api/step/assign',
        access: onNode('WRITE', query('nodeId', 'node')),
        response: stepActionDto,
      },
      async (ctx) => {
        const user = currentUser(ctx);
        const documentId = idParam(ctx.query.docId, 'docId');
        const nodeId = idParam(ctx.query.nodeId, 'nodeId');
        const given = ctx.query.stepId === undefined ? undefined : idParam(ctx.query.stepId, 'stepId');
        const node = await nodes.findNode(knex, nodeId);
        if (!node) throw notFound('node');
        assertNodeMode(user, node.id, node.processId, 'WRITE');
        const stepId = await stepToAssign(knex, documentId, nodeId, user.id, given);
        ctx.body = await runStepAction(deps, user, stepId, 'startWorking');
      },
    ),

    // the writers' next document at a multiprocessed node (issue 31 section 1; docs/api-agreement.md)
    route(
      {
        method: 'GET',
        path: '/api/nodes/:id/next-document',
        access: onNode('WRITE', param('id', 'node')),
        response: z.object({ documentId: z.number().nullable() }),
      },
      async (ctx) => {
        const user = currentUser(ctx);
        const node = await nodes.findNode(knex, idParam(ctx.params.id));
        if (!node) throw notFound('node');
        assertNodeMode(user, node.id, node.processId, 'WRITE');
        ctx.body = { documentId: await nextDocumentToAnnotate(knex, node.id, user.id) };
      },
    ),

    route(
      {
        method: 'PUT',
        path: '/api/steps',
        access: onNode('WRITE', inBody('id', 'step')),
        body: { schema: stepSave, object: 'step' },
        response: z.union([stepActionDto, stepDto]),
      },
      async (ctx, { body }) => {
        const user = currentUser(ctx);
        const input = body();
        // WRITE on the step's node before anything of the step is read or answered (issue 9 finding 4; the body's
        // id is not checked by the gate); an unknown step answers like a step of a process the caller cannot reach.
        const stepNode = await findStepNode(knex, input.id);
        if (!stepNode) throw unreachable(user, 'step');
        assertNodeMode(user, stepNode.nodeId, stepNode.processId, 'WRITE');
        const stepContext = await loadStepContext(knex, input.id);
        const { step } = stepContext;
        let result: unknown = null;
        if (input.master === true && !step.master)
          result = await runStepAction(deps, user, stepContext, 'markMaster');
        else if (input.master === false && step.master)
          throw new HttpError(400, {
            message: 'error.step.masterRequired',
            detail: 'Mark another step of the node as master instead',
          });
        if (input.blockedBy !== undefined) {
          const wanted =
            input.blockedBy === null
              ? null
              : typeof input.blockedBy === 'number'
                ? input.blockedBy
                : input.blockedBy.id;
          if (wanted === null && step.blockedBy !== null)
            result = await runStepAction(deps, user, step.id, 'unassign');
          else if (wanted !== null && wanted !== step.blockedBy) {
            if (wanted !== user.id)
              throw new HttpError(400, {
                message: 'error.step.assignSelfOnly',
                detail: 'A step can only be assigned to the user who starts working on it',
              });
            result = await runStepAction(deps, user, step.id, 'startWorking');
          }
        }
        ctx.body = result ?? (await stepDTO(knex, step.id, user));
      },
    ),

    route(
      {
        method: 'PUT',
        path: '/api/steps/:id/:action',
        access: onNode('WRITE', param('id', 'step')),
        response: stepActionDto,
      },
      async (ctx) => {
        const user = currentUser(ctx);
        const action = ACTION_PATHS[ctx.params.action];
        if (!action) throw notFound();
        const id = idParam(ctx.params.id);
        // The gate has checked WRITE on the step's node before this handler: one read of the step serves the
        // handler's own mode check and the action's authorization.
        const stepContext = await findStepContext(knex, id);
        if (!stepContext) throw unreachable(user, 'step');
        assertNodeMode(user, stepContext.node.id, stepContext.node.processId, 'READ');
        ctx.body = await runStepAction(deps, user, stepContext, action);
      },
    ),

    route(
      {
        method: 'GET',
        path: '/api/steps/:id',
        access: onNode('READ', param('id', 'step')),
        response: stepDto,
      },
      async (ctx) => {
        const user = currentUser(ctx);
        const id = idParam(ctx.params.id);
        const stepNode = await findStepNode(knex, id);
        if (!stepNode) throw unreachable(user, 'step');
        assertNodeMode(user, stepNode.nodeId, stepNode.processId, 'READ');
        ctx.body = await stepDTO(knex, id, user);
      },
    ),

    /** Rerunnable steps of a FILE_PARSER node (WAITING or ERROR), pages of 10; the total in X-Total-Count. */
    route(
      {
        method: 'POST',
        path: '/api/nodes/:nodeId/steps/rerun',
        access: onNode('ADMIN', param('nodeId', 'node')),
        response: z.array(rerunnableStep),
      },
      async (ctx) => {
        const user = currentUser(ctx);
        const node = await nodes.findNode(knex, idParam(ctx.params.nodeId, 'nodeId'));
        if (!node) throw notFound('node');
        assertNodeMode(user, node.id, node.processId, 'ADMIN');
        const { page, size } = pageQuery(ctx, 10);
        // `?status=` one of the rerunnable statuses (WAITING or ERROR): the list's filter
        const status = ctx.query.status === undefined ? undefined : rerunStatus.safeParse(ctx.query.status);
        if (status && !status.success)
          throw new HttpError(400, {
            message: 'error.validation',
            detail: `status must be one of ${RERUNNABLE_STATUSES.join(', ')}`,
          });
        const { items, total } = await rerunnableSteps(knex, node.id, page, size, status?.data);
        ctx.set('X-Total-Count', String(total));
        ctx.set('Access-Control-Expose-Headers', 'X-Total-Count');
        ctx.body = items;
      },
    ),
  ];
}
