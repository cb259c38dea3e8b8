/**
 * Retiring old workflow branches (docs/architecture.md, "Retiring a patch"): a new document run records the
 * current epoch marker, `refreshDocumentRuns` counts it as current and leaves it be, and the `freshRun`
 * signal carries an open run into a fresh one at its next idle moment, its state kept and its flow going on.
 * (The older-run detection on recorded histories is in server/document-workflows.test.ts.)
 */
import {
  DOCUMENT_RUN_EPOCH,
  documentWorkflowId,
  freshRunSignal,
  stateQuery,
  type DocumentWorkflowState,
} from '../../workflows/document-contract';
import { epochOfHistory, refreshDocumentRuns } from '../../server/document-workflows';
import { eventuallyMatches } from '../support/eventually';
import {
  GraphBuilder,
  documentStatus,
  setupEngineSuite,
  startDocument,
  stepReaching,
  stepsOf,
} from '../support/engine';

describe('open document runs moved to fresh runs', () => {
  const s = setupEngineSuite('refresh');

  it('marks a new run with the current epoch, and a freshRun signal continues it with its state', async () => {
    const g = await GraphBuilder.create(s.knex);
    const hup = await g.node('HUP');
    const clf = await g.node('CLF');
    const span = await g.node('SPAN');
    await g.edge(hup, clf);
    await g.edge(clf, span);
    const doc = await startDocument(s, g, hup, { content: 'refresh me' });
    const step = await stepReaching(s.knex, doc.id, clf, ['WAITING']);
    const handle = s.client.workflow.getHandle(documentWorkflowId(doc.id));
    const firstRun = (await handle.describe()).runId;
    // The step is WAITING as soon as the local activity has written it; the patch markers are in the history
    // once the workflow task that ran it completes (on a loaded machine, a while later).
    await eventuallyMatches(
      async () => epochOfHistory(await handle.fetchHistory()),
      (epoch) => epoch === DOCUMENT_RUN_EPOCH,
      'the run marked with the current epoch',
    );

    // The runs of this test's server all began under this code: none is older, none is signalled.
    const seen = await eventuallyMatches(
      () => refreshDocumentRuns(s.client, { dryRun: true }),
      (r) => r.current >= 1,
      'the open run is listed',
    );
    expect(seen.older).not.toContain(doc.id);
    expect(seen.open).toBe(seen.current + seen.older.length);
    const done = await refreshDocumentRuns(s.client);
    expect(done.older).not.toContain(doc.id);
    expect((await handle.describe()).runId).toBe(firstRun);

    // Asked to, the run carries its state into a fresh run of the current epoch.
    await handle.signal(freshRunSignal);
    const next = await eventuallyMatches(
      async () => (await handle.describe()).runId,
      (runId) => runId !== firstRun,
      'a fresh run',
    );
    const fresh = s.client.workflow.getHandle(documentWorkflowId(doc.id), next);
    const history = await fresh.fetchHistory();
    expect(history.events?.[0].workflowExecutionStartedEventAttributes?.continuedExecutionRunId).toBe(
      firstRun,
    );
    const carried: DocumentWorkflowState = await handle.query(stateQuery);
    expect(carried.steps.map((x) => x.id)).toEqual((await stepsOf(s.knex, doc.id)).map((x) => x.id));
    await eventuallyMatches(
      async () => epochOfHistory(await fresh.fetchHistory()),
      (epoch) => epoch === DOCUMENT_RUN_EPOCH,
      'the fresh run marked with the current epoch',
    );

    // The flow goes on in the fresh run.
    await s.send('POST', `/api/step/assign?docId=${doc.id}&nodeId=${clf}`, s.admin);
    expect((await s.send('PUT', `/api/steps/${step.id}/complete`, s.admin)).body.status).toBe('DONE');
    const spanStep = await stepReaching(s.knex, doc.id, span, ['WAITING']);
    await s.send('POST', `/api/step/assign?docId=${doc.id}&nodeId=${span}`, s.admin);
    const last = await s.send('PUT', `/api/steps/${spanStep.id}/complete`, s.admin);
    expect(last.body).toMatchObject({ status: 'DONE', documentStatus: 'DONE' });
    expect(await documentStatus(s.knex, doc.id)).toBe('DONE');
  });
});
