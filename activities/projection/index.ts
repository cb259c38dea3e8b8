/**
 * The document workflow's reads and writes in PostgreSQL: the process graph and the document's tags it
 * interprets (`loadFlow`), and the projection of its decisions (`project`: steps created and changed,
 * the document's status, the assignee who started a step). Since the patch 'transit' a transition is one
 * activity, `transit`: it reads what the move needs (the graph only when its version moved, the tags only
 * when the graph has predicates), plans the change with the workflow's own pure rules
 * (domain/document-transition.ts) and writes the projection; the workflow plans the same from what it
 * returns. Every write sets absolute values and creates steps keyed by (document, order) under a lock of the
 * document row, so a retried activity changes nothing. A step's errorMessage is written without database or
 * stack internals (error-message.ts).
 *
 * Webhook events (issue 32) come from here, the one place every change passes: `transit` turns the
 * transition into events (domain/webhooks.ts transitionEvents) and stores them in the outbox in the same
 * statement or transaction as the change, keyed by the workflow run and the activity's sequence number, so a
 * retried transit stores none twice. The delivery workflows of the subscriptions given deliveries are woken
 * after the commit (a wake-up lost to a crash is made up by the worker's sweep).
 */
import type { Knex } from 'knex';
import type { DocumentTags } from '../../domain/predicate-eval';
import type { DocumentStatus, FlowGraph, NewStep } from '../../domain/steps';
import {
  planChange,
  startNodeOf,
  loadedFlowOf,
  type DocumentWorkflowState,
  type HeldGraph,
  type LoadedFlow,
  type StepPatch,
  type TransitFlow,
  type TransitionChange,
} from '../../domain/document-transition';
import { knownRules } from '../../domain/rules-version';
import { addAssignee } from '../../db/queries/document-assignees';
import { documentFilename, lockDocument, setDocumentStatus } from '../../db/queries/documents';
import { flowGraph, flowHead } from '../../db/queries/graph';
import { automaticTrainingNodeIds, nodeRefs } from '../../db/queries/nodes';
import { insertStep, projectChanges, stepIdsByOrder, updateStep } from '../../db/queries/steps';
import { documentTags } from '../../db/queries/tags';
import { transitionEvents } from '../../domain/webhooks';
import { insertOutbox, outboxCte, type OutboxEvent } from '../../db/queries/webhooks';
import type { WebhookDeliveryInput } from '../../workflows/webhook-contract';
import { Context } from '@temporalio/activity';
import crypto from 'node:crypto';
import { getLogger } from '../../server/logger';
import { stepErrorMessage } from './error-message';

const log = getLogger('projection');

export interface LoadFlowInput {
  processId: number;
  documentId: number;
}

/** The graph, the document's tags, and whether the document still exists. */
export type LoadFlowResult = LoadedFlow;

export interface ProjectInput {
  documentId: number;
  documentStatus: DocumentStatus;
  creates?: NewStep[];
  changes?: StepPatch[];
  /** A user who started working on a step becomes an assignee of the document. */
  addAssignee?: number | null;
}

export interface ProjectResult {
  documentExists: boolean;
  /** Webhook subscriptions given deliveries by this write (not part of what the workflow records). */
  woken?: number[];
  /** Ids of the created steps by order; a step whose node was deleted meanwhile is left out. */
  created: { order: number; id: number }[];
}

export interface TransitInput {
  /** The workflow's state before the transition. */
  state: DocumentWorkflowState;
  change: TransitionChange;
  /** Move the flow on (start, complete, accept, a run's success): read the graph's version and the tags. */
  load: boolean;
  /** The graph the workflow holds (null: none yet, e.g. the first move of a run). */
  held: HeldGraph | null;
  addAssignee: number | null;
  /** The rules the run decides by (domain/rules-version.ts); absent in runs recorded before it: 1. */
  rulesVersion?: number;
}

export interface TransitResult extends ProjectResult {
  /** Present when the flow was moved on (input.load). */
  flow?: TransitFlow;
}

const NO_TAGS: DocumentTags = { classifier: [], ner: [] };

/** The projection of a planned transition (absolute values, steps keyed by order: a retry writes once). */
/** The webhook events of a write: built once the created steps have ids (inside the write). */
interface WriteEvents {
  processId: number;
  now: Date;
  events: (created: { order: number; id: number }[]) => OutboxEvent[];
}

async function writeProjection(
  knex: Knex,
  input: ProjectInput,
  webhooks?: WriteEvents,
): Promise<ProjectResult> {
  const creates = input.creates ?? [];
  if (!creates.length) {
    // Most step actions create no step: one statement instead of a transaction.
    const events = webhooks?.events([]) ?? [];
    const outbox = events.length
      ? outboxCte(webhooks!.processId, input.documentId, events, 'exists (select 1 from doc)')
      : undefined;
    const { exists, woken } = await projectChanges(
      knex,
      input.documentId,
      input.documentStatus,
      (input.changes ?? []).map((s) => ({
        ...s,
        errorMessage: stepErrorMessage(s.errorMessage, `step ${s.id}`),
      })),
      webhooks?.now ?? new Date(),
      input.addAssignee ?? null,
      outbox,
    );
    return { documentExists: exists, created: [], woken };
  }
  return knex.transaction(async (trx) => {
    if (!(await lockDocument(trx, input.documentId))) return { documentExists: false, created: [] };
    const now = webhooks?.now ?? new Date();
    const created: { order: number; id: number }[] = [];
    {
      const byOrder = await stepIdsByOrder(
        trx,
        input.documentId,
        creates.map((c) => c.order),
      );
      const liveNodes = new Set(
        (
          await nodeRefs(
            trx,
            creates.map((c) => c.nodeId),
          )
        ).map((n) => n.id),
      );
      for (const c of creates) {
        let id = byOrder.get(c.order);
        if (id === undefined) {
          if (!liveNodes.has(c.nodeId)) continue;
          id = await insertStep(trx, input.documentId, c, now);
        }
        created.push({ order: c.order, id });
      }
    }
    for (const s of input.changes ?? []) {
      await updateStep(
        trx,
        input.documentId,
        { ...s, errorMessage: stepErrorMessage(s.errorMessage, `step ${s.id}`) },
        now,
      );
    }
    await setDocumentStatus(trx, input.documentId, input.documentStatus, now);
    if (input.addAssignee) await addAssignee(trx, input.documentId, input.addAssignee);
    const events = webhooks?.events(created) ?? [];
    const woken = events.length ? await insertOutbox(trx, webhooks!.processId, input.documentId, events) : [];
    return { documentExists: true, created, woken };
  });
}

/**
 * What a move of the flow reads: the document's filename and the graph's version at once (with the tags when
 * the held graph has predicates), then the graph only when its version is not the held one (read after the
 * version, so a graph changed meanwhile is newer than the version recorded, and read again next time), and
 * the tags when the new graph has predicates and they were not read yet.
 */
async function readFlow(
  knex: Knex,
  processId: number,
  documentId: number,
  held: HeldGraph | null,
): Promise<TransitFlow> {
  const tagsNeeded = (g: FlowGraph) => g.predicates.length > 0;
  const early = held !== null && tagsNeeded(held.graph);
  const [head, earlyTags] = await Promise.all([
    flowHead(knex, documentId),
    early ? documentTags(knex, documentId) : null,
  ]);
  if (!head) return { documentExists: false, tags: NO_TAGS };
  let fresh: HeldGraph | undefined;
  if (!held || held.version !== head.graphVersion) {
    const [graph, trainingNodeIds] = await Promise.all([
      flowGraph(knex, processId),
      automaticTrainingNodeIds(knex, processId),
    ]);
    fresh = { version: head.graphVersion, graph, trainingNodeIds };
  }
  const { graph } = fresh ?? held!;
  const tags = earlyTags ?? (tagsNeeded(graph) ? await documentTags(knex, documentId) : NO_TAGS);
  return { documentExists: true, filename: head.filename, tags, ...(fresh ? { graph: fresh } : {}) };
}

/** What identifies one write of a transition across its retries: the workflow run and the activity's sequence. */
function changeKeyBase(documentId: number): string {
  try {
    const info = Context.current().info;
    return `doc:${documentId}:run:${info.workflowExecution?.runId}:act:${info.activityId}`;
  } catch {
    // called outside an activity (tests): no retry of this very call can happen
    return `doc:${documentId}:call:${crypto.randomUUID()}`;
  }
}

/** The webhook events of a planned transition (domain/webhooks.ts), as outbox rows. */
function transitEvents(input: TransitInput, plan: ReturnType<typeof planChange>): WriteEvents {
  const { state, change } = input;
  const now = new Date();
  return {
    processId: state.processId,
    now,
    events: (created) => {
      const byOrder = new Map(created.map((c) => [c.order, c.id]));
      const bodies = transitionEvents({
        processId: state.processId,
        documentId: state.documentId,
        created: change.kind === 'start' && !state.initialized,
        documentStatusBefore: state.documentStatus,
        documentStatus: plan.projection.documentStatus,
        stepsBefore: state.steps,
        createdSteps: plan.projection.creates
          .filter((c) => byOrder.has(c.order))
          .map((c) => ({ ...c, id: byOrder.get(c.order)! })),
        changes: plan.projection.changes,
        nodes: plan.next.nodes,
        who: change.kind === 'action' ? change.actor.userId : null,
        at: now,
      });
      if (!bodies.length) return [];
      const base = changeKeyBase(state.documentId);
      return bodies.map((b, i) => ({ changeKey: `${base}:${i}`, type: b.type, body: JSON.stringify(b) }));
    },
  };
}

export interface ProjectionDeps {
  knex: Knex;
  /** Wakes the delivery workflows of new webhook deliveries; the worker wires it with its client. */
  wakeWebhooks?: (pairs: WebhookDeliveryInput[]) => Promise<void>;
}

export function createProjectionActivities({ knex, wakeWebhooks }: ProjectionDeps) {
  const wake = async (documentId: number, woken: number[] | undefined) => {
    if (!woken?.length || !wakeWebhooks) return;
    try {
      await wakeWebhooks(woken.map((webhookId) => ({ webhookId, documentId })));
    } catch (err) {
      // stored: the worker's sweep starts them
      log.warn('webhook deliveries not woken', { error: err as Error });
    }
  };
  return {
    /**
     * One transition in one activity: reads what the move needs (input.load), plans the change as the
     * workflow does (planChange, under the run's rules version) and writes its projection. Writes nothing when the
     * document is gone or a start's upload node is not in the process (the workflow fails the run then).
     */
    async transit(input: TransitInput): Promise<TransitResult> {
      const { state } = input;
      let flow: TransitFlow | undefined;
      let loaded: LoadedFlow | undefined;
      if (input.load) {
        flow = await readFlow(knex, state.processId, state.documentId, input.held);
        loaded = loadedFlowOf(flow, input.held);
        if (!loaded.documentExists) return { documentExists: false, created: [], flow };
        if (input.change.kind === 'start' && !startNodeOf(state, loaded))
          return { documentExists: true, created: [], flow };
      }
      const plan = planChange(state, loaded, input.change, knownRules(input.rulesVersion));
      const { woken, ...written } = await writeProjection(
        knex,
        { ...plan.projection, addAssignee: input.addAssignee },
        transitEvents(input, plan),
      );
      await wake(state.documentId, woken);
      return { ...written, ...(flow ? { flow } : {}) };
    },

    async loadFlow(input: LoadFlowInput): Promise<LoadFlowResult> {
      // All at once: the tags of a document that is gone are simply none.
      const [graph, filename, tags] = await Promise.all([
        flowGraph(knex, input.processId),
        documentFilename(knex, input.documentId),
        documentTags(knex, input.documentId),
      ]);
      const none: DocumentTags = { classifier: [], ner: [] };
      const exists = filename !== null;
      return { graph, tags: exists ? tags : none, documentExists: exists, ...(exists ? { filename } : {}) };
    },

    /** Runs begun before the patch 'transit' (no webhook events: they predate webhooks). */
    async project(input: ProjectInput): Promise<ProjectResult> {
      const { woken: _none, ...written } = await writeProjection(knex, input);
      return written;
    },
  };
}

export type ProjectionActivities = ReturnType<typeof createProjectionActivities>;
