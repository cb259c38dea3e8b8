/**
 * The login_attempts table (migration 010, `refused` since 029): windowed counters of failed sign-ins per
 * (login, address) pair, per address (login '') and per login (address ''), with the pair's lock. The rules
 * that decide when to count, lock and refuse are api/services/login-throttle.ts's; the statements here keep
 * each decision one atomic upsert so that concurrent API replicas agree.
 */
import type { Knex } from 'knex';

/** Rows past their time go on every failure (the only way rows multiply): one indexed delete. */
export async function purgeExpiredAttempts(knex: Knex): Promise<void> {
  await knex('login_attempts').where('expires_at', '<', knex.fn.now()).del();
}

/**
 * When the address's counter is at `max` within its window: counts the refusal on the row and returns the
 * seconds left in the window; null when the address may try.
 */
export async function refuseAddress(
  knex: Knex,
  address: string,
  max: number,
  windowSeconds: number,
): Promise<number | null> {
  const [row]: { window_left: number }[] = await knex('login_attempts')
    .where({ login: '', address })
    .andWhere('failures', '>=', max)
    .andWhere('window_start', '>', knex.raw(`now() - make_interval(secs => ?)`, [windowSeconds]))
    .increment('refused', 1)
    .returning(
      knex.raw(`extract(epoch from window_start + make_interval(secs => ?) - now())::float as window_left`, [
        windowSeconds,
      ]),
    );
  return row ? row.window_left : null;
}

/** When the pair is locked: counts the refusal on the row and returns the seconds left; null otherwise. */
export async function refuseLockedPair(knex: Knex, login: string, address: string): Promise<number | null> {
  const [locked]: { lock_left: number }[] = await knex('login_attempts')
    .where({ login, address })
    .andWhere('locked_until', '>', knex.fn.now())
    .increment('refused', 1)
    .returning(knex.raw('extract(epoch from locked_until - now())::float as lock_left'));
  return locked ? Number(locked.lock_left) : null;
}

/** Counts a failure in a windowed counter row; returns the count, or null when the row was over `max`. */
export async function countFailure(
  knex: Knex,
  login: string,
  address: string,
  windowSeconds: number,
  max: number,
): Promise<number | null> {
  const { rows } = await knex.raw(
    `insert into login_attempts (login, address, failures, window_start, expires_at)
     values (:login, :address, 1, now(), now() + make_interval(secs => :win))
     on conflict (login, address) do update set
       failures = case when login_attempts.window_start > now() - make_interval(secs => :win)
                       then login_attempts.failures + 1 else 1 end,
       window_start = case when login_attempts.window_start > now() - make_interval(secs => :win)
                           then login_attempts.window_start else now() end,
       expires_at = case when login_attempts.window_start > now() - make_interval(secs => :win)
                         then login_attempts.window_start else now() end + make_interval(secs => :win)
     where not (login_attempts.failures >= :max
                and login_attempts.window_start > now() - make_interval(secs => :win))
     returning failures`,
    { login, address, win: windowSeconds, max },
  );
  return rows.length ? Number(rows[0].failures) : null;
}

/** Seconds left on the pair's lock (0 when not locked). */
export async function pairLockLeft(knex: Knex, login: string, address: string): Promise<number> {
  const row = await knex('login_attempts')
    .where({ login, address })
    .first(knex.raw('extract(epoch from locked_until - now())::float as lock_left'));
  return Math.max(0, Number(row?.lock_left ?? 0));
}

export interface PairFailure {
  login: string;
  address: string;
  /** the window of the pair's counter (s) */
  windowSeconds: number;
  lockSeconds: number;
  /** failures that lock the pair */
  maxFailures: number;
  /** an address with a success on the login this recently (days) is known */
  knownAddressDays: number;
  /** how long a row without a success lives (s) */
  longestSeconds: number;
  /** the login is under a distributed guess: an unknown address locks at its first failure */
  underAttack: boolean;
  /** a new row starts locked */
  firstLocks: boolean;
}

/** Counts a failure of the pair, locking it at its threshold; false when the pair was locked already. */
export async function countPairFailure(knex: Knex, f: PairFailure): Promise<boolean> {
  const fresh = `login_attempts.window_start > now() - make_interval(secs => :win)`;
  const known = `coalesce(login_attempts.last_success > now() - make_interval(days => :knownDays), false)`;
  const threshold = `case when cast(:underAttack as boolean) and not ${known} then 1 else :max end`;
  const next = `(case when ${fresh} then login_attempts.failures else 0 end) + 1`;
  const lock = `now() + make_interval(secs => :lock)`;
  const { rows } = await knex.raw(
    `insert into login_attempts (login, address, failures, window_start, locked_until, expires_at)
     values (:login, :address,
             case when cast(:firstLocks as boolean) then 0 else 1 end, now(),
             case when cast(:firstLocks as boolean) then ${lock} end,
             now() + make_interval(secs => :longest))
     on conflict (login, address) do update set
       failures = case when ${next} >= ${threshold} then 0 else ${next} end,
       window_start = case when ${fresh} then login_attempts.window_start else now() end,
       locked_until = case when ${next} >= ${threshold} then ${lock} end,
       expires_at = greatest(now() + make_interval(secs => :longest),
                             login_attempts.last_success + make_interval(days => :knownDays))
     where login_attempts.locked_until is null or login_attempts.locked_until <= now()
     returning 1`,
    {
      login: f.login,
      address: f.address,
      win: f.windowSeconds,
      lock: f.lockSeconds,
      max: f.maxFailures,
      knownDays: f.knownAddressDays,
      longest: f.longestSeconds,
      underAttack: f.underAttack,
      firstLocks: f.firstLocks,
    },
  );
  return rows.length > 0;
}

/**
 * A success of the pair: resets it and marks the address as known for `knownDays`; false when the pair is
 * locked (nothing changes then).
 */
export async function recordPairSuccess(
  knex: Knex,
  login: string,
  address: string,
  knownDays: number,
): Promise<boolean> {
  const { rows } = await knex.raw(
    `insert into login_attempts (login, address, failures, window_start, last_success, expires_at)
     values (:login, :address, 0, now(), now(), now() + make_interval(days => :knownDays))
     on conflict (login, address) do update set
       failures = 0, locked_until = null, last_success = now(),
       expires_at = now() + make_interval(days => :knownDays)
     where login_attempts.locked_until is null or login_attempts.locked_until <= now()
     returning 1`,
    { login, address, knownDays },
  );
  return rows.length > 0;
}

/** Lifts the login's locks and counters at every address. */
export async function forgetLogin(knex: Knex, login: string): Promise<void> {
  await knex('login_attempts').where({ login }).update({ failures: 0, locked_until: null });
}
