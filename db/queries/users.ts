/** Users as other rows refer to them (a document's assignees, the user working on a step or blocking a document). */
import type { Knex } from 'knex';
import { qualify } from './columns';

export interface UserRef {
  id: number;
  login: string;
  firstName: string | null;
  lastName: string | null;
  email: string;
}

export const USER_REF_COLUMNS = ['id', 'login', 'first_name as firstName', 'last_name as lastName', 'email'];

export async function userRef(knex: Knex, id: number): Promise<UserRef | undefined> {
  return knex('users as u').where('u.id', id).first(qualify('u', USER_REF_COLUMNS));
}
