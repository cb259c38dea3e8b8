/**
 * Workflow interceptors (run in the workflow sandbox; bundled through WORKFLOW_INTERCEPTOR_MODULES,
 * server/temporal-context.ts): the request id header of the start, or of the latest Update or Signal, is
 * copied onto every activity, local activity and child workflow the workflow schedules after it, so the
 * activities' log lines carry the id of the API request that caused them. Headers are not part of what a
 * replay compares, so histories recorded before stay valid.
 */
import type { Payload } from '@temporalio/common';
import type { WorkflowInterceptorsFactory } from '@temporalio/workflow';
import { REQUEST_ID_HEADER } from './request-id-header';

export const interceptors: WorkflowInterceptorsFactory = () => {
  let current: Payload | undefined;
  const remember = (headers: Record<string, Payload>) => {
    if (headers[REQUEST_ID_HEADER]) current = headers[REQUEST_ID_HEADER];
  };
  const withId = <T extends { headers: Record<string, Payload> }>(input: T): T =>
    current ? { ...input, headers: { ...input.headers, [REQUEST_ID_HEADER]: current } } : input;
  return {
    inbound: [
      {
        execute(input, next) {
          remember(input.headers);
          return next(input);
        },
        handleUpdate(input, next) {
          remember(input.headers);
          return next(input);
        },
        handleSignal(input, next) {
          remember(input.headers);
          return next(input);
        },
      },
    ],
    outbound: [
      {
        scheduleActivity: (input, next) => next(withId(input)),
        scheduleLocalActivity: (input, next) => next(withId(input)),
        startChildWorkflowExecution: (input, next) => next(withId(input)),
      },
    ],
  };
};
