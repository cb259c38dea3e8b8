/**
 * Automatic nodes other than the file parser (spec 3 section 4): one executor per activity type, looked up
 * by `runAutomaticNode`. A type without an executor fails non-retryably with a message saying so, never
 * with a fake success. Each executor records its outcome in `action_execution_results`.
 */
import { ApplicationFailure } from '@temporalio/common';
import { Context } from '@temporalio/activity';
import type { Knex } from 'knex';
import type { FilesLocation } from '../../server/files';
import { nodeRef } from '../../db/queries/nodes';
import type { DocumentWorkflowInput } from '../../workflows/document-contract';
import type { ActionBatchInput, ActionBatchReason } from '../../workflows/action-contract';
import type { LlmRerunInput, LlmRerunResult } from '../../workflows/request-contract';
import { isActionType } from '../../domain/nodes';
import type { ActivityType } from '../../domain/enums';
import { claimBatch, collectForTrigger, triggerOf } from './triggers';
import { runExternalModel } from './external-model';
import { interProcessSend } from './inter-process';
import { runLexicon } from './lexicon';
import { rerunLlmPrompt, runLlmPrompt } from './llm-prompt';
import { sendMail } from './send-mail';
import { sendRequest } from './send-request';
import { sendToSftp } from './send-to-sftp';
import { sendToDrive } from './send-to-drive';
import { batchDocumentCount } from '../../db/queries/action-batches';

/**
 * One execution of an action node: for one document at one step (trigger ALWAYS: documentId and stepId set),
 * or for a batch of collected documents (triggers CRON and THRESHOLD, and execute-action: batchId set,
 * documentId and stepId null).
 */
export interface RunAutomaticNodeInput {
  documentId: number | null;
  stepId: number | null;
  nodeId: number;
  activityType: string;
  attempt: number;
  batchId?: number | null;
}

/** An execution for one document (the executors that only work per document narrow to it). */
export type DocumentRun = RunAutomaticNodeInput & { documentId: number; stepId: number };

/** The files are FILES_DIR's or FILES_STORE's (server/files.ts FilesLocation). */
export interface ActionDeps extends FilesLocation {
  knex: Knex;
  /** Hosts/IPs/CIDRs outbound connections may reach although private or loopback (OUTBOUND_ALLOWLIST). */
  outboundAllowlist?: string[];
  /** Starts `document-<id>` on the worker's task queue (IPS nodes); the worker wires it with its client. */
  startDocument?: (input: DocumentWorkflowInput) => Promise<unknown>;
  /** Starts `action-batch-<id>` (a THRESHOLD reached); the worker wires it with its client. */
  startActionBatch?: (input: ActionBatchInput & { batchId: number }) => Promise<unknown>;
  /** Base URL of the OpenAI-compatible chat API of LLM prompt nodes (LLM_BASE_URL); OpenAI when absent. */
  llmBaseUrl?: string;
  /** Base URL of the Drive v3 API (DRIVE_API_BASE_URL, e.g. https://www.googleapis.com); Google's when absent. */
  driveApiBaseUrl?: string;
  /** OAuth token endpoint and client of cloud-drive connections (GOOGLE_OAUTH_*), to refresh access tokens. */
  googleOAuth?: { tokenUrl: string; clientId: string; clientSecret: string };
  /** Time limit of one document's lexicon matching, in ms (LEXICON_TIMEOUT_SECONDS); 120 s when absent. */
  lexiconTimeoutMs?: number;
  /** Largest accepted file (UPLOAD_MAX_BYTES), for documents the pollers import. */
  uploadMaxBytes?: number;
  /** What a zip-based office file may unpack to (OFFICE_MAX_UNCOMPRESSED_BYTES), for imported documents. */
  officeMaxUncompressedBytes?: number;
}

export type ActionExecutor = (input: RunAutomaticNodeInput, deps: ActionDeps) => Promise<void>;

/** Executors by activity type; each lives in its own module of this folder. */
const executors: Partial<Record<string, ActionExecutor>> = {
  SEND_MAIL: sendMail,
  SEND_REQUEST: sendRequest,
  SEND_TO_SFTP: sendToSftp,
  SEND_TO_GOOGLE_DRIVE: sendToDrive,
  IPS: interProcessSend,
  LEXICON: runLexicon,
  LLM_PROMPT: runLlmPrompt,
  CLF: runExternalModel,
  SPAN: runExternalModel,
};

/**
 * Runs `fn` while heartbeating, so a worker that dies in the middle is noticed within the heartbeat timeout
 * of the calling workflow (and the activity retried elsewhere) rather than after the start-to-close timeout.
 */
async function heartbeating<T>(fn: () => Promise<T>): Promise<T> {
  let ctx: Context | null = null;
  try {
    ctx = Context.current();
  } catch {
    // called outside an activity (tests, the API): nothing to heartbeat
  }
  if (!ctx) return fn();
  const beat = setInterval(() => ctx!.heartbeat(), HEARTBEAT_MS);
  try {
    return await fn();
  } finally {
    clearInterval(beat);
  }
}

const HEARTBEAT_MS = 3_000;

function executorOf(activityType: string): ActionExecutor {
  const execute = executors[activityType];
  if (!execute)
    throw ApplicationFailure.nonRetryable(`Running ${activityType} nodes is not built yet`, 'NotBuiltYet');
  return execute;
}

export function createActionActivities(deps: ActionDeps) {
  return {
    /**
     * Runs an automatic node for one document. Action nodes with a CRON or THRESHOLD trigger only collect the
     * document here (their action runs later for the batch): the step moves on at once.
     */
    async runAutomaticNode(input: RunAutomaticNodeInput): Promise<void> {
      if (isActionType(input.activityType as ActivityType) && !input.batchId) {
        const trigger = await triggerOf(deps.knex, input.nodeId);
        if (trigger.type !== 'ALWAYS') return collectForTrigger(deps, input, trigger);
      }
      const execute = executorOf(input.activityType);
      await heartbeating(() => execute(input, deps));
    },

    /** Claims the documents the node collected as a batch of the calling workflow (see triggers.ts). */
    async claimActionBatch(input: {
      nodeId: number;
      reason: ActionBatchReason;
      claimKey: string;
    }): Promise<number | null> {
      return claimBatch(deps.knex, input.nodeId, input.reason, input.claimKey);
    },

    /** Executes the node's action once for a batch (AGGREGATED rendering); the outcome is its result row. */
    async runActionBatch(input: { nodeId: number; batchId: number }): Promise<{ documents: number }> {
      const node = await nodeRef(deps.knex, input.nodeId);
      if (!node) throw ApplicationFailure.nonRetryable(`Node ${input.nodeId} no longer exists`, 'NodeGone');
      const execute = executorOf(node.activityType);
      await heartbeating(() =>
        execute(
          {
            nodeId: input.nodeId,
            activityType: node.activityType,
            documentId: null,
            stepId: null,
            batchId: input.batchId,
            attempt: 1,
          },
          deps,
        ),
      );
      return { documents: await batchDocumentCount(deps.knex, input.batchId) };
    },

    /** Reruns an LLM prompt step with an edited prompt (the rerun route awaits it through llmRerunWorkflow). */
    async rerunLlmPrompt(input: LlmRerunInput): Promise<LlmRerunResult> {
      return rerunLlmPrompt(deps, input);
    },
  };
}
