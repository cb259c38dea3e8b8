/**
 * What the signed-in user may do on a step of the document (spec 2 section 2): the process access mode, the
 * mode on the step's node (the higher of the node's and the process's) and whether the step is editable for
 * the user. The text workspace and the relation graph window decide alike.
 */
import { higherMode, nodeMode } from '@domain';
import type { DocumentStateDTO, StepDTO } from '@domain/document-state-types';
import { useSession } from '../../account/session';
import { useProcessAccessMode } from '../../processes/api';
import { isStepEditable } from '../model';

const ADMIN_ONLY = ['ADMIN'] as const;

export function useStepAccess(state: DocumentStateDTO, step: StepDTO | null | undefined) {
  const { account, principal } = useSession();
  const doc = state.document;
  const userId = account?.id ?? null;
  const processMode = useProcessAccessMode(principal, doc.processId, ADMIN_ONLY).mode;
  const stepNodeMode = step
    ? higherMode(principal ? nodeMode(principal, step.nodeId, doc.processId) : null, processMode)
    : null;
  const editable = isStepEditable(step ?? null, {
    userId,
    nodeMode: stepNodeMode,
    documentBlockedBy: state.blockedBy?.id ?? null,
  });
  return { userId, processMode, stepNodeMode, editable };
}
