/**
 * Payload types of the document workspace's reads (GET api/v2/document/{id}/state, the step routes): the
 * spec's stepDTO with its node and the caller's actions, and the state grouped per node and per activity
 * type. Shared by the API (api/services/steps.ts, document-state.ts) and the web workspace.
 */
import type { ActivityType } from './enums';
import type { StepAction, StepStatus } from './steps';

export interface UserRefDTO {
  id: number;
  login: string;
  firstName: string | null;
  lastName: string | null;
  email: string;
}

export interface StepNodeDTO {
  id: number;
  name: string;
  activityType: ActivityType;
  requiresAcceptance: boolean;
  priority: number;
  automatic: boolean;
}

/** The spec's stepDTO (spec 2 section 3), plus the error of a failed step and the caller's actions. */
export interface StepDTO {
  id: number;
  documentId: number;
  status: StepStatus;
  master: boolean;
  rejected: boolean;
  blockedBy: UserRefDTO | null;
  /** The id of the user working on the step (blockedBy.id). */
  userId: number | null;
  order: number;
  nodeId: number;
  nodeName: string;
  nodeDTO: StepNodeDTO;
  errorMessage: string | null;
  lastModifiedDate: string | null;
  /** What the caller may do now (domain/steps.ts availableActions). */
  actions: StepAction[];
  /**
   * The caller may edit the step's annotations now (spec 2 section 4, domain/steps.ts stepEditRefusal) and
   * holds WRITE on its node, so the tag and classifier writes would be accepted.
   */
  editable: boolean;
}

export interface StepBracketDTO {
  activityType: ActivityType;
  steps: StepDTO[];
}

export interface NodeStepsDTO {
  nodeDTO: StepNodeDTO;
  steps: StepDTO[];
  /** The node's active step without a selection: the one not blocked, else the master, else the first. */
  activeStepId: number;
}

export interface DocumentStateDTO {
  document: {
    id: number;
    filename: string;
    path: string;
    documentType: string;
    processId: number;
    status: string;
    mimeType: string;
    size: number;
    createdDate: string;
    lastModifiedDate: string | null;
    blockedBy: UserRefDTO | null;
    assignees: UserRefDTO[];
  };
  steps: StepDTO[];
  assignees: UserRefDTO[];
  blockedBy: UserRefDTO | null;
  /** Steps per node, nodes in walk order. */
  documentStepsInformation: NodeStepsDTO[];
  /** Steps still to do (WAITING, PROCESSING, ERROR) per activity type: the sidebar's tabs. */
  waitingStepsBracketsInformation: StepBracketDTO[];
  /** Steps done (DONE, ACCEPTED) per activity type. */
  doneStepsInformation: StepBracketDTO[];
  /** The step the workspace selects on load (first WAITING, else last DONE). */
  selectedStepId: number | null;
}
