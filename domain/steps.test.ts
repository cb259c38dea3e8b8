import type { AccessMode } from './enums';
import {
  actionRefusal,
  applyStepAction,
  availableActions,
  documentBlockRefusal,
  documentStatusOf,
  isStepEditable,
  isPassable,
  modeAllows,
  planAdvance,
  postExecutionStatus,
  selectedStep,
  stepCountFor,
  stepEditRefusal,
  stillLeft,
  transitionRefusal,
  type FlowGraph,
  type StepNode,
  type StepState,
} from './steps';

const node = (over: Partial<StepNode> = {}): StepNode => ({
  id: 1,
  name: 'Classify',
  activityType: 'CLF',
  automatic: false,
  autoStepStatus: 'WAITING',
  requiresAcceptance: false,
  priority: 2,
  additionalNodeSubmits: [],
  ...over,
});

const step = (over: Partial<StepState> = {}): StepState => ({
  id: 10,
  nodeId: 1,
  status: 'WAITING',
  master: true,
  rejected: false,
  blockedBy: null,
  order: 2,
  errorMessage: null,
  ...over,
});

const ME = 7;
const OTHER = 8;
const as = (nodeMode: AccessMode | null, userId = ME) => ({ userId, nodeMode });

describe('who may do what (spec 2 section 6)', () => {
  it('lets WRITE start, complete and activate, and nothing for READ or no mode', () => {
    for (const a of ['startWorking', 'complete', 'activate'] as const) {
      expect(modeAllows(a, step(), node(), as('WRITE'))).toBe(true);
      expect(modeAllows(a, step(), node(), as('READ'))).toBe(false);
      expect(modeAllows(a, step(), node(), as(null))).toBe(false);
    }
  });

  it('needs ADMIN to accept where the node requires acceptance, else WRITE', () => {
    expect(modeAllows('accept', step(), node({ requiresAcceptance: true }), as('WRITE'))).toBe(false);
    expect(modeAllows('accept', step(), node({ requiresAcceptance: true }), as('ADMIN'))).toBe(true);
    expect(modeAllows('accept', step(), node(), as('WRITE'))).toBe(true);
  });

  it('keeps revoking acceptance, mark as master, rerun and unassigning others for ADMIN', () => {
    expect(modeAllows('cancelAcceptance', step({ status: 'ACCEPTED' }), node(), as('WRITE'))).toBe(false);
    expect(modeAllows('cancelAcceptance', step({ status: 'ERROR' }), node(), as('WRITE'))).toBe(true);
    expect(modeAllows('markMaster', step(), node(), as('WRITE'))).toBe(false);
    expect(modeAllows('rerun', step(), node(), as('WRITE'))).toBe(false);
    expect(modeAllows('unassign', step({ blockedBy: OTHER }), node(), as('WRITE'))).toBe(false);
    expect(modeAllows('unassign', step({ blockedBy: ME }), node(), as('WRITE'))).toBe(true);
    expect(modeAllows('unassign', step({ blockedBy: OTHER }), node(), as('ADMIN'))).toBe(true);
  });

  it('locks a blocked document for everyone but its blocker and node admins', () => {
    expect(documentBlockRefusal(OTHER, as('WRITE'))?.code).toBe('documentBlocked');
    expect(documentBlockRefusal(ME, as('WRITE'))).toBeNull();
    expect(documentBlockRefusal(OTHER, as('ADMIN'))).toBeNull();
    expect(documentBlockRefusal(null, as('WRITE'))).toBeNull();
  });
});

describe('transitions by status (spec 2 section 4)', () => {
  const code = (...args: Parameters<typeof transitionRefusal>) => transitionRefusal(...args)?.code ?? null;

  it("starts a waiting step; a step someone else holds only for admins; one's own again is a no-op", () => {
    expect(code('startWorking', step(), node(), as('WRITE'))).toBeNull();
    expect(code('startWorking', step({ blockedBy: OTHER }), node(), as('WRITE'))).toBe('assignedToOther');
    expect(code('startWorking', step({ blockedBy: OTHER }), node(), as('ADMIN'))).toBeNull();
    expect(code('startWorking', step({ blockedBy: ME }), node(), as('WRITE'))).toBeNull();
    expect(code('startWorking', step({ status: 'DONE' }), node(), as('WRITE'))).toBe('notWaiting');
  });

  it('completes only a started waiting step held by the actor (or by anyone, for admins)', () => {
    expect(code('complete', step(), node(), as('WRITE'))).toBe('notStarted');
    expect(code('complete', step({ blockedBy: ME }), node(), as('WRITE'))).toBeNull();
    expect(code('complete', step({ blockedBy: OTHER }), node(), as('WRITE'))).toBe('assignedToOther');
    expect(code('complete', step({ blockedBy: OTHER }), node(), as('ADMIN'))).toBeNull();
    expect(code('complete', step({ status: 'DONE', blockedBy: ME }), node(), as('WRITE'))).toBe('notWaiting');
  });

  it('accepts a DONE step or a started WAITING one, not an accepted or failed one', () => {
    expect(code('accept', step({ status: 'DONE' }), node(), as('ADMIN'))).toBeNull();
    expect(code('accept', step({ blockedBy: ME }), node(), as('ADMIN'))).toBeNull();
    expect(code('accept', step(), node(), as('ADMIN'))).toBe('notStarted');
    expect(code('accept', step({ status: 'ACCEPTED' }), node(), as('ADMIN'))).toBe('alreadyAccepted');
    expect(code('accept', step({ status: 'ERROR' }), node(), as('ADMIN'))).toBe('notDone');
  });

  it('activates DONE steps; cancels acceptance of ACCEPTED or ERROR steps, never of the upload step', () => {
    expect(code('activate', step({ status: 'DONE' }), node(), as('WRITE'))).toBeNull();
    expect(code('activate', step({ status: 'ACCEPTED' }), node(), as('WRITE'))).toBe('notDone');
    expect(code('cancelAcceptance', step({ status: 'ACCEPTED' }), node(), as('ADMIN'))).toBeNull();
    expect(code('cancelAcceptance', step({ status: 'ERROR' }), node(), as('WRITE'))).toBeNull();
    expect(code('cancelAcceptance', step({ status: 'DONE' }), node(), as('ADMIN'))).toBe('notAccepted');
    expect(
      code('cancelAcceptance', step({ status: 'ACCEPTED' }), node({ activityType: 'HUP' }), as('ADMIN')),
    ).toBe('uploadStep');
  });

  it('reruns FILE_PARSER steps in WAITING or ERROR only', () => {
    const parser = node({ activityType: 'FILE_PARSER', automatic: true });
    expect(code('rerun', step({ status: 'ERROR' }), parser, as('ADMIN'))).toBeNull();
    expect(code('rerun', step(), parser, as('ADMIN'))).toBeNull();
    expect(code('rerun', step({ status: 'DONE' }), parser, as('ADMIN'))).toBe('notRerunnable');
    expect(code('rerun', step({ status: 'ERROR' }), node({ activityType: 'LEXICON' }), as('ADMIN'))).toBe(
      'notRerunnable',
    );
  });

  it('reruns failed automatic action steps only, and never a manual or upload step', () => {
    const mail = node({ activityType: 'SEND_MAIL', automatic: true });
    expect(code('rerun', step({ status: 'ERROR' }), mail, as('ADMIN'))).toBeNull();
    expect(code('rerun', step({ status: 'WAITING' }), mail, as('ADMIN'))).toBe('notRerunnable');
    expect(code('rerun', step({ status: 'ACCEPTED' }), mail, as('ADMIN'))).toBe('notRerunnable');
    expect(
      code('rerun', step({ status: 'ERROR' }), node({ activityType: 'IPR', automatic: true }), as('ADMIN')),
    ).toBe('notRerunnable');
    expect(modeAllows('rerun', step({ status: 'ERROR' }), mail, as('WRITE'))).toBe(false);
  });

  it('refuses everything on a PROCESSING step, unassign of a free step and a second master', () => {
    for (const a of ['startWorking', 'complete', 'accept', 'activate', 'rerun', 'unassign'] as const)
      expect(code(a, step({ status: 'PROCESSING', blockedBy: ME }), node(), as('ADMIN'))).toBe('processing');
    expect(code('unassign', step(), node(), as('ADMIN'))).toBe('notAssigned');
    expect(code('markMaster', step({ master: true }), node(), as('ADMIN'))).toBe('alreadyMaster');
    expect(code('markMaster', step({ master: false }), node(), as('ADMIN'))).toBeNull();
  });

  it('reports a missing mode before the status, with a message the UI can show', () => {
    expect(actionRefusal('complete', step({ status: 'DONE' }), node(), as('READ'))?.code).toBe('forbidden');
    expect(actionRefusal('complete', step({ status: 'DONE' }), node(), as('WRITE'))?.message).toBe(
      'Only a waiting step can be completed (this one is DONE)',
    );
  });

  it('lists the buttons of the spec per status and mode', () => {
    const requires = node({ requiresAcceptance: true });
    expect(availableActions(step({ status: 'DONE', blockedBy: ME }), requires, as('WRITE'))).toEqual([
      'activate',
      'unassign',
    ]);
    expect(availableActions(step({ status: 'DONE', blockedBy: ME }), requires, as('ADMIN'))).toEqual([
      'accept',
      'activate',
      'unassign',
    ]);
    expect(availableActions(step({ blockedBy: ME, master: false }), node(), as('WRITE'))).toEqual([
      'startWorking',
      'complete',
      'accept',
      'unassign',
    ]);
    expect(availableActions(step(), node(), as('READ'))).toEqual([]);
  });
});

describe('effects of the actions', () => {
  const steps = [step(), step({ id: 11, master: false, order: 3 }), step({ id: 12, nodeId: 2, order: 4 })];

  it('assigns, completes, accepts and unassigns', () => {
    const started = applyStepAction(steps, 10, 'startWorking', as('WRITE'));
    expect(started[0].blockedBy).toBe(ME);
    const done = applyStepAction(started, 10, 'complete', as('WRITE'));
    expect(done[0].status).toBe('DONE');
    expect(applyStepAction(done, 10, 'accept', as('ADMIN'))[0].status).toBe('ACCEPTED');
    expect(applyStepAction(started, 10, 'unassign', as('ADMIN'))[0].blockedBy).toBeNull();
  });

  it('marks the step rejected when someone else sends it back; completing clears it', () => {
    const done = [step({ status: 'DONE', blockedBy: OTHER })];
    const back = applyStepAction(done, 10, 'activate', as('ADMIN'));
    expect(back[0]).toMatchObject({ status: 'WAITING', rejected: true });
    expect(applyStepAction(done, 10, 'activate', as('WRITE', OTHER))[0].rejected).toBe(false);
    expect(applyStepAction(back, 10, 'complete', as('WRITE', OTHER))[0].rejected).toBe(false);
    const failed = [step({ status: 'ERROR', errorMessage: 'boom' })];
    expect(applyStepAction(failed, 10, 'cancelAcceptance', as('WRITE'))[0]).toMatchObject({
      status: 'WAITING',
      rejected: false,
      errorMessage: null,
    });
  });

  it('moves the master flag within the node only', () => {
    const out = applyStepAction(steps, 11, 'markMaster', as('ADMIN'));
    expect(out.map((s) => s.master)).toEqual([false, true, true]);
  });

  it('puts a rerun step in PROCESSING and clears its error', () => {
    const out = applyStepAction([step({ status: 'ERROR', errorMessage: 'x' })], 10, 'rerun', as('ADMIN'));
    expect(out[0]).toMatchObject({ status: 'PROCESSING', errorMessage: null });
  });
});

describe('automatic execution and acceptance (spec 3 section 4)', () => {
  it("ends in the node's autoStepStatus; DONE instead of ACCEPTED when acceptance is required", () => {
    const parser = node({ activityType: 'FILE_PARSER' });
    expect(postExecutionStatus({ ...parser, autoStepStatus: 'WAITING' }).status).toBe('WAITING');
    expect(postExecutionStatus({ ...parser, autoStepStatus: 'DONE' }).status).toBe('DONE');
    expect(postExecutionStatus({ ...parser, autoStepStatus: 'ACCEPTED' }).status).toBe('ACCEPTED');
    expect(postExecutionStatus({ ...parser, autoStepStatus: 'ACCEPTED', requiresAcceptance: true })).toEqual({
      status: 'DONE',
      requiresAcceptance: true,
    });
  });

  it('forces ACCEPTED (acceptance cleared) on types outside the conditional-acceptance whitelist', () => {
    expect(
      postExecutionStatus(
        node({ activityType: 'SEND_MAIL', autoStepStatus: 'WAITING', requiresAcceptance: true }),
      ),
    ).toEqual({ status: 'ACCEPTED', requiresAcceptance: false });
  });

  it('moves on from ACCEPTED, or DONE where the node does not require acceptance', () => {
    expect(isPassable({ status: 'ACCEPTED' }, node({ requiresAcceptance: true }))).toBe(true);
    expect(isPassable({ status: 'DONE' }, node({ requiresAcceptance: true }))).toBe(false);
    expect(isPassable({ status: 'DONE' }, node())).toBe(true);
    expect(
      isPassable({ status: 'DONE' }, node({ activityType: 'SEND_MAIL', requiresAcceptance: true })),
    ).toBe(true);
    for (const status of ['WAITING', 'PROCESSING', 'ERROR'] as const)
      expect(isPassable({ status }, node())).toBe(false);
  });

  it('gives multiprocessed nodes 1 + the additional submits for the document (or for all)', () => {
    const submits = [
      { docId: null, submits: 2 },
      { docId: 5, submits: 4 },
    ];
    expect(stepCountFor(node({ additionalNodeSubmits: submits }), 5)).toBe(5);
    expect(stepCountFor(node({ additionalNodeSubmits: submits }), 6)).toBe(3);
    expect(stepCountFor(node({ activityType: 'FILE_PARSER', additionalNodeSubmits: submits }), 5)).toBe(1);
    expect(stepCountFor(node(), 5)).toBe(1);
  });
});

describe('walking the graph', () => {
  const hup = node({ id: 1, activityType: 'HUP', automatic: true, autoStepStatus: 'ACCEPTED' });
  const parser = node({ id: 2, activityType: 'FILE_PARSER', automatic: true });
  const clf = node({ id: 3, requiresAcceptance: true, additionalNodeSubmits: [{ docId: null, submits: 1 }] });
  const span = node({ id: 4, activityType: 'SPAN' });
  const graph: FlowGraph = {
    nodes: [hup, parser, clf, span],
    edges: [
      { id: 1, fromId: 1, toId: 2 },
      { id: 2, fromId: 2, toId: 3 },
      { id: 3, fromId: 3, toId: 4 },
    ],
    predicates: [],
  };
  const nodes = new Map(graph.nodes.map((n) => [n.id, n]));
  const noTags = { classifier: [], ner: [] };
  const upload = step({ id: 1, nodeId: 1, status: 'ACCEPTED', order: 1 });

  it('leaves the upload step and plans automatic steps in PROCESSING', () => {
    const plan = planAdvance({ steps: [upload], leftNodeIds: [], nextOrder: 2 }, graph, noTags, 9);
    expect(plan.leftNodeIds).toEqual([1]);
    expect(plan.newSteps).toEqual([{ nodeId: 2, order: 2, status: 'PROCESSING', master: true }]);
    expect(plan.nextOrder).toBe(3);
  });

  it('plans 1 + additional submits manual steps, the first as master', () => {
    const steps = [upload, step({ id: 2, nodeId: 2, status: 'DONE', order: 2 })];
    const plan = planAdvance({ steps, leftNodeIds: [1], nextOrder: 3 }, graph, noTags, 9);
    expect(plan.newSteps).toEqual([
      { nodeId: 3, order: 3, status: 'WAITING', master: true },
      { nodeId: 3, order: 4, status: 'WAITING', master: false },
    ]);
  });

  it('waits for acceptance and for every step of a node before leaving it', () => {
    const base = [upload, step({ id: 2, nodeId: 2, status: 'DONE', order: 2 })];
    const clfSteps = (a: StepState['status'], b: StepState['status']) => [
      step({ id: 3, nodeId: 3, status: a, order: 3 }),
      step({ id: 4, nodeId: 3, status: b, order: 4, master: false }),
    ];
    const at = (a: StepState['status'], b: StepState['status']) =>
      planAdvance(
        { steps: [...base, ...clfSteps(a, b)], leftNodeIds: [1, 2], nextOrder: 5 },
        graph,
        noTags,
        9,
      );
    expect(at('DONE', 'DONE').newSteps).toEqual([]);
    expect(at('ACCEPTED', 'WAITING').newSteps).toEqual([]);
    expect(at('ACCEPTED', 'ACCEPTED').newSteps.map((s) => s.nodeId)).toEqual([4]);
  });

  it('creates no second set of steps for a node already reached; a reopened node is re-left when done again', () => {
    const steps = [
      upload,
      step({ id: 2, nodeId: 2, status: 'DONE', order: 2 }),
      step({ id: 3, nodeId: 3, status: 'WAITING', order: 3 }),
      step({ id: 4, nodeId: 3, status: 'ACCEPTED', order: 4, master: false }),
      step({ id: 5, nodeId: 4, status: 'WAITING', order: 5 }),
    ];
    // Node 3 was left, then step 3 was reopened: it is no longer left.
    expect(stillLeft([1, 2, 3], steps, nodes)).toEqual([1, 2]);
    const again = steps.map((s) => (s.id === 3 ? { ...s, status: 'ACCEPTED' as const } : s));
    const plan = planAdvance({ steps: again, leftNodeIds: [1, 2], nextOrder: 6 }, graph, noTags, 9);
    expect(plan.leftNodeIds).toEqual([1, 2, 3]);
    expect(plan.newSteps).toEqual([]);
  });

  it('takes only the edges whose predicates hold', () => {
    const branching: FlowGraph = {
      nodes: [hup, clf, span, node({ id: 5, activityType: 'SPAN' })],
      edges: [
        { id: 1, fromId: 1, toId: 3 },
        { id: 2, fromId: 3, toId: 4 },
        { id: 3, fromId: 3, toId: 5 },
      ],
      predicates: [
        {
          id: 1,
          edgeId: 3,
          parentId: null,
          predicateType: 'CLF',
          logicalOperator: null,
          nodeId: 3,
          equal: true,
          clfTypeId: 77,
          nerTagTypeId: null,
        },
      ],
    };
    const steps = [upload, step({ id: 3, nodeId: 3, status: 'ACCEPTED', order: 2 })];
    const state = { steps, leftNodeIds: [1], nextOrder: 3 };
    expect(planAdvance(state, branching, noTags, 9).newSteps.map((s) => s.nodeId)).toEqual([4]);
    const tagged = { classifier: [{ nodeId: 3, classifierTypeId: 77 }], ner: [] };
    expect(planAdvance(state, branching, tagged, 9).newSteps.map((s) => s.nodeId)).toEqual([4, 5]);
  });

  it('is DONE when every step is passable and nothing is queued', () => {
    const done = [upload, step({ id: 2, nodeId: 2, status: 'DONE' })];
    expect(documentStatusOf(done, nodes)).toBe('DONE');
    expect(documentStatusOf(done, nodes, 1)).toBe('WAITING');
    expect(documentStatusOf([...done, step({ id: 3, nodeId: 3, status: 'DONE' })], nodes)).toBe('WAITING');
    expect(documentStatusOf([...done, step({ id: 3, nodeId: 2, status: 'ERROR' })], nodes)).toBe('WAITING');
  });

  it('selects the first WAITING step on load, else the last DONE one', () => {
    const list = [
      step({ id: 1, order: 1, status: 'ACCEPTED' }),
      step({ id: 2, order: 2, status: 'DONE' }),
      step({ id: 3, order: 3, status: 'DONE' }),
    ];
    expect(selectedStep(list)?.id).toBe(3);
    expect(selectedStep([...list, step({ id: 4, order: 4 }), step({ id: 5, order: 5 })])?.id).toBe(4);
    expect(selectedStep([list[0]])).toBeNull();
  });
});

describe('the editable rule (spec 2 section 4)', () => {
  const code = (s: StepState, mode: AccessMode | null, blockedDoc: number | null = null, user = ME) =>
    stepEditRefusal(s, as(mode, user), blockedDoc)?.code ?? null;

  it('makes a waiting step editable for the user working on it', () => {
    expect(code(step({ blockedBy: ME }), 'WRITE')).toBeNull();
    expect(isStepEditable(step({ blockedBy: ME }), as('WRITE'), null)).toBe(true);
    // the user's own document-level block does not stand in the way
    expect(code(step({ blockedBy: ME }), 'WRITE', ME)).toBeNull();
  });

  it('refuses a step nobody or somebody else works on, or a document another user blocks', () => {
    expect(code(step(), 'WRITE')).toBe('notStarted');
    expect(code(step({ blockedBy: OTHER }), 'WRITE')).toBe('assignedToOther');
    expect(code(step({ blockedBy: ME }), 'WRITE', OTHER)).toBe('documentBlocked');
    expect(isStepEditable(step({ blockedBy: OTHER }), as('WRITE'), null)).toBe(false);
  });

  it('lets a node admin edit any waiting step, blocked or not', () => {
    expect(code(step(), 'ADMIN')).toBeNull();
    expect(code(step({ blockedBy: OTHER }), 'ADMIN', OTHER)).toBeNull();
  });

  it('never makes a step editable that is not waiting or not saved', () => {
    for (const status of ['DONE', 'ACCEPTED', 'PROCESSING', 'ERROR'] as const) {
      expect(code(step({ status, blockedBy: ME }), 'WRITE')).toBe('notWaiting');
      expect(code(step({ status }), 'ADMIN')).toBe('notWaiting');
    }
    expect(code(step({ id: 0, blockedBy: ME }), 'ADMIN')).toBe('notSaved');
    expect(code(step({ id: -1, blockedBy: ME }), 'WRITE')).toBe('notSaved');
  });
});
