/** The node_trainings table: each training attempt of a trainable node (activities/training.ts). */
import type { Knex } from 'knex';

export interface NodeTrainingRow {
  id: number;
  node_id: number;
  reason: string;
  status: string;
  documents: number;
  http_status: number | null;
  error: string | null;
  created_date: string | Date;
}

/** How many documents the node's last successful training had (0 when it never trained successfully). */
export async function lastSuccessfulTrainingDocuments(knex: Knex, nodeId: number): Promise<number> {
  const last = await knex('node_trainings')
    .where({ node_id: nodeId, status: 'SUCCESS' })
    .orderBy('id', 'desc')
    .first('documents');
  return last ? Number(last.documents) : 0;
}

export async function insertNodeTraining(
  knex: Knex,
  t: {
    nodeId: number;
    reason: string;
    status: string;
    documents: number;
    httpStatus: number | null;
    error: string | null;
  },
): Promise<NodeTrainingRow> {
  const [row] = await knex('node_trainings')
    .insert({
      node_id: t.nodeId,
      reason: t.reason,
      status: t.status,
      documents: t.documents,
      http_status: t.httpStatus,
      error: t.error,
    })
    .returning('*');
  return row;
}
