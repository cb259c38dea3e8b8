/**
 * A step action from the API's side (the step routes): authorize it from the projection, send the Update
 * (which returns once the projection is written), and answer with the step and the document's whole state
 * as they are after it, so a client needs no second request to see what the action changed (issue 10: the
 * step round trip is the action's request alone).
 */
import type { Knex } from 'knex';
import type { AuthUser } from '../auth';
import type { TemporalGateway } from '../temporal';
import type { DocumentStateDTO, StepDTO } from '../../domain/document-state-types';
import type { StepAction } from '../../domain/steps';
import { documentState } from './document-state';
import { authorizeStepAction, loadStepContext, sendStepAction, stepDTO, type StepContext } from './steps';

/** The answer of a step action: the stepDTO after it, the document's status and its state (GET .../state). */
export type StepActionAnswer = StepDTO & { documentStatus: string; documentState: DocumentStateDTO | null };

/**
 * Authorize from the projection (the step's context, read here unless the route has just read it), send the
 * Update, answer the step and the document's state as they are now.
 */
export async function runStepAction(
  deps: { knex: Knex; temporal: TemporalGateway },
  user: AuthUser,
  stepOrContext: number | StepContext,
  action: StepAction,
): Promise<StepActionAnswer> {
  const ctx =
    typeof stepOrContext === 'number' ? await loadStepContext(deps.knex, stepOrContext) : stepOrContext;
  const stepId = ctx.step.id;
  const actor = authorizeStepAction(ctx, action, user);
  const result = await sendStepAction(deps.temporal, ctx.step.documentId, action, {
    stepId,
    actor: { userId: actor.userId, login: user.login, nodeMode: actor.nodeMode },
  });
  const state = await documentState(deps.knex, ctx.step.documentId, user);
  // The state holds the step unless the document was deleted meanwhile: then the step's read answers 404.
  const step = state?.steps.find((s) => s.id === stepId) ?? (await stepDTO(deps.knex, stepId, user));
  return { ...step, documentStatus: result.documentStatus, documentState: state };
}
