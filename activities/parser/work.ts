/**
 * What every parser needs while it works: a private temporary folder, heartbeats and the cancellation signal
 * of the running activity (tolerating a call outside an activity, as the tests make), and the failures it
 * raises. Bad input is a non-retryable ApplicationFailure whose message a user can act on; anything else is
 * a plain Error, which Temporal retries.
 */
import { Context } from '@temporalio/activity';
import { ApplicationFailure } from '@temporalio/common';

export interface Work {
  /** A temporary folder of this parse, removed afterwards. */
  dir: string;
  /** Aborted when the activity is cancelled (or never, outside an activity). */
  signal: AbortSignal;
  heartbeat(details?: unknown): void;
}

/** The activity's context, or null when the function is called directly (tests, scripts). */
export function activityContext(): Context | null {
  try {
    return Context.current();
  } catch {
    return null;
  }
}

export function workFor(dir: string): Work {
  const ctx = activityContext();
  return {
    dir,
    signal: ctx?.cancellationSignal ?? new AbortController().signal,
    heartbeat: (details) => ctx?.heartbeat(details),
  };
}

/** Throws the cancellation reason when the activity was cancelled (checked between pages). */
export function throwIfCancelled(work: Work): void {
  if (work.signal.aborted) throw cancellationError(work.signal);
}

export function cancellationError(signal: AbortSignal): Error {
  const reason: unknown = signal.reason;
  return reason instanceof Error ? reason : new Error('The parse was cancelled');
}

/** Failure types the workflow and the UI can tell apart. */
export const ParserFailure = {
  badInput: 'ParserBadInput',
  unsupported: 'ParserUnsupportedType',
  missingDocument: 'ParserMissingDocument',
  missingFile: 'ParserMissingFile',
} as const;

/** The file cannot be parsed as it is: retrying does not help; the message tells the user what to do. */
export function badInput(message: string, type: string = ParserFailure.badInput): ApplicationFailure {
  return ApplicationFailure.nonRetryable(message, type);
}
