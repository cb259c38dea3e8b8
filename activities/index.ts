/** All activities, built by a factory from their dependencies (no hard-coded hosts). */
import type { Knex } from 'knex';
import { createSystemActivities } from './system';

export interface ActivityDeps {
  knex: Knex;
}

export function createActivities(deps: ActivityDeps) {
  return {
    ...createSystemActivities(deps),
  };
}

export type Activities = ReturnType<typeof createActivities>;
