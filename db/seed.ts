/**
 * Idempotent seed: roles, system (predefined) process tags and, except with the `prod` profile, the admin and
 * user accounts and a demo process with its obligatory Upload node.
 * Running it twice changes nothing; rows that exist are left as they are (a changed password stays changed).
 */
import type { Knex } from 'knex';
import bcrypt from 'bcryptjs';
import { ALL_ROLES, Roles } from '../domain/enums';
import { insertObligatoryUploadNode } from './queries/nodes';

export const SYSTEM_TAGS: readonly { name: string; color: string }[] = [
  { name: 'Production', color: '#2E7D32' },
  { name: 'Development', color: '#1565C0' },
  { name: 'Testing', color: '#EF6C00' },
  { name: 'Archived', color: '#616161' },
];
export const DEMO_PROCESS_NAME = 'Demo Sphere';
export const BCRYPT_COST = 10;
/**
 * The accounts of a development database, with passwords everyone knows: never created with the `prod`
 * profile, and the API refuses to start in `prod` while one keeps its password (server/first-admin.ts).
 */
export const DEFAULT_ACCOUNTS: readonly { login: string; password: string }[] = [
  { login: 'admin', password: 'admin' },
  { login: 'user', password: 'user' },
];

export interface SeedOptions {
  /** APP_PROFILES: with `prod`, no default account and no demo process. */
  profiles?: readonly string[];
}

async function ensureRow(
  knex: Knex,
  table: string,
  match: Record<string, unknown>,
  values: Record<string, unknown> = {},
) {
  const existing = await knex(table).where(match).first();
  if (existing) return existing as { id: number };
  const [row] = await knex(table)
    .insert({ ...match, ...values })
    .returning('*');
  return row as { id: number };
}

async function ensureUser(knex: Knex, login: string, password: string, roles: string[]) {
  let user = await knex('users').where({ login }).first();
  if (!user) {
    [user] = await knex('users')
      .insert({
        login,
        email: `${login}@localhost`,
        password_hash: await bcrypt.hash(password, BCRYPT_COST),
        first_name: login === 'admin' ? 'Administrator' : 'User',
        last_name: login,
        activated: true,
        lang_key: 'en',
        created_by: 'system',
      })
      .returning('*');
  }
  for (const name of roles) {
    const role = await knex('roles').where({ name }).first();
    await knex('user_roles').insert({ user_id: user.id, role_id: role.id }).onConflict().ignore();
  }
  return user as { id: number };
}

export async function seed(knex: Knex, options: SeedOptions = {}): Promise<void> {
  const prod = (options.profiles ?? []).includes('prod');
  await knex.transaction(async (trx) => {
    for (const name of ALL_ROLES) await ensureRow(trx, 'roles', { name });
    const tags = [];
    for (const t of SYSTEM_TAGS)
      tags.push(await ensureRow(trx, 'process_tags', { name: t.name }, { color: t.color, predefined: true }));
    // A production database gets its first administrator from ADMIN_USERNAME / ADMIN_PASSWORD or
    // `npm run create-admin`, and no demo content.
    if (prod) return;

    const [admin, user] = DEFAULT_ACCOUNTS;
    await ensureUser(trx, admin.login, admin.password, [Roles.ADMIN, Roles.USER]);
    const userRow = await ensureUser(trx, user.login, user.password, [Roles.USER]);

    let demo = await trx('processes').where({ name: DEMO_PROCESS_NAME }).first();
    if (!demo) {
      const [process] = await trx('processes')
        .insert({ name: DEMO_PROCESS_NAME, is_rag_enabled: false })
        .returning('*');
      demo = process;
      await trx('process_process_tags').insert({ process_id: process.id, process_tag_id: tags[1].id });
      await trx('process_actors').insert([
        { process_id: process.id, actor: 'SPEAKER1', name: 'Speaker 1' },
        { process_id: process.id, actor: 'SPEAKER2', name: 'Speaker 2' },
      ]);
      const authority = await ensureRow(trx, 'authorities', {
        component_id: process.id,
        type: 'PROCESS',
        mode: 'READ',
      });
      await trx('user_authorities')
        .insert({ user_id: userRow.id, authority_id: authority.id })
        .onConflict()
        .ignore();
    }
    // Every process has its obligatory Upload node; a demo process seeded before nodes existed gets it now.
    if (!(await trx('nodes').where({ process_id: demo.id, obligatory: true }).first('id'))) {
      await insertObligatoryUploadNode(trx, demo.id);
    }
  });
}
