/**
 * A document's timeline for operators (issue 29 section 1, GET api/v2/document/{id}/timeline): its workflow
 * history across continue-as-new runs (api/services/document-history.ts) read as what happened to its steps
 * (the flow reaching a node, automatic runs with their duration and error, people's actions with who and
 * the status they left), merged with what the database keeps beside it: the results of automatic actions,
 * documents sent to other processes and the send this document was received from. Run boundaries are not
 * entries: each entry carries its run id (for the Temporal UI link administrators get).
 *
 * `buildTimeline` is pure (unit-tested); `documentTimeline` reads the sources.
 */
import type { Client } from '@temporalio/client';
import { WorkflowNotFoundError } from '@temporalio/client';
import type { Knex } from 'knex';
import { postExecutionStatus, type StepNode, type StepStatus } from '../../domain/steps';
import type { DocumentTimeline, TimelineEntry, TimelineKind } from '../../domain/timeline';
import {
  documentExecutions,
  executionsSendingTo,
  type DocumentExecutionRow,
  type ReceiptRow,
} from '../../db/queries/action-results';
import { documentStepViews } from '../../db/queries/steps';
import { documentWorkflowId } from '../../workflows/document-contract';
import { documentHistory, type DocumentHistoryEvent } from './document-history';

export type { DocumentTimeline, TimelineEntry } from '../../domain/timeline';

export interface TimelineStep {
  id: number;
  node: Pick<StepNode, 'id' | 'name' | 'activityType' | 'autoStepStatus' | 'requiresAcceptance'>;
}

const ASSIGNMENT = new Set(['startWorking', 'unassign']);
/** A person's step action by its kind: assignment changes, reruns, and the rest of the work. */
const actionKind = (action: string): TimelineKind =>
  ASSIGNMENT.has(action) ? 'assignment' : action === 'rerun' ? 'rerun' : 'work';
/** The activities that run an automatic step (their input names the step). */
const STEP_RUNS = new Set(['parseDocument', 'runAutomaticNode']);
const DETAIL_MAX = 600;

const clip = (s: string | null): string | null =>
  s && s.length > DETAIL_MAX ? `${s.slice(0, DETAIL_MAX - 1)}…` : s;

function parsedStatus(result: string | null): StepStatus | null {
  if (!result) return null;
  try {
    const v = JSON.parse(result) as { status?: StepStatus };
    return typeof v?.status === 'string' ? v.status : null;
  } catch {
    return null;
  }
}

const msBetween = (from: string | undefined, to: string): number | null =>
  from ? Math.max(0, Date.parse(to) - Date.parse(from)) : null;

/** The timeline of a document from its history and its database records, oldest first. */
export function buildTimeline(input: {
  documentId: number;
  history: DocumentHistoryEvent[];
  steps: TimelineStep[];
  executions: DocumentExecutionRow[];
  receipts: ReceiptRow[];
}): Omit<DocumentTimeline, 'workflowId'> {
  const stepById = new Map(input.steps.map((s) => [s.id, s]));
  const about = (stepId: number | null) => {
    const node = stepId === null ? undefined : stepById.get(stepId)?.node;
    return {
      stepId,
      nodeId: node?.id ?? null,
      nodeName: node?.name ?? null,
      activityType: node?.activityType ?? null,
    };
  };
  const entries: TimelineEntry[] = [];
  const runs: DocumentTimeline['runs'] = [];
  /** When each step was reached, scheduled to run, or last started by someone (for durations). */
  const reachedAt = new Map<number, string>();
  const startedAt = new Map<number, string>();
  const scheduledAt = new Map<string, string>();
  /** Index in `entries` of each accepted update, by `${runId}:${eventId}`. */
  const accepted = new Map<string, number>();
  const empty = { who: null, status: null, durationMs: null, message: null, detail: null };

  for (const e of input.history) {
    const id = `${e.runId}:${e.eventId}`;
    const common = { id, time: e.time, runId: e.runId };
    switch (e.type) {
      case 'started':
        runs.push({ runId: e.runId, startedAt: e.time });
        // a run continued from another is the same document going on: no entry
        if (!e.result?.startsWith('continued from'))
          entries.push({
            ...common,
            ...about(null),
            ...empty,
            kind: 'document',
            type: 'started',
            outcome: 'ok',
          });
        break;
      case 'stepsCreated':
        for (const stepId of e.created ?? []) {
          reachedAt.set(stepId, e.time);
          entries.push({
            ...common,
            ...about(stepId),
            ...empty,
            id: `${id}:${stepId}`,
            kind: 'step',
            type: 'reached',
            outcome: 'ok',
          });
        }
        break;
      case 'activityScheduled':
        if (e.name && STEP_RUNS.has(e.name)) scheduledAt.set(id, e.time);
        break;
      case 'activityCompleted':
      case 'activityFailed':
      case 'activityTimedOut': {
        if (!e.name || !STEP_RUNS.has(e.name) || e.stepId === null) break;
        const ok = e.type === 'activityCompleted';
        const node = stepById.get(e.stepId)?.node;
        entries.push({
          ...common,
          ...about(e.stepId),
          ...empty,
          kind: 'step',
          type: 'run',
          outcome: ok ? 'ok' : 'failed',
          status: ok ? (node ? postExecutionStatus(node).status : null) : 'ERROR',
          durationMs: msBetween(scheduledAt.get(`${e.runId}:${e.ref}`), e.time),
          message: ok ? null : e.failure,
          detail: clip(ok ? e.result : e.failure),
        });
        break;
      }
      case 'updateAccepted':
        // The action's place is where it was accepted (the steps its transition created come after it); what
        // it left is filled in when it completes.
        accepted.set(id, entries.length);
        entries.push({
          ...common,
          ...about(e.stepId),
          ...empty,
          kind: actionKind(e.name ?? ''),
          type: e.name ?? 'update',
          outcome: 'ok',
          who: e.who,
        });
        break;
      case 'updateCompleted':
      case 'updateFailed': {
        const action = e.name ?? '';
        const kind = actionKind(action);
        const ok = e.type === 'updateCompleted';
        const status = ok ? parsedStatus(e.result) : null;
        let durationMs: number | null = null;
        if (ok && e.stepId !== null) {
          if (action === 'startWorking') startedAt.set(e.stepId, e.time);
          if (action === 'complete' || action === 'accept')
            durationMs = msBetween(startedAt.get(e.stepId) ?? reachedAt.get(e.stepId), e.time);
        }
        const at = accepted.get(`${e.runId}:${e.ref}`);
        const entry: TimelineEntry = {
          ...common,
          ...(at === undefined ? {} : { id: entries[at].id, time: entries[at].time }),
          ...about(e.stepId),
          kind,
          type: action || 'update',
          outcome: ok ? 'ok' : 'refused',
          who: e.who,
          status,
          durationMs,
          message: ok ? null : e.failure,
          detail: null,
        };
        if (at === undefined) entries.push(entry);
        else entries[at] = entry;
        break;
      }
      case 'completed':
      case 'failed':
      case 'terminated':
      case 'canceled':
      case 'timedOut':
        entries.push({
          ...common,
          ...about(null),
          ...empty,
          kind: 'document',
          type: 'ended',
          outcome: e.type === 'completed' ? 'ok' : 'failed',
          who: e.who,
          message: e.failure,
          detail: e.type,
        });
        break;
      default:
        break;
    }
  }

  for (const x of input.executions) {
    const sent = x.activityType === 'IPS';
    const documents = sent
      ? ((x.details?.documents as { documentId?: unknown; processId?: unknown }[] | undefined) ?? [])
          .filter((d) => typeof d?.documentId === 'number')
          .map((d) => ({ documentId: Number(d.documentId), processId: Number(d.processId) }))
      : undefined;
    const failure = typeof x.details?.error === 'string' ? (x.details.error as string) : null;
    entries.push({
      id: `x${x.id}`,
      time: new Date(x.createdDate).toISOString(),
      runId: null,
      stepId: x.stepId,
      nodeId: x.nodeId,
      nodeName: x.nodeName,
      activityType: x.activityType,
      kind: sent ? 'interprocess' : 'automatic',
      type: sent ? 'sent' : 'result',
      outcome: x.status === 'SUCCESS' ? 'ok' : 'failed',
      who: null,
      status: null,
      durationMs: null,
      message: x.status === 'SUCCESS' ? null : failure,
      detail: clip(JSON.stringify(x.details ?? {})),
      ...(documents ? { documents } : {}),
    });
  }

  for (const r of input.receipts) {
    entries.push({
      id: `r${r.id}`,
      time: new Date(r.createdDate).toISOString(),
      runId: null,
      stepId: null,
      nodeId: r.nodeId,
      nodeName: r.nodeName,
      activityType: 'IPS',
      kind: 'interprocess',
      type: 'received',
      outcome: 'ok',
      ...empty,
      documents: r.documentId === null ? [] : [{ documentId: r.documentId, processId: r.processId }],
    });
  }

  // History entries are in order; records of the database go in by time (stable for equal times).
  const order = entries.map((e, i) => ({ e, i }));
  order.sort((a, b) => Date.parse(a.e.time) - Date.parse(b.e.time) || a.i - b.i);
  return { documentId: input.documentId, runs, entries: order.map((x) => x.e) };
}

/** The document's timeline; a document that never had a workflow has only its database records. */
export async function documentTimeline(
  knex: Knex,
  client: Client,
  documentId: number,
): Promise<DocumentTimeline> {
  const history = documentHistory(client, documentId).catch((err: unknown) => {
    if (err instanceof WorkflowNotFoundError) return [];
    throw err;
  });
  const [events, steps, executions, receipts] = await Promise.all([
    history,
    documentStepViews(knex, documentId),
    documentExecutions(knex, documentId),
    executionsSendingTo(knex, documentId),
  ]);
  return {
    workflowId: documentWorkflowId(documentId),
    ...buildTimeline({
      documentId,
      history: events,
      steps: steps.map((v) => ({ id: v.step.id, node: v.node })),
      executions,
      receipts,
    }),
  };
}
