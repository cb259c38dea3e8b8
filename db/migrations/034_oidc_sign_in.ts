/**
 * Single sign-on through an OpenID Connect provider (issue 32 section 3, api/services/oidc-sign-in.ts).
 * - `oidc_sign_ins`: a sign-in begun and not finished: its state (the key the provider hands back), nonce
 *   and PKCE verifier, deleted when the callback takes it (so a replayed callback finds nothing) and
 *   worthless after ten minutes. Kept here, not in the API's memory, so any replica can finish it.
 * - `user_identities`: the provider's subject (`iss` + `sub`) an account belongs to; a sign-in finds the
 *   account by it, never by a login or e-mail that the provider asserts.
 */
import type { Knex } from 'knex';

export async function up(knex: Knex): Promise<void> {
  await knex.schema.createTable('oidc_sign_ins', (t) => {
    t.text('state').primary();
    t.text('nonce').notNullable();
    t.text('code_verifier').notNullable();
    t.text('return_to').nullable();
    t.timestamp('created_at', { useTz: true }).notNullable().defaultTo(knex.fn.now());
    t.index(['created_at']);
  });
  await knex.schema.createTable('user_identities', (t) => {
    t.bigIncrements('id');
    t.bigInteger('user_id').notNullable().references('users.id').onDelete('CASCADE');
    t.text('issuer').notNullable();
    t.text('subject').notNullable();
    t.timestamp('created_at', { useTz: true }).notNullable().defaultTo(knex.fn.now());
    t.unique(['issuer', 'subject']);
    t.unique(['user_id', 'issuer']);
  });
}

export async function down(knex: Knex): Promise<void> {
  await knex.schema.dropTable('user_identities');
  await knex.schema.dropTable('oidc_sign_ins');
}
