/**
 * Running work on the worker for a request: the route starts a workflow on the task queue and waits for its
 * result (the run-now routes, the LLM rerun, the manual training), so the API never runs activity code
 * itself. 503 when Temporal cannot be reached; past `timeoutMs` the run goes on in the background (400).
 */
import type { TemporalGateway } from '../temporal';
import { badRequest } from '../errors';
import { workflowUnavailable } from './documents';

export async function runWorkflow<I, R>(
  temporal: TemporalGateway,
  taskQueue: string,
  workflowType: string,
  workflowId: string,
  input: I,
  timeoutMs: number,
): Promise<R> {
  let client;
  try {
    client = await temporal.client();
  } catch {
    throw workflowUnavailable();
  }
  const handle = await client.workflow
    .start(workflowType, { taskQueue, workflowId, args: [input] })
    .catch(() => {
      throw workflowUnavailable();
    });
  let timer: NodeJS.Timeout | undefined;
  const timeout = new Promise<never>((_, reject) => {
    timer = setTimeout(
      () => reject(badRequest(`The run ${workflowId} goes on in the background`)),
      timeoutMs,
    );
  });
  try {
    return (await Promise.race([handle.result(), timeout])) as R;
  } finally {
    clearTimeout(timer);
  }
}
