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
  DOCUMENT_WORKFLOW,
  documentWorkflowId,
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
