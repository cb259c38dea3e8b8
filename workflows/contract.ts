/**
 * Every workflow's name, input and messages, imported by the API, the worker and the tests.
 * Workflow functions are referenced by name so importers do not pull workflow code in.
 */
export const TASK_QUEUE_DEFAULT = 'workbench';

export interface SystemCheckInput {
  /** Echoed back, so a caller can tell its own run. */
  nonce: string;
}

export interface SystemCheckResult {
  nonce: string;
  /** Counted by an activity in PostgreSQL: proves the worker reaches the database. */
  processCount: number;
  workflowId: string;
}

export const WorkflowNames = {
  systemCheck: 'systemCheckWorkflow',
} as const;

export * from './document-contract';
