/**
 * The contract of the action-batch workflow (CRON / THRESHOLD triggers and execute-action): ids, input and
 * result. Imported by the API, the worker, activities and tests; the workflow is in action-batch.ts.
 */
export const ACTION_BATCH_WORKFLOW = 'actionBatchWorkflow';

export type ActionBatchReason = 'CRON' | 'THRESHOLD' | 'MANUAL';

export interface ActionBatchInput {
  nodeId: number;
  reason: ActionBatchReason;
  /** A batch already claimed (THRESHOLD); absent: the workflow claims what the node collected. */
  batchId?: number;
}

export interface ActionBatchResult {
  nodeId: number;
  /** Null when nothing was collected (a CRON tick executes nothing then). */
  batchId: number | null;
  documents: number;
  status: 'SUCCESS' | 'FAILURE' | 'SKIPPED';
  error: string | null;
}

/** The Temporal Schedule that runs a CRON action node. */
export const actionNodeScheduleId = (nodeId: number): string => `action-node-${nodeId}`;
export const actionBatchWorkflowId = (batchId: number): string => `action-batch-${batchId}`;

/** The upload poller of an e-mail, SFTP or cloud-drive upload node. */
export const UPLOAD_POLLER_WORKFLOW = 'uploadPollerWorkflow';
export const uploadPollerScheduleId = (nodeId: number): string => `upload-poller-${nodeId}`;

export interface UploadPollerInput {
  nodeId: number;
}

export interface UploadPollerResult {
  nodeId: number;
  polled: boolean;
  imported: number;
  errors: string[];
}
