/** Users as other rows refer to them (a document's assignees, the user working on a step or blocking a document). */
import type { Knex } from 'knex';
import { qualify } from './columns';

/** A user as other rows refer to them: the payload type the web shares (domain/document-state-types.ts). */
import type { UserRefDTO } from '../../domain/document-state-types';
export type UserRef = UserRefDTO;

export const USER_REF_COLUMNS = ['id', 'login', 'first_name as firstName', 'last_name as lastName', 'email'];

export async function userRef(knex: Knex, id: number): Promise<UserRef | undefined> {
  return knex('users as u').where('u.id', id).first(qualify('u', USER_REF_COLUMNS));
}
