import { INTERNAL_STEP_ERROR, STEP_ERROR_MAX, stepErrorMessage } from './error-message';

describe('stepErrorMessage', () => {
  it('keeps a message a user can act on', () => {
    expect(stepErrorMessage(null)).toBeNull();
    expect(stepErrorMessage('The cloud-drive node has no cloud-drive connection')).toBe(
      'The cloud-drive node has no cloud-drive connection',
    );
    expect(stepErrorMessage('Update the connection - the password was refused')).toBe(
      'Update the connection - the password was refused',
    );
  });

  it('withholds the SQL and the words of a database error, and stack traces', () => {
    for (const internal of [
      'insert into "utterance_tokens" ("ts_start") values ($1) - value "1e+308" is out of range for type integer',
      'update "steps" set "status" = $1 where "id" = $2 - canceling statement due to lock timeout',
      'duplicate key value violates unique constraint "steps_document_id_order_unique"',
      'null value in column "node_id" of relation "steps" violates not-null constraint',
      'relation "documents" does not exist',
      'Error: boom\n    at Object.<anonymous> (/app/x.ts:1:1)',
    ])
      expect(stepErrorMessage(internal)).toBe(INTERNAL_STEP_ERROR);
  });

  it('cuts a very long message', () => {
    expect(stepErrorMessage('x'.repeat(10_000))!.length).toBe(STEP_ERROR_MAX);
  });
});
