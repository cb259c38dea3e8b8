/** A process graph read at once: for the graph rules of the API, and for the document engine. */
import type { Knex } from 'knex';
import type { Graph } from '../../domain/graph';
import type { FlowGraph } from '../../domain/steps';
import { processEdges, type EdgeRow } from './edges';
import { processNodeRefs, processStepNodes, type NodeRef } from './nodes';
import { processPredicates } from './predicates';

export type ProcessGraph = Graph<NodeRef, EdgeRow>;

/** The nodes and edges of a process, as the domain's graph functions take them. */
export async function processGraph(knex: Knex, processId: number): Promise<ProcessGraph> {
  const [nodes, edges] = await Promise.all([processNodeRefs(knex, processId), processEdges(knex, processId)]);
  return { nodes, edges };
}

/** The nodes, edges and predicates of a process, as the document workflow reads them. */
export async function flowGraph(knex: Knex, processId: number): Promise<FlowGraph> {
  const [nodes, edges, predicates] = await Promise.all([
    processStepNodes(knex, processId),
    processEdges(knex, processId),
    processPredicates(knex, processId),
  ]);
  return { nodes, edges, predicates };
}
