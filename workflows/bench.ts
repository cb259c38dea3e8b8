/**
 * Bare Temporal workloads of `npm run bench` (scripts/bench-engine.ts), the baselines the document engine is
 * measured against on the same server and worker: a workflow with one update handler (an update round trip
 * and nothing else) and a workflow that calls a no-op activity a given number of times.
 */
import {
  condition,
  defineUpdate,
  proxyActivities,
  proxyLocalActivities,
  setHandler,
} from '@temporalio/workflow';
import type { Activities } from '../activities';

/** Stores the number and returns it. */
export const benchSetUpdate = defineUpdate<number, [number]>('benchSet');
/** Calls the no-op activity as a local activity, then stores the number: the floor of a projecting update. */
export const benchSetLocalUpdate = defineUpdate<number, [number]>('benchSetLocal');

const local = proxyLocalActivities<Activities>({ startToCloseTimeout: '30 seconds' });

/** Waits for updates until the bench terminates it (a few hundred updates: no continue-as-new needed). */
export async function benchUpdateWorkflow(): Promise<void> {
  let value = 0;
  setHandler(benchSetUpdate, (v) => {
    value = v;
    return value;
  });
  setHandler(benchSetLocalUpdate, async (v) => {
    await local.benchNoop(v);
    value = v;
    return value;
  });
  await condition(() => value < 0);
}

// The activity options of the document workflow's projection activities (workflows/document.ts).
const { benchNoop } = proxyActivities<Activities>({
  startToCloseTimeout: '30 seconds',
  retry: { initialInterval: '200 milliseconds', maximumInterval: '10 seconds', maximumAttempts: 30 },
});

/** Calls the no-op activity `count` times, one after the other. */
export async function benchActivitiesWorkflow(count: number): Promise<number> {
  for (let i = 0; i < count; i++) await benchNoop(i);
  return count;
}
