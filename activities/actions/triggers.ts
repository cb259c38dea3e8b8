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
import {
  batchIdByClaimKey,
  collectTriggerItem,
  insertActionBatch,
  pendingTriggerItemIds,
  unstartedThresholdBatches,
} from '../../db/queries/action-batches';
import { lockNode, nodeTrigger } from '../../db/queries/nodes';
import type { ActionBatchInput, ActionBatchReason } from '../../workflows/action-contract';
import { executionKey } from './context';
import type { ActionDeps, RunAutomaticNodeInput } from './index';

export interface NodeTrigger {
  type: 'ALWAYS' | 'CRON' | 'THRESHOLD';
  threshold: number | null;
}

export async function triggerOf(knex: Knex, nodeId: number): Promise<NodeTrigger> {
  const row = await nodeTrigger(knex, nodeId);
  if (!row) throw ApplicationFailure.nonRetryable(`Node ${nodeId} no longer exists`, 'NodeGone');
  return row;
}

async function startBatch(deps: ActionDeps, input: ActionBatchInput & { batchId: number }): Promise<void> {
  if (!deps.startActionBatch) throw new Error('This worker cannot start action batches (no Temporal client)');
  try {
    await deps.startActionBatch(input);
  } catch (err) {
    if (!(err instanceof WorkflowExecutionAlreadyStartedError)) throw err;
  }
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
    await collectTriggerItem(trx, {
      nodeId: input.nodeId,
      documentId: input.documentId,
      stepId: input.stepId,
      collectKey: executionKey(input),
    });
    if (trigger.type !== 'THRESHOLD') return;
    const pending = await pendingTriggerItemIds(trx, input.nodeId);
    if (pending.length < Math.max(1, trigger.threshold ?? 1)) return;
    await insertActionBatch(trx, { nodeId: input.nodeId, reason: 'THRESHOLD' }, pending);
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
    const earlier = await batchIdByClaimKey(trx, claimKey);
    if (earlier !== undefined) return earlier;
    const pending = await pendingTriggerItemIds(trx, nodeId);
    if (pending.length === 0 && reason === 'CRON') return null;
    return insertActionBatch(trx, { nodeId, reason, claimKey }, pending);
  });
}
