/** Edges as the graph rules and the document engine read them (the API's writes go through db/models/Edge.ts). */
import type { Knex } from 'knex';

export interface EdgeRow {
  id: number;
  fromId: number;
  toId: number;
}

export const EDGE_COLUMNS = ['id', 'from_id as fromId', 'to_id as toId'];

/** The edges of a process by id. */
export async function processEdges(knex: Knex, processId: number): Promise<EdgeRow[]> {
  return knex('edges').where('process_id', processId).orderBy('id').select(EDGE_COLUMNS);
}
