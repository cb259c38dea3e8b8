/** The poller_status table (migration 008): the last poll of each upload node, written by the pollers. */
import type { Knex } from 'knex';
import type { PollerStatusDTO } from '../../domain/graph-types';

const iso = (d: Date | string | null) => (d === null ? null : new Date(d).toISOString());

/** The last poll of each of the nodes that was ever polled. */
export async function pollerStatuses(
  knex: Knex,
  nodeIds: readonly number[],
): Promise<Map<number, PollerStatusDTO>> {
  const out = new Map<number, PollerStatusDTO>();
  if (!nodeIds.length) return out;
  for (const r of await knex('poller_status').whereIn('node_id', [...nodeIds])) {
    out.set(Number(r.node_id), {
      lastRunDate: iso(r.last_run_date),
      lastSuccessDate: iso(r.last_success_date),
      lastImported: Number(r.last_imported),
      lastError: r.last_error,
      lastErrorDate: iso(r.last_error_date),
    });
  }
  return out;
}
