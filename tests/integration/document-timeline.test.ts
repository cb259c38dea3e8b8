/**
 * A document's timeline (issue 29 section 1, GET api/v2/document/{id}/timeline): the workflow history across
 * runs read as steps and people's actions, with the action results and inter-process sends the database
 * keeps; readable by whoever reads the document (process mode or a mode on one of its nodes), nobody else.
 */
import crypto from 'node:crypto';
import { MISSING_ID } from '../support/harness';
import {
  GraphBuilder,
  setupEngineSuite,
  startDocument,
  stepReaching,
  userWithNodeMode,
} from '../support/engine';
import type { DocumentTimeline, TimelineEntry } from '../../api/services/document-timeline';

jest.setTimeout(120_000);

describe('a document timeline', () => {
  const s = setupEngineSuite('timeline');
  const assign = (docId: number, nodeId: number, token: string) =>
    s.send('POST', `/api/step/assign?docId=${docId}&nodeId=${nodeId}`, token);
  const timeline = (docId: number, token: string) =>
    s.get<DocumentTimeline>(`/api/v2/document/${docId}/timeline`, token);
  const brief = (e: TimelineEntry) => [e.kind, e.type, e.nodeName, e.who, e.status, e.outcome];

  it('reads a parse, a rerun, a manual step and a send as who did what and when, for a reader', async () => {
    const receiver = await GraphBuilder.create(s.knex);
    const ipr = await receiver.node('IPR', { automatic: true, autoStepStatus: 'ACCEPTED', name: 'Inbox' });
    const g = await GraphBuilder.create(s.knex);
    const hup = await g.node('HUP', { name: 'Upload' });
    const parser = await g.node('FILE_PARSER', { autoStepStatus: 'WAITING', name: 'Parser' });
    const clf = await g.node('CLF', { name: 'Classify' });
    const ips = await g.node('IPS', { automatic: true, autoStepStatus: 'ACCEPTED', name: 'Send' });
    await s
      .knex('nodes')
      .where('id', ips)
      .update({
        settings: JSON.stringify({ receivers: [{ id: ipr }], preferredDocName: 'sent.txt', payload: 'x' }),
      });
    await g.edge(hup, parser);
    await g.edge(parser, clf);
    await g.edge(clf, ips);
    const operator = await userWithNodeMode(s, [
      { componentId: g.processId, type: 'PROCESS', mode: 'WRITE' },
    ]);
    const reader = await userWithNodeMode(s, [{ componentId: g.processId, type: 'PROCESS', mode: 'READ' }]);
    const annotator = await userWithNodeMode(s, [{ componentId: clf, type: 'NODE', mode: 'WRITE' }]);
    const stranger = await userWithNodeMode(s, [
      { componentId: receiver.processId, type: 'PROCESS', mode: 'ADMIN' },
    ]);
    const loginOf = async (u: { id: number }) =>
      (await s.knex('users').where('id', u.id).first('login')).login;
    const operatorLogin = await loginOf(operator);

    const doc = await startDocument(s, g, hup, { content: 'Hello timeline.\n' });
    const parsed = await stepReaching(s.knex, doc.id, parser, ['WAITING']);
    expect((await s.send('PUT', `/api/steps/${parsed.id}/rerun`, s.admin)).status).toBe(200);
    await stepReaching(s.knex, doc.id, parser, ['WAITING']);
    expect((await assign(doc.id, parser, operator.token)).status).toBe(200);
    expect((await s.send('PUT', `/api/steps/${parsed.id}/complete`, operator.token)).status).toBe(200);
    const classify = await stepReaching(s.knex, doc.id, clf, ['WAITING']);
    expect((await assign(doc.id, clf, annotator.token)).status).toBe(200);
    // a refused action is part of the story too: a reader may not complete
    expect((await s.send('PUT', `/api/steps/${classify.id}/complete`, reader.token)).status).toBe(403);
    expect((await s.send('PUT', `/api/steps/${classify.id}/complete`, annotator.token)).status).toBe(200);
    await stepReaching(s.knex, doc.id, ips, ['ACCEPTED']);

    const res = await timeline(doc.id, reader.token);
    expect(res.status).toBe(200);
    const { entries, runs, workflowId } = res.body;
    expect(workflowId).toBe(`document-${doc.id}`);
    expect(runs.length).toBeGreaterThanOrEqual(1);
    const annotatorLogin = await loginOf(annotator);
    const story = entries.filter((e) => e.kind !== 'automatic' && e.kind !== 'interprocess').map(brief);
    expect(story).toEqual([
      ['document', 'started', null, null, null, 'ok'],
      ['step', 'reached', 'Upload', null, null, 'ok'],
      ['step', 'reached', 'Parser', null, null, 'ok'],
      ['step', 'run', 'Parser', null, 'WAITING', 'ok'],
      ['rerun', 'rerun', 'Parser', 'admin', 'PROCESSING', 'ok'],
      ['step', 'run', 'Parser', null, 'WAITING', 'ok'],
      ['assignment', 'startWorking', 'Parser', operatorLogin, 'WAITING', 'ok'],
      ['work', 'complete', 'Parser', operatorLogin, 'DONE', 'ok'],
      ['step', 'reached', 'Classify', null, null, 'ok'],
      ['assignment', 'startWorking', 'Classify', annotatorLogin, 'WAITING', 'ok'],
      ['work', 'complete', 'Classify', annotatorLogin, 'DONE', 'ok'],
      ['step', 'reached', 'Send', null, null, 'ok'],
      ['step', 'run', 'Send', null, 'ACCEPTED', 'ok'],
    ]);
    // times in order, durations of runs and of manual work, steps linked by id
    const times = entries.map((e) => Date.parse(e.time));
    expect(times).toEqual([...times].sort((a, b) => a - b));
    for (const e of entries.filter((x) => x.type === 'run')) expect(e.durationMs).toEqual(expect.any(Number));
    const completed = entries.find((e) => e.type === 'complete' && e.nodeName === 'Classify')!;
    expect(completed.stepId).toBe(classify.id);
    expect(completed.durationMs).toEqual(expect.any(Number));
    expect(entries.find((e) => e.type === 'run')!.detail).toContain('"kind":"text"');

    // the send: the document created in the receiving process, and its receipt on that document
    const sent = entries.find((e) => e.kind === 'interprocess')!;
    expect(sent).toMatchObject({ type: 'sent', nodeName: 'Send', outcome: 'ok' });
    expect(sent.documents).toEqual([{ documentId: expect.any(Number), processId: receiver.processId }]);
    const receivedId = sent.documents![0].documentId;
    const received = await timeline(receivedId, stranger.token);
    expect(received.status).toBe(200);
    expect(received.body.entries.filter((e) => e.kind === 'interprocess').map(brief)).toEqual([
      ['interprocess', 'received', 'Send', null, null, 'ok'],
    ]);
    expect(received.body.entries.find((e) => e.type === 'received')!.documents).toEqual([
      { documentId: doc.id, processId: g.processId },
    ]);

    // the same access rule as the document: a mode on one node of the process reads it; others do not
    expect((await timeline(doc.id, annotator.token)).status).toBe(200);
    expect((await timeline(doc.id, stranger.token)).status).toBe(403);
    expect((await timeline(MISSING_ID, s.admin)).status).toBe(404);
    expect((await timeline(MISSING_ID, reader.token)).status).toBe(403);
    expect((await s.get('/api/v2/document/abc/timeline', s.admin)).status).toBe(400);
    expect((await s.get(`/api/v2/document/${doc.id}/timeline`)).status).toBe(401);
  });

  it('shows a failed parse with its message, ERROR, and the rerun that follows', async () => {
    const g = await GraphBuilder.create(s.knex);
    const hup = await g.node('HUP', { name: 'Upload' });
    const parser = await g.node('FILE_PARSER', { autoStepStatus: 'DONE', name: 'Parser' });
    await g.edge(hup, parser);
    const damaged = Buffer.concat([Buffer.from('%PDF-1.4\n'), crypto.randomBytes(2000)]);
    const doc = await startDocument(s, g, hup, {
      name: 'broken.pdf',
      content: damaged,
      mimeType: 'application/pdf',
    });
    const failed = await stepReaching(s.knex, doc.id, parser, ['ERROR']);
    expect((await s.send('PUT', `/api/steps/${failed.id}/rerun`, s.admin)).status).toBe(200);
    await stepReaching(s.knex, doc.id, parser, ['ERROR']);
    const { entries } = (await timeline(doc.id, s.admin)).body;
    const parserEntries = entries.filter((e) => e.nodeName === 'Parser');
    expect(parserEntries.map(brief)).toEqual([
      ['step', 'reached', 'Parser', null, null, 'ok'],
      ['step', 'run', 'Parser', null, 'ERROR', 'failed'],
      ['rerun', 'rerun', 'Parser', 'admin', 'PROCESSING', 'ok'],
      ['step', 'run', 'Parser', null, 'ERROR', 'failed'],
    ]);
    expect(parserEntries[1].message).toContain('damaged');
    expect(parserEntries[1].detail).toContain('damaged');
  });
});
