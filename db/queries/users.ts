/** Users as other rows refer to them (a document's assignees, the user working on a step or blocking a document). */
import type { Knex } from 'knex';
import { Roles } from '../../domain/enums';
import { qualify } from './columns';

/** A user as other rows refer to them: the payload type the web shares (domain/document-state-types.ts). */
import type { UserRefDTO } from '../../domain/document-state-types';
export type UserRef = UserRefDTO;

export const USER_REF_COLUMNS = ['id', 'login', 'first_name as firstName', 'last_name as lastName', 'email'];

export async function userRef(knex: Knex, id: number): Promise<UserRef | undefined> {
  return knex('users as u').where('u.id', id).first(qualify('u', USER_REF_COLUMNS));
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
