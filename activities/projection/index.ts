/**
 * The document workflow's reads and writes in PostgreSQL: the process graph and the document's tags it
 * interprets (`loadFlow`), and the projection of its decisions (`project`: steps created and changed,
 * the document's status, the assignee who started a step). Every write sets absolute values and creates
 * steps keyed by (document, order) under a lock of the document row, so a retried activity changes nothing.
 * A step's errorMessage is written without database or stack internals (error-message.ts).
 */
import type { Knex } from 'knex';
import type { DocumentTags } from '../../domain/predicate-eval';
import type { DocumentStatus, NewStep } from '../../domain/steps';
import type { LoadedFlow, StepPatch } from '../../domain/document-transition';
import { addAssignee } from '../../db/queries/document-assignees';
import { documentFilename, lockDocument, setDocumentStatus } from '../../db/queries/documents';
import { flowGraph } from '../../db/queries/graph';
import { nodeRefs } from '../../db/queries/nodes';
import { insertStep, projectChanges, stepIdsByOrder, updateStep } from '../../db/queries/steps';
import { documentTags } from '../../db/queries/tags';
import { stepErrorMessage } from './error-message';

export interface LoadFlowInput {
  processId: number;
  documentId: number;
}

/** The graph, the document's tags, and whether the document still exists. */
export type LoadFlowResult = LoadedFlow;
export type { StepPatch };

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

export function createProjectionActivities({ knex }: { knex: Knex }) {
  return {
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
    },
  };
}

export type ProjectionActivities = ReturnType<typeof createProjectionActivities>;
