/**
 * Continue-as-new: the test run's dev server suggests it after 200 history events
 * (limit.historyCount.suggestContinueAsNew=200, scripts/test.ts). A document that receives many step
 * actions passes that several times, carries its state into each new run, still completes, and its
 * history reads back across the runs in order.
 */
import { documentWorkflowId, stateQuery, type DocumentWorkflowState } from '../../workflows/contract';
import {
  GraphBuilder,
  documentStatus,
  setupEngineSuite,
  startDocument,
  stepReaching,
  stepsOf,
} from '../support/engine';

describe('document engine: continue-as-new', () => {
  const s = setupEngineSuite('can');

  it('continues as new when the history grows, keeps its state and still completes', async () => {
    const g = await GraphBuilder.create(s.knex);
    const hup = await g.node('HUP');
    const clf = await g.node('CLF', { requiresAcceptance: true });
    const span = await g.node('SPAN');
    await g.edge(hup, clf);
    await g.edge(clf, span);
    const doc = await startDocument(s, g, hup, { content: 'many updates' });
    const step = await stepReaching(s.knex, doc.id, clf, ['WAITING']);
    const handle = s.client.workflow.getHandle(documentWorkflowId(doc.id));
    const firstRun = (await handle.describe()).runId;

    // Start and release the step over and over: each round trip adds about ten history events.
    for (let i = 0; i < 30; i++) {
      const started = await s.send('POST', `/api/step/assign?docId=${doc.id}&nodeId=${clf}`, s.admin);
      expect(started.status).toBe(200);
      const released = await s.send('PUT', '/api/steps', s.admin, { id: step.id, blockedBy: null });
      expect(released.status).toBe(200);
      expect(released.body.userId).toBeNull();
    }
    expect((await handle.describe()).runId).not.toBe(firstRun);

    // The carried state still knows the step; the flow goes on to the end.
    const carried: DocumentWorkflowState = await handle.query(stateQuery);
    expect(carried.steps.map((x) => x.id)).toEqual((await stepsOf(s.knex, doc.id)).map((x) => x.id));
    await s.send('POST', `/api/step/assign?docId=${doc.id}&nodeId=${clf}`, s.admin);
    expect((await s.send('PUT', `/api/steps/${step.id}/complete`, s.admin)).body.status).toBe('DONE');
    expect((await s.send('PUT', `/api/steps/${step.id}/accept`, s.admin)).body.status).toBe('ACCEPTED');
    const spanStep = (await stepsOf(s.knex, doc.id)).find((x) => x.nodeId === span)!;
    await s.send('POST', `/api/step/assign?docId=${doc.id}&nodeId=${span}`, s.admin);
    const last = await s.send('PUT', `/api/steps/${spanStep.id}/complete`, s.admin);
    expect(last.body).toMatchObject({ status: 'DONE', documentStatus: 'DONE' });
    expect(await documentStatus(s.knex, doc.id)).toBe('DONE');

    // The history spans every run, oldest first, each run's events in order.
    const history = await s.get(`/api/v2/document/${doc.id}/history`, s.admin);
    expect(history.status).toBe(200);
    const events = history.body as {
      runId: string;
      eventId: number;
      type: string;
      name: string | null;
      time: string;
    }[];
    const runs = [...new Set(events.map((e) => e.runId))];
    expect(runs.length).toBeGreaterThan(1);
    expect(runs[0]).toBe(firstRun);
    expect(events.filter((e) => e.type === 'continuedAsNew')).toHaveLength(runs.length - 1);
    // Runs in the order of the chain, each run's events together, every run but the last ending in the
    // event that continued it (not by timestamp: the clocks of two runs' events may interleave under load).
    expect(events.map((e) => e.runId).filter((r, i, all) => i === 0 || all[i - 1] !== r)).toEqual(runs);
    for (const run of runs.slice(0, -1))
      expect(events.filter((e) => e.runId === run).at(-1)!.type).toBe('continuedAsNew');
    for (const run of runs) {
      const ids = events.filter((e) => e.runId === run).map((e) => e.eventId);
      expect([...ids].sort((a, b) => a - b)).toEqual(ids);
    }
    const names = events.filter((e) => e.type === 'updateCompleted').map((e) => e.name);
    expect(names.filter((n) => n === 'startWorking')).toHaveLength(32);
    expect(names.filter((n) => n === 'unassign')).toHaveLength(30);
    expect(names.slice(-3)).toEqual(['accept', 'startWorking', 'complete']);
  });
});
