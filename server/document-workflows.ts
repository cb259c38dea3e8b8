/**
 * Starting and cancelling the document workflow (`document-<id>`). Used by intake (upload routes, pollers and
 * inter-process documents: the API and the worker), the document deletes and the tests; the worker's sweep
 * starts the workflows an interrupted upload left unstarted. The id makes a
 * duplicate start impossible: a second start of the same document is refused by Temporal
 * (WorkflowExecutionAlreadyStartedError), which callers may treat as "running".
 */
import { WorkflowExecutionAlreadyStartedError, WorkflowNotFoundError, type Client } from '@temporalio/client';
import type { Knex } from 'knex';
import { documentsWithoutSteps } from '../db/queries/documents';
import {
  DOCUMENT_RUN_EPOCH,
  DOCUMENT_WORKFLOW,
  documentWorkflowId,
  freshRunSignal,
  type DocumentWorkflowInput,
} from '../workflows/document-contract';

/** Starts `document-<id>` on the task queue; resolves once the server has accepted the start. */
export async function startDocumentWorkflow(
  client: Client,
  input: DocumentWorkflowInput,
  taskQueue: string,
): Promise<{ workflowId: string; runId: string }> {
  const workflowId = documentWorkflowId(input.documentId);
  const handle = await client.workflow.start(DOCUMENT_WORKFLOW, {
    taskQueue,
    workflowId,
    args: [input],
  });
  return { workflowId, runId: handle.firstExecutionRunId };
}

/**
 * Ends `document-<id>` (document deleted): terminated, not cancelled, because its activities write rows that
 * are about to be deleted and nothing must run after the delete. A workflow that is already closed or never
 * existed is fine.
 */
export async function cancelDocumentWorkflow(client: Client, documentId: number): Promise<void> {
  try {
    await client.workflow.getHandle(documentWorkflowId(documentId)).terminate('document deleted');
  } catch (err) {
    if (err instanceof WorkflowNotFoundError) return;
    throw err;
  }
}

/**
 * Starts the workflow of every document that has none: a document with no step, stored more than
 * `olderThanMs` ago. An API process killed between storing an upload and starting its workflow leaves such a
 * document, which nothing else would ever start. The start refuses a workflow id used before (REJECT_DUPLICATE), so a
 * document whose workflow is running (not yet initialised: Temporal or the workers were down) or has ended is
 * left alone; so is one that the upload is starting right now (its own start, or this one, gets
 * WorkflowExecutionAlreadyStartedError, which both treat as started). Returns the ids it started.
 */
export async function startMissingDocumentWorkflows(
  client: Client,
  knex: Knex,
  taskQueue: string,
  opts: {
    olderThanMs: number;
    /** Only these processes' documents (tests on a shared database). */
    processIds?: number[];
  },
): Promise<number[]> {
  const orphans = await documentsWithoutSteps(knex, opts.olderThanMs, opts.processIds);
  const started: number[] = [];
  for (const d of orphans) {
    try {
      await client.workflow.start(DOCUMENT_WORKFLOW, {
        taskQueue,
        workflowId: documentWorkflowId(Number(d.id)),
        workflowIdReusePolicy: 'REJECT_DUPLICATE',
        args: [
          {
            documentId: Number(d.id),
            processId: Number(d.process_id),
            uploadNodeId: Number(d.upload_node_id),
          },
        ],
      });
      started.push(Number(d.id));
    } catch (err) {
      if (!(err instanceof WorkflowExecutionAlreadyStartedError)) throw err;
    }
  }
  return started;
}

/** The events of a history, as the client hands them (`handle.fetchHistory()` or a history page). */
interface HistoryLike {
  events?: readonly {
    markerRecordedEventAttributes?: {
      markerName?: string | null;
      details?: Record<string, { payloads?: readonly { data?: Uint8Array | null }[] | null } | undefined> | null;
    } | null;
  }[] | null;
}

/** The patch ids a history's markers record, in order. */
export function patchesOfHistory(history: HistoryLike): string[] {
  const ids: string[] = [];
  for (const e of history.events ?? []) {
    const m = e.markerRecordedEventAttributes;
    if (m?.markerName !== 'core_patch') continue;
    const data = m.details?.['patch-data']?.payloads?.[0]?.data;
    if (!data) continue;
    try {
      const { id } = JSON.parse(Buffer.from(data).toString('utf8')) as { id?: unknown };
      if (typeof id === 'string') ids.push(id);
    } catch {
      // not a patch marker of the TypeScript SDK's shape
    }
  }
  return ids;
}

/** The code generation a document run began under (workflows/document-contract.ts): its epoch marker, or 1. */
export function epochOfHistory(history: HistoryLike): number {
  let epoch = 1;
  for (const id of patchesOfHistory(history)) {
    const m = /^epoch-(\d+)$/.exec(id);
    if (m) epoch = Math.max(epoch, Number(m[1]));
  }
  return epoch;
}

export interface RefreshOutcome {
  /** open document runs seen */
  open: number;
  /** of those, begun under the current epoch */
  current: number;
  /** older ones asked to continue as a fresh run (with dryRun: that would be asked) */
  refreshed: number;
  /** document ids of the older runs */
  older: number[];
}

/**
 * Finds the open document runs begun under older workflow code (epoch below DOCUMENT_RUN_EPOCH: their first
 * events lack the epoch marker) and, unless `dryRun`, signals each to carry its state into a fresh run at its
 * next idle moment (`freshRun`). Reads only the first page of each history (the marker is recorded by a
 * run's first workflow task). `npm run workflows:refresh`.
 */
export async function refreshDocumentRuns(
  client: Client,
  opts: { dryRun?: boolean; concurrency?: number } = {},
): Promise<RefreshOutcome> {
  const out: RefreshOutcome = { open: 0, current: 0, refreshed: 0, older: [] };
  const queue: { workflowId: string; runId: string }[] = [];
  for await (const w of client.workflow.list({
    query: `WorkflowType = '${DOCUMENT_WORKFLOW}' AND ExecutionStatus = 'Running'`,
  }))
    queue.push({ workflowId: w.workflowId, runId: w.runId });
  out.open = queue.length;
  const one = async ({ workflowId, runId }: { workflowId: string; runId: string }) => {
    const page = await client.workflowService.getWorkflowExecutionHistory({
      namespace: client.options.namespace,
      execution: { workflowId, runId },
      maximumPageSize: 100,
    });
    if (epochOfHistory(page.history ?? {}) >= DOCUMENT_RUN_EPOCH) {
      out.current++;
      return;
    }
    out.older.push(Number(workflowId.replace(/^document-/, '')));
    if (opts.dryRun) return;
    await client.workflow.getHandle(workflowId, runId).signal(freshRunSignal);
    out.refreshed++;
  };
  const workers = Array.from({ length: Math.max(1, opts.concurrency ?? 8) }, async () => {
    for (let next = queue.shift(); next; next = queue.shift()) await one(next);
  });
  await Promise.all(workers);
  out.older.sort((a, b) => a - b);
  return out;
}
