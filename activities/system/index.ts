/** Activities of the system check: read the database from the worker. */
import type { Knex } from 'knex';
import { processCount } from '../../db/queries/processes';

export function createSystemActivities({ knex }: { knex: Knex }) {
  return {
    async countProcesses(): Promise<number> {
      return processCount(knex);
    },
  };
}
