/**
 * Users: as other rows refer to them (a document's assignees, the user working on a step or blocking a
 * document), as administrators list and change them with their roles and own authorities, and the account's
 * own writes (registration, activation, password changes and resets, sessions' token version).
 */
import type { Knex } from 'knex';
import type { AdminUserDTO, AuthorityDTO } from '../../domain/api-types';
import type { AuthorityGrant } from '../../domain/access';
import { Roles } from '../../domain/enums';
import { qualify } from './columns';

/** A user as other rows refer to them: the payload type the web shares (domain/document-state-types.ts). */
import type { UserRefDTO } from '../../domain/document-state-types';
export type UserRef = UserRefDTO;

export const USER_REF_COLUMNS = ['id', 'login', 'first_name as firstName', 'last_name as lastName', 'email'];

export async function userRef(knex: Knex, id: number): Promise<UserRef | undefined> {
  return knex('users as u').where('u.id', id).first(qualify('u', USER_REF_COLUMNS));
}

/** The logins of the users, by id (the agreement's annotators). */
export async function userLogins(
  knex: Knex,
  ids: readonly number[],
): Promise<{ id: number; login: string }[]> {
  if (!ids.length) return [];
  const rows: { id: number | string; login: string }[] = await knex('users')
    .whereIn('id', [...ids])
    .orderBy('id')
    .select('id', 'login');
  return rows.map((r) => ({ id: Number(r.id), login: r.login }));
}

/**
 * The users who may be assigned to the documents of a process (the rule of the assignee routes): activated,
 * with the admin role or an authority on the process (their own or one of their roles'), ordered by login.
 */
export async function assignableUsers(knex: Knex, processId: number): Promise<UserRef[]> {
  const onProcess = (q: Knex.QueryBuilder) =>
    q.where('a.type', 'PROCESS').andWhere('a.component_id', processId);
  return knex('users as u')
    .where('u.activated', true)
    .andWhere((q) =>
      q
        .whereIn(
          'u.id',
          knex('user_roles as ur')
            .join('roles as r', 'r.id', 'ur.role_id')
            .where('r.name', Roles.ADMIN)
            .select('ur.user_id'),
        )
        .orWhereIn(
          'u.id',
          knex('user_authorities as ua')
            .join('authorities as a', 'a.id', 'ua.authority_id')
            .where(onProcess)
            .select('ua.user_id'),
        )
        .orWhereIn(
          'u.id',
          knex('user_roles as ur')
            .join('role_authorities as ra', 'ra.role_id', 'ur.role_id')
            .join('authorities as a', 'a.id', 'ra.authority_id')
            .where(onProcess)
            .select('ur.user_id'),
        ),
    )
    .orderBy('u.login')
    .select(qualify('u', USER_REF_COLUMNS));
}

// --- users as administrators manage them (api/services/user-admin.ts) ---

export const AUTHORITY_JSON = `json_build_object('id', a.id, 'componentId', a.component_id, 'type', a.type, 'mode', a.mode)`;

const userColumns = (knex: Knex) => [
  'u.id',
  'u.login',
  'u.first_name as firstName',
  'u.last_name as lastName',
  'u.email',
  'u.activated',
  'u.lang_key as langKey',
  'u.created_by as createdBy',
  'u.created_date as createdDate',
  'u.last_modified_by as lastModifiedBy',
  'u.last_modified_date as lastModifiedDate',
  knex.raw(`coalesce((select json_agg(r.name order by r.name) from roles r
     join user_roles ur on ur.role_id = r.id where ur.user_id = u.id), '[]') as roles`),
  knex.raw(`coalesce((select json_agg(${AUTHORITY_JSON} order by a.id) from authorities a
     join user_authorities ua on ua.authority_id = a.id where ua.user_id = u.id), '[]') as authorities`),
];

const iso = (d: Date | string | null) => (d ? new Date(d).toISOString() : null);

function toUser(r: Record<string, any>): AdminUserDTO {
  return {
    id: Number(r.id),
    login: r.login,
    firstName: r.firstName,
    lastName: r.lastName,
    email: r.email,
    activated: r.activated,
    langKey: r.langKey,
    roles: r.roles,
    authorities: (r.authorities as AuthorityDTO[]).map((a) => ({ ...a, id: Number(a.id) })),
    createdBy: r.createdBy,
    createdDate: iso(r.createdDate),
    lastModifiedBy: r.lastModifiedBy,
    lastModifiedDate: iso(r.lastModifiedDate),
  };
}

/** `%`, `_` and `\` of a user's text taken literally in ILIKE. */
const likePattern = (text: string) => `%${text.replace(/[\\%_]/g, (c) => `\\${c}`)}%`;

/**
 * A page of users (or all of them with `page` null), optionally those whose login, e-mail, first or last
 * name contains `filter` (case-insensitive), with the total.
 */
export async function adminUserPage(
  knex: Knex,
  opts: {
    filter?: string;
    page: { page: number; size: number } | null;
    /** columns of the users table */
    sort: { column: string; desc: boolean }[];
  },
): Promise<{ rows: AdminUserDTO[]; total: number }> {
  const matching = (q: Knex.QueryBuilder) => {
    const filter = opts.filter?.trim();
    if (filter) {
      const like = likePattern(filter);
      q.where((w) =>
        w
          .whereILike('u.login', like)
          .orWhereILike('u.email', like)
          .orWhereILike('u.first_name', like)
          .orWhereILike('u.last_name', like),
      );
    }
    return q;
  };
  const [{ count }] = await matching(knex('users as u')).count({ count: '*' });
  const list = matching(knex('users as u')).select(userColumns(knex));
  for (const s of opts.sort) list.orderBy(`u.${s.column}`, s.desc ? 'desc' : 'asc', 'last');
  if (!opts.sort.some((s) => s.column === 'id')) list.orderBy('u.id', 'asc');
  if (opts.page) list.limit(opts.page.size).offset(opts.page.page * opts.page.size);
  return { rows: (await list).map(toUser), total: Number(count) };
}

export async function adminUser(knex: Knex, id: number): Promise<AdminUserDTO | null> {
  const row = await knex('users as u').where('u.id', id).first(userColumns(knex));
  return row ? toUser(row) : null;
}

/** Activated administrators other than `exceptId`. */
export async function otherActiveAdmins(trx: Knex, exceptId: number): Promise<number> {
  const [{ count }] = await trx('users as u')
    .join('user_roles as ur', 'ur.user_id', 'u.id')
    .join('roles as r', 'r.id', 'ur.role_id')
    .where('r.name', Roles.ADMIN)
    .andWhere('u.activated', true)
    .andWhereNot('u.id', exceptId)
    .count({ count: '*' });
  return Number(count);
}

/** Bumps the token version of the users: every session they hold ends. */
export async function bumpTokenVersions(knex: Knex, userIds: readonly number[]): Promise<number[]> {
  if (!userIds.length) return [];
  const rows: { id: number }[] = await knex('users')
    .whereIn('id', [...userIds])
    .update({ token_version: knex.raw('token_version + 1') }, ['id']);
  return rows.map((r) => Number(r.id));
}

/** The id of a user with the login, other than `exceptId`. */
export async function userIdByLogin(
  knex: Knex,
  login: string,
  exceptId?: number,
): Promise<number | undefined> {
  const q = knex('users').where({ login });
  if (exceptId !== undefined) q.whereNot('id', exceptId);
  return (await q.first('id'))?.id;
}

/** The id of a user with the e-mail (lower-case), other than `exceptId`. */
export async function userIdByEmail(
  knex: Knex,
  email: string,
  exceptId?: number,
): Promise<number | undefined> {
  const q = knex('users').whereRaw('lower(email) = ?', [email]);
  if (exceptId !== undefined) q.whereNot('id', exceptId);
  return (await q.first('id'))?.id;
}

/** The columns of a new user; login and e-mail already lower-case. */
export interface NewUserRow {
  login: string;
  email: string;
  passwordHash: string;
  firstName?: string | null;
  lastName?: string | null;
  activated: boolean;
  langKey: string;
  activationKey?: string | null;
  /** a password-reset key, dated now */
  resetKey?: string | null;
  createdBy: string;
  /** set with the creation time */
  lastModifiedBy?: string;
}

/** Inserts a user; its id. A login or e-mail taken fails with the unique violation. */
export async function insertUser(knex: Knex, u: NewUserRow): Promise<number> {
  const [row] = await knex('users')
    .insert({
      login: u.login,
      email: u.email,
      password_hash: u.passwordHash,
      ...(u.firstName !== undefined ? { first_name: u.firstName } : {}),
      ...(u.lastName !== undefined ? { last_name: u.lastName } : {}),
      activated: u.activated,
      lang_key: u.langKey,
      ...(u.activationKey !== undefined ? { activation_key: u.activationKey } : {}),
      ...(u.resetKey !== undefined
        ? { reset_key: u.resetKey, reset_date: u.resetKey ? knex.fn.now() : null }
        : {}),
      created_by: u.createdBy,
      ...(u.lastModifiedBy !== undefined
        ? { last_modified_by: u.lastModifiedBy, last_modified_date: knex.fn.now() }
        : {}),
    })
    .returning('id');
  return Number(row.id);
}

/** The fields of a user an administrator or the user changes; `by` is recorded as the last modifier. */
export interface UserChange {
  login?: string;
  email?: string;
  firstName?: string | null;
  lastName?: string | null;
  activated?: boolean;
  langKey?: string;
  by: string;
}

export async function updateUserRow(knex: Knex, id: number, c: UserChange): Promise<void> {
  const row: Record<string, unknown> = {
    login: c.login,
    email: c.email,
    first_name: c.firstName,
    last_name: c.lastName,
    activated: c.activated,
    lang_key: c.langKey,
    last_modified_by: c.by,
    last_modified_date: knex.fn.now(),
  };
  for (const k of Object.keys(row)) if (row[k] === undefined) delete row[k];
  await knex('users').where({ id }).update(row);
}

/** Deletes users (rows that name them keep their history through ON DELETE rules). */
export async function deleteUsers(knex: Knex, ids: readonly number[]): Promise<void> {
  if (ids.length)
    await knex('users')
      .whereIn('id', [...ids])
      .del();
}

/** Makes the user's roles and own authorities exactly these. */
export async function replaceUserGrants(
  knex: Knex,
  userId: number,
  roleIds: readonly number[],
  authorityIds: readonly number[],
): Promise<void> {
  await knex('user_roles').where({ user_id: userId }).del();
  if (roleIds.length)
    await knex('user_roles').insert(roleIds.map((role_id) => ({ user_id: userId, role_id })));
  await knex('user_authorities').where({ user_id: userId }).del();
  if (authorityIds.length)
    await knex('user_authorities').insert(
      authorityIds.map((authority_id) => ({ user_id: userId, authority_id })),
    );
}

// --- the account's own writes (api/services/accounts.ts) ---

/** A users row as stored. */
export interface UserRow {
  id: number;
  login: string;
  email: string;
  password_hash: string;
  first_name: string | null;
  last_name: string | null;
  activated: boolean;
  lang_key: string;
  activation_key: string | null;
  token_version: number;
  created_by: string | null;
  created_date: Date | null;
  last_modified_by: string | null;
  last_modified_date: Date | null;
}

export async function userById(knex: Knex, id: number): Promise<UserRow | undefined> {
  return knex<UserRow>('users').where({ id }).first();
}

/** The user with the login (lower-case). */
export async function userByLogin(knex: Knex, login: string): Promise<UserRow | undefined> {
  return knex<UserRow>('users').where({ login }).first();
}

/** The user with the e-mail (lower-case). */
export async function userByEmail(knex: Knex, email: string): Promise<UserRow | undefined> {
  return knex<UserRow>('users').whereRaw('lower(email) = ?', [email]).first();
}

/** Sets the password (hashed) and ends every session of the user. */
export async function setPassword(knex: Knex, id: number, passwordHash: string, by: string): Promise<void> {
  await knex('users')
    .where({ id })
    .update({
      password_hash: passwordHash,
      token_version: knex.raw('token_version + 1'),
      last_modified_by: by,
      last_modified_date: knex.fn.now(),
    });
}

/** Activates the account holding the key (the key works once); false when none does. */
export async function activateByKey(knex: Knex, key: string): Promise<boolean> {
  const updated = await knex('users')
    .where({ activation_key: key })
    .update({ activated: true, activation_key: null }, ['id']);
  return updated.length > 0;
}

/** Gives the user a password-reset key, dated now. */
export async function setResetKey(knex: Knex, id: number, resetKey: string): Promise<void> {
  await knex('users').where({ id }).update({ reset_key: resetKey, reset_date: knex.fn.now() });
}

/**
 * Sets the password of the account whose reset key was issued less than `validHours` ago (the key works
 * once) and ends its sessions; the account's login, null when no key matched.
 */
export async function resetPasswordByKey(
  knex: Knex,
  key: string,
  validHours: number,
  passwordHash: string,
): Promise<string | null> {
  const updated: { login: string }[] = await knex('users')
    .where({ reset_key: key })
    .andWhere('reset_date', '>', knex.raw(`now() - make_interval(hours => ?)`, [validHours]))
    .update(
      {
        password_hash: passwordHash,
        reset_key: null,
        reset_date: null,
        token_version: knex.raw('token_version + 1'),
        last_modified_date: knex.fn.now(),
      },
      ['id', 'login'],
    );
  return updated[0]?.login ?? null;
}

/** The login of the first activated administrator, if there is one. */
export async function firstActiveAdmin(knex: Knex): Promise<string | null> {
  const row = await knex('users')
    .join('user_roles', 'user_roles.user_id', 'users.id')
    .join('roles', 'roles.id', 'user_roles.role_id')
    .where({ 'roles.name': Roles.ADMIN, 'users.activated': true })
    .orderBy('users.id')
    .first('users.login');
  return row ? String(row.login) : null;
}

// --- the signed-in user (api/auth.ts) ---

/** A user with their roles, their roles' authorities and their own authorities (api/auth.ts merges them). */
export interface AuthUserRow {
  id: number;
  login: string;
  activated: boolean;
  langKey: string;
  tokenVersion: number;
  roles: string[];
  roleAuthorities: AuthorityGrant[];
  ownAuthorities: AuthorityGrant[];
}

/** The user by id or login with roles and authorities, in one query. */
export async function authUserRow(
  knex: Knex,
  where: { id: number } | { login: string },
): Promise<AuthUserRow | null> {
  const [column, value] = 'id' in where ? ['id', where.id] : ['login', where.login];
  const { rows } = await knex.raw(
    `select u.id, u.login, u.activated, u.lang_key,
       u.token_version,
       coalesce((select json_agg(r.name order by r.name) from roles r
                 join user_roles ur on ur.role_id = r.id where ur.user_id = u.id), '[]') as roles,
       coalesce((select json_agg(${AUTHORITY_JSON} order by a.id) from authorities a
                 join role_authorities ra on ra.authority_id = a.id
                 join user_roles ur on ur.role_id = ra.role_id where ur.user_id = u.id), '[]') as role_authorities,
       coalesce((select json_agg(${AUTHORITY_JSON} order by a.id) from authorities a
                 join user_authorities ua on ua.authority_id = a.id where ua.user_id = u.id), '[]') as own_authorities
     from users u where u.${column} = ?`,
    [value],
  );
  const row = rows[0];
  if (!row) return null;
  return {
    id: row.id,
    login: row.login,
    activated: row.activated,
    langKey: row.lang_key,
    tokenVersion: row.token_version,
    roles: row.roles,
    roleAuthorities: row.role_authorities,
    ownAuthorities: row.own_authorities,
  };
}
