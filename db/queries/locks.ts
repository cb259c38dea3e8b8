/** Transaction-scoped advisory locks: one holder at a time for work that has no row to lock. */
import type { Knex } from 'knex';

/** Waits for and takes the advisory lock named `name` until the transaction ends. */
export async function advisoryXactLock(trx: Knex.Transaction, name: string): Promise<void> {
  await trx.raw('select pg_advisory_xact_lock(hashtext(?))', [name]);
}
