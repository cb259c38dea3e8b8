/**
 * The document workflow's reads and writes in PostgreSQL: the process graph and the document's tags it
 * interprets (`loadFlow`), and the projection of its decisions (`project`: steps created and changed,
 * the document's status, the assignee who started a step). Every write sets absolute values and creates
 * steps keyed by (document, order) under a lock of the document row, so a retried activity changes nothing.
 * A step's errorMessage is written without database or stack internals (error-message.ts).
 */
import type { Knex } from 'knex';
import type { EvalPredicate, DocumentTags } from '../../domain/predicate-eval';
import type { DocumentStatus, NewStep, StepNode } from '../../domain/steps';
import type { LoadedFlow, StepPatch } from '../../domain/document-transition';
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
      const [nodes, edges, predicates, doc] = await Promise.all([
        knex('nodes')
          .where('process_id', input.processId)
          .orderBy('id')
          .select(
            'id',
            'name',
            'activity_type as activityType',
            'automatic',
            'auto_step_status as autoStepStatus',
            'requires_acceptance as requiresAcceptance',
            'priority',
            'additional_node_submits as additionalNodeSubmits',
          ),
        knex('edges')
          .where('process_id', input.processId)
          .orderBy('id')
          .select('id', 'from_id as fromId', 'to_id as toId'),
        knex('predicates as p')
          .join('edges as e', 'e.id', 'p.edge_id')
          .where('e.process_id', input.processId)
          .orderBy('p.id')
          .select(
            'p.id',
            'p.edge_id as edgeId',
            'p.parent_id as parentId',
            'p.predicate_type as predicateType',
            'p.logical_operator as logicalOperator',
            'p.node_id as nodeId',
            'p.equal',
            'p.clf_type_id as clfTypeId',
            'p.ner_tag_type_id as nerTagTypeId',
          ),
        knex('documents').where('id', input.documentId).first('id'),
      ]);
      let tags: DocumentTags = { classifier: [], ner: [] };
      if (doc) {
        const [classifier, ner] = await Promise.all([
          knex('classifier_tags')
            .where('document_id', input.documentId)
            .select('node_id as nodeId', 'classifier_type_id as classifierTypeId'),
          knex('ner_tags as t')
            .join('ner_tag_types as tt', 'tt.id', 't.ner_tag_type_id')
            .where('t.document_id', input.documentId)
            .distinct('tt.node_id as nodeId', 't.ner_tag_type_id as nerTagTypeId'),
        ]);
        tags = { classifier, ner };
      }
      return {
        graph: {
          nodes: nodes.map((n: StepNode) => ({ ...n, additionalNodeSubmits: n.additionalNodeSubmits ?? [] })),
          edges,
          predicates: predicates as EvalPredicate[],
        },
        tags,
        documentExists: Boolean(doc),
      };
    },

    async project(input: ProjectInput): Promise<ProjectResult> {
      return knex.transaction(async (trx) => {
        const doc = await trx('documents').where('id', input.documentId).forUpdate().first('id');
        if (!doc) return { documentExists: false, created: [] };
        const now = new Date();
        const created: { order: number; id: number }[] = [];
        const creates = input.creates ?? [];
        if (creates.length) {
          const existing = await trx('steps')
            .where('document_id', input.documentId)
            .whereIn(
              'order',
              creates.map((c) => c.order),
            )
            .select('id', 'order');
          const byOrder = new Map(existing.map((r: { id: number; order: number }) => [r.order, r.id]));
          const liveNodes = new Set(
            (
              await trx('nodes')
                .whereIn(
                  'id',
                  creates.map((c) => c.nodeId),
                )
                .select('id')
            ).map((r: { id: number }) => r.id),
          );
          for (const c of creates) {
            let id = byOrder.get(c.order);
            if (id === undefined) {
              if (!liveNodes.has(c.nodeId)) continue;
              [{ id }] = await trx('steps')
                .insert({
                  document_id: input.documentId,
                  node_id: c.nodeId,
                  order: c.order,
                  status: c.status,
                  master: c.master,
                  last_modified_date: now,
                })
                .returning('id');
            }
            created.push({ order: c.order, id: id! });
          }
        }
        for (const s of input.changes ?? []) {
          await trx('steps')
            .where({ id: s.id, document_id: input.documentId })
            .update({
              status: s.status,
              master: s.master,
              rejected: s.rejected,
              blocked_by_id: s.blockedBy,
              error_message: stepErrorMessage(s.errorMessage, `step ${s.id}`),
              last_modified_date: now,
            });
        }
        await trx('documents')
          .where('id', input.documentId)
          .update({ status: input.documentStatus, last_modified_date: now });
        if (input.addAssignee) {
          await trx('document_assignees')
            .insert({ document_id: input.documentId, user_id: input.addAssignee })
            .onConflict(['document_id', 'user_id'])
            .ignore();
        }
        return { documentExists: true, created };
      });
    },
  };
}

export type ProjectionActivities = ReturnType<typeof createProjectionActivities>;
