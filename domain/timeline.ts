/**
 * A document's timeline as the API answers it (GET api/v2/document/{id}/timeline, issue 29 section 1) and
 * the page shows it: its entries and the kinds they are filtered by.
 */
import type { StepStatus } from './steps';

/** What an entry is about; the page filters by it. */
export const TimelineKinds = [
  'document',
  'step',
  'work',
  'assignment',
  'rerun',
  'automatic',
  'interprocess',
] as const;
export type TimelineKind = (typeof TimelineKinds)[number];

export interface TimelineEntry {
  /** Unique within the timeline. */
  id: string;
  /** ISO time. */
  time: string;
  kind: TimelineKind;
  /**
   * started, ended (document); reached, run (step); complete, accept, activate, cancelAcceptance, markMaster
   * (work); startWorking, unassign (assignment); rerun; result (automatic); sent, received (interprocess).
   */
  type: string;
  outcome: 'ok' | 'failed' | 'refused';
  stepId: number | null;
  nodeId: number | null;
  nodeName: string | null;
  activityType: string | null;
  /** The login of the person behind it; null for the engine's own work. */
  who: string | null;
  /** The step's status after it, where known. */
  status: StepStatus | null;
  durationMs: number | null;
  /** The message a person can act on (a failure, a refusal). */
  message: string | null;
  /** Technical detail: the failure's chain, the activity's or action's answer. */
  detail: string | null;
  /** The workflow run it happened in (null: recorded by the database). */
  runId: string | null;
  /** Other documents it concerns: the documents a send created, the document a receipt came from. */
  documents?: { documentId: number; processId: number }[];
}

export interface DocumentTimeline {
  documentId: number;
  workflowId: string;
  /** The workflow's runs, oldest first. */
  runs: { runId: string; startedAt: string }[];
  entries: TimelineEntry[];
}
