/**
 * The Temporal Schedules kept in step with nodes (issue 5):
 * - a CRON action node has `action-node-<id>`, starting the action-batch workflow on the node's cron; when
 *   its trigger stops being CRON the schedule is paused (kept, with a note), and it is deleted with the node;
 * - an e-mail, SFTP or cloud-drive upload node has `upload-poller-<id>`, polling on the crons of its
 *   connections (e-mail) or its own cron (SFTP, drive), every five minutes when none is set; paused while
 *   the node is inactive (`settings.active === false`).
 * `syncNodeSchedule` makes one node's schedule match the database (create, update, pause, unpause, delete);
 * the API calls it after every change of a node or its connections, the worker for every node when it
 * starts (`syncAllSchedules`), so a change made while Temporal was unreachable is caught up.
 */
import {
  ScheduleNotFoundError,
  ScheduleOverlapPolicy,
  type Client,
  type ScheduleHandle,
} from '@temporalio/client';
import type { Knex } from 'knex';
import { temporalCron } from '../domain/cron';
import { POLLED_UPLOAD_TYPES, isActionType } from '../domain/nodes';
import type { ActivityType } from '../domain/enums';
import {
  ACTION_BATCH_WORKFLOW,
  UPLOAD_POLLER_WORKFLOW,
  actionNodeScheduleId,
  uploadPollerScheduleId,
} from '../workflows/action-contract';
import { getLogger } from './logger';
import { emailConnectionCrons } from '../db/queries/email-connections';
import { nodeSchedule, scheduledNodeIds } from '../db/queries/nodes';

const log = getLogger('server.schedules');

/** Polling cron of upload nodes without one: every five minutes. */
export const DEFAULT_POLL_CRON = '0 */5 * * * ?';

interface DesiredSchedule {
  scheduleId: string;
  workflowType: string;
  args: unknown[];
  crons: string[];
  paused: boolean;
  note: string;
}

/** The schedules a node should have: its own id with null when the node should have none (any more). */
async function desiredFor(
  knex: Knex,
  nodeId: number,
): Promise<{ ids: string[]; desired: DesiredSchedule | null }> {
  const ids = [actionNodeScheduleId(nodeId), uploadPollerScheduleId(nodeId)];
  const node = await nodeSchedule(knex, nodeId);
  if (!node) return { ids, desired: null };
  if (isActionType(node.activity_type as ActivityType)) {
    const cron = temporalCron(node.cron);
    if (!cron) return { ids, desired: null };
    const active = node.trigger_type === 'CRON';
    return {
      ids,
      desired: {
        scheduleId: actionNodeScheduleId(nodeId),
        workflowType: ACTION_BATCH_WORKFLOW,
        args: [{ nodeId, reason: 'CRON' }],
        crons: [cron],
        paused: !active,
        note: active ? `cron ${node.cron}` : `trigger is ${node.trigger_type}, not CRON`,
      },
    };
  }
  if (POLLED_UPLOAD_TYPES.includes(node.activity_type as ActivityType)) {
    let patterns: (string | null)[] = [node.cron];
    if (node.activity_type === 'EMAIL_UPLOAD') {
      patterns = await emailConnectionCrons(knex, nodeId);
      if (patterns.length === 0) return { ids, desired: null };
    }
    const crons = [...new Set(patterns.map((p) => temporalCron(p ?? DEFAULT_POLL_CRON)).filter(Boolean))];
    const active = node.settings?.active !== false;
    return {
      ids,
      desired: {
        scheduleId: uploadPollerScheduleId(nodeId),
        workflowType: UPLOAD_POLLER_WORKFLOW,
        args: [{ nodeId }],
        crons: crons as string[],
        paused: !active,
        note: active ? `polls on ${crons.join(' | ')}` : 'the node is inactive',
      },
    };
  }
  return { ids, desired: null };
}

async function exists(handle: ScheduleHandle): Promise<boolean> {
  try {
    await handle.describe();
    return true;
  } catch (err) {
    if (err instanceof ScheduleNotFoundError) return false;
    throw err;
  }
}

/** Makes the schedules of one node match the database (see the module comment). */
export async function syncNodeSchedule(
  client: Client,
  knex: Knex,
  nodeId: number,
  taskQueue: string,
): Promise<void> {
  const { ids, desired } = await desiredFor(knex, nodeId);
  for (const id of ids) {
    if (id === desired?.scheduleId) continue;
    const handle = client.schedule.getHandle(id);
    try {
      await handle.delete();
    } catch (err) {
      if (!(err instanceof ScheduleNotFoundError)) throw err;
    }
  }
  if (!desired) return;
  const action = {
    type: 'startWorkflow' as const,
    workflowType: desired.workflowType,
    args: desired.args,
    taskQueue,
    workflowId: desired.scheduleId,
  };
  const spec = { cronExpressions: desired.crons };
  const handle = client.schedule.getHandle(desired.scheduleId);
  if (!(await exists(handle))) {
    await client.schedule.create({
      scheduleId: desired.scheduleId,
      spec,
      action,
      policies: { overlap: ScheduleOverlapPolicy.SKIP, catchupWindow: '1 minute' },
      state: { paused: desired.paused, note: desired.note },
    });
    return;
  }
  await handle.update((previous) => ({
    ...previous,
    spec,
    action,
    state: { ...previous.state, paused: desired.paused, note: desired.note },
  }));
}

/** Every node's schedules, at worker start: the schedules of nodes that changed while Temporal was away. */
export async function syncAllSchedules(client: Client, knex: Knex, taskQueue: string): Promise<void> {
  const ids = await scheduledNodeIds(knex, POLLED_UPLOAD_TYPES);
  // Schedules of nodes deleted meanwhile.
  for await (const schedule of client.schedule.list()) {
    const m = /^(?:action-node|upload-poller)-(\d+)$/.exec(schedule.scheduleId);
    if (m && !ids.includes(Number(m[1]))) ids.push(Number(m[1]));
  }
  for (const id of ids) await syncNodeSchedule(client, knex, id, taskQueue);
}

/**
 * After a change of nodes or their connections: brings their schedules in step. A Temporal outage does not
 * fail the change (it is stored); the worker's start-up sync catches the schedules up, and the error is logged.
 */
export async function keepSchedulesInStep(
  deps: { knex: Knex; temporal: { client(): Promise<Client> }; config: { taskQueue: string } },
  nodeIds: readonly number[],
): Promise<void> {
  try {
    const client = await deps.temporal.client();
    for (const id of nodeIds) await syncNodeSchedule(client, deps.knex, id, deps.config.taskQueue);
  } catch (err) {
    log.error(`schedules of nodes ${nodeIds.join(', ')} not synchronised`, { error: err as Error });
  }
}
