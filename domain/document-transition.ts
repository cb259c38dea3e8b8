/**
 * One transition of a document's state, as pure functions: the document workflow (workflows/document.ts)
 * calls `planTransition`, writes the plan's projection with one activity, and becomes `settleTransition` of
 * what was written. What a transition decides:
 * - a freshly loaded flow replaces the graph's nodes, forgets steps of deleted nodes (their rows went with the
 *   node by foreign key cascade) and moves the flow on: steps for newly reached nodes (`planAdvance`), with
 *   provisional ids (-order) until written;
 * - the document status from the steps, the nodes and what is left to run;
 * - the projection: steps to create, and the steps whose projected fields changed (diffed against the
 *   state before), nothing else;
 * - once written: the created steps get their ids (a step whose node was deleted meanwhile was not created
 *   and is dropped) and the created PROCESSING steps join the queue of automatic steps to run.
 *
 * Runs inside the document workflow (in the workflow bundle): a change that alters what a running document
 * decides must be guarded by `patched()` in the workflow and pass the replay suite (tests/replay); see
 * docs/architecture.md.
 */
import type { DocumentTags } from './predicate-eval';
import { knownRules } from './rules-version';
import {
  applyStepAction,
  documentStatusOf,
  planAdvance,
  postExecutionStatus,
  stillLeft,
  type DocumentStatus,
  type FlowGraph,
  type NewStep,
  type StepAction,
  type StepActor,
  type StepNode,
  type StepState,
  type StepStatus,
} from './steps';

/** A step as the workflow holds it: the projection's fields plus how many times it was run. */
export interface EngineStep extends StepState {
  runs: number;
}

/** What the document workflow holds (and carries into its next run by continue-as-new). */
export interface DocumentWorkflowState {
  documentId: number;
  processId: number;
  uploadNodeId: number;
  initialized: boolean;
  /** The document row is gone: the workflow ends. */
  ended: boolean;
  documentStatus: DocumentStatus;
  steps: EngineStep[];
  /** The graph's nodes as last loaded. */
  nodes: StepNode[];
  leftNodeIds: number[];
  /** Automatic steps (PROCESSING) waiting to be run, in order. */
  queue: number[];
  nextOrder: number;
}

/** The graph and the document's tags as the graph-load activity read them. */
export interface LoadedFlow {
  graph: FlowGraph;
  tags: DocumentTags;
  /** False when the document row is gone (deleted): the workflow stops. */
  documentExists: boolean;
  /** The document's filename (for its search attributes); absent in loads recorded before it was added. */
  filename?: string;
  /**
   * Nodes of the graph whose automatic training is on (trainable_config.automaticTraining): the only ones a
   * finished step makes the workflow ask `maybeTrainNode` about. Absent in loads made before it was added.
   */
  trainingNodeIds?: number[];
}

/**
 * What a transition does to the state, as data (so the one-activity transition of activities/projection can
 * plan it as the workflow does): the document's first step, a human step action, or the outcome of an
 * automatic step's run.
 */
export type TransitionChange =
  | { kind: 'start' }
  | { kind: 'action'; action: StepAction; stepId: number; actor: StepActor }
  | { kind: 'ran'; stepId: number; attempt: number; error: string | null };

/** The projected fields of a step that changed. */
export interface StepPatch {
  id: number;
  status: StepStatus;
  master: boolean;
  rejected: boolean;
  blockedBy: number | null;
  errorMessage: string | null;
}

/** What one transition writes to PostgreSQL. */
export interface TransitionProjection {
  documentId: number;
  documentStatus: DocumentStatus;
  creates: NewStep[];
  changes: StepPatch[];
}

export interface TransitionPlan {
  /** The state after the transition, created steps with provisional ids (-order). */
  next: DocumentWorkflowState;
  projection: TransitionProjection;
}

/** The state of a document's first run before its first transition. */
export function initialDocumentState(input: {
  documentId: number;
  processId: number;
  uploadNodeId: number;
}): DocumentWorkflowState {
  return {
    documentId: input.documentId,
    processId: input.processId,
    uploadNodeId: input.uploadNodeId,
    initialized: false,
    ended: false,
    documentStatus: 'WAITING',
    steps: [],
    nodes: [],
    leftNodeIds: [],
    queue: [],
    nextOrder: 1,
  };
}

const clone = <T>(v: T): T => JSON.parse(JSON.stringify(v)) as T;

/** A step planned but not yet written: its id is provisional (-order) until the projection creates it. */
const plannedStep = (s: NewStep): EngineStep => ({
  ...s,
  id: -s.order,
  rejected: false,
  blockedBy: null,
  errorMessage: null,
  runs: 0,
});

export const nodeMapOf = (s: Pick<DocumentWorkflowState, 'nodes'>): Map<number, StepNode> =>
  new Map(s.nodes.map((n) => [n.id, n]));

/**
 * Applies `mutate` to a copy of the state; with a freshly loaded flow, also moves the flow on. The state
 * given is not changed. A flow whose document is gone is the caller's to handle before (nothing to plan).
 */
/**
 * The plan of one change under the rules of `rulesVersion` (domain/rules-version.ts): what the workflow and
 * the `transit` activity both plan, so that both decide by the rules the run began with.
 */
export function planChange(
  state: DocumentWorkflowState,
  flow: LoadedFlow | undefined,
  change: TransitionChange,
  rulesVersion: number,
): TransitionPlan {
  knownRules(rulesVersion);
  return planTransition(state, flow, (next) => applyChange(next, change, flow));
}

export function planTransition(
  state: DocumentWorkflowState,
  flow: LoadedFlow | undefined,
  mutate: (next: DocumentWorkflowState) => void,
): TransitionPlan {
  const next = clone(state);
  if (flow) {
    next.nodes = flow.graph.nodes.map((n) => ({ ...n }));
    const live = new Set(next.nodes.map((n) => n.id));
    next.steps = next.steps.filter((s) => live.has(s.nodeId));
    next.queue = next.queue.filter((id) => next.steps.some((s) => s.id === id));
  }
  const before = new Map(state.steps.map((s) => [s.id, JSON.stringify(s)]));
  mutate(next);
  const nodes = nodeMapOf(next);
  next.leftNodeIds = stillLeft(next.leftNodeIds, next.steps, nodes);
  if (flow) {
    const plan = planAdvance(next, flow.graph, flow.tags, next.documentId);
    next.leftNodeIds = plan.leftNodeIds;
    next.nextOrder = plan.nextOrder;
    for (const s of plan.newSteps) next.steps.push(plannedStep(s));
  }
  next.documentStatus = documentStatusOf(next.steps, nodes, next.queue.length);
  const creates = next.steps
    .filter((s) => s.id < 0)
    .map((s) => ({ nodeId: s.nodeId, order: s.order, status: s.status, master: s.master }));
  const changes = next.steps
    .filter((s) => s.id > 0 && before.get(s.id) !== JSON.stringify(s))
    .map(({ id, status, master, rejected, blockedBy, errorMessage }) => ({
      id,
      status,
      master,
      rejected,
      blockedBy,
      errorMessage,
    }));
  return {
    next,
    projection: { documentId: next.documentId, documentStatus: next.documentStatus, creates, changes },
  };
}

/**
 * The state once the plan is written: created steps take their ids (by order), a step that was not created
 * (its node was deleted meanwhile) is dropped, created PROCESSING steps are queued to run.
 */
export function settleTransition(
  plan: TransitionPlan,
  created: readonly { order: number; id: number }[],
): DocumentWorkflowState {
  const next = clone(plan.next);
  const ids = new Map(created.map((c) => [c.order, c.id]));
  next.steps = next.steps.flatMap((s) => {
    if (s.id > 0) return [s];
    const id = ids.get(s.order);
    return id === undefined ? [] : [{ ...s, id }];
  });
  for (const c of plan.projection.creates) {
    const id = ids.get(c.order);
    if (id !== undefined && c.status === 'PROCESSING') next.queue.push(id);
  }
  return next;
}

/** The upload node a document starts at, in the loaded graph (undefined: not in its process). */
export const startNodeOf = (state: Pick<DocumentWorkflowState, 'uploadNodeId'>, flow: LoadedFlow) =>
  flow.graph.nodes.find((n) => n.id === state.uploadNodeId);

/** Applies a change to the copy of the state a transition plans on (the `mutate` of planTransition). */
export function applyChange(next: DocumentWorkflowState, change: TransitionChange, flow?: LoadedFlow): void {
  switch (change.kind) {
    case 'start': {
      // An inter-process receiver that is not automatic holds the document until someone completes it.
      const start = flow && startNodeOf(next, flow);
      const holds = start?.activityType === 'IPR' && !start.automatic;
      next.initialized = true;
      next.steps.push(
        plannedStep({
          nodeId: next.uploadNodeId,
          order: 1,
          status: holds ? 'WAITING' : 'ACCEPTED',
          master: true,
        }),
      );
      next.nextOrder = 2;
      return;
    }
    case 'action':
      next.steps = applyStepAction(next.steps, change.stepId, change.action, change.actor);
      if (change.action === 'rerun') next.queue.push(change.stepId);
      return;
    case 'ran': {
      next.queue = next.queue.filter((id) => id !== change.stepId);
      const s = next.steps.find((x) => x.id === change.stepId);
      const n = s && nodeMapOf(next).get(s.nodeId);
      if (!s || !n || s.status !== 'PROCESSING') return;
      s.runs = change.attempt;
      if (change.error !== null) {
        s.status = 'ERROR';
        s.errorMessage = change.error;
      } else {
        s.status = postExecutionStatus(n).status;
        s.errorMessage = null;
      }
      return;
    }
  }
}

/** A process graph as the document workflow holds it between moves of the flow. */
export interface HeldGraph {
  /** processes.graph_version when it was read (db migration 028). */
  version: number;
  graph: FlowGraph;
  /** Nodes whose automatic training is on. */
  trainingNodeIds: number[];
}

/** What `transit` read when it moved the flow on. */
export interface TransitFlow {
  documentExists: boolean;
  filename?: string;
  /** The document's tags, or none when the graph has no predicates (nothing reads them then). */
  tags: DocumentTags;
  /** The graph when it is not the held one (its version moved, or none was held). */
  graph?: HeldGraph;
}

/** The LoadedFlow a transition plans on, from what `transit` read and the graph held (the workflow and the activity alike). */
export function loadedFlowOf(flow: TransitFlow, held: HeldGraph | null): LoadedFlow {
  const graph = flow.graph ?? held;
  if (!flow.documentExists || !graph)
    return { graph: { nodes: [], edges: [], predicates: [] }, tags: flow.tags, documentExists: false };
  return {
    graph: graph.graph,
    tags: flow.tags,
    documentExists: true,
    trainingNodeIds: graph.trainingNodeIds,
    ...(flow.filename ? { filename: flow.filename } : {}),
  };
}
