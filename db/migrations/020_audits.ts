/**
 * Audit events (issue 15 section 2; api/services/audits.ts): who (`principal`: a login, or the name tried
 * on a failed sign-in), what (`type`: AUTHENTICATION_SUCCESS, AUTHENTICATION_FAILURE, PASSWORD_CHANGED,
 * USER_ACCESS_CHANGED, USER_DELETED...), when, and details (`data`). Listed by date range, newest first;
 * rows older than AUDIT_RETENTION_DAYS are purged, so `date` is indexed.
 */
import type { Knex } from 'knex';

export async function up(knex: Knex): Promise<void> {
  await knex.schema.createTable('audits', (t) => {
    t.bigIncrements('id');
    t.string('principal', 100).notNullable();
    t.string('type', 50).notNullable();
    t.timestamp('date', { useTz: true }).notNullable().defaultTo(knex.fn.now());
    t.jsonb('data').notNullable().defaultTo('{}');
    t.index(['date', 'id']);
  });
}

export async function down(knex: Knex): Promise<void> {
  await knex.schema.dropTableIfExists('audits');
}
