/**
 * The document's state as the workspace reads it (GET api/v2/document/{id}/state): the document, its steps as
 * stepDTOs with node info and the caller's actions, assignees, the blocking user, and the spec's groups
 * (documentStepsInformation per node, waitingStepsBracketsInformation and doneStepsInformation per activity
 * type, i.e. the sidebar's tabs), all from the projection.
 */
import type { Knex } from 'knex';
import { documentAssignees } from '../../db/queries/document-assignees';
import { documentById } from '../../db/queries/documents';
import { userRef } from '../../db/queries/users';
import type { AuthUser } from '../auth';
import type { ActivityType } from '../../domain/enums';
import { selectedStep } from '../../domain/steps';
import { documentSteps, type StepDTO, type StepNodeDTO, type UserRefDTO } from './steps';

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

function brackets(steps: StepDTO[]): StepBracketDTO[] {
  const out: StepBracketDTO[] = [];
  for (const s of steps) {
    const b = out.find((x) => x.activityType === s.nodeDTO.activityType);
    if (b) b.steps.push(s);
    else out.push({ activityType: s.nodeDTO.activityType, steps: [s] });
  }
  return out;
}

/** The document with its steps and assignees, grouped as the workspace reads them. Null when missing. */
export async function documentState(
  knex: Knex,
  documentId: number,
  user: AuthUser,
): Promise<DocumentStateDTO | null> {
  const doc = await documentById(knex, documentId);
  if (!doc) return null;
  const [steps, assignees, blocker] = await Promise.all([
    documentSteps(knex, documentId, user),
    documentAssignees(knex, documentId, 'login'),
    doc.blockedById ? userRef(knex, doc.blockedById) : Promise.resolve(undefined),
  ]);
  const blockedBy = blocker ?? null;
  const perNode: NodeStepsDTO[] = [];
  for (const s of steps) {
    const entry = perNode.find((e) => e.nodeDTO.id === s.nodeId);
    if (entry) entry.steps.push(s);
    else perNode.push({ nodeDTO: s.nodeDTO, steps: [s], activeStepId: s.id });
  }
  for (const e of perNode)
    e.activeStepId = (
      e.steps.find((s) => s.blockedBy === null) ??
      e.steps.find((s) => s.master) ??
      e.steps[0]
    ).id;
  const selected = selectedStep(steps);
  return {
    document: {
      id: doc.id,
      filename: doc.filename,
      path: doc.path,
      documentType: doc.documentType,
      processId: doc.processId,
      status: doc.status,
      mimeType: doc.mimeType,
      size: Number(doc.size),
      createdDate: new Date(doc.createdDate).toISOString(),
      lastModifiedDate: doc.lastModifiedDate ? new Date(doc.lastModifiedDate).toISOString() : null,
      blockedBy,
      assignees,
    },
    steps,
    assignees,
    blockedBy,
    documentStepsInformation: perNode,
    waitingStepsBracketsInformation: brackets(
      steps.filter((s) => s.status === 'WAITING' || s.status === 'PROCESSING' || s.status === 'ERROR'),
    ),
    doneStepsInformation: brackets(steps.filter((s) => s.status === 'DONE' || s.status === 'ACCEPTED')),
    selectedStepId: selected?.id ?? null,
  };
}
