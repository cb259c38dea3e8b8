import { DatabaseError } from 'pg';
import { databaseErrorStatus } from './errors';

const pgError = (code: string, message = 'insert into "secrets" ("name") values ($1) - boom') => {
  const e = new DatabaseError(message, message.length, 'error');
  e.code = code;
  e.severity = 'ERROR';
  return e;
};

describe('database errors as HTTP answers', () => {
  it('maps data exceptions caused by input (NUL byte, out of range, too long) to 400 without the SQL', () => {
    for (const code of ['22021', '22003', '22001', '22P02', '23502', '23514', '54000']) {
      const e = databaseErrorStatus(pgError(code));
      expect(e?.status).toBe(400);
      expect(JSON.stringify(e?.body)).not.toMatch(/insert|secrets|boom/);
    }
  });

  it('maps unique and foreign-key violations to 409 and a cancelled statement to 503', () => {
    expect(databaseErrorStatus(pgError('23505'))?.status).toBe(409);
    expect(databaseErrorStatus(pgError('23503'))?.status).toBe(409);
    expect(databaseErrorStatus(pgError('57014'))?.status).toBe(503);
  });

  it('leaves other database errors (a bug in a query, a lost connection) to the 500 path', () => {
    expect(databaseErrorStatus(pgError('42P01'))).toBeNull();
    expect(databaseErrorStatus(pgError('08006'))).toBeNull();
    expect(databaseErrorStatus(new Error('not a database error'))).toBeNull();
  });
});
