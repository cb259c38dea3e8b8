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
import { stepErrorMessage } from './error-message';

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
async function writeProjection(knex: Knex, input: ProjectInput): Promise<ProjectResult> {
  const creates = input.creates ?? [];
  if (!creates.length) {
    // Most step actions create no step: one statement instead of a transaction.
    const exists = await projectChanges(
      knex,
      input.documentId,
      input.documentStatus,
      (input.changes ?? []).map((s) => ({
        ...s,
        errorMessage: stepErrorMessage(s.errorMessage, `step ${s.id}`),
      })),
      new Date(),
      input.addAssignee ?? null,
    );
    return { documentExists: exists, created: [] };
  }
  return knex.transaction(async (trx) => {
    if (!(await lockDocument(trx, input.documentId))) return { documentExists: false, created: [] };
    const now = new Date();
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
    return { documentExists: true, created };
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

export function createProjectionActivities({ knex }: { knex: Knex }) {
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
      const written = await writeProjection(knex, { ...plan.projection, addAssignee: input.addAssignee });
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

    async project(input: ProjectInput): Promise<ProjectResult> {
      return writeProjection(knex, input);
    },
  };
}

export type ProjectionActivities = ReturnType<typeof createProjectionActivities>;
