/**
 * The document engine end to end: real Temporal dev server, PostgreSQL, a Worker on this suite's task queue
 * and the real txt parser. Human steps go through the API (authorized per spec 2 section 6, refused with
 * 403 / 409), automatic steps run as activities, predicates choose branches, the history reads back.
 */
import { WorkflowUpdateFailedError } from '@temporalio/client';
import fs from 'node:fs';
import path from 'node:path';
import {
  completeUpdate,
  documentWorkflowId,
  stateQuery,
  type DocumentWorkflowState,
} from '../../workflows/contract';
import {
  GraphBuilder,
  classifierBranches,
  documentStatus,
  eventually,
  setupEngineSuite,
  startDocument,
  stepReaching,
  stepsOf,
  userWithNodeMode,
} from '../support/engine';

describe('document engine', () => {
  const s = setupEngineSuite('engine');

  const put = (path: string, token: string, json?: unknown) => s.send('PUT', path, token, json);
  const assign = (docId: number, nodeId: number, token: string) =>
    s.send('POST', `/api/step/assign?docId=${docId}&nodeId=${nodeId}`, token);

  it('walks a txt document through HUP -> FILE_PARSER -> CLF -> SPAN with the users the modes allow', async () => {
    const g = await GraphBuilder.create(s.knex);
    const hup = await g.node('HUP');
    const parser = await g.node('FILE_PARSER', { autoStepStatus: 'DONE' });
    const clf = await g.node('CLF', { requiresAcceptance: true });
    const span = await g.node('SPAN');
    await g.edge(hup, parser);
    await g.edge(parser, clf);
    await g.edge(clf, span);
    const annotator = await userWithNodeMode(s, [
      { componentId: clf, type: 'NODE', mode: 'WRITE' },
      { componentId: span, type: 'NODE', mode: 'WRITE' },
    ]);
    const reader = await userWithNodeMode(s, [{ componentId: g.processId, type: 'PROCESS', mode: 'READ' }]);
    const clfAdmin = await userWithNodeMode(s, [{ componentId: clf, type: 'NODE', mode: 'ADMIN' }]);

    const doc = await startDocument(s, g, hup, { content: 'Zażółć gęślą jaźń. The quick brown fox.\n' });
    const clfStep = await stepReaching(s.knex, doc.id, clf, ['WAITING']);
    const steps = await stepsOf(s.knex, doc.id);
    expect(steps.map((x) => [x.nodeId, x.status, x.order])).toEqual([
      [hup, 'ACCEPTED', 1],
      [parser, 'DONE', 2],
      [clf, 'WAITING', 3],
    ]);
    const content = await s.knex('document_contents').where('document_id', doc.id).first();
    expect(content.content).toContain('quick brown fox');
    expect(await documentStatus(s.knex, doc.id)).toBe('WAITING');

    // Refusals: a reader has no WRITE (403); a transition the status does not allow (409).
    expect((await assign(doc.id, clf, reader.token)).status).toBe(403);
    expect((await put(`/api/steps/${clfStep.id}/complete`, reader.token)).status).toBe(403);
    const early = await put(`/api/steps/${clfStep.id}/complete`, annotator.token);
    expect(early.status).toBe(409);
    expect(early.body).toMatchObject({ message: 'error.step.notStarted' });
    expect(early.body.detail).toMatch(/Start working/);
    expect((await put(`/api/steps/${clfStep.id}/activate`, annotator.token)).status).toBe(409);

    // Start working (assign), then complete; acceptance needs a node admin.
    const started = await assign(doc.id, clf, annotator.token);
    expect(started.status).toBe(200);
    expect(started.body).toMatchObject({ id: clfStep.id, status: 'WAITING', userId: annotator.id });
    expect(started.body.actions).toEqual(expect.arrayContaining(['complete']));
    expect(started.body.actions).not.toContain('accept');
    expect((await put(`/api/steps/${clfStep.id}/accept`, annotator.token)).status).toBe(403);
    // A node admin may take a started step over (naming it), then release it.
    const taken = await s.send(
      'POST',
      `/api/step/assign?docId=${doc.id}&nodeId=${clf}&stepId=${clfStep.id}`,
      clfAdmin.token,
    );
    expect(taken.status).toBe(200);
    expect(taken.body.userId).toBe(clfAdmin.id);
    const released = await put('/api/steps', clfAdmin.token, { id: clfStep.id, blockedBy: null });
    expect(released.body.userId).toBeNull();
    expect(released.body.documentState.steps.find((x: { id: number }) => x.id === clfStep.id)).toMatchObject({
      userId: null,
    });
    expect((await assign(doc.id, clf, annotator.token)).body.userId).toBe(annotator.id);

    const completed = await put(`/api/steps/${clfStep.id}/complete`, annotator.token);
    expect(completed.status).toBe(200);
    expect(completed.body).toMatchObject({ status: 'DONE', documentStatus: 'WAITING' });
    // The update returned after the projection was written: no polling needed.
    expect((await stepsOf(s.knex, doc.id)).map((x) => x.nodeId)).not.toContain(span);
    const again = await put(`/api/steps/${clfStep.id}/complete`, annotator.token);
    expect(again.status).toBe(409);
    expect(again.body.message).toBe('error.step.notWaiting');

    const accepted = await put(`/api/steps/${clfStep.id}/accept`, clfAdmin.token);
    expect(accepted.status).toBe(200);
    expect(accepted.body.status).toBe('ACCEPTED');
    const spanStep = (await stepsOf(s.knex, doc.id)).find((x) => x.nodeId === span)!;
    expect(spanStep).toMatchObject({ status: 'WAITING', order: 4, master: true });
    // The answer carries the document's state after the action, as the state endpoint answers it to the
    // caller (the step the flow created included), so a client needs no second request; its step is the
    // answer's own.
    const { documentState: afterAccept, documentStatus: _, ...acceptedStep } = accepted.body;
    expect(afterAccept).toEqual((await s.get(`/api/v2/document/${doc.id}/state`, clfAdmin.token)).body);
    expect(afterAccept.steps.map((x: { nodeId: number; status: string }) => [x.nodeId, x.status])).toEqual([
      [hup, 'ACCEPTED'],
      [parser, 'DONE'],
      [clf, 'ACCEPTED'],
      [span, 'WAITING'],
    ]);
    expect(afterAccept.steps[2]).toEqual(acceptedStep);

    // The SPAN node does not require acceptance: completing it ends the document.
    expect((await assign(doc.id, span, clfAdmin.token)).status).toBe(403);
    expect((await assign(doc.id, span, annotator.token)).status).toBe(200);
    const last = await put(`/api/steps/${spanStep.id}/complete`, annotator.token);
    expect(last.body).toMatchObject({ status: 'DONE', documentStatus: 'DONE' });
    expect(last.body.documentState.document.status).toBe('DONE');
    expect(await documentStatus(s.knex, doc.id)).toBe('DONE');

    // The workflow itself refuses a transition the status does not allow (its validator), whatever the API.
    const handle = s.client.workflow.getHandle(documentWorkflowId(doc.id));
    const refused = await handle
      .executeUpdate(completeUpdate, {
        args: [{ stepId: spanStep.id, actor: { userId: annotator.id, login: 'x', nodeMode: 'ADMIN' } }],
      })
      .catch((e: unknown) => e);
    expect(refused).toBeInstanceOf(WorkflowUpdateFailedError);
    expect((refused as WorkflowUpdateFailedError).cause?.message).toMatch(
      /Only a waiting step can be completed/,
    );
    const wfState: DocumentWorkflowState = await handle.query(stateQuery);
    expect(wfState.documentStatus).toBe('DONE');
    expect(wfState.steps.map((x) => x.status)).toEqual(['ACCEPTED', 'DONE', 'ACCEPTED', 'DONE']);

    // The state endpoint: document, steps with node info, assignees, groups.
    const state = await s.get(`/api/v2/document/${doc.id}/state`, reader.token);
    expect(state.status).toBe(200);
    expect(state.body.document).toMatchObject({ id: doc.id, status: 'DONE', documentType: 'TEXTFILE' });
    expect(state.body.steps).toHaveLength(4);
    expect(state.body.steps[2]).toMatchObject({
      status: 'ACCEPTED',
      nodeDTO: { id: clf, activityType: 'CLF', requiresAcceptance: true, priority: 2 },
      blockedBy: { id: annotator.id },
    });
    expect(state.body.assignees.map((a: { id: number }) => a.id).sort()).toEqual(
      [annotator.id, clfAdmin.id].sort(),
    );
    expect(state.body.waitingStepsBracketsInformation).toEqual([]);
    expect(state.body.doneStepsInformation.map((b: { activityType: string }) => b.activityType)).toEqual([
      'HUP',
      'FILE_PARSER',
      'CLF',
      'SPAN',
    ]);
    expect(state.body.documentStepsInformation).toHaveLength(4);
    expect(state.body.steps[2].actions).toEqual([]); // a reader may do nothing
    const mine = await s.get(`/api/v2/document/${doc.id}/state`, annotator.token); // granted nodes only
    expect(mine.status).toBe(200);
    expect(mine.body.steps[3].actions).toEqual(['accept', 'activate', 'unassign']);
    const outsider = await userWithNodeMode(s, []);
    expect((await s.get(`/api/v2/document/${doc.id}/state`, outsider.token)).status).toBe(403);

    // History: readable events in order, with who did what.
    const history = await s.get(`/api/v2/document/${doc.id}/history`, reader.token);
    expect(history.status).toBe(200);
    const events = history.body as {
      type: string;
      name: string | null;
      who: string | null;
      stepId: number | null;
      time: string;
      eventId: number;
      failure: string | null;
    }[];
    expect(events[0].type).toBe('started');
    // In order of event id, which is what Temporal promises; not by time: event times are the server's clock
    // at different moments (an activity's start is only written with its result) and interleave under load.
    expect(events.every((e) => !Number.isNaN(Date.parse(e.time)))).toBe(true);
    const ids = events.map((e) => e.eventId);
    expect([...ids].sort((a, b) => a - b)).toEqual(ids);
    const parse = events.find((e) => e.type === 'activityCompleted' && e.name === 'parseDocument');
    expect(parse).toBeDefined();
    const updates = events.filter((e) => e.type === 'updateCompleted').map((e) => [e.name, e.stepId]);
    expect(updates).toEqual([
      ['startWorking', clfStep.id],
      ['startWorking', clfStep.id],
      ['unassign', clfStep.id],
      ['startWorking', clfStep.id],
      ['complete', clfStep.id],
      ['accept', clfStep.id],
      ['startWorking', spanStep.id],
      ['complete', spanStep.id],
    ]);
    const failed = events.filter((e) => e.type === 'updateFailed');
    expect(failed).toEqual([]); // validator rejections never reach the history
    const firstComplete = events.find((e) => e.type === 'updateAccepted' && e.name === 'complete');
    expect(firstComplete?.who).toBeTruthy();
  });

  it('sends a document down the branch whose classifier predicate holds', async () => {
    const { g, hup, clf, spanA, classA } = await classifierBranches(s.knex, async (g) => ({
      spanNone: await g.node('SPAN'),
    }));
    const { spanNone } = g.extra;
    // The extra empty option: "no classifier tag of that node".
    await g.predicate({
      edgeId: await g.edge(clf, spanNone),
      predicateType: 'CLF',
      nodeId: clf,
      clfTypeId: null,
    });

    const tagged = await startDocument(s, g, hup, { content: 'one' });
    const untagged = await startDocument(s, g, hup, { content: 'two' });
    for (const doc of [tagged, untagged]) {
      const step = await stepReaching(s.knex, doc.id, clf, ['WAITING']);
      if (doc === tagged)
        await s.knex('classifier_tags').insert({
          document_id: doc.id,
          step_id: step.id,
          node_id: clf,
          classifier_type_id: classA,
        });
      expect((await assign(doc.id, clf, s.admin)).status).toBe(200);
      expect((await put(`/api/steps/${step.id}/complete`, s.admin)).status).toBe(200);
    }
    expect((await stepsOf(s.knex, tagged.id)).map((x) => x.nodeId)).toEqual([hup, clf, spanA]);
    expect((await stepsOf(s.knex, untagged.id)).map((x) => x.nodeId)).toEqual([hup, clf, spanNone]);
  });

  it('sends a document down the branch whose NER predicates hold (AND / OR groups)', async () => {
    const g = await GraphBuilder.create(s.knex);
    const hup = await g.node('HUP');
    const span = await g.node('SPAN');
    const clfX = await g.node('CLF');
    const clfY = await g.node('CLF');
    const clfZ = await g.node('CLF');
    const person = await g.nerTagType(span);
    const place = await g.nerTagType(span);
    const date = await g.nerTagType(span);
    await g.edge(hup, span);
    await g.predicate({
      edgeId: await g.edge(span, clfX),
      predicateType: 'NER',
      nodeId: span,
      nerTagTypeId: person,
    });
    // Y: person AND place -> not taken (no place tag).
    const edgeY = await g.edge(span, clfY);
    const and = await g.predicate({ edgeId: edgeY, predicateType: 'COMPLEX', logicalOperator: 'AND' });
    await g.predicate({
      edgeId: edgeY,
      parentId: and,
      predicateType: 'NER',
      nodeId: span,
      nerTagTypeId: person,
    });
    await g.predicate({
      edgeId: edgeY,
      parentId: and,
      predicateType: 'NER',
      nodeId: span,
      nerTagTypeId: place,
    });
    // Z: place OR not date -> taken (no date tag).
    const edgeZ = await g.edge(span, clfZ);
    const or = await g.predicate({ edgeId: edgeZ, predicateType: 'COMPLEX', logicalOperator: 'OR' });
    await g.predicate({
      edgeId: edgeZ,
      parentId: or,
      predicateType: 'NER',
      nodeId: span,
      nerTagTypeId: place,
    });
    await g.predicate({
      edgeId: edgeZ,
      parentId: or,
      predicateType: 'NER',
      nodeId: span,
      nerTagTypeId: date,
      equal: false,
    });

    const doc = await startDocument(s, g, hup, { content: 'Jan went home.' });
    const step = await stepReaching(s.knex, doc.id, span, ['WAITING']);
    await s.knex('ner_tags').insert({
      document_id: doc.id,
      step_id: step.id,
      ner_tag_type_id: person,
      type: 'SPAN_TAG',
      start_offset: 0,
      end_offset: 3,
    });
    expect((await assign(doc.id, span, s.admin)).status).toBe(200);
    expect((await put(`/api/steps/${step.id}/complete`, s.admin)).status).toBe(200);
    expect((await stepsOf(s.knex, doc.id)).map((x) => x.nodeId)).toEqual([hup, span, clfX, clfZ]);
  });

  it('marks a failing automatic step ERROR, keeps the step before DONE, and an admin rerun fixes it', async () => {
    const g = await GraphBuilder.create(s.knex);
    const hup = await g.node('HUP');
    const clf = await g.node('CLF');
    const parser = await g.node('FILE_PARSER', { autoStepStatus: 'ACCEPTED' });
    const sender = await g.node('SEND_TO_GOOGLE_DRIVE', { automatic: true });
    await g.edge(hup, clf);
    await g.edge(clf, parser);
    await g.edge(parser, sender);
    const writer = await userWithNodeMode(s, [{ componentId: g.processId, type: 'PROCESS', mode: 'WRITE' }]);
    const parserAdmin = await userWithNodeMode(s, [{ componentId: parser, type: 'NODE', mode: 'ADMIN' }]);

    // The file is not in the store: the parser fails without retrying.
    const doc = await startDocument(s, g, hup, { content: 'Rerun fixes this text.', store: false });
    const clfStep = await stepReaching(s.knex, doc.id, clf, ['WAITING']);
    expect((await assign(doc.id, clf, writer.token)).status).toBe(200);
    expect((await put(`/api/steps/${clfStep.id}/complete`, writer.token)).status).toBe(200);
    const failed = await stepReaching(s.knex, doc.id, parser, ['ERROR'], 60000);
    expect(failed.errorMessage).toMatch(/is missing/);
    expect((await stepsOf(s.knex, doc.id)).find((x) => x.id === clfStep.id)!.status).toBe('DONE');
    expect(await documentStatus(s.knex, doc.id)).toBe('WAITING');
    const state = await s.get(`/api/v2/document/${doc.id}/state`, writer.token);
    expect(state.body.waitingStepsBracketsInformation).toEqual([
      {
        activityType: 'FILE_PARSER',
        steps: [expect.objectContaining({ id: failed.id, errorMessage: failed.errorMessage })],
      },
    ]);

    // The rerun list of the node (admins only), then the rerun itself (admins only).
    expect(
      (await s.send('POST', `/api/nodes/${parser}/steps/rerun?page=0&size=10`, writer.token)).status,
    ).toBe(403);
    const list = await s.send('POST', `/api/nodes/${parser}/steps/rerun?page=0&size=10`, parserAdmin.token);
    expect(list.status).toBe(200);
    expect(list.headers.get('x-total-count')).toBe('1');
    expect(list.body).toEqual([
      {
        id: failed.id,
        documentId: doc.id,
        documentName: expect.any(String),
        status: 'ERROR',
        master: true,
        errorMessage: expect.stringContaining('is missing: upload it again'),
      },
    ]);
    expect((await put(`/api/steps/${failed.id}/rerun`, writer.token)).status).toBe(403);
    expect((await put(`/api/steps/${clfStep.id}/rerun`, parserAdmin.token)).status).toBe(403);

    fs.mkdirSync(path.dirname(doc.absolute), { recursive: true });
    fs.writeFileSync(doc.absolute, 'Rerun fixes this text.');
    const rerun = await put(`/api/steps/${failed.id}/rerun`, parserAdmin.token);
    expect(rerun.status).toBe(200);
    expect(['PROCESSING', 'ACCEPTED']).toContain(rerun.body.status);
    const fixed = await stepReaching(s.knex, doc.id, parser, ['ACCEPTED'], 60000);
    expect(fixed).toMatchObject({ id: failed.id, errorMessage: null });
    const content = await s.knex('document_contents').where('document_id', doc.id).first();
    expect(content.content).toContain('Rerun fixes this text.');

    // The next automatic node cannot run (no drive connection): an ERROR that says why.
    const drive = await stepReaching(s.knex, doc.id, sender, ['ERROR'], 30000);
    expect(drive.errorMessage).toBe('The cloud-drive node has no cloud-drive connection');
    // A node admin may run the failed action again: a new execution, failing the same way.
    const again = await put(`/api/steps/${drive.id}/rerun`, s.admin);
    expect(again.status).toBe(200);
    await eventually('the second run of the drive step', async () =>
      Number((await s.knex('action_execution_results').where('step_id', drive.id).count({ n: '*' }))[0].n) ===
      2
        ? true
        : undefined,
    );
    await stepReaching(s.knex, doc.id, sender, ['ERROR'], 30000);
    expect((await stepsOf(s.knex, doc.id)).find((x) => x.id === failed.id)!.status).toBe('ACCEPTED');

    // The history tells the failure, the rerun and who asked for it.
    const history = (await s.get(`/api/v2/document/${doc.id}/history`, parserAdmin.token)).body as {
      type: string;
      name: string | null;
      stepId: number | null;
      failure: string | null;
    }[];
    const parses = history.filter((e) => e.name === 'parseDocument' && e.type !== 'activityScheduled');
    expect(parses.map((e) => [e.type, e.stepId])).toEqual([
      ['activityFailed', failed.id],
      ['activityCompleted', failed.id],
    ]);
    expect(parses[0].failure).toMatch(/is missing/);
    expect(
      history.some((e) => e.type === 'updateCompleted' && e.name === 'rerun' && e.stepId === failed.id),
    ).toBe(true);
  });

  it('reopens a step after the flow moved on: keeps downstream steps and tags, re-evaluates edges once completed', async () => {
    const { g, hup, clf, spanA, spanB, classA, classB } = await classifierBranches(s.knex);
    const nerType = await g.nerTagType(spanA);
    const writer = await userWithNodeMode(s, [{ componentId: g.processId, type: 'PROCESS', mode: 'WRITE' }]);

    const doc = await startDocument(s, g, hup, { content: 'reactivation' });
    const clfStep = await stepReaching(s.knex, doc.id, clf, ['WAITING']);
    await s
      .knex('classifier_tags')
      .insert({ document_id: doc.id, step_id: clfStep.id, node_id: clf, classifier_type_id: classA });
    await assign(doc.id, clf, writer.token);
    await put(`/api/steps/${clfStep.id}/complete`, writer.token);
    const stepA = (await stepsOf(s.knex, doc.id)).find((x) => x.nodeId === spanA)!;
    await assign(doc.id, spanA, writer.token);
    const [tag] = await s
      .knex('ner_tags')
      .insert({
        document_id: doc.id,
        step_id: stepA.id,
        ner_tag_type_id: nerType,
        start_offset: 0,
        end_offset: 4,
      })
      .returning('id');

    // Reopen the classifier step (a writer may activate a DONE step); downstream stays as it is.
    const reopened = await put(`/api/steps/${clfStep.id}/activate`, s.admin);
    expect(reopened.body).toMatchObject({ status: 'WAITING', rejected: true, documentStatus: 'WAITING' });
    let steps = await stepsOf(s.knex, doc.id);
    expect(steps.map((x) => [x.nodeId, x.status])).toEqual([
      [hup, 'ACCEPTED'],
      [clf, 'WAITING'],
      [spanA, 'WAITING'],
    ]);

    // A new class: completing again takes the other edge; the old branch and its tag are kept.
    await s.knex('classifier_tags').where({ document_id: doc.id, node_id: clf }).delete();
    await s
      .knex('classifier_tags')
      .insert({ document_id: doc.id, step_id: clfStep.id, node_id: clf, classifier_type_id: classB });
    const done = await put(`/api/steps/${clfStep.id}/complete`, writer.token);
    expect(done.body).toMatchObject({ status: 'DONE', rejected: false });
    steps = await stepsOf(s.knex, doc.id);
    expect(steps.map((x) => x.nodeId)).toEqual([hup, clf, spanA, spanB]);
    expect(steps[2].id).toBe(stepA.id);
    expect(await s.knex('ner_tags').where('id', tag.id).first()).toBeDefined();

    // Both branches done: DONE; reopening a step of a DONE document brings it back to WAITING.
    for (const st of steps.slice(2)) {
      await assign(doc.id, st.nodeId, writer.token);
      await put(`/api/steps/${st.id}/complete`, writer.token);
    }
    expect(await documentStatus(s.knex, doc.id)).toBe('DONE');
    const back = await put(`/api/steps/${steps[3].id}/activate`, writer.token);
    expect(back.body).toMatchObject({ status: 'WAITING', rejected: false, documentStatus: 'WAITING' });
    expect(await documentStatus(s.knex, doc.id)).toBe('WAITING');
    await put(`/api/steps/${steps[3].id}/complete`, writer.token);
    expect((await stepsOf(s.knex, doc.id)).map((x) => x.nodeId)).toEqual([hup, clf, spanA, spanB]);
    expect(await documentStatus(s.knex, doc.id)).toBe('DONE');

    // Cancel acceptance: accepted steps reopen for admins only.
    const accepted = await put(`/api/steps/${steps[3].id}/accept`, writer.token); // no acceptance required
    expect(accepted.body.status).toBe('ACCEPTED');
    expect((await put(`/api/steps/${steps[3].id}/cancel-acceptance`, writer.token)).status).toBe(403);
    const cancelled = await put(`/api/steps/${steps[3].id}/cancel-acceptance`, s.admin);
    expect(cancelled.body).toMatchObject({ status: 'WAITING', documentStatus: 'WAITING' });
    expect((await put(`/api/steps/${steps[0].id}/cancel-acceptance`, s.admin)).body.message).toBe(
      'error.step.uploadStep',
    );
  });

  it('gives a multiprocessed node 1 + additional submits steps; the flow leaves it when all are done', async () => {
    const g = await GraphBuilder.create(s.knex);
    const hup = await g.node('HUP');
    const clf = await g.node('CLF', { additionalNodeSubmits: [{ docId: null, submits: 1 }] });
    const span = await g.node('SPAN');
    await g.edge(hup, clf);
    await g.edge(clf, span);
    const doc = await startDocument(s, g, hup, { content: 'two annotators' });
    await stepReaching(s.knex, doc.id, clf, ['WAITING']);
    const [first, second] = (await stepsOf(s.knex, doc.id)).filter((x) => x.nodeId === clf);
    expect([first.master, second.master]).toEqual([true, false]);

    const writer = await userWithNodeMode(s, [{ componentId: g.processId, type: 'PROCESS', mode: 'WRITE' }]);
    expect((await put('/api/steps', writer.token, { id: second.id, master: true })).status).toBe(403);
    const marked = await put('/api/steps', s.admin, { id: second.id, master: true });
    expect(marked.body.master).toBe(true);
    expect((await stepsOf(s.knex, doc.id)).filter((x) => x.nodeId === clf).map((x) => x.master)).toEqual([
      false,
      true,
    ]);
    expect((await put('/api/steps', s.admin, { id: second.id, master: true })).body.master).toBe(true);

    // Two users each take one step of the node (assign without stepId picks a free one).
    const other = await userWithNodeMode(s, [{ componentId: g.processId, type: 'PROCESS', mode: 'WRITE' }]);
    expect((await assign(doc.id, clf, writer.token)).body.id).toBe(first.id);
    expect((await assign(doc.id, clf, other.token)).body.id).toBe(second.id);
    const third = await userWithNodeMode(s, [{ componentId: g.processId, type: 'PROCESS', mode: 'WRITE' }]);
    expect((await assign(doc.id, clf, third.token)).body.message).toBe('error.step.noFreeStep');
    expect((await put(`/api/steps/${second.id}/complete`, writer.token)).body.message).toBe(
      'error.step.assignedToOther',
    );
    await put(`/api/steps/${first.id}/complete`, writer.token);
    expect((await stepsOf(s.knex, doc.id)).map((x) => x.nodeId)).not.toContain(span);
    await put(`/api/steps/${second.id}/complete`, other.token);
    expect((await stepsOf(s.knex, doc.id)).map((x) => x.nodeId)).toContain(span);
  });

  it('follows the graph as it is when a transition is made', async () => {
    const g = await GraphBuilder.create(s.knex);
    const hup = await g.node('HUP');
    const clf = await g.node('CLF');
    const spanOld = await g.node('SPAN');
    await g.edge(hup, clf);
    const oldEdge = await g.edge(clf, spanOld);
    const doc = await startDocument(s, g, hup, { content: 'graph edits' });
    const step = await stepReaching(s.knex, doc.id, clf, ['WAITING']);
    // The process is edited while the document waits at the classifier.
    await s.knex('edges').where('id', oldEdge).delete();
    const spanNew = await g.node('SPAN');
    await g.edge(clf, spanNew);
    await s.knex('nodes').where('id', clf).update({ requires_acceptance: true });
    await assign(doc.id, clf, s.admin);
    await put(`/api/steps/${step.id}/complete`, s.admin);
    expect((await stepsOf(s.knex, doc.id)).map((x) => x.nodeId)).toEqual([hup, clf]); // acceptance now required
    await put(`/api/steps/${step.id}/accept`, s.admin);
    expect((await stepsOf(s.knex, doc.id)).map((x) => x.nodeId)).toEqual([hup, clf, spanNew]);
    await eventually('the workflow to be idle', async () => {
      const st: DocumentWorkflowState = await s.client.workflow
        .getHandle(documentWorkflowId(doc.id))
        .query(stateQuery);
      return st.queue.length === 0;
    });
  });

  it('asks about training only when a finished step is of a node whose automatic training is on', async () => {
    const g = await GraphBuilder.create(s.knex);
    const hup = await g.node('HUP');
    const trained = await g.node('CLF');
    const untrained = await g.node('CLF');
    await g.edge(hup, trained);
    await g.edge(trained, untrained);
    const config = (automaticTraining: boolean) => ({
      model: 'm',
      requestPath: 'http://127.0.0.1:9/train',
      automaticTraining,
      // Never reached: maybeTrainNode only counts, it does not call the model server.
      threshold: 1000,
    });
    await s
      .knex('nodes')
      .where('id', trained)
      .update({ trainable_config: config(true) });
    await s
      .knex('nodes')
      .where('id', untrained)
      .update({ trainable_config: config(false) });
    const doc = await startDocument(s, g, hup, { content: 'training' });
    for (const node of [trained, untrained]) {
      const step = await stepReaching(s.knex, doc.id, node, ['WAITING']);
      await assign(doc.id, node, s.admin);
      expect((await put(`/api/steps/${step.id}/complete`, s.admin)).status).toBe(200);
    }
    expect(await documentStatus(s.knex, doc.id)).toBe('DONE');
    const asked = async () => {
      const history = await s.client.workflow.getHandle(documentWorkflowId(doc.id)).fetchHistory();
      return (history.events ?? [])
        .map((e) => e.activityTaskScheduledEventAttributes)
        .filter((a) => a?.activityType?.name === 'maybeTrainNode')
        .map((a) => JSON.parse(Buffer.from(a!.input!.payloads![0].data!).toString('utf8')).nodeId);
    };
    await eventually('the training question to be asked', async () => (await asked()).length > 0);
    expect(await asked()).toEqual([trained]);
  });
});
