/**
 * Upload pollers (spec 3 sections 3 and 7; issue 5 part 3): `pollUploadNode` runs the poller of an e-mail,
 * SFTP or cloud-drive upload node once, on its Temporal Schedule's tick (workflows/upload-poller.ts) or when
 * asked (the fetch-now routes). Documents left unstarted by an earlier poll are started first; the outcome
 * (time, count, the connections' errors) is written to `poller_status`, and connection errors are reported
 * there rather than thrown: the next tick tries again.
 */
import { settingsNode } from '../../db/queries/nodes';
import { pollEmailNode } from './email';
import { restartPending, pollContext } from './import';
import { pollDriveNode } from './drive';
import { pollSftpNode } from './sftp';
import type { Poller, PollerDeps, PollOutcome } from './types';
import { recordPoll } from '../../db/queries/poller-status';

export type { PollerDeps, PollOutcome } from './types';

const pollers: Partial<Record<string, Poller>> = {
  EMAIL_UPLOAD: pollEmailNode,
  SFTP_UPLOAD: pollSftpNode,
  GDU_UPLOAD: pollDriveNode,
};

export interface PollUploadNodeInput {
  nodeId: number;
}

export interface PollUploadNodeResult extends PollOutcome {
  nodeId: number;
  /** False when the node no longer exists or is no polled type (nothing was done). */
  polled: boolean;
}

export function createPollerActivities(deps: PollerDeps) {
  return {
    async pollUploadNode(input: PollUploadNodeInput): Promise<PollUploadNodeResult> {
      const node = (await settingsNode(deps.knex, input.nodeId)) ?? null;
      const poll = node && pollers[node.activityType];
      if (!node || !poll) return { nodeId: input.nodeId, polled: false, imported: 0, errors: [] };
      const { knex } = deps;
      const started = new Date();
      let outcome: PollOutcome;
      try {
        await restartPending(deps, node);
        outcome = await poll(pollContext(deps, node));
      } catch (err) {
        outcome = { imported: 0, errors: [(err as Error).message] };
      }
      const error = outcome.errors.length ? outcome.errors.join('\n').slice(0, 4000) : null;
      await recordPoll(knex, node.id, { started, imported: outcome.imported, error });
      return { nodeId: node.id, polled: true, ...outcome };
    },
  };
}
