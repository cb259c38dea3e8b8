/**
 * What every parser needs while it works: a private temporary folder, heartbeats and the cancellation signal
 * of the running activity (tolerating a call outside an activity, as the tests make), and the failures it
 * raises. Bad input is a non-retryable ApplicationFailure whose message a user can act on; anything else is
 * a plain Error, which Temporal retries.
 */
import { Context } from '@temporalio/activity';
import { ApplicationFailure } from '@temporalio/common';
import { getLogger } from '../../server/logger';

const log = getLogger('worker.parser');

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
  /** An office file that unpacks to too much, or a conversion past its time or resource limits. */
  tooLarge: 'ParserTooLarge',
  timeout: 'ParserTimeout',
} as const;

/** The file cannot be parsed as it is: retrying does not help; the message tells the user what to do. */
export function badInput(message: string, type: string = ParserFailure.badInput): ApplicationFailure {
  return ApplicationFailure.nonRetryable(message, type);
}

/** An error of PostgreSQL (node-postgres sets the SQLSTATE and the severity; knex prefixes the SQL). */
export function isDatabaseError(err: unknown): err is Error & { code: string } {
  const e = err as { code?: unknown; severity?: unknown } | null;
  return (
    err instanceof Error && typeof e?.code === 'string' && /^[0-9A-Z]{5}$/.test(e.code) && 'severity' in e
  );
}

/**
 * A database error becomes a failure without the SQL or the database's words (logged here instead): a data
 * or constraint error (SQLSTATE classes 22, 23) fails the same way again, so it is not retried; any other
 * (connection, lock, serialization) is retried. Other failures pass unchanged.
 */
export function withoutDatabaseDetail(err: unknown, what: string): unknown {
  if (!isDatabaseError(err)) return err;
  if (process.env.NODE_ENV !== 'test' || process.env.LOG_ERRORS)
    log.error(`${what}: database error`, { code: err.code, reason: err.message });
  if (err.code.startsWith('22') || err.code.startsWith('23')) {
    return ApplicationFailure.nonRetryable(
      'The parse result could not be stored: it holds values the database refuses. Check the file (for a transcript: its times and texts) and upload it again.',
      ParserFailure.badInput,
    );
  }
  return new Error(
    'The parse result could not be stored because of a database error (the worker log has the details): rerun the step later.',
  );
}
