/**
 * Revocable sessions and sign-in throttling that holds across API replicas (issue 9, findings 5 and 6).
 *
 * `users.token_version` is carried in every JWT (claim `ver`) and compared on each request: bumping it
 * (password change or reset, logout, an administrator's action) ends every token issued before.
 *
 * `login_attempts` replaces the per-account counter on `users` (failed_logins, locked_until), which let anyone
 * lock any account. One row per throttling key, in three kinds:
 * - login and address: failures of one account name from one client address (locked after LOGIN_MAX_FAILURES);
 *   `last_success` marks the address as known for that account;
 * - login '' and an address: failures of one address across all account names (LOGIN_ADDRESS_MAX_FAILURES);
 * - a login and address '': failures of one account name from all addresses (LOGIN_ACCOUNT_MAX_FAILURES).
 * Account names are stored lower-case whether or not such an account exists. `expires_at` is when the row
 * stops mattering; rows past it are purged.
 */
import type { Knex } from 'knex';

export async function up(knex: Knex): Promise<void> {
  await knex.schema.alterTable('users', (t) => {
    t.integer('token_version').notNullable().defaultTo(0);
    t.dropColumn('failed_logins');
    t.dropColumn('locked_until');
  });
  await knex.schema.createTable('login_attempts', (t) => {
    t.string('login', 50).notNullable();
    t.string('address', 64).notNullable();
    t.integer('failures').notNullable().defaultTo(0);
    t.timestamp('window_start', { useTz: true }).notNullable().defaultTo(knex.fn.now());
    t.timestamp('locked_until', { useTz: true });
    t.timestamp('last_success', { useTz: true });
    t.timestamp('expires_at', { useTz: true }).notNullable();
    t.primary(['login', 'address']);
    t.index(['expires_at']);
  });
}

export async function down(knex: Knex): Promise<void> {
  await knex.schema.dropTableIfExists('login_attempts');
  await knex.schema.alterTable('users', (t) => {
    t.dropColumn('token_version');
    t.integer('failed_logins').notNullable().defaultTo(0);
    t.timestamp('locked_until', { useTz: true });
  });
}
