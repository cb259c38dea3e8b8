/**
 * User, role and authority administration (issue 15 section 1; routes in api/routes/users.ts, rules in
 * domain/user-admin.ts). Business rules that need the database live here:
 * - logins and e-mails are unique (lower-case, like self-registration: error.userexists, error.emailexists);
 * - an administrator cannot remove their own admin role, deactivate or delete themselves, and the last
 *   activated administrator cannot lose the role, be deactivated or be deleted (error.ownadminrole,
 *   error.ownaccount, error.lastadmin). Every change that could affect administrators first locks the
 *   ROLE_ADMIN row, so two concurrent changes cannot both remove "the other" last admin;
 * - a user whose roles, own authorities or activation change, or who is deleted, loses every session
 *   (revokeSessions: the token version). So do the holders of a role whose authorities change or that is
 *   deleted, and of an authority that is deleted. The acting administrator keeps their own session (their
 *   access is read on every request anyway, so nothing stale survives);
 * - every such change is audited (api/services/audits.ts).
 */
import type { Knex } from 'knex';
import type { AdminUserDTO, AuthorityDTO, AuthorityViewDTO, RoleDTO } from '../../domain/api-types';
import { GLOBAL_COMPONENT_ID, Roles } from '../../domain/enums';
import { authorityKey, isBuiltInRole, type AuthorityInput, type UserInput } from '../../domain/user-admin';
import type { PageRequest } from '../paging';
import type { AuthUser } from '../auth';
import type { AppConfig } from '../../server/config';
import { appError, notFound } from '../errors';
import { ENTITY, hashPassword, randomKey, rethrowTaken } from './accounts';
import { AuditTypes, recordAudit } from './audits';
import { accountMail } from './mail-templates';
import type { Mailer } from './mail';

export interface UserAdminDeps {
  knex: Knex;
  config: AppConfig;
  mailer: Mailer;
}

export interface RoleInput {
  name: string;
  authorities: AuthorityInput[];
}

const AUTHORITY_JSON = `json_build_object('id', a.id, 'componentId', a.component_id, 'type', a.type, 'mode', a.mode)`;

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
export async function listUsers(
  knex: Knex,
  opts: { filter?: string; page: PageRequest | null; sort: PageRequest['sort'] },
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

export async function findUser(knex: Knex, id: number): Promise<AdminUserDTO | null> {
  const row = await knex('users as u').where('u.id', id).first(userColumns(knex));
  return row ? toUser(row) : null;
}

/** Every authority with the name of its process or node (for the pickers and lists). */
export async function listAuthorities(knex: Knex): Promise<AuthorityViewDTO[]> {
  const rows = await knex('authorities as a')
    .leftJoin('nodes as n', (j) => j.on('n.id', 'a.component_id').andOnVal('a.type', 'NODE'))
    .leftJoin('processes as p', (j) =>
      j
        .on('p.id', knex.raw('case when a.type = ? then n.process_id else a.component_id end', ['NODE']))
        .andOn('a.component_id', '<>', knex.raw('?', [GLOBAL_COMPONENT_ID])),
    )
    .orderBy('a.id')
    .select(
      'a.id',
      'a.component_id as componentId',
      'a.type',
      'a.mode',
      'n.name as nodeName',
      'p.id as processId',
      'p.name as processName',
    );
  return rows.map((r) => ({
    id: Number(r.id),
    componentId: Number(r.componentId),
    type: r.type,
    mode: r.mode,
    componentName: r.type === 'NODE' ? (r.nodeName ?? null) : (r.processName ?? null),
    processId: r.processId === null ? null : Number(r.processId),
    processName: r.processName ?? null,
  }));
}

/**
 * The indexes (in `list`) of authorities naming a process or node that does not exist (the global
 * permission always exists).
 */
export async function missingComponents(knex: Knex, list: readonly AuthorityInput[]): Promise<number[]> {
  const ids = (type: string) =>
    list.filter((a) => a.type === type && a.componentId !== GLOBAL_COMPONENT_ID).map((a) => a.componentId);
  const [processes, nodes] = await Promise.all([
    ids('PROCESS').length ? knex('processes').whereIn('id', ids('PROCESS')).pluck('id') : [],
    ids('NODE').length ? knex('nodes').whereIn('id', ids('NODE')).pluck('id') : [],
  ]);
  const found = { PROCESS: new Set(processes.map(Number)), NODE: new Set(nodes.map(Number)) };
  return list.flatMap((a, i) =>
    a.componentId === GLOBAL_COMPONENT_ID || found[a.type].has(a.componentId) ? [] : [i],
  );
}

/** The ids of the authority rows for `list` (created when missing). */
async function authorityIds(trx: Knex, list: readonly AuthorityInput[]): Promise<number[]> {
  const unique = [...new Map(list.map((a) => [authorityKey(a), a])).values()];
  if (!unique.length) return [];
  const rows = unique.map((a) => ({ component_id: a.componentId, type: a.type, mode: a.mode }));
  await trx('authorities').insert(rows).onConflict(['component_id', 'type', 'mode']).ignore();
  const found = await trx('authorities')
    .where((q) => {
      for (const r of rows) q.orWhere(r);
    })
    .pluck('id');
  return found.map(Number);
}

/** The ids of the named roles; unknown names are reported by the route before this runs. */
async function roleIds(trx: Knex, names: readonly string[]): Promise<number[]> {
  return names.length
    ? (
        await trx('roles')
          .whereIn('name', [...new Set(names)])
          .pluck('id')
      ).map(Number)
    : [];
}

/** Role names that do not exist. */
export async function unknownRoles(knex: Knex, names: readonly string[]): Promise<string[]> {
  const known = new Set<string>(names.length ? await knex('roles').whereIn('name', names).pluck('name') : []);
  return names.filter((n) => !known.has(n));
}

/** Locks the admin role row: changes that could remove an administrator run one at a time. */
async function lockAdmins(trx: Knex): Promise<void> {
  await trx('roles').where({ name: Roles.ADMIN }).forUpdate().first('id');
}

/** Activated administrators other than `exceptId`. */
async function otherActiveAdmins(trx: Knex, exceptId: number): Promise<number> {
  const [{ count }] = await trx('users as u')
    .join('user_roles as ur', 'ur.user_id', 'u.id')
    .join('roles as r', 'r.id', 'ur.role_id')
    .where('r.name', Roles.ADMIN)
    .andWhere('u.activated', true)
    .andWhereNot('u.id', exceptId)
    .count({ count: '*' });
  return Number(count);
}

const activeAdmin = (u: { activated: boolean; roles: readonly string[] }) =>
  u.activated && u.roles.includes(Roles.ADMIN);

/** Bumps the token version of the users (not the actor's own: see the module header). */
async function revokeMany(trx: Knex, userIds: readonly number[], actor: AuthUser): Promise<void> {
  const ids = userIds.filter((id) => id !== actor.id);
  if (ids.length)
    await trx('users')
      .whereIn('id', ids)
      .update({ token_version: trx.raw('token_version + 1') });
}

const grantsOf = (u: Pick<AdminUserDTO, 'roles' | 'authorities'>) => ({
  roles: [...u.roles].sort(),
  authorities: u.authorities.map(authorityKey).sort(),
});

async function setUserGrants(trx: Knex, userId: number, input: UserInput): Promise<void> {
  await trx('user_roles').where({ user_id: userId }).del();
  const roles = await roleIds(trx, input.roles);
  if (roles.length) await trx('user_roles').insert(roles.map((role_id) => ({ user_id: userId, role_id })));
  await trx('user_authorities').where({ user_id: userId }).del();
  const auths = await authorityIds(trx, input.authorities);
  if (auths.length)
    await trx('user_authorities').insert(auths.map((authority_id) => ({ user_id: userId, authority_id })));
}

async function assertFree(trx: Knex, login: string, email: string, exceptId?: number): Promise<void> {
  const others = (q: Knex.QueryBuilder) => (exceptId === undefined ? q : q.whereNot('id', exceptId));
  if (await others(trx('users').where({ login })).first('id')) throw appError('error.userexists', ENTITY);
  if (await others(trx('users').whereRaw('lower(email) = ?', [email])).first('id'))
    throw appError('error.emailexists', ENTITY);
}

export function createUserAdmin({ knex, config, mailer }: UserAdminDeps) {
  const audit = (actor: AuthUser, type: string, data: Record<string, unknown>) =>
    recordAudit({ knex, config }, { principal: actor.login, type, data });

  return {
    /**
     * Creates a user. With a password it is set; without one (JHipster's way) the user gets a mail with a
     * link to choose it (the password-reset link, valid 24 hours).
     */
    async createUser(actor: AuthUser, input: UserInput): Promise<AdminUserDTO> {
      const login = input.login.toLowerCase();
      const email = input.email.toLowerCase();
      const resetKey = input.password ? null : randomKey();
      const passwordHash = await hashPassword(input.password ?? randomKey(32));
      const id = await knex
        .transaction(async (trx) => {
          await assertFree(trx, login, email);
          const [row] = await trx('users')
            .insert({
              login,
              email,
              password_hash: passwordHash,
              first_name: input.firstName,
              last_name: input.lastName,
              activated: input.activated,
              lang_key: input.langKey,
              reset_key: resetKey,
              reset_date: resetKey ? trx.fn.now() : null,
              created_by: actor.login,
              last_modified_by: actor.login,
              last_modified_date: trx.fn.now(),
            })
            .returning('id');
          await setUserGrants(trx, row.id, input);
          return Number(row.id);
        })
        .catch(rethrowTaken);
      const created = (await findUser(knex, id))!;
      await audit(actor, AuditTypes.USER_CREATED, { login, ...grantsOf(created) });
      if (resetKey)
        await mailer.send(
          accountMail('creation', input.langKey, email, {
            login,
            link: `${config.baseUrl.replace(/\/+$/, '')}/lp/reset/finish/${resetKey}`,
            appName: config.appName,
          }),
        );
      return created;
    },

    async updateUser(actor: AuthUser, id: number, input: UserInput): Promise<AdminUserDTO> {
      const login = input.login.toLowerCase();
      const email = input.email.toLowerCase();
      const before = await knex
        .transaction(async (trx) => {
          await lockAdmins(trx);
          const current = await findUser(trx, id);
          if (!current) throw notFound('user');
          if (id === actor.id) {
            if (current.roles.includes(Roles.ADMIN) && !input.roles.includes(Roles.ADMIN))
              throw appError('error.ownadminrole', ENTITY);
            if (!input.activated) throw appError('error.ownaccount', ENTITY);
          }
          if (activeAdmin(current) && !activeAdmin(input) && (await otherActiveAdmins(trx, id)) === 0)
            throw appError('error.lastadmin', ENTITY);
          await assertFree(trx, login, email, id);
          await trx('users').where({ id }).update({
            login,
            email,
            first_name: input.firstName,
            last_name: input.lastName,
            activated: input.activated,
            lang_key: input.langKey,
            last_modified_by: actor.login,
            last_modified_date: trx.fn.now(),
          });
          await setUserGrants(trx, id, input);
          const after = (await findUser(trx, id))!;
          const changed =
            JSON.stringify(grantsOf(current)) !== JSON.stringify(grantsOf(after)) ||
            current.activated !== after.activated;
          if (changed) await revokeMany(trx, [id], actor);
          return changed ? current : null;
        })
        .catch(rethrowTaken);
      const after = (await findUser(knex, id))!;
      if (before)
        await audit(actor, AuditTypes.USER_ACCESS_CHANGED, {
          login: after.login,
          before: { ...grantsOf(before), activated: before.activated },
          after: { ...grantsOf(after), activated: after.activated },
        });
      return after;
    },

    async deleteUser(actor: AuthUser, id: number): Promise<AdminUserDTO> {
      const deleted = await knex.transaction(async (trx) => {
        await lockAdmins(trx);
        const current = await findUser(trx, id);
        if (!current) throw notFound('user');
        if (id === actor.id) throw appError('error.ownaccount', ENTITY);
        if (activeAdmin(current) && (await otherActiveAdmins(trx, id)) === 0)
          throw appError('error.lastadmin', ENTITY);
        // Rows that name the user (assignees, steps, blocks) keep their history through ON DELETE rules.
        await trx('users').where({ id }).del();
        return current;
      });
      await audit(actor, AuditTypes.USER_DELETED, { login: deleted.login, ...grantsOf(deleted) });
      return deleted;
    },

    async listRoles(): Promise<RoleDTO[]> {
      const rows = await knex('roles as r')
        .orderBy('r.id')
        .select(
          'r.id',
          'r.name',
          knex.raw(`coalesce((select json_agg(${AUTHORITY_JSON} order by a.id) from authorities a
             join role_authorities ra on ra.authority_id = a.id where ra.role_id = r.id), '[]') as authorities`),
        );
      return rows.map((r) => ({
        id: Number(r.id),
        name: r.name,
        builtIn: isBuiltInRole(r.name),
        authorities: (r.authorities as AuthorityDTO[]).map((a) => ({ ...a, id: Number(a.id) })),
      }));
    },

    async findRole(id: number): Promise<RoleDTO | null> {
      return (await this.listRoles()).find((r) => r.id === id) ?? null;
    },

    async createRole(actor: AuthUser, input: RoleInput): Promise<RoleDTO> {
      const id = await knex.transaction(async (trx) => {
        if (await trx('roles').where({ name: input.name }).first('id'))
          throw appError('error.roleexists', ENTITY);
        const [row] = await trx('roles').insert({ name: input.name }).returning('id');
        const auths = await authorityIds(trx, input.authorities);
        if (auths.length)
          await trx('role_authorities').insert(
            auths.map((authority_id) => ({ role_id: row.id, authority_id })),
          );
        return Number(row.id);
      });
      const role = (await this.findRole(id))!;
      await audit(actor, AuditTypes.ROLE_CREATED, {
        name: role.name,
        authorities: grantsOf({ roles: [], authorities: role.authorities }).authorities,
      });
      return role;
    },

    /** Renames a custom role and sets its authorities; the holders lose their sessions when they change. */
    async updateRole(actor: AuthUser, id: number, input: RoleInput): Promise<RoleDTO> {
      const before = await this.findRole(id);
      if (!before) throw notFound('role');
      if (before.builtIn && before.name !== input.name) throw appError('error.rolebuiltin', ENTITY);
      await knex.transaction(async (trx) => {
        if (await trx('roles').where({ name: input.name }).whereNot({ id }).first('id'))
          throw appError('error.roleexists', ENTITY);
        await trx('roles').where({ id }).update({ name: input.name });
        await trx('role_authorities').where({ role_id: id }).del();
        const auths = await authorityIds(trx, input.authorities);
        if (auths.length)
          await trx('role_authorities').insert(auths.map((authority_id) => ({ role_id: id, authority_id })));
        const holders = await trx('user_roles').where({ role_id: id }).pluck('user_id');
        await revokeMany(trx, holders.map(Number), actor);
      });
      const after = (await this.findRole(id))!;
      const keys = (r: RoleDTO) => r.authorities.map(authorityKey).sort();
      await audit(actor, AuditTypes.ROLE_UPDATED, {
        name: after.name,
        before: { name: before.name, authorities: keys(before) },
        after: { name: after.name, authorities: keys(after) },
      });
      return after;
    },

    async deleteRole(actor: AuthUser, id: number): Promise<RoleDTO> {
      const role = await this.findRole(id);
      if (!role) throw notFound('role');
      if (role.builtIn) throw appError('error.rolebuiltin', ENTITY);
      await knex.transaction(async (trx) => {
        const holders = await trx('user_roles').where({ role_id: id }).pluck('user_id');
        await revokeMany(trx, holders.map(Number), actor);
        await trx('roles').where({ id }).del();
      });
      await audit(actor, AuditTypes.ROLE_DELETED, { name: role.name });
      return role;
    },

    /** The authority row for a mode on a component (created when missing: 201, else 200 with the row). */
    async createAuthority(
      actor: AuthUser,
      input: AuthorityInput,
    ): Promise<{ authority: AuthorityDTO; created: boolean }> {
      const existing = await knex('authorities')
        .where({ component_id: input.componentId, type: input.type, mode: input.mode })
        .first('id');
      const [id] = existing ? [Number(existing.id)] : await authorityIds(knex, [input]);
      const authority = { id, ...input };
      if (!existing) await audit(actor, AuditTypes.AUTHORITY_CREATED, { authority: authorityKey(input) });
      return { authority, created: !existing };
    },

    /** Deletes an authority: every user and role holding it loses it (and the users their sessions). */
    async deleteAuthority(actor: AuthUser, id: number): Promise<void> {
      const authority = await knex('authorities').where({ id }).first();
      if (!authority) throw notFound('authority');
      const key = authorityKey({
        componentId: Number(authority.component_id),
        type: authority.type,
        mode: authority.mode,
      });
      await knex.transaction(async (trx) => {
        const own = await trx('user_authorities').where({ authority_id: id }).pluck('user_id');
        const viaRoles = await trx('user_roles as ur')
          .join('role_authorities as ra', 'ra.role_id', 'ur.role_id')
          .where('ra.authority_id', id)
          .pluck('ur.user_id');
        await revokeMany(trx, [...own, ...viaRoles].map(Number), actor);
        await trx('authorities').where({ id }).del();
      });
      await audit(actor, AuditTypes.AUTHORITY_DELETED, { authority: key });
    },
  };
}

export type UserAdmin = ReturnType<typeof createUserAdmin>;
