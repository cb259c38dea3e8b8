/**
 * Statistics (issue 16 section 1; spec 3 sections 2, 3, 5, 6 and 9; docs/api-statistics.md):
 * - `POST api/statistics`: WORK_TIMER, TAG_USAGE or NODE_ACTIVITY of a process over days of the caller's
 *   zone (ADMIN on the process), answered from the rollups of migration 023;
 * - `POST api/work-time`: the workspace's report of a stretch of active work of the signed-in user on a step
 *   (READ on the step's node), kept as one growing row per clientId.
 * Refusals are field errors (400) with the keys of domain/statistics.ts.
 */
import { NO_CONTENT, route, type Route } from '../route';
import { id as intId } from '../responses';

import { inBody, onNode, onProcess } from './access';
import { z } from 'zod';
import {
  documentsOfViolations,
  isZoneId,
  statisticsRangeViolations,
  workTimeReportRule,
} from '../../domain/statistics';
import { STATISTICS_TYPES, type StatisticsAnswer } from '../../domain/statistics-types';
import { nodeIdsOfProcess } from '../../db/queries/nodes';
import { knownZone } from '../../db/queries/statistics';
import { stepNode } from '../../db/queries/steps';
import type { AppDeps } from '../app';
import { assertNodeMode, assertProcessMode, currentUser, unreachable } from '../auth';
import { fieldErrors, violationErrors } from '../errors';
import { findProcess } from '../services/processes';
import { reportWorkTime, statistics } from '../services/statistics';
import { MAX_ID } from '../validate';

const id = z.number().int().min(1).max(MAX_ID);
const ids = z.array(id).max(1000).nullish();

export const statisticsSchema = z.object({
  type: z.enum(STATISTICS_TYPES),
  processId: id,
  dateFrom: z.string().max(10),
  dateTo: z.string().max(10),
  zoneId: z.string().min(1).max(64),
  nodeIds: ids,
  userIds: ids,
  documentsOf: z.object({ nodeId: id, date: z.string().max(10) }).nullish(),
});

export const workTimeSchema = z.object({
  clientId: z
    .string()
    .min(8)
    .max(64)
    .regex(/^[A-Za-z0-9-]+$/),
  stepId: id,
  startTime: z.string().max(40),
  endTime: z.string().max(40),
});

const K = 'soaApp.statistics.errors';
const statisticsUser = z.object({
  id: intId,
  login: z.string(),
  firstName: z.string().nullable(),
  lastName: z.string().nullable(),
});
const counts = z.record(z.string(), z.number());
/** One answer per statistics type (domain/statistics-types.ts StatisticsAnswer). */
const statisticsAnswer = z.discriminatedUnion('type', [
  z.object({
    type: z.literal('WORK_TIMER'),
    users: z.array(statisticsUser),
    rows: z.array(
      z.object({
        userId: intId,
        nodeId: intId,
        stepId: intId,
        documentId: intId,
        startTime: z.string(),
        endTime: z.string(),
        time: z.number(),
      }),
    ),
    rowsTotal: z.number().int(),
    days: z.array(z.object({ date: z.string(), userId: intId, nodeId: intId, seconds: z.number() })),
  }),
  z.object({
    type: z.literal('TAG_USAGE'),
    users: z.array(statisticsUser),
    rows: z.array(z.object({ nodeId: intId, userId: intId, tagsCount: z.number().int(), time: z.string() })),
  }),
  z.object({
    type: z.literal('NODE_ACTIVITY'),
    rows: z.array(
      z.object({
        date: z.string(),
        nodeIdDocIdsMap: z.record(z.string(), z.array(intId)),
        nodeIdDocCountMap: counts,
        tagsPerDocAndNodeCompositeMap: counts,
        nodeIdTagCountMap: counts,
      }),
    ),
  }),
]) satisfies z.ZodType<StatisticsAnswer>;

export function statisticsRoutes({ knex }: AppDeps): Route[] {
  return [
    // --- statistics (issue 16 section 1; docs/api-statistics.md): the page needs ADMIN on the process (spec 3
    // section 6); the workspace reports a reader's work too, so READ on the step's node ---
    route(
      {
        method: 'POST',
        path: '/api/statistics',
        access: onProcess('ADMIN', inBody('processId', 'process')),
        body: { schema: statisticsSchema, object: 'statisticsQuery' },
        response: statisticsAnswer,
      },
      async (ctx, { body }) => {
        const user = currentUser(ctx);
        const input = body();
        assertProcessMode(user, input.processId, 'ADMIN');
        if (!(await findProcess(knex, input.processId))) throw unreachable(user, 'process');
        const violations = statisticsRangeViolations(input.dateFrom, input.dateTo);
        if (!isZoneId(input.zoneId) || !(await knownZone(knex, input.zoneId)))
          violations.push({ field: 'zoneId', code: 'Pattern', key: `${K}.zoneInvalid` });
        const nodeIds = input.nodeIds?.length ? [...new Set(input.nodeIds)] : null;
        const cell = input.documentsOf ?? null;
        const ofProcess = new Set(
          await nodeIdsOfProcess(knex, input.processId, [...(nodeIds ?? []), ...(cell ? [cell.nodeId] : [])]),
        );
        if (nodeIds?.some((n) => !ofProcess.has(n)))
          violations.push({ field: 'nodeIds', code: 'Pattern', key: `${K}.nodeNotInProcess` });
        if (cell) {
          const cellViolations = documentsOfViolations(input, cell);
          violations.push(...cellViolations);
          if (!cellViolations.length && !ofProcess.has(cell.nodeId))
            violations.push({ field: 'documentsOf', code: 'Pattern', key: `${K}.nodeNotInProcess` });
        }
        if (violations.length) throw violationErrors('statisticsQuery', violations);
        ctx.set('Cache-Control', 'no-store');
        ctx.body = await statistics(
          knex,
          input.type,
          {
            processId: input.processId,
            dateFrom: input.dateFrom,
            dateTo: input.dateTo,
            zoneId: input.zoneId,
            nodeIds,
            userIds: input.userIds?.length ? [...new Set(input.userIds)] : null,
          },
          cell,
        );
      },
    ),

    route(
      {
        method: 'POST',
        path: '/api/work-time',
        access: onNode('READ', inBody('stepId', 'step')),
        body: { schema: workTimeSchema, object: 'workTimeReport' },
        response: NO_CONTENT,
      },
      async (ctx, { body }) => {
        const user = currentUser(ctx);
        const input = body();
        const step = await stepNode(knex, input.stepId);
        if (!step) throw unreachable(user, 'step');
        assertNodeMode(user, step.nodeId, step.processId, 'READ');
        const stretch = workTimeReportRule(input.startTime, input.endTime, Date.now());
        if ('violations' in stretch) throw violationErrors('workTimeReport', stretch.violations);
        const recorded = await reportWorkTime(knex, {
          userId: user.id,
          clientId: input.clientId,
          stepId: step.id,
          nodeId: step.nodeId,
          processId: step.processId,
          documentId: step.documentId,
          start: new Date(stretch.start),
          end: new Date(stretch.end),
        });
        if (!recorded)
          throw fieldErrors('workTimeReport', [
            { field: 'clientId', violation: { code: 'Pattern', key: `${K}.stretchMismatch` } },
          ]);
        ctx.status = 204;
      },
    ),
  ];
}
