/**
 * Which nodes can be trained (spec 3 section 7, `PUT api/trainable-nodes/{id}/train`): a CLF or SPAN node with
 * a trainable configuration that names a request path. Checked by the train route before it asks the worker,
 * and by the training activities (activities/training.ts), which also parse the path as an http(s) URL.
 */
import type { ActivityType } from './enums';
import type { TrainableConfig } from './graph-types';

/** Why the node cannot be trained, or null when it can. */
export function untrainableReason(
  activityType: ActivityType | string,
  config: TrainableConfig | null | undefined,
): string | null {
  if ((activityType !== 'CLF' && activityType !== 'SPAN') || !config) return 'The node is not trainable';
  if (!config.requestPath?.trim()) return 'The trainable node has no request path';
  return null;
}
