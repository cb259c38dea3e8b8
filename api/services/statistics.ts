/**
 * The answers of `POST api/statistics` (domain/statistics-types.ts) from the rollups read by
 * db/queries/statistics.ts, and the work-time report of the workspace.
 */
import type { Knex } from 'knex';
import { WORK_TIME_LIMITS } from '../../domain/statistics';
import type { NodeActivityCell, StatisticsAnswer, StatisticsType } from '../../domain/statistics-types';
import {
  nodeActivity,
  statisticsUsers,
  tagUsage,
  upsertWorkTime,
  workTimeDays,
  workTimeRows,
  type StatisticsScope,
  type WorkTimeInput,
} from '../../db/queries/statistics';

export async function statistics(
  knex: Knex,
  type: StatisticsType,
  scope: StatisticsScope,
  documentsOf: NodeActivityCell | null = null,
): Promise<StatisticsAnswer> {
  switch (type) {
    case 'WORK_TIMER': {
      const [days, { rows, total }] = await Promise.all([
        workTimeDays(knex, scope),
        workTimeRows(knex, scope, WORK_TIME_LIMITS.maxStretchMs),
      ]);
      const users = await statisticsUsers(
        knex,
        [...days, ...rows].map((r) => r.userId),
      );
      return { type, users, rows, rowsTotal: total, days };
    }
    case 'TAG_USAGE': {
      const rows = await tagUsage(knex, scope);
      return {
        type,
        users: await statisticsUsers(
          knex,
          rows.map((r) => r.userId),
        ),
        rows,
      };
    }
    case 'NODE_ACTIVITY':
      return { type, rows: await nodeActivity(knex, scope, documentsOf) };
  }
}

/** Records (or widens) the stretch; false when its clientId is taken by another stretch of the user. */
export const reportWorkTime = (knex: Knex, input: WorkTimeInput): Promise<boolean> =>
  upsertWorkTime(knex, input, WORK_TIME_LIMITS.maxStretchMs);
