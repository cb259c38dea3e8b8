/**
 * The batches of CRON / THRESHOLD action nodes (activities/actions/triggers.ts): the documents collected at a
 * node (`action_trigger_items`) and the batches that claim them (`action_batches`).
 */
import type { Knex } from 'knex';

/** Collects a step's document at the node; a collection already made under `collectKey` is kept. */
export async function collectTriggerItem(
  knex: Knex,
  item: { nodeId: number; documentId: number | null; stepId: number | null; collectKey: string },
): Promise<void> {
  await knex('action_trigger_items')
    .insert({
      node_id: item.nodeId,
      document_id: item.documentId,
      step_id: item.stepId,
      collect_key: item.collectKey,
    })
    .onConflict('collect_key')
    .ignore();
}

/** The items collected at the node and not yet claimed by a batch, oldest first. */
export async function pendingTriggerItemIds(knex: Knex, nodeId: number): Promise<number[]> {
  return (
    await knex('action_trigger_items')
      .where('node_id', nodeId)
      .whereNull('batch_id')
      .orderBy('id')
      .pluck('id')
  ).map(Number);
}

/** A new batch of the node claiming the items `itemIds`; its id. */
export async function insertActionBatch(
  knex: Knex,
  batch: { nodeId: number; reason: string; claimKey?: string },
  itemIds: readonly number[],
): Promise<number> {
  const [row] = await knex('action_batches')
    .insert({
      node_id: batch.nodeId,
      reason: batch.reason,
      ...(batch.claimKey !== undefined ? { claim_key: batch.claimKey } : {}),
    })
    .returning('id');
  if (itemIds.length)
    await knex('action_trigger_items')
      .whereIn('id', [...itemIds])
      .update({ batch_id: row.id });
  return Number(row.id);
}

/** The batch a claim key made before, if any. */
export async function batchIdByClaimKey(knex: Knex, claimKey: string): Promise<number | undefined> {
  const row = await knex('action_batches').where('claim_key', claimKey).first('id');
  return row ? Number(row.id) : undefined;
}

/** Batches of the node that were claimed by a threshold but never executed (no result row). */
export async function unstartedThresholdBatches(knex: Knex, nodeId: number): Promise<number[]> {
  const rows: { id: number }[] = await knex('action_batches as b')
    .where({ 'b.node_id': nodeId, 'b.reason': 'THRESHOLD' })
    .whereNotExists(
      knex('action_execution_results as r').whereRaw("r.execution_key = 'batch:' || b.id::text"),
    )
    .select('b.id');
  return rows.map((r) => Number(r.id));
}

/** The documents the batch claimed, in collection order (a document collected twice appears twice). */
export async function batchDocumentIds(knex: Knex, batchId: number): Promise<number[]> {
  return (
    await knex('action_trigger_items').where('batch_id', batchId).orderBy('id').pluck('document_id')
  ).map(Number);
}

/** How many distinct documents the batch claimed. */
export async function batchDocumentCount(knex: Knex, batchId: number): Promise<number> {
  const [{ count }] = await knex('action_trigger_items')
    .where('batch_id', batchId)
    .countDistinct<{ count: string }[]>({ count: 'document_id' });
  return Number(count);
}
