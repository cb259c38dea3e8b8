/**
 * The rerun of an LLM prompt step with an edited prompt (`POST api/llm-prompt-step/{stepId}/rerun`): one
 * activity on the worker, which renders the prompt, calls the chat API and stores the answer. Not retried:
 * the user asked for one call and sees its failure.
 */
import { proxyActivities } from '@temporalio/workflow';
import type { Activities } from '../activities';
import type { LlmRerunInput, LlmRerunResult } from './request-contract';

const llm = proxyActivities<Activities>({
  // The chat API's own budget (LLM_RERUN_TIMEOUT_MS) plus the reads and the insert around it.
  startToCloseTimeout: '6 minutes',
  retry: { maximumAttempts: 1 },
});

export async function llmRerunWorkflow(input: LlmRerunInput): Promise<LlmRerunResult> {
  return llm.rerunLlmPrompt(input);
}
