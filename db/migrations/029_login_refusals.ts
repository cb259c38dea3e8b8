/**
 * Sign-in attempts refused while throttled (issue 25 finding 9): each one wrote an audit row, so an address
 * locked out could still grow the audit table by one row per request. Now a refused attempt (429 before its
 * password is checked) only increments `refused` on the counter row that refused it; the audit keeps one row
 * per password actually checked, which the throttle itself bounds.
 */
import type { Knex } from 'knex';

export async function up(knex: Knex): Promise<void> {
  await knex.schema.alterTable('login_attempts', (t) => {
    t.integer('refused').notNullable().defaultTo(0);
  });
}

export async function down(knex: Knex): Promise<void> {
  await knex.schema.alterTable('login_attempts', (t) => {
    t.dropColumn('refused');
  });
}
