/** Transaction-scoped advisory locks: one holder at a time for work that has no row to lock. */
import type { Knex } from 'knex';

/** Waits for and takes the advisory lock named `name` until the transaction ends. */
export async function advisoryXactLock(trx: Knex.Transaction, name: string): Promise<void> {
  await trx.raw('select pg_advisory_xact_lock(hashtext(?))', [name]);
}

/** Takes the advisory lock named `name` until the transaction ends if no one holds it; whether it did. */
export async function tryAdvisoryXactLock(trx: Knex.Transaction, name: string): Promise<boolean> {
  const { rows } = await trx.raw('select pg_try_advisory_xact_lock(hashtext(?)) as locked', [name]);
  return Boolean(rows[0].locked);
}
