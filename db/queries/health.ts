/** The database's liveness probe. */
import type { Knex } from 'knex';

/** True when the database answers a query; throws its error when it does not. */
export async function databaseAnswers(knex: Knex): Promise<true> {
  await knex.raw('select 1');
  return true;
}
