/** The audits table (migration 020): audit events written by the API, listed by date range, purged by age. */
import type { Knex } from 'knex';
import type { AuditDTO } from '../../domain/api-types';

export async function insertAudit(
  knex: Knex,
  event: { principal: string; type: string; data: Record<string, unknown> },
): Promise<void> {
  await knex('audits').insert({ ...event, data: JSON.stringify(event.data) });
}

/** Deletes the events older than `days` days; returns how many. */
export async function purgeExpiredAudits(knex: Knex, days: number): Promise<number> {
  return knex('audits')
    .where('date', '<', knex.raw(`now() - make_interval(days => ?)`, [days]))
    .del();
}

export interface AuditQuery {
  /** inclusive, start of that day (UTC) */
  fromDate?: string;
  /** inclusive: events of that whole day (UTC) */
  toDate?: string;
  page: number;
  size: number;
  /** columns of the audits table */
  sort: { column: string; desc: boolean }[];
}

/** A page of events in the date range and the total of the range. */
export async function auditPage(knex: Knex, q: AuditQuery): Promise<{ rows: AuditDTO[]; total: number }> {
  const inRange = (b: Knex.QueryBuilder) => {
    if (q.fromDate) b.where('date', '>=', knex.raw(`?::date`, [q.fromDate]));
    if (q.toDate) b.where('date', '<', knex.raw(`?::date + 1`, [q.toDate]));
    return b;
  };
  const [{ count }] = await inRange(knex('audits')).count({ count: '*' });
  const list = inRange(knex('audits')).select('id', 'principal', 'type', 'date', 'data');
  for (const s of q.sort) list.orderBy(s.column, s.desc ? 'desc' : 'asc');
  if (!q.sort.some((s) => s.column === 'id')) list.orderBy('id', q.sort[0]?.desc ? 'desc' : 'asc');
  const rows = await list.limit(q.size).offset(q.page * q.size);
  return {
    total: Number(count),
    rows: rows.map((r: Record<string, any>) => ({
      id: Number(r.id),
      principal: r.principal,
      type: r.type,
      timestamp: new Date(r.date).toISOString(),
      data: r.data ?? {},
    })),
  };
}
