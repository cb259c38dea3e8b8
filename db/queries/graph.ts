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

/**
 * What the document engine reads before each move of the flow when it holds a graph: the version of the
 * process's graph (migration 028, bumped by every node, edge and predicate write) and the document's filename;
 * undefined when the document is gone.
 */
export async function flowHead(
  knex: Knex,
  documentId: number,
): Promise<{ filename: string; graphVersion: number } | undefined> {
  const row: { filename: string; graphVersion: string } | undefined = await knex('documents as d')
    .join('processes as p', 'p.id', 'd.process_id')
    .where('d.id', documentId)
    .first('d.filename', 'p.graph_version as graphVersion');
  return row && { filename: row.filename, graphVersion: Number(row.graphVersion) };
}
