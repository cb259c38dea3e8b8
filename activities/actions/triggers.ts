/**
 * CRON and THRESHOLD triggers of action nodes (spec 3 section 4; issue 5): a document reaching such a node is
 * collected (`action_trigger_items`) and its step moves on; the action runs later once for the batch of
 * documents collected since the last execution, rendering AGGREGATED wildcards over them.
 * - THRESHOLD: the collector that brings the count of uncollected items to the threshold claims them as a
 *   batch in the same transaction (the node row is locked, so concurrent documents count once) and starts
 *   `action-batch-<id>`. A batch left without a start (worker stopped in between) is started by the next
 *   collection at the node.
 * - CRON: the node's Temporal Schedule runs the batch workflow, which claims what was collected; a tick with
 *   nothing collected executes nothing. MANUAL (execute-action) claims and executes even an empty batch.
 * Claims are keyed by the claiming workflow, so a retried claim finds its batch instead of making another.
 */
import { WorkflowExecutionAlreadyStartedError } from '@temporalio/client';
import { ApplicationFailure } from '@temporalio/common';
import type { Knex } from 'knex';
import { lockNode } from '../../db/queries/nodes';
import type { ActionBatchInput, ActionBatchReason } from '../../workflows/action-contract';
import { executionKey } from './context';
import type { ActionDeps, RunAutomaticNodeInput } from './index';

export interface NodeTrigger {
  type: 'ALWAYS' | 'CRON' | 'THRESHOLD';
  threshold: number | null;
}

export async function triggerOf(knex: Knex, nodeId: number): Promise<NodeTrigger> {
  const row = await knex('nodes').where('id', nodeId).first('trigger_type', 'threshold');
  if (!row) throw ApplicationFailure.nonRetryable(`Node ${nodeId} no longer exists`, 'NodeGone');
  return {
    type: row.trigger_type ?? 'ALWAYS',
    threshold: row.threshold === null ? null : Number(row.threshold),
  };
}

async function startBatch(deps: ActionDeps, input: ActionBatchInput & { batchId: number }): Promise<void> {
  if (!deps.startActionBatch) throw new Error('This worker cannot start action batches (no Temporal client)');
  try {
    await deps.startActionBatch(input);
  } catch (err) {
    if (!(err instanceof WorkflowExecutionAlreadyStartedError)) throw err;
  }
}

/** Batches of the node that were claimed by a threshold but never executed (no result row). */
async function unstartedThresholdBatches(knex: Knex, nodeId: number): Promise<number[]> {
  const rows: { id: number }[] = await knex('action_batches as b')
    .where({ 'b.node_id': nodeId, 'b.reason': 'THRESHOLD' })
    .whereNotExists(
      knex('action_execution_results as r').whereRaw("r.execution_key = 'batch:' || b.id::text"),
    )
    .select('b.id');
  return rows.map((r) => Number(r.id));
}

/** Collects the document of a step at a CRON / THRESHOLD node; starts the batch a threshold completes. */
export async function collectForTrigger(
  deps: ActionDeps,
  input: RunAutomaticNodeInput,
  trigger: NodeTrigger,
): Promise<void> {
  const { knex } = deps;
  await knex.transaction(async (trx) => {
    // One collector of a node at a time: the count below and the claim see every earlier collection.
    await lockNode(trx, input.nodeId);
    await trx('action_trigger_items')
      .insert({
        node_id: input.nodeId,
        document_id: input.documentId,
        step_id: input.stepId,
        collect_key: executionKey(input),
      })
      .onConflict('collect_key')
      .ignore();
    if (trigger.type !== 'THRESHOLD') return;
    const pending: number[] = await trx('action_trigger_items')
      .where('node_id', input.nodeId)
      .whereNull('batch_id')
      .orderBy('id')
      .pluck('id');
    if (pending.length < Math.max(1, trigger.threshold ?? 1)) return;
    const [batch] = await trx('action_batches')
      .insert({ node_id: input.nodeId, reason: 'THRESHOLD' })
      .returning('id');
    await trx('action_trigger_items').whereIn('id', pending).update({ batch_id: batch.id });
  });
  if (trigger.type === 'THRESHOLD') {
    for (const batchId of await unstartedThresholdBatches(knex, input.nodeId))
      await startBatch(deps, { nodeId: input.nodeId, reason: 'THRESHOLD', batchId });
  }
}

/**
 * Claims what the node collected as a new batch for `claimKey` (or finds the batch that key claimed before).
 * Null when nothing was collected and the reason does not execute empty batches (CRON).
 */
export async function claimBatch(
  knex: Knex,
  nodeId: number,
  reason: ActionBatchReason,
  claimKey: string,
): Promise<number | null> {
  return knex.transaction(async (trx) => {
    if (!(await lockNode(trx, nodeId))) return null;
    const earlier = await trx('action_batches').where('claim_key', claimKey).first('id');
    if (earlier) return Number(earlier.id);
    const pending: number[] = await trx('action_trigger_items')
      .where('node_id', nodeId)
      .whereNull('batch_id')
      .orderBy('id')
      .pluck('id');
    if (pending.length === 0 && reason === 'CRON') return null;
    const [batch] = await trx('action_batches')
      .insert({ node_id: nodeId, reason, claim_key: claimKey })
      .returning('id');
    if (pending.length)
      await trx('action_trigger_items').whereIn('id', pending).update({ batch_id: batch.id });
    return Number(batch.id);
  });
}

/** How many documents wait at the node for its next batch. */
export async function pendingCount(knex: Knex, nodeId: number): Promise<number> {
  const [{ count }] = await knex('action_trigger_items')
    .where('node_id', nodeId)
    .whereNull('batch_id')
    .count<{ count: string }[]>({ count: '*' });
  return Number(count);
}
