/**
 * Accounts of a production database (issue 27 section 4). With the `prod` profile the seed creates no
 * account (db/seed.ts); the first administrator comes from ADMIN_USERNAME / ADMIN_PASSWORD at the API's start
 * (`prodAccountsAtStart`) or from `npm run create-admin` (scripts/create-admin.ts), both through
 * `createFirstAdmin`. The API refuses to start in `prod` while an account the development seed creates still
 * has its default password: the seed's passwords are public.
 *
 * Decisions: "an administrator exists" means an activated user with ROLE_ADMIN (a deactivated one cannot sign
 * in to create others); the first administrator gets the spec's password rules (domain/validation.ts) and the
 * roles ADMIN and USER, as the seeded one had.
 */
import bcrypt from 'bcryptjs';
import type { Knex } from 'knex';
import { Roles } from '../domain/enums';
import { emailRule, loginRule, passwordRule } from '../domain/validation';
import { BCRYPT_COST, DEFAULT_ACCOUNTS } from '../db/seed';
import { advisoryXactLock } from '../db/queries/locks';
import { roleIds } from '../db/queries/roles';
import {
  firstActiveAdmin,
  insertUser,
  replaceUserGrants,
  userByLogin,
  userIdByEmail,
  userIdByLogin,
} from '../db/queries/users';

export interface FirstAdminInput {
  username: string;
  password: string;
  email?: string;
}

/** A start or a command refused for a reason the operator must fix: printed as one line, no stack. */
export class StartRefused extends Error {}

/** The login of an activated administrator, if there is one. */
export const activeAdmin = firstActiveAdmin;

/** The seeded accounts (admin/admin, user/user) that still have their default password. */
export async function accountsWithDefaultPassword(knex: Knex): Promise<string[]> {
  const found: string[] = [];
  for (const account of DEFAULT_ACCOUNTS) {
    const row = await userByLogin(knex, account.login);
    if (row && (await bcrypt.compare(account.password, String(row.password_hash)))) found.push(account.login);
  }
  return found;
}

/** Why the input cannot make an administrator, in words, or null. */
function invalid(input: FirstAdminInput): string | null {
  if (loginRule(input.username))
    return `the user name "${input.username}" is not valid (letters, digits, _ . @ -, 1 to 50)`;
  const pw = passwordRule(input.password);
  if (pw) return `the password must be 4 to 50 characters long (${pw.key})`;
  if (DEFAULT_ACCOUNTS.some((a) => a.password === input.password))
    return 'the password is one of the seed’s public default passwords';
  if (input.email !== undefined && emailRule(input.email)) return `the e-mail "${input.email}" is not valid`;
  return null;
}

/**
 * Creates the first administrator unless an activated one exists: 'created', or the existing one's login.
 * Throws StartRefused when the input breaks the password or login rules or the login is taken.
 */
export async function createFirstAdmin(
  knex: Knex,
  input: FirstAdminInput,
  createdBy = 'system',
): Promise<{ created: true } | { created: false; existing: string }> {
  const problem = invalid(input);
  if (problem) throw new StartRefused(`the first administrator cannot be created: ${problem}`);
  const login = input.username.toLowerCase();
  const email = (input.email ?? (login.includes('@') ? login : `${login}@localhost`)).toLowerCase();
  const passwordHash = await bcrypt.hash(input.password, BCRYPT_COST);
  return knex.transaction(async (trx) => {
    // One creator at a time (several API replicas starting together with the same variables).
    await advisoryXactLock(trx, 'workbench.first-admin');
    const existing = await activeAdmin(trx);
    if (existing) return { created: false as const, existing };
    if ((await userIdByLogin(trx, login)) !== undefined || (await userIdByEmail(trx, email)) !== undefined)
      throw new StartRefused(
        `the first administrator cannot be created: the login "${login}" or e-mail "${email}" is taken by a user who is not an active administrator`,
      );
    const userId = await insertUser(trx, {
      login,
      email,
      passwordHash,
      firstName: 'Administrator',
      lastName: login,
      activated: true,
      langKey: 'en',
      createdBy,
    });
    await replaceUserGrants(trx, userId, await roleIds(trx, [Roles.ADMIN, Roles.USER]), []);
    return { created: true as const };
  });
}

/**
 * What the API does at start with the `prod` profile: the first administrator from ADMIN_USERNAME /
 * ADMIN_PASSWORD when none exists, then the refusal of seeded accounts that keep their default password.
 */
export async function prodAccountsAtStart(
  knex: Knex,
  initialAdmin: FirstAdminInput | null,
  log: (line: string) => void,
): Promise<void> {
  if (initialAdmin) {
    const r = await createFirstAdmin(knex, initialAdmin);
    if (r.created)
      log(`created the first administrator "${initialAdmin.username.toLowerCase()}" (ADMIN_USERNAME)`);
  }
  const defaults = await accountsWithDefaultPassword(knex);
  if (defaults.length)
    throw new StartRefused(
      `profile prod: the account${defaults.length > 1 ? 's' : ''} ${defaults.map((l) => `"${l}"`).join(' and ')} ` +
        `still ${defaults.length > 1 ? 'have their' : 'has its'} default password: change ${defaults.length > 1 ? 'them' : 'it'} ` +
        `(sign in without the prod profile, Account > Password) or delete ${defaults.length > 1 ? 'them' : 'it'} ` +
        `(Administration > Users), then start with prod again`,
    );
  if (!(await activeAdmin(knex)))
    log('no administrator exists: set ADMIN_USERNAME and ADMIN_PASSWORD or run `npm run create-admin`');
}
