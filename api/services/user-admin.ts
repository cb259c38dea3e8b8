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
import type { AdminUserDTO, AuthorityDTO, RoleDTO } from '../../domain/api-types';
import { Roles } from '../../domain/enums';
import { authorityKey, isBuiltInRole, type AuthorityInput, type UserInput } from '../../domain/user-admin';
import {
  adminUser as findUser,
  bumpTokenVersions,
  deleteUsers,
  insertUser,
  otherActiveAdmins,
  replaceUserGrants,
  updateUserRow,
  userIdByEmail,
  userIdByLogin,
} from '../../db/queries/users';
import {
  authorityById,
  authorityHolders,
  authorityIdOf,
  authorityIds,
  deleteAuthorityRow,
  deleteRoleRow,
  insertRole,
  lockAdminRole,
  roleHolders,
  roleIdByName,
  roleIds,
  rolesWithAuthorities,
  updateRoleRow,
} from '../../db/queries/roles';
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

// The reads are the tables' (db/queries/users.ts, roles.ts); the routes reach them here.
export { adminUserPage as listUsers, adminUser as findUser } from '../../db/queries/users';
export { listAuthorities, missingComponents, unknownRoles } from '../../db/queries/roles';

export interface RoleInput {
  name: string;
  authorities: AuthorityInput[];
}

const activeAdmin = (u: { activated: boolean; roles: readonly string[] }) =>
  u.activated && u.roles.includes(Roles.ADMIN);

/** Bumps the token version of the users (not the actor's own: see the module header). */
async function revokeMany(trx: Knex, userIds: readonly number[], actor: AuthUser): Promise<void> {
  await bumpTokenVersions(
    trx,
    userIds.filter((id) => id !== actor.id),
  );
}

const grantsOf = (u: Pick<AdminUserDTO, 'roles' | 'authorities'>) => ({
  roles: [...u.roles].sort(),
  authorities: u.authorities.map(authorityKey).sort(),
});

async function setUserGrants(trx: Knex, userId: number, input: UserInput): Promise<void> {
  await replaceUserGrants(
    trx,
    userId,
    await roleIds(trx, input.roles),
    await authorityIds(trx, input.authorities),
  );
}

async function assertFree(trx: Knex, login: string, email: string, exceptId?: number): Promise<void> {
  if ((await userIdByLogin(trx, login, exceptId)) !== undefined) throw appError('error.userexists', ENTITY);
  if ((await userIdByEmail(trx, email, exceptId)) !== undefined) throw appError('error.emailexists', ENTITY);
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
          const userId = await insertUser(trx, {
            login,
            email,
            passwordHash,
            firstName: input.firstName,
            lastName: input.lastName,
            activated: input.activated,
            langKey: input.langKey,
            resetKey,
            createdBy: actor.login,
            lastModifiedBy: actor.login,
          });
          await setUserGrants(trx, userId, input);
          return userId;
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
          await lockAdminRole(trx);
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
          await updateUserRow(trx, id, {
            login,
            email,
            firstName: input.firstName,
            lastName: input.lastName,
            activated: input.activated,
            langKey: input.langKey,
            by: actor.login,
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
        await lockAdminRole(trx);
        const current = await findUser(trx, id);
        if (!current) throw notFound('user');
        if (id === actor.id) throw appError('error.ownaccount', ENTITY);
        if (activeAdmin(current) && (await otherActiveAdmins(trx, id)) === 0)
          throw appError('error.lastadmin', ENTITY);
        // Rows that name the user (assignees, steps, blocks) keep their history through ON DELETE rules.
        await deleteUsers(trx, [id]);
        return current;
      });
      await audit(actor, AuditTypes.USER_DELETED, { login: deleted.login, ...grantsOf(deleted) });
      return deleted;
    },

    async listRoles(): Promise<RoleDTO[]> {
      return (await rolesWithAuthorities(knex)).map((r) => ({ ...r, builtIn: isBuiltInRole(r.name) }));
    },

    async findRole(id: number): Promise<RoleDTO | null> {
      return (await this.listRoles()).find((r) => r.id === id) ?? null;
    },

    async createRole(actor: AuthUser, input: RoleInput): Promise<RoleDTO> {
      const id = await knex.transaction(async (trx) => {
        if ((await roleIdByName(trx, input.name)) !== undefined) throw appError('error.roleexists', ENTITY);
        return insertRole(trx, input.name, await authorityIds(trx, input.authorities));
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
        if ((await roleIdByName(trx, input.name, id)) !== undefined)
          throw appError('error.roleexists', ENTITY);
        await updateRoleRow(trx, id, input.name, await authorityIds(trx, input.authorities));
        await revokeMany(trx, await roleHolders(trx, id), actor);
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
        await revokeMany(trx, await roleHolders(trx, id), actor);
        await deleteRoleRow(trx, id);
      });
      await audit(actor, AuditTypes.ROLE_DELETED, { name: role.name });
      return role;
    },

    /** The authority row for a mode on a component (created when missing: 201, else 200 with the row). */
    async createAuthority(
      actor: AuthUser,
      input: AuthorityInput,
    ): Promise<{ authority: AuthorityDTO; created: boolean }> {
      const existing = await authorityIdOf(knex, input);
      const [id] = existing !== undefined ? [existing] : await authorityIds(knex, [input]);
      const authority = { id, ...input };
      if (existing === undefined)
        await audit(actor, AuditTypes.AUTHORITY_CREATED, { authority: authorityKey(input) });
      return { authority, created: existing === undefined };
    },

    /** Deletes an authority: every user and role holding it loses it (and the users their sessions). */
    async deleteAuthority(actor: AuthUser, id: number): Promise<void> {
      const authority = await authorityById(knex, id);
      if (!authority) throw notFound('authority');
      const key = authorityKey(authority);
      await knex.transaction(async (trx) => {
        await revokeMany(trx, await authorityHolders(trx, id), actor);
        await deleteAuthorityRow(trx, id);
      });
      await audit(actor, AuditTypes.AUTHORITY_DELETED, { authority: key });
    },
  };
}

export type UserAdmin = ReturnType<typeof createUserAdmin>;
