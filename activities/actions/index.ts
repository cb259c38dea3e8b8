/**
 * Automatic nodes other than the file parser (spec 3 section 4): one executor per activity type, looked up
 * by `runAutomaticNode`. A type without an executor fails non-retryably with a message saying so, never
 * with a fake success. Each executor records its outcome in `action_execution_results`.
 */
import { ApplicationFailure } from '@temporalio/common';
import type { Knex } from 'knex';
import type { DocumentWorkflowInput } from '../../workflows/document-contract';
import { interProcessSend } from './inter-process';
import { runLexicon } from './lexicon';
import { runLlmPrompt } from './llm-prompt';
import { sendMail } from './send-mail';
import { sendRequest } from './send-request';
import { sendToSftp } from './send-to-sftp';

export interface RunAutomaticNodeInput {
  documentId: number;
  stepId: number;
  nodeId: number;
  activityType: string;
  attempt: number;
}

export interface ActionDeps {
  knex: Knex;
  filesDir: string;
  /** Hosts/IPs/CIDRs outbound connections may reach although private or loopback (OUTBOUND_ALLOWLIST). */
  outboundAllowlist?: string[];
  /** Starts `document-<id>` on the worker's task queue (IPS nodes); the worker wires it with its client. */
  startDocument?: (input: DocumentWorkflowInput) => Promise<unknown>;
  /** Base URL of the OpenAI-compatible chat API of LLM prompt nodes (LLM_BASE_URL); OpenAI when absent. */
  llmBaseUrl?: string;
}

export type ActionExecutor = (input: RunAutomaticNodeInput, deps: ActionDeps) => Promise<void>;

/** Executors by activity type; each lives in its own module of this folder. */
const executors: Partial<Record<string, ActionExecutor>> = {
  SEND_MAIL: sendMail,
  SEND_REQUEST: sendRequest,
  SEND_TO_SFTP: sendToSftp,
  IPS: interProcessSend,
  LEXICON: runLexicon,
  LLM_PROMPT: runLlmPrompt,
};

export function createActionActivities(deps: ActionDeps) {
  return {
    async runAutomaticNode(input: RunAutomaticNodeInput): Promise<void> {
      const execute = executors[input.activityType];
      if (!execute) {
        throw ApplicationFailure.nonRetryable(
          `Running ${input.activityType} nodes is not built yet`,
          'NotBuiltYet',
        );
      }
      await execute(input, deps);
    },
  };
}
