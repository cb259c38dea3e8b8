/**
 * One aggregated execution of an action node (activities/actions/triggers.ts): claims the collected
 * documents as a batch (unless a THRESHOLD already did) and runs the node's executor once for it. A failed
 * execution is reported in the result (its FAILURE row is in action_execution_results), not thrown: a CRON
 * schedule goes on with its next tick.
 */
import { ActivityFailure, proxyActivities, workflowInfo } from '@temporalio/workflow';
import type { Activities } from '../activities';
import type { ActionBatchInput, ActionBatchResult } from './action-contract';

const db = proxyActivities<Activities>({
  startToCloseTimeout: '30 seconds',
  retry: { initialInterval: '200 milliseconds', maximumInterval: '10 seconds', maximumAttempts: 30 },
});
const actions = proxyActivities<Activities>({
  startToCloseTimeout: '10 minutes',
  heartbeatTimeout: '20 seconds',
  retry: { initialInterval: '1 second', maximumInterval: '1 minute', maximumAttempts: 5 },
});

export async function actionBatchWorkflow(input: ActionBatchInput): Promise<ActionBatchResult> {
  const batchId =
    input.batchId ??
    (await db.claimActionBatch({
      nodeId: input.nodeId,
      reason: input.reason,
      claimKey: workflowInfo().workflowId,
    }));
  if (batchId === null)
    return { nodeId: input.nodeId, batchId: null, documents: 0, status: 'SKIPPED', error: null };
  try {
    const { documents } = await actions.runActionBatch({ nodeId: input.nodeId, batchId });
    return { nodeId: input.nodeId, batchId, documents, status: 'SUCCESS', error: null };
  } catch (err) {
    const error = err instanceof ActivityFailure && err.cause ? err.cause.message : String(err);
    return { nodeId: input.nodeId, batchId, documents: 0, status: 'FAILURE', error };
  }
}
