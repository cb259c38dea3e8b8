/**
 * The retry of executors' result writes while the database cannot be reached (issue 10, `npm run chaos`
 * killing PostgreSQL): connection errors are tried again until the patience runs out; any other error, such
 * as a constraint violation, is thrown at once.
 */
import { isDatabaseUnreachable, whileDatabaseUnreachable } from './context';

const pgError = (code: string, message = 'error') => Object.assign(new Error(message), { code });

describe('isDatabaseUnreachable', () => {
  it('knows connection failures from refusals of the write', () => {
    expect(isDatabaseUnreachable(pgError('ECONNREFUSED', 'connect ECONNREFUSED 127.0.0.1:5432'))).toBe(true);
    expect(isDatabaseUnreachable(pgError('57P03', 'the database system is starting up'))).toBe(true);
    expect(
      isDatabaseUnreachable(pgError('57P01', 'terminating connection due to administrator command')),
    ).toBe(true);
    expect(isDatabaseUnreachable(pgError('08006'))).toBe(true);
    expect(isDatabaseUnreachable(new Error('Connection terminated unexpectedly'))).toBe(true);
    expect(
      isDatabaseUnreachable(
        Object.assign(new Error('Knex: Timeout acquiring a connection'), { name: 'KnexTimeoutError' }),
      ),
    ).toBe(true);

    expect(isDatabaseUnreachable(pgError('23505', 'duplicate key value violates unique constraint'))).toBe(
      false,
    );
    expect(isDatabaseUnreachable(pgError('42P01', 'relation does not exist'))).toBe(false);
    expect(isDatabaseUnreachable(new Error('something else'))).toBe(false);
    expect(isDatabaseUnreachable(null)).toBe(false);
  });
});

describe('whileDatabaseUnreachable', () => {
  it('writes again after connection failures', async () => {
    const errors = [pgError('ECONNREFUSED'), pgError('57P03')];
    let calls = 0;
    const result = await whileDatabaseUnreachable(
      async () => {
        calls++;
        const e = errors.shift();
        if (e) throw e;
        return 'written';
      },
      5_000,
      1,
    );
    expect(result).toBe('written');
    expect(calls).toBe(3);
  });

  it('throws any other error at once', async () => {
    let calls = 0;
    await expect(
      whileDatabaseUnreachable(
        async () => {
          calls++;
          throw pgError('23505', 'duplicate key');
        },
        5_000,
        1,
      ),
    ).rejects.toThrow('duplicate key');
    expect(calls).toBe(1);
  });

  it('gives up with the last connection error when its patience runs out', async () => {
    let calls = 0;
    await expect(
      whileDatabaseUnreachable(
        async () => {
          calls++;
          throw pgError('ECONNREFUSED', `refused ${calls}`);
        },
        30,
        10,
      ),
    ).rejects.toThrow(/refused/);
    expect(calls).toBeGreaterThanOrEqual(1);
  });
});
