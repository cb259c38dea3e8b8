/**
 * The contract of the small workflows an API request starts and awaits, so the API never runs activity code
 * itself: the rerun of an LLM prompt step and the manual training of a trainable node. Names, inputs and
 * results; imported by the API, the worker's activities and the tests. The workflows are in llm-rerun.ts and
 * train-node.ts.
 */

export const LLM_RERUN_WORKFLOW = 'llmRerunWorkflow';
export const llmRerunWorkflowId = (stepId: number, nonce: string): string => `llm-rerun-${stepId}-${nonce}`;

/** How long the chat API may take for a rerun (the route waits a little longer for the workflow). */
export const LLM_RERUN_TIMEOUT_MS = 300_000;

export interface LlmRerunInput {
  stepId: number;
  nodeId: number;
  documentId: number;
  /** The edited prompt before rendering: its wildcards are rendered for the step's document. */
  prompt: string;
  promptEditorState: string | null;
}

/**
 * The stored chat response, or why there is none: `invalid` (the prompt does not render, the node's model
 * or secret is unusable: 400) or `llmFailed` (the chat API failed: 502). Nothing is stored unless `stored`.
 */
export type LlmRerunResult =
  { stored: { chatResponseId: number } } | { invalid: string } | { llmFailed: string };

export const TRAIN_NODE_WORKFLOW = 'trainNodeWorkflow';
export const trainNodeWorkflowId = (nodeId: number, nonce: string): string => `train-node-${nodeId}-${nonce}`;

export interface TrainNodeInput {
  nodeId: number;
}

export type TrainingReason = 'MANUAL' | 'AUTOMATIC';

/** One recorded training attempt (`node_trainings`), as the train route answers it. */
export interface TrainingDTO {
  id: number;
  nodeId: number;
  reason: TrainingReason;
  status: 'SUCCESS' | 'FAILURE';
  documents: number;
  httpStatus: number | null;
  error: string | null;
  createdDate: string;
}

/**
 * The recorded attempt (`refused`: the net guard refused the request path), or why none was made: `skipped`
 * (another training of the node runs), `notTrainable` (not a trainable node, no usable request path) or
 * `notFound` (no such node).
 */
export type TrainNodeResult =
  | { training: TrainingDTO; refused: boolean }
  | { skipped: string }
  | { notTrainable: string }
  | { notFound: true };
