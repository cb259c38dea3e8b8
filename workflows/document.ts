/**
 * The document workflow (`document-<id>`): walks the process graph as data, runs automatic steps as
 * activities, takes human step actions as Updates, and projects every decision into PostgreSQL before the
 * Update returns. The rules are domain/steps.ts and domain/predicate-eval.ts; this file only sequences them.
 *
 * - The graph (and the document's tags) is loaded again at each move of the flow (start, complete, accept, end
 *   of an automatic step), so a document follows the graph as it is when the transition is made; since the
 *   patch 'transit' the graph is re-read only when its version (processes.graph_version) moved.
 * - One change at a time: handlers and the automatic runner take a workflow-local lock; the state changes only
 *   after the projection activity has written it.
 * - The graph load and the projection run as local activities (since the patch 'local-projection'; runs begun
 *   before it keep remote ones); since the patch 'transit' a transition is ONE local activity that reads,
 *   plans the change (as data, domain/document-transition.ts applyChange) and writes it, so a step action is
 *   one workflow task round trip plus one local activity of two queries (the version, then the write).
 * - Completing or accepting a step of a trainable node type asks `maybeTrainNode` (not awaited); since
 *   'transit' only when the node's automatic training is on, so other actions add no workflow task.
 * - The Updates, the Query and the failure types are the contract's (workflows/document-contract.ts); what a
 *   transition decides is domain/document-transition.ts.
 * - When the document becomes DONE (since the patch 'rag-index') its RAG indexing starts (activities/rag/), not
 *   awaited by the step action that made it DONE; the activity does nothing when the process has RAG off.
 * - The workflow stays open while the document exists (a DONE document can be reopened); it continues as new
 *   when the server suggests it, once no handler is running.
 */
import {
  ActivityFailure,
  ApplicationFailure,
  allHandlersFinished,
  condition,
  continueAsNew,
  isCancellation,
  patched,
  proxyActivities,
  proxyLocalActivities,
  setHandler,
  upsertMemo,
  upsertSearchAttributes,
  workflowInfo,
} from '@temporalio/workflow';
import type { Activities } from '../activities';
import { StepActions, actionRefusal, type StepAction, type StepRefusal } from '../domain/steps';
import {
  initialDocumentState,
  loadedFlowOf,
  nodeMapOf,
  planChange,
  settleTransition,
  startNodeOf,
  type DocumentWorkflowState,
  type HeldGraph,
  type LoadedFlow,
  type TransitionChange,
} from '../domain/document-transition';
import { TRAINABLE_WHITELIST } from '../domain/nodes';
import { RULES_VERSION } from '../domain/rules-version';
import { RAG_INDEX_ACTIVITY_OPTIONS } from './rag-contract';
import { CURRENT_NODE, DOCUMENT_FILENAME, DOCUMENT_STATUS, PROCESS_ID } from './search-attributes';
import {
  BAD_INPUT,
  DOCUMENT_RUN_EPOCH,
  DOCUMENT_STATE_VERSION,
  epochPatchId,
  freshRunSignal,
  STEP_REFUSED,
  stateQuery,
  stepActionUpdates,
  type DocumentWorkflowInput,
  type StepActionInput,
  type StepActionResult,
} from './document-contract';

const DB_OPTIONS = {
  startToCloseTimeout: '30 seconds',
  retry: { initialInterval: '200 milliseconds', maximumInterval: '10 seconds', maximumAttempts: 30 },
} as const;
/** The graph load and the projection as (remote) activities: how runs begun before 'local-projection' go on. */
const remoteDb = proxyActivities<Activities>(DB_OPTIONS);
/**
 * The same two as local activities: run by the worker that holds the workflow task, inside that task, so a
 * step action costs one workflow task round trip plus the two queries instead of three round trips per
 * activity. Both are idempotent (absolute values, steps keyed by document and order), so a retry after a
 * worker crash writes once.
 */
const localDb = proxyLocalActivities<Activities>(DB_OPTIONS);
const parser = proxyActivities<Activities>({
  startToCloseTimeout: '2 hours',
  heartbeatTimeout: '20 seconds',
  retry: { initialInterval: '1 second', maximumInterval: '1 minute', maximumAttempts: 5 },
});
const actions = proxyActivities<Activities>({
  startToCloseTimeout: '10 minutes',
  // runAutomaticNode heartbeats: a worker that dies mid-action is noticed within this timeout.
  heartbeatTimeout: '20 seconds',
  retry: { initialInterval: '1 second', maximumInterval: '1 minute', maximumAttempts: 5 },
});

/** RAG indexing of a document that reached DONE (idempotent; the activity checks the process's RAG switch). */
const rag = proxyActivities<Activities>(RAG_INDEX_ACTIVITY_OPTIONS);

const training = proxyActivities<Activities>({
  startToCloseTimeout: '1 minute',
  retry: { initialInterval: '1 second', maximumInterval: '10 seconds', maximumAttempts: 3 },
});

function refused(r: StepRefusal): ApplicationFailure {
  return ApplicationFailure.create({
    type: STEP_REFUSED,
    message: r.message,
    details: [r.code],
    nonRetryable: true,
  });
}

function failureMessage(err: unknown): string {
  if (err instanceof ActivityFailure && err.cause) return err.cause.message;
  return err instanceof Error ? err.message : String(err);
}

/**
 * The state carried by the previous run, upgraded to the current shape; null on a first run. Version 1 is the
 * current shape (and that of runs continued before `stateVersion` existed).
 */
function carriedState(input: DocumentWorkflowInput): DocumentWorkflowState | null {
  if (input.carried === undefined || input.carried === null) return null;
  const version = input.stateVersion ?? 1;
  if (version > DOCUMENT_STATE_VERSION)
    // Not an ApplicationFailure: fails the workflow task, retried until a worker that knows the version runs it.
    throw new Error(`Carried state version ${version} is newer than this worker's ${DOCUMENT_STATE_VERSION}`);
  return input.carried as DocumentWorkflowState;
}

/**
 * The code generation of a run, decided once at its start like the other patches: a new run records the
 * marker of DOCUMENT_RUN_EPOCH; a run begun before replays without it.
 */
function epochOfRun(): number {
  for (let e = DOCUMENT_RUN_EPOCH; e > 1; e--) if (patched(epochPatchId(e))) return e;
  return 1;
}

/**
 * The rules version of a run, decided once at its start: the newest whose patch `rules-<N>` the run takes (a
 * new run takes RULES_VERSION; a run begun under older rules replays without the marker and keeps them).
 * Version 1 has no patch: runs recorded before versions existed decide by it.
 */
function rulesVersionOfRun(): number {
  for (let v = RULES_VERSION; v > 1; v--) if (patched(`rules-${v}`)) return v;
  return 1;
}

/**
 * One run of a document's workflow, in the phases of the spec's state machine:
 * - `start`: a first run moves the flow from the upload node (steps for the nodes reached);
 * - `acceptStepActions`: the human step actions (start working, complete, accept, reactivate...) arrive as
 *   Updates, each one transition under the lock;
 * - `walk`: automatic steps run one at a time from the queue (`runQueued`), each outcome one transition;
 *   between them the run waits for the document to end, for work, or for the server to suggest a new run;
 * - `continueFresh`: once idle, the state is carried into a new run.
 * Every change of state is one `transition`: written to the projection first, then taken as the state.
 */
class DocumentRun {
  state: DocumentWorkflowState;
  /** A transition is being made (the workflow-local lock). */
  private busy = false;
  // Decided once per run: a run recorded with remote activities replays (and goes on) with them, and one
  // recorded with a graph load and a projection per transition goes on so.
  private readonly db = patched('local-projection') ? localDb : remoteDb;
  private readonly transit = this.db === localDb && patched('transit');
  /** The graph as last read by `transit` (not carried: a new run reads it at its first move). */
  private held: HeldGraph | null = null;
  /** The domain rules this run decides by (domain/rules-version.ts), carried to `transit` as data. */
  private readonly rulesVersion = rulesVersionOfRun();
  /** Runs begun before the search attributes existed replay (and go on) without upserting them. */
  private readonly searchable = patched('search-attributes');
  /** The code generation this run began under: its marker tells `npm run workflows:refresh` it is current. */
  readonly epoch = epochOfRun();
  /** Asked to continue as a fresh run at the next idle moment (freshRunSignal). */
  private freshAsked = false;
  private filename: string | undefined;
  private published = '';
  private memoSet = false;
  /** Indexing runs started at DONE: not awaited by the step action, awaited before continuing as new. */
  private readonly background: Promise<unknown>[] = [];

  constructor(private readonly input: DocumentWorkflowInput) {
    this.state = carriedState(input) ?? initialDocumentState(input);
    this.filename = input.filename;
  }

  /** The first move of a document (a continued run publishes what the previous one knew instead). */
  async start(): Promise<void> {
    if (this.state.initialized) this.publish();
    else await this.exclusive(() => this.transition({ kind: 'start' }, { load: true }));
  }

  /** Registers the step actions (Updates, validated before they are accepted) and the state Query. */
  acceptStepActions(): void {
    for (const action of StepActions) {
      setHandler(stepActionUpdates[action], (input) => this.handleAction(action, input), {
        // While a transition is being written the projection may already show what the state does not yet
        // hold (a new step, a new status): the handler checks again under the lock, so defer to it then.
        validator: (input) => {
          if (this.busy) return;
          const r = this.refusal(action, input);
          if (r) throw refused(r);
        },
      });
    }
    setHandler(stateQuery, () => this.state);
    setHandler(freshRunSignal, () => {
      this.freshAsked = true;
    });
  }

  /** Runs the queued automatic steps as they come, until the document ends or the run is continued. */
  async walk(): Promise<DocumentWorkflowState> {
    for (;;) {
      await condition(
        () =>
          this.state.ended ||
          this.state.queue.length > 0 ||
          workflowInfo().continueAsNewSuggested ||
          this.freshAsked,
      );
      if (this.state.ended) return this.state;
      if (this.state.queue.length > 0) {
        await this.runQueued();
        continue;
      }
      await condition(() => !this.busy && allHandlersFinished());
      if (this.background.length) {
        await Promise.all(this.background.splice(0));
        continue; // handlers may have come meanwhile: look again
      }
      if (this.state.queue.length === 0 && !this.state.ended) await this.continueFresh();
    }
  }

  /** Carries the state into a new run (never returns). */
  private async continueFresh(): Promise<never> {
    return continueAsNew<typeof documentWorkflow>({
      ...this.input,
      carried: this.state,
      stateVersion: DOCUMENT_STATE_VERSION,
      ...(this.filename ? { filename: this.filename } : {}),
    });
  }

  /**
   * Upserts the search attributes (workflows/search-attributes.ts) when they changed: process, document
   * status, the nodes with open steps, the filename; and the memo with the filename once per run.
   */
  private publish(): void {
    if (!this.searchable) return;
    const { state, filename } = this;
    const names = nodeMapOf(state);
    const open = state.steps.filter(
      (s) => s.status === 'WAITING' || s.status === 'PROCESSING' || s.status === 'ERROR',
    );
    const current = [
      ...new Set(open.map((s) => names.get(s.nodeId)?.name).filter((n): n is string => !!n)),
    ].sort();
    const values = { processId: state.processId, status: state.documentStatus, current, filename };
    const key = JSON.stringify(values);
    if (key === this.published) return;
    this.published = key;
    upsertSearchAttributes([
      { key: PROCESS_ID, value: state.processId },
      { key: DOCUMENT_STATUS, value: state.documentStatus },
      { key: CURRENT_NODE, value: current },
      ...(filename ? [{ key: DOCUMENT_FILENAME, value: filename }] : []),
    ]);
    if (filename && !this.memoSet) {
      this.memoSet = true;
      upsertMemo({ filename });
    }
  }

  private nodeMap() {
    return nodeMapOf(this.state);
  }

  private async exclusive<T>(fn: () => Promise<T>): Promise<T> {
    // Several waiters may be released in one activation: re-check before taking the lock.
    while (this.busy) await condition(() => !this.busy);
    this.busy = true;
    try {
      return await fn();
    } finally {
      this.busy = false;
    }
  }

  /**
   * One transition: moves the flow on when `load` (the graph and tags as they are now), applies the change,
   * writes its projection, and only then becomes the new state: a refused or failed write leaves the state
   * as it was. Since the patch 'transit' this is one local activity (`transit`, which plans the same change
   * and writes it; the workflow then plans it from what the activity read), before it a graph load and a
   * projection. Returns the flow it moved on with (undefined when it did not load).
   */
  private async transition(
    change: TransitionChange,
    opts: { load: boolean; addAssignee?: number | null },
  ): Promise<LoadedFlow | undefined> {
    const addAssignee = opts.addAssignee ?? null;
    const { state, rulesVersion } = this;
    let flow: LoadedFlow | undefined;
    let result: { documentExists: boolean; created: { order: number; id: number }[] } | undefined;
    if (this.transit) {
      const held = this.held;
      const r = await localDb.transit({ state, change, load: opts.load, held, addAssignee, rulesVersion });
      if (r.flow) {
        flow = loadedFlowOf(r.flow, held);
        if (r.flow.graph) this.held = r.flow.graph;
      }
      result = r;
    } else if (opts.load) {
      flow = await this.db.loadFlow({ processId: state.processId, documentId: state.documentId });
    }
    if (flow && !flow.documentExists) {
      state.ended = true;
      return flow;
    }
    if (change.kind === 'start' && flow && !startNodeOf(state, flow))
      throw ApplicationFailure.nonRetryable(
        `Upload node ${state.uploadNodeId} is not in process ${state.processId}`,
        BAD_INPUT,
      );
    if (flow?.filename) this.filename = flow.filename;
    const plan = planChange(state, flow, change, rulesVersion);
    result ??= await this.db.project({ ...plan.projection, addAssignee });
    if (!result.documentExists) {
      state.ended = true;
      return flow;
    }
    const wasDone = state.documentStatus === 'DONE';
    this.state = settleTransition(plan, result.created);
    this.publish();
    if (!wasDone && this.state.documentStatus === 'DONE' && patched('rag-index'))
      this.background.push(rag.indexForRag({ documentId: this.state.documentId }).catch(() => undefined));
    return flow;
  }

  private refusal(action: StepAction, input: StepActionInput): StepRefusal | null {
    if (this.state.ended) return { code: 'documentGone', message: 'The document no longer exists' };
    const step = this.state.steps.find((s) => s.id === input.stepId);
    if (!step) return { code: 'unknownStep', message: 'The step does not belong to this document' };
    const node = this.nodeMap().get(step.nodeId);
    if (!node) return { code: 'unknownNode', message: "The step's node no longer exists" };
    return actionRefusal(action, step, node, input.actor);
  }

  /** A human step action: refused, or one transition (complete and accept move the flow on). */
  private async handleAction(action: StepAction, input: StepActionInput): Promise<StepActionResult> {
    return this.exclusive(async () => {
      const r = this.refusal(action, input);
      if (r) throw refused(r);
      const moves = action === 'complete' || action === 'accept';
      const flow = await this.transition(
        { kind: 'action', action, stepId: input.stepId, actor: input.actor },
        { load: moves, addAssignee: action === 'startWorking' ? input.actor.userId : null },
      );
      const step = this.state.steps.find((s) => s.id === input.stepId);
      if (!step) throw refused({ code: 'unknownStep', message: 'The step no longer exists' });
      const node = this.nodeMap().get(step.nodeId);
      // Since 'transit' only a node whose automatic training is on (as the graph was read) is asked about.
      const trains = !this.transit || !!flow?.trainingNodeIds?.includes(step.nodeId);
      if (
        moves &&
        node &&
        trains &&
        TRAINABLE_WHITELIST.includes(node.activityType) &&
        patched('automatic-training')
      ) {
        // A finished annotation may complete the batch a trainable node waits for; the activity decides.
        // Not awaited: the step action does not wait for a model server (failures are recorded there).
        void training.maybeTrainNode({ nodeId: node.id }).catch(() => undefined);
      }
      return { stepId: step.id, status: step.status, documentStatus: this.state.documentStatus };
    });
  }

  /** Runs the first queued automatic step; its outcome moves the flow on (or leaves the step in ERROR). */
  private async runQueued(): Promise<void> {
    const stepId = this.state.queue[0];
    const step = this.state.steps.find((s) => s.id === stepId);
    const node = step && this.nodeMap().get(step.nodeId);
    let error: string | null = null;
    const attempt = (step?.runs ?? 0) + 1;
    if (step && node && step.status === 'PROCESSING') {
      try {
        const ref = { documentId: this.state.documentId, stepId, nodeId: node.id, attempt };
        if (node.activityType === 'FILE_PARSER') await parser.parseDocument(ref);
        else await actions.runAutomaticNode({ ...ref, activityType: node.activityType });
      } catch (err) {
        if (isCancellation(err)) throw err;
        error = failureMessage(err);
      }
    }
    await this.exclusive(() =>
      this.transition({ kind: 'ran', stepId, attempt, error }, { load: error === null }),
    );
  }
}

export async function documentWorkflow(input: DocumentWorkflowInput): Promise<DocumentWorkflowState> {
  const run = new DocumentRun(input);
  run.acceptStepActions();
  await run.start();
  return run.walk();
}
