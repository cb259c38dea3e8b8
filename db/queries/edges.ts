/** Edges of process graphs: as the graph rules and the document engine read them, and the API's writes. */
import type { Knex } from 'knex';
import type { EdgeDTO } from '../../domain/graph-types';

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

const EDGE_DTO_COLUMNS = [...EDGE_COLUMNS, 'process_id as processId'];

const toDTO = (e: EdgeDTO): EdgeDTO => ({
  id: Number(e.id),
  fromId: Number(e.fromId),
  toId: Number(e.toId),
  processId: Number(e.processId),
});

/** The edges of a process by id, with their process. */
export async function processEdgeDTOs(knex: Knex, processId: number): Promise<EdgeDTO[]> {
  const rows: EdgeDTO[] = await knex('edges')
    .where('process_id', processId)
    .orderBy('id')
    .select(EDGE_DTO_COLUMNS);
  return rows.map(toDTO);
}

export async function edgeById(knex: Knex, id: number): Promise<EdgeDTO | undefined> {
  const row: EdgeDTO | undefined = await knex('edges').where('id', id).first(EDGE_DTO_COLUMNS);
  return row && toDTO(row);
}

export async function insertEdge(
  knex: Knex,
  processId: number,
  fromId: number,
  toId: number,
): Promise<EdgeDTO> {
  const [row] = await knex('edges')
    .insert({ process_id: processId, from_id: fromId, to_id: toId })
    .returning(EDGE_DTO_COLUMNS);
  return toDTO(row);
}

/** Deletes an edge (its predicates cascade). */
export async function deleteEdgeRow(knex: Knex, id: number): Promise<void> {
  await knex('edges').where('id', id).del();
}
