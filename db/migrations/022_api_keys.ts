/**
 * API keys (issue 15 section 3; spec 3 "API keys page"): a user's long-lived credentials for integrations.
 * Only a SHA-256 of the token is stored (the token itself is shown once, in the create answer); `prefix`
 * (the token's first characters) lets a user tell keys apart without the secret.
 */
import type { Knex } from 'knex';

export async function up(knex: Knex): Promise<void> {
  await knex.schema.createTable('api_keys', (t) => {
    t.bigIncrements('id');
    t.bigInteger('user_id').notNullable().references('users.id').onDelete('CASCADE');
    t.string('token_hash', 64).notNullable().unique();
    t.string('prefix', 16).notNullable();
    t.timestamp('expiration_date', { useTz: true }).notNullable();
    t.timestamp('created_date', { useTz: true }).notNullable().defaultTo(knex.fn.now());
    t.timestamp('last_used_date', { useTz: true });
    t.index(['user_id', 'id']);
  });
}

export async function down(knex: Knex): Promise<void> {
  await knex.schema.dropTableIfExists('api_keys');
}
