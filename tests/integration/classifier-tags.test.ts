/**
 * The classifier-tag API of the workspace (issue 11 section 3): the annotator of a CLF step sets and removes
 * the document's classifier tags through the API, then completes the step and the graph's predicates route
 * the document by them (real worker, real workflow). Access per mode, the editable-step rule and another
 * process's document are refused.
 */
import type { ClassifierTagDTO } from '../../domain/tags';
import {
  classifierBranches,
  setupEngineSuite,
  startDocument,
  stepReaching,
  stepsOf,
  userWithNodeMode,
} from '../support/engine';
import { MISSING_ID } from '../support/harness';

describe('classifier tags API', () => {
  const s = setupEngineSuite('classifier-tags');
  const add = (token: string, json: unknown) => s.send('POST', '/api/classifier-tags', token, json);
  const remove = (token: string, id: number) => s.send('DELETE', `/api/classifier-tags/${id}`, token);
  const list = (token: string, documentId: number) =>
    s.get<ClassifierTagDTO[]>(`/api/classifier-tags?documentId=${documentId}`, token);

  it('sets and removes classes on the CLF step; completing it routes the document by the predicates', async () => {
    const { g, hup, clf, spanA, spanB, classA, classB } = await classifierBranches(s.knex);
    const annotator = await userWithNodeMode(s, [{ componentId: clf, type: 'NODE', mode: 'WRITE' }]);
    const reader = await userWithNodeMode(s, [{ componentId: g.processId, type: 'PROCESS', mode: 'READ' }]);
    const spanWriter = await userWithNodeMode(s, [{ componentId: spanA, type: 'NODE', mode: 'WRITE' }]);
    const doc = await startDocument(s, g, hup);
    const step = await stepReaching(s.knex, doc.id, clf, ['WAITING']);
    const set = (token: string, classifierTypeId: number, extra: Record<string, unknown> = {}) =>
      add(token, { documentId: doc.id, classifierTypeId, ...extra });

    // Not started yet: the annotator may not classify; READ or WRITE on another node never may.
    const early = await set(annotator.token, classB);
    expect([early.status, early.body.message, early.body.errorKey]).toEqual([
      409,
      'error.tag.stepNotEditable',
      'notStarted',
    ]);
    expect((await set(reader.token, classB)).status).toBe(403);
    expect((await set(spanWriter.token, classB)).status).toBe(403);

    expect(
      (await s.send('POST', `/api/step/assign?docId=${doc.id}&nodeId=${clf}`, annotator.token)).status,
    ).toBe(200);
    const b = await set(annotator.token, classB, { nodeId: spanA, origin: 'LLM' });
    expect(b.status).toBe(201);
    expect(b.body).toMatchObject({
      documentId: doc.id,
      stepId: step.id,
      nodeId: clf,
      classifierTypeId: classB,
      classifierType: { id: classB, nodeId: clf },
      origin: 'USER',
      createdById: annotator.id,
    });
    const again = await set(annotator.token, classB);
    expect([again.status, again.body.id]).toEqual([200, b.body.id]);
    // The annotator changes its mind: B off, A on.
    expect((await remove(reader.token, b.body.id)).status).toBe(403);
    expect((await remove(annotator.token, b.body.id)).status).toBe(204);
    expect((await set(annotator.token, classA)).status).toBe(201);
    const read = await list(reader.token, doc.id);
    expect(read.status).toBe(200);
    expect(read.body.map((t) => [t.classifierTypeId, t.origin])).toEqual([[classA, 'USER']]);

    expect((await s.send('PUT', `/api/steps/${step.id}/complete`, annotator.token)).status).toBe(200);
    await stepReaching(s.knex, doc.id, spanA, ['WAITING']);
    expect((await stepsOf(s.knex, doc.id)).map((x) => x.nodeId)).toEqual([hup, clf, spanA]);
    expect((await stepsOf(s.knex, doc.id)).some((x) => x.nodeId === spanB)).toBe(false);

    // The step is done: its classes are read-only now.
    const late = await set(annotator.token, classB);
    expect([late.status, late.body.errorKey]).toEqual([409, 'notWaiting']);
    const stay = await remove(annotator.token, read.body[0].id);
    expect([stay.status, stay.body.errorKey]).toEqual([409, 'notWaiting']);
  });

  it("refuses another process's document and classes (no IDOR), and unknown ids alike", async () => {
    const p = await classifierBranches(s.knex);
    const q = await classifierBranches(s.knex);
    const both = await userWithNodeMode(s, [
      { componentId: p.g.processId, type: 'PROCESS', mode: 'WRITE' },
      { componentId: q.g.processId, type: 'PROCESS', mode: 'WRITE' },
    ]);
    const qAdmin = await userWithNodeMode(s, [
      { componentId: q.g.processId, type: 'PROCESS', mode: 'ADMIN' },
    ]);
    const pDoc = await startDocument(s, p.g, p.hup);
    const qDoc = await startDocument(s, q.g, q.hup);
    const pStep = await stepReaching(s.knex, pDoc.id, p.clf, ['WAITING']);
    await stepReaching(s.knex, qDoc.id, q.clf, ['WAITING']);
    await s.knex('steps').where('id', pStep.id).update({ blocked_by_id: both.id });
    const [pTag] = await s
      .knex('classifier_tags')
      .insert({ document_id: pDoc.id, step_id: pStep.id, node_id: p.clf, classifier_type_id: p.classA })
      .returning('id');

    // P's class on Q's document and the other way round, by a user with WRITE on both processes
    expect((await add(both.token, { documentId: qDoc.id, classifierTypeId: p.classA })).status).toBe(403);
    expect((await add(both.token, { documentId: pDoc.id, classifierTypeId: q.classA })).status).toBe(403);
    expect((await add(s.admin, { documentId: qDoc.id, classifierTypeId: p.classA })).status).toBe(404);
    // Q's admin reaches nothing of P
    expect((await list(qAdmin.token, pDoc.id)).status).toBe(403);
    expect((await remove(qAdmin.token, pTag.id)).status).toBe(403);
    expect((await add(qAdmin.token, { documentId: pDoc.id, classifierTypeId: p.classB })).status).toBe(403);
    // unknown ids answer like unreachable ones
    expect((await remove(qAdmin.token, MISSING_ID)).status).toBe(403);
    expect((await list(qAdmin.token, MISSING_ID)).status).toBe(403);
    expect((await add(qAdmin.token, { documentId: MISSING_ID, classifierTypeId: q.classA })).status).toBe(
      403,
    );
    expect((await remove(s.admin, MISSING_ID)).status).toBe(404);
    expect(await s.knex('classifier_tags').where('document_id', qDoc.id).count('* as n').first()).toEqual({
      n: 0,
    });
    expect((await list(both.token, pDoc.id)).body.map((t) => t.id)).toEqual([pTag.id]);
  });
});
