/**
 * The step model of a document (spec 2 sections 3, 4 and 6; spec 3 section 4; issue 4 section 1): statuses,
 * who may do what, which transitions each status allows, the status an automatic step ends in, when the flow
 * moves on from a node, which steps a transition creates, and the document's status. Pure: the API uses it to
 * authorize and fail fast, the document workflow uses it to decide (inside the sandbox).
 *
 * Decisions where the spec is silent:
 * - Modes: start working, complete, activate need WRITE on the node; accept needs ADMIN, or WRITE when the
 *   node does not require acceptance; revoking an acceptance (cancel acceptance of an ACCEPTED step), mark as
 *   master, unassigning another user and rerun need ADMIN (rerun: file parser steps WAITING or ERROR, other
 *   automatic steps ERROR, as a new execution); reopening an ERROR step (cancel acceptance) and
 *   releasing one's own assignment need WRITE. READ (or no mode) may do nothing.
 * - Complete and accept of a WAITING step need someone working on it (blockedBy); only that user or a node
 *   admin may complete or accept it. Start working on a step someone else holds is for node admins only
 *   (they take it over); starting a step one already holds is a no-op.
 * - `rejected` is set when a step is sent back to WAITING (activate, cancel acceptance) by someone other than
 *   the user working on it, and cleared when it is completed or accepted again.
 * - Mark as master moves the flag: the other steps of the node lose it. The first step of every node starts
 *   as its master.
 * - The flow leaves a node when every step of it is passable: ACCEPTED, or DONE where the node does not
 *   require acceptance. A node is reached when any taken edge leads to it (the first time only: a node that
 *   already has steps gets no new ones). Upload steps cannot be reopened.
 * - Automatic types outside the conditional-acceptance whitelist (upload and action nodes) always end
 *   ACCEPTED with requiresAcceptance cleared ("the node rule forces it", spec 3 section 4).
 * - The document is DONE when every step is passable and nothing is left to run; WAITING otherwise.
 *
 * Runs inside the document workflow (workflows/document.ts, in the workflow bundle; what it decides there:
 * its statuses, transitions, refusals, the steps a transition creates and the document status). A change that alters a decision for a running document must be guarded by `patched()` in the
 * workflow and pass the replay suite (tests/replay/replay.test.ts); see docs/architecture.md.
 */
import { modeSatisfies } from './access';
import type { AccessMode, ActivityType } from './enums';
import type { AdditionalNodeSubmit, AutoStepStatus } from './graph-types';
import { CONDITIONAL_ACCEPTANCE_WHITELIST, MULTIPROCESSED_WHITELIST, isUploadType } from './nodes';
import { edgePredicatesHold, type DocumentTags, type EvalPredicate } from './predicate-eval';

export const StepStatuses = ['WAITING', 'PROCESSING', 'DONE', 'ACCEPTED', 'ERROR'] as const;
export type StepStatus = (typeof StepStatuses)[number];
export type DocumentStatus = 'WAITING' | 'DONE';

export const StepActions = [
  'startWorking',
  'complete',
  'accept',
  'activate',
  'cancelAcceptance',
  'unassign',
  'markMaster',
  'rerun',
] as const;
export type StepAction = (typeof StepActions)[number];

/** The node facts the step rules need (a subset of NodeDTO). */
export interface StepNode {
  id: number;
  name: string;
  activityType: ActivityType;
  automatic: boolean;
  autoStepStatus: AutoStepStatus;
  requiresAcceptance: boolean;
  priority: number;
  additionalNodeSubmits: readonly AdditionalNodeSubmit[];
}

export interface StepState {
  id: number;
  nodeId: number;
  status: StepStatus;
  master: boolean;
  rejected: boolean;
  /** The user working on the step. */
  blockedBy: number | null;
  order: number;
  errorMessage: string | null;
}

export interface StepActor {
  userId: number;
  /** The actor's mode on the step's node (domain/access.ts nodeMode). */
  nodeMode: AccessMode | null;
}

/** Why a transition is refused: a stable code (i18n `error.step.<code>`) and an English message to show. */
export interface StepRefusal {
  code: string;
  message: string;
}

const refuse = (code: string, message: string): StepRefusal => ({ code, message });

// --- who may do what (spec 2 section 6) ---

/** The mode an action needs on the step's node. */
export function requiredMode(
  action: StepAction,
  step: StepState,
  node: StepNode,
  actor: StepActor,
): AccessMode {
  switch (action) {
    case 'startWorking':
    case 'complete':
    case 'activate':
      return 'WRITE';
    case 'accept':
      return node.requiresAcceptance ? 'ADMIN' : 'WRITE';
    case 'cancelAcceptance':
      return step.status === 'ERROR' ? 'WRITE' : 'ADMIN';
    case 'unassign':
      return step.blockedBy !== null && step.blockedBy === actor.userId ? 'WRITE' : 'ADMIN';
    case 'markMaster':
    case 'rerun':
      return 'ADMIN';
  }
}

/** True when the actor's mode on the node is enough for the action (else the API answers 403). */
export function modeAllows(action: StepAction, step: StepState, node: StepNode, actor: StepActor): boolean {
  return modeSatisfies(actor.nodeMode, requiredMode(action, step, node, actor));
}

// --- transitions by status (spec 2 section 4) ---

const isAdmin = (actor: StepActor) => actor.nodeMode === 'ADMIN';

function heldByOther(step: StepState, actor: StepActor): StepRefusal | null {
  if (step.blockedBy !== null && step.blockedBy !== actor.userId && !isAdmin(actor))
    return refuse('assignedToOther', 'The step is assigned to another user');
  return null;
}

/**
 * Why the step's status (or its assignment) does not allow the action; null when it does. Mode is checked
 * separately (`modeAllows`), but an admin-only exception (taking over a step) reads `actor.nodeMode`.
 */
export function transitionRefusal(
  action: StepAction,
  step: StepState,
  node: StepNode,
  actor: StepActor,
): StepRefusal | null {
  if (step.status === 'PROCESSING') return refuse('processing', 'The step is being processed');
  switch (action) {
    case 'startWorking':
      if (step.status !== 'WAITING')
        return refuse('notWaiting', `Only a waiting step can be started (this one is ${step.status})`);
      return heldByOther(step, actor);
    case 'complete':
      if (step.status !== 'WAITING')
        return refuse('notWaiting', `Only a waiting step can be completed (this one is ${step.status})`);
      if (step.blockedBy === null)
        return refuse('notStarted', 'Start working on the step before completing it');
      return heldByOther(step, actor);
    case 'accept':
      if (step.status === 'ACCEPTED') return refuse('alreadyAccepted', 'The step is already accepted');
      if (step.status === 'DONE') return null;
      if (step.status !== 'WAITING')
        return refuse('notDone', `Only a done or started step can be accepted (this one is ${step.status})`);
      if (step.blockedBy === null)
        return refuse('notStarted', 'Start working on the step before accepting it');
      return heldByOther(step, actor);
    case 'activate':
      if (step.status !== 'DONE')
        return refuse('notDone', `Only a done step can be activated (this one is ${step.status})`);
      return null;
    case 'cancelAcceptance':
      if (step.status !== 'ACCEPTED' && step.status !== 'ERROR')
        return refuse(
          'notAccepted',
          `Only an accepted or failed step can be reopened (this one is ${step.status})`,
        );
      if (isUploadType(node.activityType)) return refuse('uploadStep', 'The upload step cannot be reopened');
      return null;
    case 'unassign':
      if (step.blockedBy === null) return refuse('notAssigned', 'The step is not assigned to anyone');
      return null;
    case 'markMaster':
      if (step.master) return refuse('alreadyMaster', 'The step is already the master step');
      return null;
    case 'rerun':
      // A failed action (mail, request, upload, model...) may be run again by a node admin, a new execution.
      if (node.activityType !== 'FILE_PARSER' && node.automatic && !isUploadType(node.activityType)) {
        if (step.status !== 'ERROR')
          return refuse(
            'notRerunnable',
            `Only a failed action step can be rerun (this one is ${step.status})`,
          );
        return null;
      }
      if (node.activityType !== 'FILE_PARSER')
        return refuse('notRerunnable', 'Only file parser steps and failed automatic steps can be rerun');
      if (step.status !== 'WAITING' && step.status !== 'ERROR')
        return refuse(
          'notRerunnable',
          `Only a waiting or failed step can be rerun (this one is ${step.status})`,
        );
      return null;
  }
}

/**
 * A document blocked by a user (document-level block, spec 2 section 4) is locked for everyone else but node
 * admins: the API refuses their step actions.
 */
export function documentBlockRefusal(documentBlockedBy: number | null, actor: StepActor): StepRefusal | null {
  if (documentBlockedBy !== null && documentBlockedBy !== actor.userId && !isAdmin(actor))
    return refuse('documentBlocked', 'The document is blocked by another user');
  return null;
}

/**
 * Why the actor may not edit the step's annotations (tags, classification, text) now; null when the step is
 * editable (spec 2 section 4): it is WAITING, has an id above 0, and either the actor works on it (blockedBy)
 * while no other user blocks the document, or the actor holds ADMIN on its node. The mode a write needs
 * (WRITE on the node) is checked apart, like modeAllows for the actions.
 */
export function stepEditRefusal(
  step: Pick<StepState, 'id' | 'status' | 'blockedBy'>,
  actor: StepActor,
  documentBlockedBy: number | null,
): StepRefusal | null {
  if (!(step.id > 0)) return refuse('notSaved', 'The step is not saved yet');
  if (step.status !== 'WAITING')
    return refuse('notWaiting', `Only a waiting step can be edited (this one is ${step.status})`);
  if (isAdmin(actor)) return null;
  if (step.blockedBy === null) return refuse('notStarted', 'Start working on the step before editing it');
  if (step.blockedBy !== actor.userId)
    return refuse('assignedToOther', 'The step is assigned to another user');
  return documentBlockRefusal(documentBlockedBy, actor);
}

/** The step is editable for the actor (stepEditRefusal finds nothing). */
export const isStepEditable = (
  step: Pick<StepState, 'id' | 'status' | 'blockedBy'>,
  actor: StepActor,
  documentBlockedBy: number | null,
): boolean => stepEditRefusal(step, actor, documentBlockedBy) === null;

/** Mode and transition together, as the workflow's validators check them (a missing mode first). */
export function actionRefusal(
  action: StepAction,
  step: StepState,
  node: StepNode,
  actor: StepActor,
): StepRefusal | null {
  if (!modeAllows(action, step, node, actor))
    return refuse('forbidden', `Your access to node ${node.name} does not allow this action`);
  return transitionRefusal(action, step, node, actor);
}

/** The actions the actor may take on a step now (for the UI's buttons). */
export function availableActions(step: StepState, node: StepNode, actor: StepActor): StepAction[] {
  return StepActions.filter((a) => actionRefusal(a, step, node, actor) === null);
}

/**
 * The steps after an allowed action (the step itself and, for mark as master, its node's other steps).
 * Rerun puts the step in PROCESSING; the engine runs it and sets the outcome.
 */
export function applyStepAction<S extends StepState>(
  steps: readonly S[],
  stepId: number,
  action: StepAction,
  actor: StepActor,
): S[] {
  const target = steps.find((s) => s.id === stepId);
  if (!target) return [...steps];
  const sentBack = target.blockedBy !== actor.userId;
  return steps.map((s): S => {
    if (s.id !== stepId) {
      if (action === 'markMaster' && s.nodeId === target.nodeId && s.master) return { ...s, master: false };
      return s;
    }
    switch (action) {
      case 'startWorking':
        return { ...s, blockedBy: actor.userId };
      case 'complete':
        return { ...s, status: 'DONE', rejected: false };
      case 'accept':
        return { ...s, status: 'ACCEPTED', rejected: false };
      case 'activate':
        return { ...s, status: 'WAITING', rejected: sentBack };
      case 'cancelAcceptance':
        return {
          ...s,
          status: 'WAITING',
          rejected: s.status === 'ACCEPTED' && sentBack,
          errorMessage: null,
        };
      case 'unassign':
        return { ...s, blockedBy: null };
      case 'markMaster':
        return { ...s, master: true };
      case 'rerun':
        return { ...s, status: 'PROCESSING', errorMessage: null };
    }
  });
}

// --- automatic execution (spec 3 section 4) ---

/**
 * The status an automatic step ends in after its activity succeeded: the node's autoStepStatus, DONE instead
 * of ACCEPTED when the node requires acceptance, and always ACCEPTED (acceptance cleared) for types outside
 * the conditional-acceptance whitelist.
 */
export function postExecutionStatus(
  node: Pick<StepNode, 'activityType' | 'autoStepStatus' | 'requiresAcceptance'>,
): {
  status: StepStatus;
  requiresAcceptance: boolean;
} {
  if (!CONDITIONAL_ACCEPTANCE_WHITELIST.includes(node.activityType))
    return { status: 'ACCEPTED', requiresAcceptance: false };
  if (node.requiresAcceptance && node.autoStepStatus === 'ACCEPTED')
    return { status: 'DONE', requiresAcceptance: true };
  return { status: node.autoStepStatus, requiresAcceptance: node.requiresAcceptance };
}

/** The acceptance rule in force for a node (the forced rule of postExecutionStatus included). */
export const nodeRequiresAcceptance = (
  node: Pick<StepNode, 'activityType' | 'requiresAcceptance'>,
): boolean => node.requiresAcceptance && CONDITIONAL_ACCEPTANCE_WHITELIST.includes(node.activityType);

/** The flow may move on from this step: ACCEPTED, or DONE where the node does not require acceptance. */
export function isPassable(
  step: Pick<StepState, 'status'>,
  node: Pick<StepNode, 'activityType' | 'requiresAcceptance'>,
): boolean {
  return step.status === 'ACCEPTED' || (step.status === 'DONE' && !nodeRequiresAcceptance(node));
}

/** How many steps a node reached by a document gets: 1, plus its additional submits when multiprocessed. */
export function stepCountFor(
  node: Pick<StepNode, 'activityType' | 'additionalNodeSubmits'>,
  documentId: number,
): number {
  if (!MULTIPROCESSED_WHITELIST.includes(node.activityType)) return 1;
  const forDoc = node.additionalNodeSubmits.find((e) => e.docId === documentId);
  const forAll = node.additionalNodeSubmits.find((e) => e.docId === null);
  return 1 + Math.max(0, Math.floor((forDoc ?? forAll)?.submits ?? 0));
}

// --- walking the graph ---

export interface FlowEdge {
  id: number;
  fromId: number;
  toId: number;
}

export interface FlowGraph {
  nodes: readonly StepNode[];
  edges: readonly FlowEdge[];
  predicates: readonly EvalPredicate[];
}

/** A step to create: ids come from the projection; `order` identifies it until then. */
export interface NewStep {
  nodeId: number;
  order: number;
  status: StepStatus;
  master: boolean;
}

export interface FlowState {
  steps: readonly StepState[];
  /** Nodes whose outgoing edges were followed (since their steps last became passable). */
  leftNodeIds: readonly number[];
  nextOrder: number;
}

/** Node ids whose steps are all passable (in order of their first step). */
export function passableNodeIds(steps: readonly StepState[], nodes: ReadonlyMap<number, StepNode>): number[] {
  const byNode = new Map<number, StepState[]>();
  for (const s of [...steps].sort((a, b) => a.order - b.order)) {
    const list = byNode.get(s.nodeId);
    if (list) list.push(s);
    else byNode.set(s.nodeId, [s]);
  }
  const out: number[] = [];
  for (const [nodeId, list] of byNode) {
    const node = nodes.get(nodeId);
    if (node && list.every((s) => isPassable(s, node))) out.push(nodeId);
  }
  return out;
}

/** The left nodes that still are passable: a node whose step was reopened is left again only once completed. */
export function stillLeft(
  leftNodeIds: readonly number[],
  steps: readonly StepState[],
  nodes: ReadonlyMap<number, StepNode>,
): number[] {
  const passable = new Set(passableNodeIds(steps, nodes));
  return leftNodeIds.filter((id) => passable.has(id));
}

/** Nodes the flow is about to leave: passable and not yet left. */
export function frontierNodeIds(state: FlowState, nodes: ReadonlyMap<number, StepNode>): number[] {
  const left = new Set(state.leftNodeIds);
  return passableNodeIds(state.steps, nodes).filter((id) => !left.has(id));
}

/**
 * One move of the flow: leaves every frontier node, takes its outgoing edges whose predicates hold and
 * plans steps for the target nodes that have none yet (automatic ones in PROCESSING, to be run). Nodes that
 * stopped being passable are no longer "left", so completing them again re-evaluates their edges.
 */
export function planAdvance(
  state: FlowState,
  graph: FlowGraph,
  tags: DocumentTags,
  documentId: number,
): { leftNodeIds: number[]; newSteps: NewStep[]; nextOrder: number } {
  const nodes = new Map(graph.nodes.map((n) => [n.id, n]));
  const left = stillLeft(state.leftNodeIds, state.steps, nodes);
  const frontier = frontierNodeIds(state, nodes);
  const reached = new Set(state.steps.map((s) => s.nodeId));
  const newSteps: NewStep[] = [];
  let nextOrder = state.nextOrder;
  for (const from of frontier) {
    left.push(from);
    const edges = graph.edges.filter((e) => e.fromId === from).sort((a, b) => a.id - b.id);
    for (const edge of edges) {
      const target = nodes.get(edge.toId);
      if (!target || reached.has(target.id)) continue;
      if (
        !edgePredicatesHold(
          graph.predicates.filter((p) => p.edgeId === edge.id),
          tags,
        )
      )
        continue;
      reached.add(target.id);
      const count = stepCountFor(target, documentId);
      for (let i = 0; i < count; i++) {
        newSteps.push({
          nodeId: target.id,
          order: nextOrder++,
          status: target.automatic ? 'PROCESSING' : 'WAITING',
          master: i === 0,
        });
      }
    }
  }
  return { leftNodeIds: left, newSteps, nextOrder };
}

/** DONE when every step is passable and nothing is queued to run; WAITING otherwise. */
export function documentStatusOf(
  steps: readonly StepState[],
  nodes: ReadonlyMap<number, StepNode>,
  pendingRuns = 0,
): DocumentStatus {
  if (pendingRuns > 0) return 'WAITING';
  return steps.every((s) => {
    const node = nodes.get(s.nodeId);
    return node ? isPassable(s, node) : true;
  })
    ? 'DONE'
    : 'WAITING';
}

/** The step the workspace selects on load: the first WAITING step, else the last DONE one (spec 2 section 4). */
export function selectedStep<S extends Pick<StepState, 'status' | 'order'>>(steps: readonly S[]): S | null {
  const sorted = [...steps].sort((a, b) => a.order - b.order);
  return (
    sorted.find((s) => s.status === 'WAITING') ??
    [...sorted].reverse().find((s) => s.status === 'DONE') ??
    null
  );
}
