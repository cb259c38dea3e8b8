/**
 * The request id across Temporal (issue 15 section 2): the API's client puts the id of the request being
 * served (server/logger.ts) into the header of every workflow start, Update and Signal; the workflow
 * interceptor (workflows/interceptors.ts) copies it onto the activities it schedules; the activity
 * interceptor runs each activity with it as its log context. So one id ties the API's log line of an
 * upload to the parser's lines of that document.
 */
import { defaultPayloadConverter, type Payload } from '@temporalio/common';
import type { WorkflowClientInterceptor } from '@temporalio/client';
import type { ActivityInterceptorsFactory } from '@temporalio/worker';
import { REQUEST_ID_HEADER } from '../workflows/request-id-header';
import { currentRequestId, withRequestContext } from './logger';

/** The workflow interceptor modules a worker (or bundleWorkflowCode's workflowInterceptorModules) needs. */
export const WORKFLOW_INTERCEPTOR_MODULES = [require.resolve('../workflows/interceptors')];

function withRequestId<T extends { headers: Record<string, Payload> }>(input: T): T {
  const id = currentRequestId();
  return id
    ? { ...input, headers: { ...input.headers, [REQUEST_ID_HEADER]: defaultPayloadConverter.toPayload(id) } }
    : input;
}

const client: WorkflowClientInterceptor = {
  start: (input, next) => next(withRequestId(input)),
  startWithDetails: (input, next) => next(withRequestId(input)),
  startUpdate: (input, next) => next(withRequestId(input)),
  signal: (input, next) => next(withRequestId(input)),
  signalWithStart: (input, next) => next(withRequestId(input)),
};

const activity: ActivityInterceptorsFactory = () => ({
  inbound: {
    execute(input, next) {
      const header = input.headers[REQUEST_ID_HEADER];
      const id = header ? defaultPayloadConverter.fromPayload<string>(header) : undefined;
      return typeof id === 'string' ? withRequestContext(id, () => next(input)) : next(input);
    },
  },
});

export const requestIdInterceptors = { client: [client], activity };
