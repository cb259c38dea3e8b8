/**
 * Blind multi-annotation (issue 31 section 1): on a multiprocessed node each annotator's classes and spans are
 * stored in their own step, each sees only their own until their step is done (and the others' after only when
 * the node says so), a reviewer (ADMIN) sees all, others see the master step's result once the node is done,
 * and the predicates route the document by the master step's classes alone (real worker, real workflow).
 */
import type { ClassifierTagDTO, NerTagDTO } from '../../domain/tags';
import {
  GraphBuilder,
  setupEngineSuite,
  startDocument,
  stepReaching,
  stepsOf,
  userWithNodeMode,
} from '../support/engine';

describe('blind multi-annotation', () => {
  const s = setupEngineSuite('blind-annotation');
  const classes = async (token: string, documentId: number) => {
    const r = await s.get<ClassifierTagDTO[]>(`/api/classifier-tags?documentId=${documentId}`, token);
    expect(r.status).toBe(200);
    return r.body.map((t) => [t.stepId, t.classifierTypeId]);
  };
  const assign = (docId: number, nodeId: number, token: string) =>
    s.send('POST', `/api/step/assign?docId=${docId}&nodeId=${nodeId}`, token);

  it("keeps each annotator's classes in their step, hides them from each other, routes by the master", async () => {
    const g = await GraphBuilder.create(s.knex);
    const hup = await g.node('HUP');
    const clf = await g.node('CLF', { additionalNodeSubmits: [{ docId: null, submits: 1 }] });
    const spanA = await g.node('SPAN');
    const spanB = await g.node('SPAN');
    const classA = await g.classifierType(clf);
    const classB = await g.classifierType(clf);
    await g.edge(hup, clf);
    for (const [to, cls] of [
      [spanA, classA],
      [spanB, classB],
    ])
      await g.predicate({ edgeId: await g.edge(clf, to), predicateType: 'CLF', nodeId: clf, clfTypeId: cls });
    const grant = { componentId: g.processId, type: 'PROCESS' as const };
    const a = await userWithNodeMode(s, [{ ...grant, mode: 'WRITE' }]);
    const b = await userWithNodeMode(s, [{ ...grant, mode: 'WRITE' }]);
    const reader = await userWithNodeMode(s, [{ ...grant, mode: 'READ' }]);
    const reviewer = await userWithNodeMode(s, [
      { componentId: clf, type: 'NODE', mode: 'ADMIN' },
      { ...grant, mode: 'READ' },
    ]);
    const doc = await startDocument(s, g, hup, { content: 'two annotators, one document' });
    await stepReaching(s.knex, doc.id, clf, ['WAITING']);
    const [first, second] = (await stepsOf(s.knex, doc.id)).filter((x) => x.nodeId === clf);
    expect((await assign(doc.id, clf, a.token)).body.id).toBe(first.id);
    expect((await assign(doc.id, clf, b.token)).body.id).toBe(second.id);
    const set = (token: string, classifierTypeId: number) =>
      s.send('POST', '/api/classifier-tags', token, { documentId: doc.id, classifierTypeId });

    // The same class by both: two tags, each in its annotator's step (not the first one's tag twice).
    const aA = await set(a.token, classA);
    const bA = await set(b.token, classA);
    expect([aA.status, aA.body.stepId]).toEqual([201, first.id]);
    expect([bA.status, bA.body.stepId]).toEqual([201, second.id]);
    expect(bA.body.id).not.toBe(aA.body.id);
    expect((await set(b.token, classB)).status).toBe(201);
    // B cannot remove A's class (it is A's step's), nor A B's.
    const foreign = await s.send('DELETE', `/api/classifier-tags/${aA.body.id}`, b.token);
    expect([foreign.status, foreign.body.errorKey]).toEqual([409, 'assignedToOther']);

    // Blind while they work; the reviewer sees both; a reader sees nothing of the unfinished node.
    expect(await classes(a.token, doc.id)).toEqual([[first.id, classA]]);
    expect(await classes(b.token, doc.id)).toEqual([
      [second.id, classA],
      [second.id, classB],
    ]);
    expect((await classes(reviewer.token, doc.id)).length).toBe(3);
    expect(await classes(reader.token, doc.id)).toEqual([]);

    // A submits: still blind with the node's default; the setting opens the others' to A (not to B).
    expect((await s.send('PUT', `/api/steps/${first.id}/complete`, a.token)).status).toBe(200);
    expect(await classes(a.token, doc.id)).toEqual([[first.id, classA]]);
    await s
      .knex('nodes')
      .where('id', clf)
      .update({ settings: JSON.stringify({ annotatorsSeeEachOther: true }) });
    expect((await classes(a.token, doc.id)).length).toBe(3);
    expect(await classes(b.token, doc.id)).toEqual([
      [second.id, classA],
      [second.id, classB],
    ]);

    // B submits: the master (A's step) set class A only, so the flow goes to spanA and not spanB.
    expect((await s.send('PUT', `/api/steps/${second.id}/complete`, b.token)).status).toBe(200);
    await stepReaching(s.knex, doc.id, spanA, ['WAITING']);
    expect((await stepsOf(s.knex, doc.id)).map((x) => x.nodeId)).toEqual([hup, clf, clf, spanA]);
    expect(await classes(reader.token, doc.id)).toEqual([[first.id, classA]]);
  });

  it('gives each writer a next document that still needs them and that they have not annotated', async () => {
    const g = await GraphBuilder.create(s.knex);
    const hup = await g.node('HUP');
    const clf = await g.node('CLF', { additionalNodeSubmits: [{ docId: null, submits: 1 }] });
    await g.edge(hup, clf);
    const grant = { componentId: g.processId, type: 'PROCESS' as const, mode: 'WRITE' as const };
    const a = await userWithNodeMode(s, [grant]);
    const b = await userWithNodeMode(s, [grant]);
    const c = await userWithNodeMode(s, [grant]);
    const reader = await userWithNodeMode(s, [{ ...grant, mode: 'READ' }]);
    const next = async (token: string) => {
      const r = await s.get<{ documentId: number | null }>(`/api/nodes/${clf}/next-document`, token);
      expect(r.status).toBe(200);
      return r.body.documentId;
    };
    const d1 = await startDocument(s, g, hup, { content: 'first' });
    const d2 = await startDocument(s, g, hup, { content: 'second' });
    for (const d of [d1, d2]) await stepReaching(s.knex, d.id, clf, ['WAITING']);
    expect((await s.get(`/api/nodes/${clf}/next-document`, reader.token)).status).toBe(403);

    // a and b take d1's two steps: d1 is full, so c is sent to d2; a's own open document comes first for a
    expect(await next(a.token)).toBe(d1.id);
    expect((await assign(d1.id, clf, a.token)).status).toBe(200);
    expect(await next(a.token)).toBe(d1.id);
    expect(await next(b.token)).toBe(d1.id);
    expect((await assign(d1.id, clf, b.token)).status).toBe(200);
    expect(await next(c.token)).toBe(d2.id);

    // a finishes d1: a's next is d2 (d1 has a's step), and a cannot take d1's other step twice
    const [first] = (await stepsOf(s.knex, d1.id)).filter((x) => x.nodeId === clf);
    expect((await s.send('PUT', `/api/steps/${first.id}/complete`, a.token)).status).toBe(200);
    expect(await next(a.token)).toBe(d2.id);
    await s
      .knex('steps')
      .where({ document_id: d1.id, node_id: clf })
      .whereNot('id', first.id)
      .update({ blocked_by_id: null });
    const twice = await assign(d1.id, clf, a.token);
    expect([twice.status, twice.body.message]).toEqual([409, 'error.step.alreadyAnnotated']);
    expect((await assign(d2.id, clf, a.token)).status).toBe(200);
    expect((await assign(d2.id, clf, c.token)).status).toBe(200);
    // d1 needs one more annotator, who is neither a nor c... b released it above, so b gets it back
    expect(await next(c.token)).toBe(d2.id);
    expect(await next(b.token)).toBe(d1.id);
  });

  it("keeps each annotator's spans in their step on a multiprocessed SPAN node", async () => {
    const g = await GraphBuilder.create(s.knex);
    const hup = await g.node('HUP');
    const span = await g.node('SPAN', { additionalNodeSubmits: [{ docId: null, submits: 1 }] });
    const label = await g.nerTagType(span);
    await g.edge(hup, span);
    const grant = { componentId: g.processId, type: 'PROCESS' as const, mode: 'WRITE' as const };
    const a = await userWithNodeMode(s, [grant]);
    const b = await userWithNodeMode(s, [grant]);
    const doc = await startDocument(s, g, hup, { content: 'Alice met Bob in Paris.' });
    await stepReaching(s.knex, doc.id, span, ['WAITING']);
    await s
      .knex('document_contents')
      .insert({ document_id: doc.id, content: 'Alice met Bob in Paris.' })
      .onConflict('document_id')
      .merge();
    const [first, second] = (await stepsOf(s.knex, doc.id)).filter((x) => x.nodeId === span);
    await assign(doc.id, span, a.token);
    await assign(doc.id, span, b.token);
    const tag = (token: string) =>
      s.send('POST', '/api/ner-tags', token, {
        documentId: doc.id,
        nerTagTypeId: label,
        startOffset: 0,
        endOffset: 5,
      });
    const ta = await tag(a.token);
    const tb = await tag(b.token);
    expect([ta.status, ta.body.stepId, tb.status, tb.body.stepId]).toEqual([201, first.id, 201, second.id]);
    const spans = async (token: string) =>
      (await s.get<NerTagDTO[]>(`/api/ner-tags?documentId=${doc.id}`, token)).body.map((t) => t.stepId);
    expect(await spans(a.token)).toEqual([first.id]);
    expect(await spans(b.token)).toEqual([second.id]);
    expect(await spans(s.admin)).toEqual([first.id, second.id]);
  });
});
