/**
 * What a step in ERROR may show as its errorMessage: the message of the failure, unless it carries
 * internals a user must not see (the SQL and text of a database error, a stack trace), which are replaced by
 * a generic message and logged. The last guard for every automatic node: activities are expected to fail
 * with messages a user can act on, and this keeps one that does not from reaching the page.
 */
import { stepError } from '../../domain/step-errors';
import { getLogger } from '../../server/logger';

const log = getLogger('worker.projection');

/** Longest message a step keeps. */
export const STEP_ERROR_MAX = 2000;

export const INTERNAL_STEP_ERROR = stepError.internal.text({});

const INTERNALS = [
  // knex prefixes the statement: "insert into "utterance_tokens" (...) values (...) - value out of range ..."
  /^\s*(insert into|update|delete from|select|with) [\s\S]* - /,
  // PostgreSQL's own words
  /\b(violates (foreign key|unique|not-null|check|exclusion) constraint|out of range for type|invalid input syntax for type|syntax error at or near|duplicate key value|(relation|column) "[^"]*" (of relation "[^"]*" )?does not exist|null value in column|current transaction is aborted|invalid byte sequence for encoding)\b/i,
  // a stack trace
  /\n\s+at\s+\S/,
];

/** The message a step shows for a failure message (null stays null). */
export function stepErrorMessage(message: string | null, where = 'a step'): string | null {
  if (message === null) return null;
  if (INTERNALS.some((re) => re.test(message))) {
    if (process.env.NODE_ENV !== 'test' || process.env.LOG_ERRORS)
      log.error(`${where}: failure withheld from the step`, { reason: message });
    return INTERNAL_STEP_ERROR;
  }
  return message.length > STEP_ERROR_MAX ? `${message.slice(0, STEP_ERROR_MAX - 1)}…` : message;
}
