/** A short workflow that runs one activity against the database: the end-to-end check of the Temporal wiring. */
import { proxyActivities, workflowInfo } from '@temporalio/workflow';
import type { Activities } from '../activities';
import type { SystemCheckInput, SystemCheckResult } from './contract';

const { countProcesses } = proxyActivities<Activities>({
  startToCloseTimeout: '30 seconds',
  retry: { maximumAttempts: 3 },
});

export async function systemCheckWorkflow(input: SystemCheckInput): Promise<SystemCheckResult> {
  const processCount = await countProcesses();
  return { nonce: input.nonce, processCount, workflowId: workflowInfo().workflowId };
}
