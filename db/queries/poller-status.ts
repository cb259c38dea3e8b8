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

/** Records a poll of the node; a failed poll keeps the date of the last success. False when the node is gone. */
export async function recordPoll(
  knex: Knex,
  nodeId: number,
  poll: { started: Date; imported: number; error: string | null },
): Promise<boolean> {
  const { started, imported, error } = poll;
  try {
    await knex('poller_status')
      .insert({
        node_id: nodeId,
        last_run_date: started,
        last_imported: imported,
        last_success_date: error ? null : started,
        last_error: error,
        last_error_date: error ? started : null,
      })
      .onConflict('node_id')
      .merge(
        error
          ? ['last_run_date', 'last_imported', 'last_error', 'last_error_date']
          : ['last_run_date', 'last_imported', 'last_success_date', 'last_error', 'last_error_date'],
      );
    return true;
  } catch (err) {
    // The node was deleted during the poll: nothing to report on.
    if (!/foreign key/i.test((err as Error).message)) throw err;
    return false;
  }
}
