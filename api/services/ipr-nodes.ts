/** Inter-process receiver (IPR) nodes an IPS node may send to: those of the processes the caller can READ. */
import type { Knex } from 'knex';
import { receiverNodes } from '../../db/queries/nodes';
import { isAdmin, modeSatisfies, type Principal } from '../../domain/access';
import { GLOBAL_COMPONENT_ID } from '../../domain/enums';
import type { IprNodeDTO } from '../../domain/integration-types';

export async function listReceiverNodes(knex: Knex, principal: Principal): Promise<IprNodeDTO[]> {
  if (isAdmin(principal)) return receiverNodes(knex, null);
  const readable = principal.authorities
    .filter(
      (a) => a.type === 'PROCESS' && a.componentId !== GLOBAL_COMPONENT_ID && modeSatisfies(a.mode, 'READ'),
    )
    .map((a) => a.componentId);
  return receiverNodes(knex, [...new Set(readable)]);
}
