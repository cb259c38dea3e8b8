/** Activities of the system check: read the database from the worker. */
import type { Knex } from 'knex';

export function createSystemActivities({ knex }: { knex: Knex }) {
  return {
    async countProcesses(): Promise<number> {
      const row = await knex('processes').count<{ count: string }[]>('* as count').first();
      return Number(row?.count ?? 0);
    },
  };
}
