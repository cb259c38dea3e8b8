/**
 * A manual training of a trainable node (`PUT api/trainable-nodes/{id}/train`): one activity on the worker,
 * which posts the node's labels and finished documents to its request path and records the attempt. Not
 * retried: every attempt is recorded and answered, and the user may train again.
 */
import { proxyActivities } from '@temporalio/workflow';
import type { Activities } from '../activities';
import type { TrainNodeInput, TrainNodeResult } from './request-contract';

const training = proxyActivities<Activities>({
  // The model server's 20 s budget plus building the payload over the node's finished documents.
  startToCloseTimeout: '5 minutes',
  retry: { maximumAttempts: 1 },
});

export async function trainNodeWorkflow(input: TrainNodeInput): Promise<TrainNodeResult> {
  return training.trainNodeNow(input);
}
