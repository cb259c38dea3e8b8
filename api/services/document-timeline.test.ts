import { buildTimeline, type TimelineStep } from './document-timeline';
import type { DocumentHistoryEvent } from './document-history';

const ev = (
  runId: string,
  eventId: number,
  second: number,
  type: string,
  more: Partial<DocumentHistoryEvent> = {},
): DocumentHistoryEvent => ({
  time: new Date(Date.UTC(2026, 0, 1, 0, 0, second)).toISOString(),
  runId,
  eventId,
  type,
  name: null,
  stepId: null,
  who: null,
  result: null,
  failure: null,
  ...more,
});

const steps: TimelineStep[] = [
  {
    id: 7,
    node: {
      id: 70,
      name: 'Parser',
      activityType: 'FILE_PARSER',
      autoStepStatus: 'WAITING',
      requiresAcceptance: false,
    },
  },
];

describe('buildTimeline', () => {
  it('reads two runs joined by continue-as-new as one timeline, the boundary not an entry', () => {
    const t = buildTimeline({
      documentId: 1,
      steps,
      executions: [],
      receipts: [],
      history: [
        ev('r1', 1, 0, 'started', { result: '{"documentId":1}' }),
        ev('r1', 5, 1, 'stepsCreated', { created: [7] }),
        ev('r1', 6, 2, 'activityScheduled', { name: 'parseDocument', stepId: 7 }),
        ev('r1', 8, 5, 'activityFailed', { name: 'parseDocument', stepId: 7, ref: 6, failure: 'damaged' }),
        ev('r1', 9, 6, 'continuedAsNew', { result: 'new run r2' }),
        ev('r2', 1, 6, 'started', { result: 'continued from run r1' }),
        ev('r2', 5, 7, 'updateAccepted', { name: 'rerun', stepId: 7, who: 'admin' }),
        ev('r2', 6, 8, 'stepsCreated', { created: [] }),
        ev('r2', 7, 8, 'updateCompleted', {
          name: 'rerun',
          stepId: 7,
          who: 'admin',
          ref: 5,
          result: '{"stepId":7,"status":"PROCESSING","documentStatus":"WAITING"}',
        }),
        ev('r2', 8, 9, 'activityScheduled', { name: 'parseDocument', stepId: 7 }),
        ev('r2', 10, 12, 'activityCompleted', { name: 'parseDocument', stepId: 7, ref: 8, result: '{}' }),
      ],
    });
    expect(t.runs.map((r) => r.runId)).toEqual(['r1', 'r2']);
    expect(t.entries.map((e) => [e.kind, e.type, e.runId, e.status, e.durationMs, e.message])).toEqual([
      ['document', 'started', 'r1', null, null, null],
      ['step', 'reached', 'r1', null, null, null],
      ['step', 'run', 'r1', 'ERROR', 3000, 'damaged'],
      ['rerun', 'rerun', 'r2', 'PROCESSING', null, null],
      ['step', 'run', 'r2', 'WAITING', 3000, null],
    ]);
    expect(new Set(t.entries.map((e) => e.id)).size).toBe(t.entries.length);
    expect(t.entries[3].time).toBe(ev('r2', 5, 7, 'x').time);
  });
});
