/** The `http_logs` table (migration 021): batched inserts, a page newest first, retention delete. */
import type { Knex } from 'knex';
import type { HttpLogDTO } from '../../domain/api-types';

export type HttpLogRow = HttpLogDTO;
/** An entry to write: a row without its id, at a Date. */
export type HttpLogEntry = Omit<HttpLogDTO, 'id' | 'time'> & { time: Date };

const COLUMNS = [
  'id',
  'time',
  'method',
  'path',
  'route',
  'status',
  'duration_ms as durationMs',
  'principal',
  'remote_address as remoteAddress',
  'request_id as requestId',
  'user_agent as userAgent',
];

export async function insertHttpLogs(knex: Knex, entries: HttpLogEntry[]): Promise<void> {
  if (!entries.length) return;
  await knex('http_logs').insert(
    entries.map((e) => ({
      time: e.time,
      method: e.method,
      path: e.path.slice(0, 2000),
      route: e.route?.slice(0, 300) ?? null,
      status: e.status,
      duration_ms: e.durationMs,
      principal: e.principal,
      remote_address: e.remoteAddress?.slice(0, 100) ?? null,
      request_id: e.requestId,
      user_agent: e.userAgent?.slice(0, 300) ?? null,
    })),
  );
}

/** One page, newest (highest id) first, and the total. */
export async function httpLogPage(
  knex: Knex,
  page: number,
  size: number,
): Promise<{ rows: HttpLogRow[]; total: number }> {
  const [rows, count] = await Promise.all([
    knex('http_logs')
      .orderBy('id', 'desc')
      .offset(page * size)
      .limit(size)
      .select(COLUMNS),
    knex('http_logs').count<{ count: string }[]>('* as count'),
  ]);
  return {
    rows: rows.map((r: HttpLogRow & { time: Date | string }) => ({
      ...r,
      id: Number(r.id),
      time: new Date(r.time).toISOString(),
    })),
    total: Number(count[0].count),
  };
}

/** Deletes the entries older than the retention; returns how many. */
export async function deleteHttpLogsBefore(knex: Knex, before: Date): Promise<number> {
  return knex('http_logs').where('time', '<', before).delete();
}
