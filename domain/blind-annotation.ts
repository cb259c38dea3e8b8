/**
 * Blind multi-annotation (issue 31 section 1; docs/api-agreement.md): which steps' tags of a document a person
 * sees in the workspace. Each step of a multiprocessed node (a node with several steps in the document) keeps
 * its own tags; the master step's are the node's result.
 *
 * Decisions (where the issue is silent):
 * - A node with one step in the document shows its tags to everyone (nothing to hide).
 * - A tag written by no step of its node (null, or a step of another node: a model or the lexicon) is seen by
 *   everyone: it is not any annotator's choice.
 * - ADMIN on the node (a reviewer) sees every step's tags.
 * - An annotator of the node (a step of it assigned to them) sees their own steps' tags; the other steps'
 *   only once all their own steps of the node are finished (DONE or ACCEPTED) and the node's setting
 *   `annotatorsSeeEachOther` is on. With the setting off they never see the others' (the master's result
 *   included, which is another annotator's step).
 * - Anyone else (a later node's annotator, a reader) sees the master step's tags (no step flagged master: the
 *   first step's) once every step of the node
 *   is finished (the node's result, an earlier node's result for them), and nothing of the node before.
 */
import type { AccessMode } from './enums';
import type { StepStatus } from './steps';

export interface VisibilityStep {
  id: number;
  nodeId: number;
  status: StepStatus;
  /** the step's assignee */
  blockedBy: number | null;
  master: boolean;
}

export interface Viewer {
  userId: number;
  /** the viewer's mode on a node (domain/access.ts nodeMode) */
  nodeMode: (nodeId: number) => AccessMode | null;
  /** the node's `annotatorsSeeEachOther` setting */
  seeEachOther: (nodeId: number) => boolean;
}

const finished = (s: Pick<VisibilityStep, 'status'>) => s.status === 'DONE' || s.status === 'ACCEPTED';

/** Whether the viewer sees a tag of `nodeId` written by `stepId`, given the document's steps. */
export function tagVisible(
  tag: { nodeId: number; stepId: number | null },
  steps: readonly VisibilityStep[],
  viewer: Viewer,
): boolean {
  const nodeSteps = steps.filter((s) => s.nodeId === tag.nodeId);
  if (nodeSteps.length <= 1) return true;
  const own = nodeSteps.find((s) => s.id === tag.stepId);
  if (!own) return true;
  if (viewer.nodeMode(tag.nodeId) === 'ADMIN') return true;
  const mine = nodeSteps.filter((s) => s.blockedBy === viewer.userId);
  if (mine.some((s) => s.id === own.id)) return true;
  if (mine.length) return mine.every(finished) && viewer.seeEachOther(tag.nodeId);
  const master = nodeSteps.find((s) => s.master) ?? [...nodeSteps].sort((x, y) => x.id - y.id)[0];
  return own.id === master.id && nodeSteps.every(finished);
}

/** The tags the viewer sees (see the header). */
export function visibleTags<T extends { nodeId: number; stepId: number | null }>(
  tags: readonly T[],
  steps: readonly VisibilityStep[],
  viewer: Viewer,
): T[] {
  return tags.filter((t) => tagVisible(t, steps, viewer));
}
