/**
 * Starting and cancelling the document workflow (`document-<id>`). Used by intake (upload routes, pollers and
 * inter-process documents: the API and the worker), the document deletes and the tests. The id makes a
 * duplicate start impossible: a second start of the same document is refused by Temporal
 * (WorkflowExecutionAlreadyStartedError), which callers may treat as "running".
 */
import { WorkflowNotFoundError, type Client } from '@temporalio/client';
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
