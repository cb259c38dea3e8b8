/**
 * One poll of an e-mail, SFTP or cloud-drive upload node (activities/pollers): run by the node's Temporal
 * Schedule and by the fetch-now routes. Not retried: connection errors are reported on the node and the next
 * tick tries again.
 */
import { proxyActivities } from '@temporalio/workflow';
import type { Activities } from '../activities';
import type { UploadPollerInput, UploadPollerResult } from './action-contract';

const pollers = proxyActivities<Activities>({
  startToCloseTimeout: '30 minutes',
  retry: { maximumAttempts: 2 },
});

export async function uploadPollerWorkflow(input: UploadPollerInput): Promise<UploadPollerResult> {
  return pollers.pollUploadNode({ nodeId: input.nodeId });
}
