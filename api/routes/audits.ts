/**
 * Audit events for administrators (spec 1 section 7: `GET management/audits` with page, size, sort and an
 * optional `fromDate` and `toDate`, both `YYYY-MM-DD` and inclusive, in UTC; total in X-Total-Count).
 * Events are written by api/services/audits.ts `recordAudit`.
 */
import { route, type Route } from '../route';
import { z } from 'zod';
import { id } from '../responses';
import type { AuditDTO } from '../../domain/api-types';

import { ADMIN_ROLE } from './access';
import type { AppDeps } from '../app';
import { assertRole } from '../auth';
import { badRequest } from '../errors';
import { pageRequest, setTotal } from '../paging';
import { AUDIT_SORTS, listAudits } from '../services/audits';
import { Roles } from '../../domain/enums';

export const AUDITS_PAGE_SIZE = 20;
const DATE = /^\d{4}-\d{2}-\d{2}$/;

function dateParam(value: string | string[] | undefined, name: string): string | undefined {
  const v = Array.isArray(value) ? value[0] : value;
  if (v === undefined || v === '') return undefined;
  if (!DATE.test(v) || Number.isNaN(Date.parse(`${v}T00:00:00Z`)))
    throw badRequest(`${name} must be a date as YYYY-MM-DD`);
  return v;
}

const auditDto = z.object({
  id,
  principal: z.string(),
  type: z.string(),
  timestamp: z.string(),
  data: z.record(z.string(), z.unknown()),
}) satisfies z.ZodType<AuditDTO>;

export function auditRoutes({ knex }: AppDeps): Route[] {
  return [
    route(
      { method: 'GET', path: '/management/audits', access: ADMIN_ROLE, response: z.array(auditDto) },
      async (ctx) => {
        assertRole(ctx, Roles.ADMIN);
        const paging = pageRequest(ctx.query, {
          defaultSize: AUDITS_PAGE_SIZE,
          sorts: AUDIT_SORTS,
          defaultSort: 'auditEventDate,desc',
        });
        const { rows, total } = await listAudits(knex, {
          ...paging,
          fromDate: dateParam(ctx.query.fromDate, 'fromDate'),
          toDate: dateParam(ctx.query.toDate, 'toDate'),
        });
        setTotal(ctx, total);
        ctx.body = rows;
      },
    ),
  ];
}
