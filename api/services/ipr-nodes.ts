/** Inter-process receiver (IPR) nodes an IPS node may send to: those of the processes the caller can READ. */
import type { Knex } from 'knex';
import { only, qualify } from '../../db/queries/columns';
import { NODE_REF_COLUMNS } from '../../db/queries/nodes';
import { isAdmin, modeSatisfies, type Principal } from '../../domain/access';
import { GLOBAL_COMPONENT_ID } from '../../domain/enums';
import type { IprNodeDTO } from '../../domain/integration-types';

export async function listReceiverNodes(knex: Knex, principal: Principal): Promise<IprNodeDTO[]> {
  const q = knex('nodes as n')
    .join('processes as p', 'p.id', 'n.process_id')
    .where('n.activity_type', 'IPR')
    .orderBy([{ column: 'p.id' }, { column: 'n.id' }])
    .select([...qualify('n', only(NODE_REF_COLUMNS, 'id', 'name', 'processId')), 'p.name as processName']);
  if (!isAdmin(principal)) {
    const readable = principal.authorities
      .filter(
        (a) => a.type === 'PROCESS' && a.componentId !== GLOBAL_COMPONENT_ID && modeSatisfies(a.mode, 'READ'),
      )
      .map((a) => a.componentId);
    q.whereIn('n.process_id', [...new Set(readable)]);
  }
  return q;
}
