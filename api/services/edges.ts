/**
 * Edges of a process graph: listing, creation refused by the domain's edge rules (400 edgeNotAllowed) or
 * the cohesion rule (422 noCohesive), deletion guarded by cohesion. Writes lock the process row so two
 * concurrent changes cannot together break the rules each checked alone.
 */
import type { Knex } from 'knex';
import { edgeRefusal, isCohesive, withEdge, withoutEdges } from '../../domain/graph';
import type { EdgeDTO } from '../../domain/graph-types';
import { appError, unprocessable } from '../errors';
import { processGraph } from '../../db/queries/graph';
import { deleteEdgeRow, insertEdge } from '../../db/queries/edges';
import { lockProcess } from '../../db/queries/processes';

export { edgeById as findEdge, processEdgeDTOs as listEdges } from '../../db/queries/edges';

/** Adds from -> to in the from-node's process. */
export async function createEdge(
  knex: Knex,
  processId: number,
  fromId: number,
  toId: number,
): Promise<EdgeDTO> {
  return knex.transaction(async (trx) => {
    await lockProcess(trx, processId);
    const graph = await processGraph(trx, processId);
    if (edgeRefusal(graph, fromId, toId))
      throw appError('error.graph.edgeNotAllowed', 'edge', 'edgeNotAllowed');
    if (!isCohesive(withEdge(graph, { id: 0, fromId, toId }))) throw unprocessable('error.graph.noCohesive');
    return insertEdge(trx, processId, fromId, toId);
  });
}

/** Removes an edge (its predicates cascade) unless the graph would fall apart. */
export async function deleteEdge(knex: Knex, edge: EdgeDTO): Promise<void> {
  await knex.transaction(async (trx) => {
    await lockProcess(trx, edge.processId);
    const graph = await processGraph(trx, edge.processId);
    if (!isCohesive(withoutEdges(graph, (e) => e.id === edge.id)))
      throw unprocessable('error.graph.noCohesive');
    await deleteEdgeRow(trx, edge.id);
  });
}
