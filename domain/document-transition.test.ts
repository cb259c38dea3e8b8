import {
  planTransition,
  settleTransition,
  type DocumentWorkflowState,
  type EngineStep,
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
