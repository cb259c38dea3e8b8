/**
 * The document's state as the workspace reads it (GET api/v2/document/{id}/state): the document, its steps as
 * stepDTOs with node info and the caller's actions, assignees, the blocking user, and the spec's groups
 * (documentStepsInformation per node, waitingStepsBracketsInformation and doneStepsInformation per activity
 * type, i.e. the sidebar's tabs), all from the projection.
 */
import type { Knex } from 'knex';
import { documentAssignees } from '../../db/queries/document-assignees';
import { documentById, type DocumentRow } from '../../db/queries/documents';
import { userRef } from '../../db/queries/users';
import type { AuthUser } from '../auth';
import { selectedStep } from '../../domain/steps';
import type {
  DocumentStateDTO,
  NodeStepsDTO,
  StepBracketDTO,
  StepDTO,
} from '../../domain/document-state-types';
import { documentSteps } from './steps';

export type { DocumentStateDTO, NodeStepsDTO, StepBracketDTO } from '../../domain/document-state-types';

function brackets(steps: StepDTO[]): StepBracketDTO[] {
  const out: StepBracketDTO[] = [];
  for (const s of steps) {
    const b = out.find((x) => x.activityType === s.nodeDTO.activityType);
    if (b) b.steps.push(s);
    else out.push({ activityType: s.nodeDTO.activityType, steps: [s] });
  }
  return out;
}

/**
 * The document with its steps and assignees, grouped as the workspace reads them. Null when missing. The
 * document row, the steps and the assignees are read at once (the blocking user after, when there is one);
 * a caller that has just read the row passes it.
 */
export async function documentState(
  knex: Knex,
  documentId: number,
  user: AuthUser,
  row?: DocumentRow,
): Promise<DocumentStateDTO | null> {
  const [doc, steps, assignees] = await Promise.all([
    row ?? documentById(knex, documentId),
    documentSteps(knex, documentId, user),
    documentAssignees(knex, documentId, 'login'),
  ]);
  if (!doc) return null;
  const blockedBy = (doc.blockedById ? await userRef(knex, doc.blockedById) : undefined) ?? null;
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
