/**
 * Roles and authorities (JHipster's): roles with their authorities (role_authorities), authorities as
 * (component, type, mode) rows, and who holds them (user_roles, user_authorities). The rules of their
 * administration are api/services/user-admin.ts's.
 */
import type { Knex } from 'knex';
import type { AuthorityDTO, AuthorityViewDTO } from '../../domain/api-types';
import { GLOBAL_COMPONENT_ID, Roles } from '../../domain/enums';
import { authorityKey, type AuthorityInput } from '../../domain/user-admin';
import { AUTHORITY_JSON } from './users';

// --- roles ---

export interface RoleRow {
  id: number;
  name: string;
  authorities: AuthorityDTO[];
}

/** Every role with its authorities, by id. */
export async function rolesWithAuthorities(knex: Knex): Promise<RoleRow[]> {
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
    authorities: (r.authorities as AuthorityDTO[]).map((a) => ({ ...a, id: Number(a.id) })),
  }));
}

/** The ids of the named roles; unknown names are reported by the route before this runs. */
export async function roleIds(trx: Knex, names: readonly string[]): Promise<number[]> {
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
export async function lockAdminRole(trx: Knex): Promise<void> {
  await trx('roles').where({ name: Roles.ADMIN }).forUpdate().first('id');
}

/** The id of a role with the name, other than `exceptId`. */
export async function roleIdByName(knex: Knex, name: string, exceptId?: number): Promise<number | undefined> {
  const q = knex('roles').where({ name });
  if (exceptId !== undefined) q.whereNot({ id: exceptId });
  return (await q.first('id'))?.id;
}

/** Inserts a role with its authorities; its id. */
export async function insertRole(knex: Knex, name: string, authorityIds: readonly number[]): Promise<number> {
  const [row] = await knex('roles').insert({ name }).returning('id');
  const id = Number(row.id);
  if (authorityIds.length)
    await knex('role_authorities').insert(
      authorityIds.map((authority_id) => ({ role_id: id, authority_id })),
    );
  return id;
}

/** Renames a role and makes its authorities exactly these. */
export async function updateRoleRow(
  knex: Knex,
  id: number,
  name: string,
  authorityIds: readonly number[],
): Promise<void> {
  await knex('roles').where({ id }).update({ name });
  await knex('role_authorities').where({ role_id: id }).del();
  if (authorityIds.length)
    await knex('role_authorities').insert(
      authorityIds.map((authority_id) => ({ role_id: id, authority_id })),
    );
}

export async function deleteRoleRow(knex: Knex, id: number): Promise<void> {
  await knex('roles').where({ id }).del();
}

/** The users holding the role. */
export async function roleHolders(knex: Knex, roleId: number): Promise<number[]> {
  return (await knex('user_roles').where({ role_id: roleId }).pluck('user_id')).map(Number);
}

/** Gives the user the USER role (a self-registered account). */
export async function grantUserRole(knex: Knex, userId: number): Promise<void> {
  const role = await knex('roles').where({ name: Roles.USER }).first('id');
  await knex('user_roles').insert({ user_id: userId, role_id: role.id });
}

// --- authorities ---

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
export async function authorityIds(trx: Knex, list: readonly AuthorityInput[]): Promise<number[]> {
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

export async function authorityById(knex: Knex, id: number): Promise<AuthorityDTO | undefined> {
  const row = await knex('authorities').where({ id }).first('id', 'component_id', 'type', 'mode');
  return row && { id: Number(row.id), componentId: Number(row.component_id), type: row.type, mode: row.mode };
}

/** The authorities with the given ids (those that exist). */
export async function authoritiesByIds(knex: Knex, ids: readonly number[]): Promise<AuthorityDTO[]> {
  const rows = await knex('authorities')
    .whereIn('id', [...ids])
    .select('id', 'component_id', 'type', 'mode');
  return rows.map((r) => ({
    id: Number(r.id),
    componentId: Number(r.component_id),
    type: r.type,
    mode: r.mode,
  }));
}

/** The id of the authority row of a mode on a component, if it exists. */
export async function authorityIdOf(knex: Knex, a: AuthorityInput): Promise<number | undefined> {
  const row = await knex('authorities')
    .where({ component_id: a.componentId, type: a.type, mode: a.mode })
    .first('id');
  return row ? Number(row.id) : undefined;
}

/** The users holding the authority, themselves or through a role. */
export async function authorityHolders(knex: Knex, id: number): Promise<number[]> {
  const own = await knex('user_authorities').where({ authority_id: id }).pluck('user_id');
  const viaRoles = await knex('user_roles as ur')
    .join('role_authorities as ra', 'ra.role_id', 'ur.role_id')
    .where('ra.authority_id', id)
    .pluck('ur.user_id');
  return [...own, ...viaRoles].map(Number);
}

export async function deleteAuthorityRow(knex: Knex, id: number): Promise<void> {
  await knex('authorities').where({ id }).del();
}
