/**
 * The document's workflow history for operators (GET api/v2/document/{id}/history): every run of
 * `document-<id>` across continue-as-new, read from Temporal and turned into readable events.
 */
import type { Client, WorkflowHandle } from '@temporalio/client';
import { defaultPayloadConverter, type Payload } from '@temporalio/common';
import { tsToDate } from '@temporalio/common/lib/time';
import { documentWorkflowId } from '../../workflows/document-contract';

/** One readable event of a document's workflow history. */
export interface DocumentHistoryEvent {
  /** ISO time of the event. */
  time: string;
  runId: string;
  eventId: number;
  /** started, activityScheduled, activityCompleted, activityFailed, activityTimedOut, updateAccepted,
   *  updateCompleted, updateFailed, stepsCreated, continuedAsNew, completed, failed, terminated, canceled,
   *  timedOut. */
  type: string;
  /** The activity or update name. */
  name: string | null;
  stepId: number | null;
  /** The user behind an update (login), null for the engine's own work. */
  who: string | null;
  /** A short JSON of the result (activities, updates). */
  result: string | null;
  failure: string | null;
  /** The event this one answers: an activity's scheduling, an update's acceptance (its eventId). */
  ref?: number;
  /** stepsCreated: the ids of the steps a transition created (the flow reached their nodes). */
  created?: number[];
}

/** The marker the SDK records for a local activity (its `result` payload is the activity's answer). */
const LOCAL_ACTIVITY_MARKER = 'core_local_activity';

type HistoryEvent = NonNullable<Awaited<ReturnType<WorkflowHandle['fetchHistory']>>['events']>[number];
type Payloads = { payloads?: Payload[] | null } | null | undefined;

const decode = (p: Payloads): unknown[] =>
  (p?.payloads ?? []).map((x) => {
    try {
      return defaultPayloadConverter.fromPayload(x);
    } catch {
      return '(undecodable)';
    }
  });

const summary = (v: unknown, max = 300): string | null => {
  if (v === undefined) return null;
  const s = JSON.stringify(v) ?? 'null';
  return s.length > max ? `${s.slice(0, max - 1)}…` : s;
};

const stepOf = (arg: unknown): number | null => {
  const id = (arg as { stepId?: unknown } | null)?.stepId;
  return typeof id === 'number' ? id : null;
};

/** The ids of the steps a projection result (`{ created: [{ order, id }] }`) says it created. */
function createdIds(result: unknown): number[] {
  const created = (result as { created?: { id?: unknown }[] } | null)?.created;
  if (!Array.isArray(created)) return [];
  return created.map((c) => c?.id).filter((x): x is number => typeof x === 'number');
}

function failureText(f: { message?: string | null; cause?: unknown } | null | undefined): string | null {
  if (!f) return null;
  const parts: string[] = [];
  let cur: { message?: string | null; cause?: unknown } | null | undefined = f;
  while (cur && parts.length < 4) {
    if (cur.message) parts.push(cur.message);
    cur = cur.cause as typeof cur;
  }
  return parts.join(': ') || 'failed';
}

/** Short result of an activity: the graph's size for loadFlow (not the whole graph), else a JSON summary. */
function activityResult(name: string | null, value: unknown): string | null {
  if (name === 'loadFlow' && value && typeof value === 'object') {
    const v = value as {
      graph?: { nodes?: unknown[]; edges?: unknown[] };
      tags?: { classifier?: unknown[]; ner?: unknown[] };
    };
    return summary({
      nodes: v.graph?.nodes?.length ?? 0,
      edges: v.graph?.edges?.length ?? 0,
      classifierTags: v.tags?.classifier?.length ?? 0,
      nerTags: v.tags?.ner?.length ?? 0,
    });
  }
  return summary(value);
}

function readable(runId: string, events: HistoryEvent[]): DocumentHistoryEvent[] {
  const out: DocumentHistoryEvent[] = [];
  const scheduled = new Map<number, { name: string | null; stepId: number | null }>();
  const accepted = new Map<number, { name: string | null; stepId: number | null; who: string | null }>();
  for (const e of events) {
    const eventId = Number(e.eventId ?? 0);
    const base = {
      time: e.eventTime ? tsToDate(e.eventTime).toISOString() : '',
      runId,
      eventId,
      name: null as string | null,
      stepId: null as number | null,
      who: null as string | null,
      result: null as string | null,
      failure: null as string | null,
    };
    if (e.workflowExecutionStartedEventAttributes) {
      const a = e.workflowExecutionStartedEventAttributes;
      const [input] = decode(a.input);
      out.push({
        ...base,
        type: 'started',
        name: a.workflowType?.name ?? null,
        result: a.continuedExecutionRunId
          ? `continued from run ${a.continuedExecutionRunId}`
          : summary({ documentId: (input as { documentId?: number })?.documentId }),
      });
    } else if (e.activityTaskScheduledEventAttributes) {
      const a = e.activityTaskScheduledEventAttributes;
      const [arg] = decode(a.input);
      const info = { name: a.activityType?.name ?? null, stepId: stepOf(arg) };
      scheduled.set(eventId, info);
      out.push({ ...base, ...info, type: 'activityScheduled' });
    } else if (e.activityTaskCompletedEventAttributes) {
      const a = e.activityTaskCompletedEventAttributes;
      const ref = Number(a.scheduledEventId ?? 0);
      const info = { ...(scheduled.get(ref) ?? { name: null, stepId: null }), ref };
      const [value] = decode(a.result);
      out.push({ ...base, ...info, type: 'activityCompleted', result: activityResult(info.name, value) });
      // Runs recorded before the local `transit` projected with the activity `project`.
      const created = createdIds(value);
      if (created.length) out.push({ ...base, type: 'stepsCreated', name: info.name, created });
    } else if (e.activityTaskFailedEventAttributes) {
      const a = e.activityTaskFailedEventAttributes;
      const ref = Number(a.scheduledEventId ?? 0);
      const info = { ...(scheduled.get(ref) ?? { name: null, stepId: null }), ref };
      out.push({ ...base, ...info, type: 'activityFailed', failure: failureText(a.failure) });
    } else if (e.activityTaskTimedOutEventAttributes) {
      const a = e.activityTaskTimedOutEventAttributes;
      const ref = Number(a.scheduledEventId ?? 0);
      const info = { ...(scheduled.get(ref) ?? { name: null, stepId: null }), ref };
      out.push({ ...base, ...info, type: 'activityTimedOut', failure: failureText(a.failure) });
    } else if (e.workflowExecutionUpdateAcceptedEventAttributes) {
      const a = e.workflowExecutionUpdateAcceptedEventAttributes;
      const req = a.acceptedRequest;
      const [arg] = decode(req?.input?.args);
      const who = (arg as { actor?: { login?: string } } | null)?.actor?.login ?? null;
      const info = { name: req?.input?.name ?? null, stepId: stepOf(arg), who };
      accepted.set(eventId, info);
      out.push({ ...base, ...info, type: 'updateAccepted' });
    } else if (e.workflowExecutionUpdateCompletedEventAttributes) {
      const a = e.workflowExecutionUpdateCompletedEventAttributes;
      const ref = Number(a.acceptedEventId ?? 0);
      const info = { ...(accepted.get(ref) ?? { name: null, stepId: null, who: null }), ref };
      const failure = a.outcome?.failure;
      if (failure) out.push({ ...base, ...info, type: 'updateFailed', failure: failureText(failure) });
      else {
        const [value] = decode(a.outcome?.success);
        out.push({ ...base, ...info, type: 'updateCompleted', result: summary(value) });
      }
    } else if (e.markerRecordedEventAttributes?.markerName === LOCAL_ACTIVITY_MARKER) {
      // A transition (the local activity `transit`, or `project`) that created steps: the flow reached nodes.
      const [result] = decode(e.markerRecordedEventAttributes.details?.result);
      const created = createdIds(result);
      if (created.length) out.push({ ...base, type: 'stepsCreated', name: 'transit', created });
    } else if (e.workflowExecutionContinuedAsNewEventAttributes) {
      const a = e.workflowExecutionContinuedAsNewEventAttributes;
      out.push({
        ...base,
        type: 'continuedAsNew',
        result: a.newExecutionRunId ? `new run ${a.newExecutionRunId}` : null,
      });
    } else if (e.workflowExecutionCompletedEventAttributes) {
      out.push({ ...base, type: 'completed' });
    } else if (e.workflowExecutionFailedEventAttributes) {
      out.push({
        ...base,
        type: 'failed',
        failure: failureText(e.workflowExecutionFailedEventAttributes.failure),
      });
    } else if (e.workflowExecutionTerminatedEventAttributes) {
      out.push({
        ...base,
        type: 'terminated',
        failure: e.workflowExecutionTerminatedEventAttributes.reason ?? null,
        who: e.workflowExecutionTerminatedEventAttributes.identity ?? null,
      });
    } else if (e.workflowExecutionCanceledEventAttributes) {
      out.push({ ...base, type: 'canceled' });
    } else if (e.workflowExecutionTimedOutEventAttributes) {
      out.push({ ...base, type: 'timedOut' });
    }
  }
  return out;
}

/**
 * The document's workflow history across continue-as-new runs, oldest first: the latest run is read, then
 * the run it continued from (`continuedExecutionRunId` of its first event), and so on.
 * Throws WorkflowNotFoundError when the document never had a workflow.
 */
export async function documentHistory(
  client: Client,
  documentId: number,
  maxRuns = 200,
): Promise<DocumentHistoryEvent[]> {
  const workflowId = documentWorkflowId(documentId);
  let runId: string | undefined = (await client.workflow.getHandle(workflowId).describe()).runId;
  const runs: DocumentHistoryEvent[][] = [];
  for (let i = 0; runId && i < maxRuns; i++) {
    const history: Awaited<ReturnType<WorkflowHandle['fetchHistory']>> = await client.workflow
      .getHandle(workflowId, runId)
      .fetchHistory();
    const events: HistoryEvent[] = history.events ?? [];
    runs.unshift(readable(runId, events));
    const previous: string | null | undefined =
      events[0]?.workflowExecutionStartedEventAttributes?.continuedExecutionRunId;
    runId = previous || undefined;
  }
  return runs.flat();
}
