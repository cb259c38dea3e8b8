/**
 * Edges of a process graph: listing, creation refused by the domain's edge rules (400 edgeNotAllowed) or
 * the cohesion rule (422 noCohesive), deletion guarded by cohesion. Writes lock the process row so two
 * concurrent changes cannot together break the rules each checked alone.
 */
import type { Knex } from 'knex';
import { Edge } from '../../db/models/Edge';
import { edgeRefusal, isCohesive, withEdge, withoutEdges } from '../../domain/graph';
import type { EdgeDTO } from '../../domain/graph-types';
import { appError, unprocessable } from '../errors';
import { processGraph } from '../../db/queries/graph';
import { lockProcess } from './nodes';

const toEdgeDTO = (e: Edge): EdgeDTO => ({
  id: e.id,
  fromId: e.fromId,
  toId: e.toId,
  processId: e.processId,
});

export async function listEdges(knex: Knex, processId: number): Promise<EdgeDTO[]> {
  return (await Edge.query(knex).where('process_id', processId).orderBy('id')).map(toEdgeDTO);
}

export async function findEdge(knex: Knex, id: number): Promise<Edge | undefined> {
  return Edge.query(knex).findById(id);
}

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
    return toEdgeDTO(await Edge.query(trx).insert({ processId, fromId, toId }));
  });
}

/** Removes an edge (its predicates cascade) unless the graph would fall apart. */
export async function deleteEdge(knex: Knex, edge: Edge): Promise<void> {
  await knex.transaction(async (trx) => {
    await lockProcess(trx, edge.processId);
    const graph = await processGraph(trx, edge.processId);
    if (!isCohesive(withoutEdges(graph, (e) => e.id === edge.id)))
      throw unprocessable('error.graph.noCohesive');
    await Edge.query(trx).deleteById(edge.id);
  });
}
