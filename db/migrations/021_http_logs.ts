/**
 * HTTP logs (issue 15 section 2, `management/http-logs`): one row per API or management request served,
 * written in batches by api/services/http-logs.ts and deleted after HTTP_LOG_RETENTION_DAYS. The query
 * string is not stored (a query token of a media route must not reach a log), only the path.
 */
import type { Knex } from 'knex';

export async function up(knex: Knex): Promise<void> {
  await knex.schema.createTable('http_logs', (t) => {
    t.bigIncrements('id').primary();
    t.timestamp('time', { useTz: true }).notNullable();
    t.string('method', 10).notNullable();
    t.string('path', 2000).notNullable();
    t.string('route', 300);
    t.integer('status').notNullable();
    t.integer('duration_ms').notNullable();
    t.string('principal', 100);
    t.string('remote_address', 100);
    t.string('request_id', 100);
    t.string('user_agent', 300);
    t.index(['time']);
  });
}

export async function down(knex: Knex): Promise<void> {
  await knex.schema.dropTable('http_logs');
}
