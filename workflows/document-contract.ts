/**
 * The document workflow's contract: id, input, and the shapes of its messages. The API, the worker and the
 * tests import this module (and `workflows/contract.ts`, which re-exports it); the update, signal and query
 * definitions themselves live beside the workflow in `workflows/document.ts` and are re-exported there too.
 */
import type { AccessMode } from '../domain/enums';

export const DOCUMENT_WORKFLOW = 'documentWorkflow';
export const documentWorkflowId = (documentId: number): string => `document-${documentId}`;

export type StepStatus = 'WAITING' | 'PROCESSING' | 'DONE' | 'ACCEPTED' | 'ERROR';
export type DocumentStatus = 'WAITING' | 'DONE';

export interface DocumentWorkflowInput {
  documentId: number;
  processId: number;
  /** The upload node the document entered through (its first step). */
  uploadNodeId: number;
  /** Carried over by continue-as-new (a DocumentWorkflowState of `stateVersion`); absent on the first run. */
  carried?: unknown;
  /**
   * Version of the shape of `carried` (DOCUMENT_STATE_VERSION of the run that continued). Absent in runs
   * continued before the field existed: read as 1, the shape they carried.
   */
  stateVersion?: number;
}

/**
 * Version of the state the document workflow carries into its next run by continue-as-new. A run continued
 * by older code arrives with the older shape: when DocumentWorkflowState changes shape, bump this and make
 * `carriedState` (workflows/document.ts) upgrade every older version it may meet. A worker that meets a
 * newer version than it knows (a rollback) fails the workflow task, which is retried until a worker that
 * knows it takes the run, instead of misreading the state.
 */
export const DOCUMENT_STATE_VERSION = 1;

/** Who asks for a step action: the API has authenticated the user and resolved their mode on the node. */
export interface StepActor {
  userId: number;
  login: string;
  /** The caller's access mode on the step's node (domain/access.ts nodeMode). */
  nodeMode: AccessMode | null;
}

export interface StepActionInput {
  stepId: number;
  actor: StepActor;
}

export interface StepActionResult {
  stepId: number;
  status: StepStatus;
  documentStatus: DocumentStatus;
}
