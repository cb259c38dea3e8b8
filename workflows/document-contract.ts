/**
 * The document workflow's contract: id, input, its Updates and Query, their shapes and its failure types.
 * The API, the worker, the workflow (workflows/document.ts) and the tests import this module (or
 * `workflows/contract.ts`, which re-exports it). Definitions only: importing it pulls no workflow code in.
 */
import { defineQuery, defineSignal, defineUpdate } from '@temporalio/workflow';
import type { AccessMode } from '../domain/enums';
import type { StepAction } from '../domain/steps';
import type { DocumentWorkflowState } from '../domain/document-transition';

export type { DocumentWorkflowState, EngineStep } from '../domain/document-transition';

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
  /** The filename known to the run that continued as new (for the search attributes of the next run). */
  filename?: string;
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

type StepUpdate = ReturnType<typeof defineUpdate<StepActionResult, [StepActionInput]>>;

export const startWorkingUpdate = defineUpdate<StepActionResult, [StepActionInput]>('startWorking');
export const completeUpdate = defineUpdate<StepActionResult, [StepActionInput]>('complete');
export const acceptUpdate = defineUpdate<StepActionResult, [StepActionInput]>('accept');
export const activateUpdate = defineUpdate<StepActionResult, [StepActionInput]>('activate');
export const cancelAcceptanceUpdate = defineUpdate<StepActionResult, [StepActionInput]>('cancelAcceptance');
export const unassignUpdate = defineUpdate<StepActionResult, [StepActionInput]>('unassign');
export const markMasterUpdate = defineUpdate<StepActionResult, [StepActionInput]>('markMaster');
export const rerunUpdate = defineUpdate<StepActionResult, [StepActionInput]>('rerun');
/** The workflow's state as it holds it (tests and operators; the API reads the projection). */
export const stateQuery = defineQuery<DocumentWorkflowState>('state');

/**
 * Asks a run to carry its state into a fresh run at its next idle moment (`npm run workflows:refresh`): a run
 * begun under older workflow code then decides by the current code's patches, so the old branches can be
 * retired (docs/architecture.md, "Retiring a patch").
 */
export const freshRunSignal = defineSignal('freshRun');

/**
 * The generation of document workflow code a run began under, recorded at its start as the patch marker
 * `epoch-<N>` (none: epoch 1). A run of the current epoch took every patch that existed when it began.
 */
export const DOCUMENT_RUN_EPOCH = 2;
export const epochPatchId = (epoch: number): string => `epoch-${epoch}`;

/** The Update of each step action (the API sends them by action). */
export const stepActionUpdates: Record<StepAction, StepUpdate> = {
  startWorking: startWorkingUpdate,
  complete: completeUpdate,
  accept: acceptUpdate,
  activate: activateUpdate,
  cancelAcceptance: cancelAcceptanceUpdate,
  unassign: unassignUpdate,
  markMaster: markMasterUpdate,
  rerun: rerunUpdate,
};

/**
 * Failure type of a refused step action (validator or handler): an ApplicationFailure, non-retryable, whose
 * details[0] is the refusal code (domain/steps.ts StepRefusal) and message the rule's message.
 */
export const STEP_REFUSED = 'StepRefused';
/** Failure type of a document workflow started on an upload node that is not in its process. */
export const BAD_INPUT = 'BadInput';
