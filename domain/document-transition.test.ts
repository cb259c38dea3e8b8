import {
  applyChange,
  loadedFlowOf,
  planTransition,
  settleTransition,
  type DocumentWorkflowState,
  type EngineStep,
  type HeldGraph,
  type LoadedFlow,
} from './document-transition';
import type { StepNode } from './steps';

const node = (id: number, over: Partial<StepNode> = {}): StepNode => ({
  id,
  name: `node ${id}`,
  activityType: 'CLF',
  automatic: false,
  autoStepStatus: 'WAITING',
  requiresAcceptance: false,
  priority: 2,
  additionalNodeSubmits: [],
  ...over,
});

const HUP = node(1, { activityType: 'HUP', automatic: true, autoStepStatus: 'ACCEPTED' });
const CLF = node(2);
const PARSER = node(3, { activityType: 'FILE_PARSER', automatic: true, autoStepStatus: 'DONE' });

const step = (over: Partial<EngineStep>): EngineStep => ({
  id: 10,
  nodeId: 1,
  status: 'WAITING',
  master: true,
  rejected: false,
  blockedBy: null,
  order: 1,
  errorMessage: null,
  runs: 0,
  ...over,
});

const state = (over: Partial<DocumentWorkflowState> = {}): DocumentWorkflowState => ({
  documentId: 5,
  processId: 9,
  uploadNodeId: 1,
  initialized: true,
  ended: false,
  documentStatus: 'WAITING',
  steps: [step({ id: 10, nodeId: 1, status: 'ACCEPTED', order: 1 })],
  nodes: [HUP, CLF],
  leftNodeIds: [],
  queue: [],
  nextOrder: 2,
  ...over,
});

const flow = (nodes: StepNode[], edges: [number, number][]): LoadedFlow => ({
  graph: {
    nodes,
    edges: edges.map(([fromId, toId], i) => ({ id: 100 + i, fromId, toId })),
    predicates: [],
  },
  tags: { classifier: [], ner: [] },
  documentExists: true,
});

describe('planTransition', () => {
  it('moves the flow on: new steps with provisional ids, in order, and the document WAITING', () => {
    const before = state();
    const plan = planTransition(
      before,
      flow(
        [HUP, CLF, PARSER],
        [
          [1, 2],
          [1, 3],
        ],
      ),
      () => {},
    );
    expect(plan.projection.creates).toEqual([
      { nodeId: 2, order: 2, status: 'WAITING', master: true },
      { nodeId: 3, order: 3, status: 'PROCESSING', master: true },
    ]);
    expect(plan.next.steps.map((s) => s.id)).toEqual([10, -2, -3]);
    expect(plan.next.leftNodeIds).toEqual([1]);
    expect(plan.next.nextOrder).toBe(4);
    expect(plan.projection.changes).toEqual([]);
    expect(plan.projection.documentStatus).toBe('WAITING');
    // The state given is not touched.
    expect(before.steps).toHaveLength(1);
    expect(before.leftNodeIds).toEqual([]);
  });

  it('projects only the steps whose fields changed, and the document DONE when everything is passable', () => {
    const before = state({
      steps: [
        step({ id: 10, nodeId: 1, status: 'ACCEPTED', order: 1 }),
        step({ id: 11, nodeId: 2, status: 'WAITING', order: 2, blockedBy: 7 }),
      ],
      leftNodeIds: [1],
      nextOrder: 3,
    });
    const plan = planTransition(before, flow([HUP, CLF], [[1, 2]]), (next) => {
      next.steps[1].status = 'DONE';
    });
    expect(plan.projection).toEqual({
      documentId: 5,
      documentStatus: 'DONE',
      creates: [],
      changes: [{ id: 11, status: 'DONE', master: true, rejected: false, blockedBy: 7, errorMessage: null }],
    });
    expect(plan.next.leftNodeIds).toEqual([1, 2]);
  });

  it('without a flow, changes steps but creates none and keeps the graph', () => {
    const before = state({
      steps: [
        step({ id: 10, nodeId: 1, status: 'ACCEPTED', order: 1 }),
        step({ id: 11, nodeId: 2, order: 2 }),
      ],
      nodes: [HUP, CLF, PARSER],
      leftNodeIds: [1],
      nextOrder: 3,
    });
    const plan = planTransition(before, undefined, (next) => {
      next.steps[1].blockedBy = 7;
    });
    expect(plan.projection.creates).toEqual([]);
    expect(plan.projection.changes.map((c) => [c.id, c.blockedBy])).toEqual([[11, 7]]);
    expect(plan.next.nodes).toHaveLength(3);
  });

  it('forgets steps and queued runs of nodes the graph no longer has', () => {
    const before = state({
      steps: [
        step({ id: 10, nodeId: 1, status: 'ACCEPTED', order: 1 }),
        step({ id: 12, nodeId: 3, status: 'PROCESSING', order: 2 }),
      ],
      nodes: [HUP, PARSER],
      leftNodeIds: [1],
      queue: [12],
      nextOrder: 3,
    });
    const plan = planTransition(before, flow([HUP], []), () => {});
    expect(plan.next.steps.map((s) => s.id)).toEqual([10]);
    expect(plan.next.queue).toEqual([]);
    expect(plan.next.nodes.map((n) => n.id)).toEqual([1]);
    expect(plan.projection.documentStatus).toBe('DONE');
  });

  it('keeps the document WAITING while a run is queued', () => {
    const plan = planTransition(state({ queue: [10] }), undefined, () => {});
    expect(plan.projection.documentStatus).toBe('WAITING');
  });
});

describe('settleTransition', () => {
  it('gives created steps their ids, drops the ones not created, and queues created PROCESSING steps', () => {
    const plan = planTransition(
      state(),
      flow(
        [HUP, CLF, PARSER],
        [
          [1, 2],
          [1, 3],
        ],
      ),
      () => {},
    );
    // The CLF node was deleted meanwhile: only the parser step was written.
    const settled = settleTransition(plan, [{ order: 3, id: 31 }]);
    expect(settled.steps.map((s) => [s.id, s.nodeId, s.status])).toEqual([
      [10, 1, 'ACCEPTED'],
      [31, 3, 'PROCESSING'],
    ]);
    expect(settled.queue).toEqual([31]);
    // The plan is not touched.
    expect(plan.next.steps.map((s) => s.id)).toEqual([10, -2, -3]);
  });

  it('does not queue a created WAITING step', () => {
    const plan = planTransition(state(), flow([HUP, CLF], [[1, 2]]), () => {});
    const settled = settleTransition(plan, [{ order: 2, id: 20 }]);
    expect(settled.queue).toEqual([]);
    expect(settled.steps.map((s) => s.id)).toEqual([10, 20]);
  });
});

describe('applyChange', () => {
  const actor = { userId: 7, nodeMode: 'ADMIN' as const };

  it('start: the upload step ACCEPTED, or WAITING at an inter-process receiver that is not automatic', () => {
    const fresh = state({ initialized: false, steps: [], nextOrder: 1 });
    const next = structuredClone(fresh);
    applyChange(next, { kind: 'start' }, flow([HUP, CLF], [[1, 2]]));
    expect(next).toMatchObject({ initialized: true, nextOrder: 2 });
    expect(next.steps).toEqual([step({ id: -1, nodeId: 1, status: 'ACCEPTED', order: 1 })]);

    const ipr = node(1, { activityType: 'IPR', automatic: false });
    const held = structuredClone(fresh);
    applyChange(held, { kind: 'start' }, flow([ipr, CLF], [[1, 2]]));
    expect(held.steps[0].status).toBe('WAITING');
  });

  it('action: applies the step action, and a rerun queues the step', () => {
    const s = state({ steps: [step({ id: 10, nodeId: 2, status: 'WAITING' })] });
    const done = structuredClone(s);
    applyChange(done, { kind: 'action', action: 'complete', stepId: 10, actor });
    expect(done.steps[0].status).toBe('DONE');
    expect(done.queue).toEqual([]);

    const failed = state({
      nodes: [HUP, PARSER],
      steps: [step({ id: 11, nodeId: 3, status: 'ERROR', errorMessage: 'x' })],
    });
    applyChange(failed, { kind: 'action', action: 'rerun', stepId: 11, actor });
    expect(failed.steps[0].status).toBe('PROCESSING');
    expect(failed.queue).toEqual([11]);
  });

  it("ran: the run's outcome (post-execution status, or ERROR with the message), dequeued and counted", () => {
    const running = state({
      nodes: [HUP, PARSER],
      steps: [step({ id: 12, nodeId: 3, status: 'PROCESSING' })],
      queue: [12],
    });
    const ok = structuredClone(running);
    applyChange(ok, { kind: 'ran', stepId: 12, attempt: 1, error: null });
    expect(ok.queue).toEqual([]);
    expect(ok.steps[0]).toMatchObject({ status: 'DONE', runs: 1, errorMessage: null });

    const bad = structuredClone(running);
    applyChange(bad, { kind: 'ran', stepId: 12, attempt: 2, error: 'boom' });
    expect(bad.queue).toEqual([]);
    expect(bad.steps[0]).toMatchObject({ status: 'ERROR', runs: 2, errorMessage: 'boom' });

    // A step no longer PROCESSING (rerun meanwhile, or its node deleted) is only dequeued.
    const gone = state({
      nodes: [HUP],
      steps: [step({ id: 12, nodeId: 3, status: 'PROCESSING' })],
      queue: [12],
    });
    applyChange(gone, { kind: 'ran', stepId: 12, attempt: 1, error: null });
    expect(gone.queue).toEqual([]);
    expect(gone.steps[0]).toMatchObject({ status: 'PROCESSING', runs: 0 });
  });
});

describe('loadedFlowOf', () => {
  const held: HeldGraph = { version: 3, graph: flow([HUP, CLF], [[1, 2]]).graph, trainingNodeIds: [2] };
  const tags = { classifier: [{ nodeId: 2, classifierTypeId: 4 }], ner: [] };

  it('plans on the held graph when the read graph is unchanged, and on the fresh one when it moved', () => {
    expect(loadedFlowOf({ documentExists: true, filename: 'a.txt', tags }, held)).toEqual({
      graph: held.graph,
      tags,
      documentExists: true,
      trainingNodeIds: [2],
      filename: 'a.txt',
    });
    const fresh: HeldGraph = { version: 4, graph: flow([HUP], []).graph, trainingNodeIds: [] };
    expect(loadedFlowOf({ documentExists: true, tags, graph: fresh }, held)).toMatchObject({
      graph: fresh.graph,
      trainingNodeIds: [],
    });
  });

  it('a gone document is a flow without a graph', () => {
    expect(loadedFlowOf({ documentExists: false, tags: { classifier: [], ner: [] } }, null)).toMatchObject({
      documentExists: false,
      graph: { nodes: [], edges: [], predicates: [] },
    });
  });
});
