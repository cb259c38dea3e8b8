/**
 * Predicates API: trees on an edge or a process with node and label names, the rules of COMPLEX, CLF and
 * NER predicates against the edge's previous nodes and the node's labels, update, cascade delete, access.
 * Labels are inserted directly (their API is another suite's). Other suites share the database.
 */
import type { PredicateDTO } from '../../domain/graph-types';
import {
  buildProcess,
  buildUser,
  fieldKeys,
  insertNerTagType,
  MISSING_ID,
  setupSuite,
  unique,
} from '../support/harness';

describe('predicates API', () => {
  const suite = setupSuite();
  const { knex, get, send, signIn, node, edge, userWith } = suite;
  const clfType = async (nodeId: number, name = unique('class')) =>
    (
      await knex('classifier_types')
        .insert({ node_id: nodeId, name, background_color: '#112233' })
        .returning('*')
    )[0];
  const nerType = (nodeId: number, name = unique('tag')) => insertNerTagType(knex, nodeId, name);
  const post = (json: Record<string, unknown>, token = suite.admin) =>
    send('POST', '/api/predicates', token, json);

  /** up(HUP) -> clf(CLF, mandatory) -> span(SPAN) -> mail(SEND_MAIL); lexicon(LEXICON) elsewhere; optional CLF. */
  async function flow() {
    const process = await buildProcess(knex);
    const up = await node(process.id, 'HUP');
    const clf = await node(process.id, 'CLF', { mandatory: true });
    const span = await node(process.id, 'SPAN');
    const mail = await node(process.id, 'SEND_MAIL');
    const lexicon = await node(process.id, 'LEXICON');
    const optional = await node(process.id, 'CLF', { mandatory: false });
    const first = await edge(up.id, clf.id);
    await edge(clf.id, span.id);
    const last = await edge(span.id, mail.id);
    const side = await edge(span.id, lexicon.id);
    return { process, up, clf, span, mail, lexicon, optional, first, last, side };
  }

  it('builds a tree of predicates with node and label names (201, alert), read by edge and by process', async () => {
    const f = await flow();
    const invoice = await clfType(f.clf.id, unique('Invoice'));
    const person = await nerType(f.span.id, unique('Person'));
    const root = await post({ edgeId: f.last.id, predicateType: 'COMPLEX', logicalOperator: 'AND' });
    expect(root.status).toBe(201);
    expect(root.headers.get('x-soaapp-alert')).toBe('soaApp.predicate.created');
    const clf = await post({
      edgeId: f.last.id,
      parentId: root.body.id,
      predicateType: 'CLF',
      nodeId: f.clf.id,
      clfTypeId: invoice.id,
      equal: false,
    });
    expect(clf.status).toBe(201);
    expect(clf.body).toEqual({
      id: expect.any(Number),
      edgeId: f.last.id,
      parentId: root.body.id,
      predicateType: 'CLF',
      logicalOperator: null,
      nodeId: f.clf.id,
      nodeName: f.clf.name,
      equal: false,
      clfTypeId: invoice.id,
      clfTypeName: invoice.name,
      nerTagTypeId: null,
      nerTagTypeName: null,
      predicates: [],
    });
    const ner = await post({
      edgeId: f.last.id,
      parentId: root.body.id,
      predicateType: 'NER',
      nodeId: f.span.id,
      nerTagTypeId: person.id,
    });
    expect(ner.body).toMatchObject({ nodeName: f.span.name, nerTagTypeName: person.name, equal: true });
    const single = await post({
      edgeId: f.side.id,
      predicateType: 'CLF',
      nodeId: f.clf.id,
      clfTypeId: invoice.id,
    });
    expect(single.status).toBe(201);

    const byEdge = await get(`/api/predicates?edgeId=${f.last.id}`, await userWith(f.process.id, 'READ'));
    expect(byEdge.status).toBe(200);
    expect(byEdge.body).toHaveLength(1);
    expect(byEdge.body[0]).toMatchObject({
      id: root.body.id,
      predicateType: 'COMPLEX',
      logicalOperator: 'AND',
    });
    expect(byEdge.body[0].predicates.map((p: PredicateDTO) => p.id)).toEqual([clf.body.id, ner.body.id]);
    const byProcess = await get(`/api/predicates?processId=${f.process.id}`, suite.admin);
    expect(byProcess.body.map((p: PredicateDTO) => p.id)).toEqual([root.body.id, single.body.id]);
  });

  it('refuses predicates on an edge without CLF, SPAN or LEXICON previous nodes (400 notAllowed)', async () => {
    const f = await flow();
    const res = await post({ edgeId: f.first.id, predicateType: 'COMPLEX', logicalOperator: 'OR' });
    expect(res.status).toBe(400);
    expect(res.body.message).toBe('soaApp.predicate.notAllowed');
    expect(res.headers.get('x-soaapp-error')).toBe('soaApp.predicate.notAllowed');
  });

  it('reports each predicate rule with its key', async () => {
    const f = await flow();
    const own = await clfType(f.clf.id);
    const foreign = await clfType(f.optional.id);
    const tag = await nerType(f.span.id);
    const lexiconTag = await nerType(f.lexicon.id);
    const leaf = await post({ edgeId: f.last.id, predicateType: 'CLF', nodeId: f.clf.id, clfTypeId: own.id });
    const other = await post({ edgeId: f.side.id, predicateType: 'COMPLEX', logicalOperator: 'AND' });
    const cases: [Record<string, unknown>, string[][]][] = [
      [{ predicateType: 'COMPLEX' }, [['logicalOperator', 'entity.validation.required']]],
      [{ predicateType: 'CLF', clfTypeId: own.id }, [['nodeId', 'entity.validation.required']]],
      [{ predicateType: 'CLF', nodeId: f.clf.id }, [['clfTypeId', 'entity.validation.required']]],
      [{ predicateType: 'CLF', nodeId: f.clf.id, clfTypeId: foreign.id }, [['clfTypeId', 'error.idinvalid']]],
      [
        { predicateType: 'CLF', nodeId: f.optional.id, clfTypeId: foreign.id },
        [['nodeId', 'error.idinvalid']],
      ],
      [{ predicateType: 'CLF', nodeId: f.span.id, clfTypeId: own.id }, [['nodeId', 'error.idinvalid']]],
      [{ predicateType: 'NER', nodeId: f.span.id }, [['nerTagTypeId', 'entity.validation.required']]],
      [
        { predicateType: 'NER', nodeId: f.span.id, nerTagTypeId: lexiconTag.id },
        [['nerTagTypeId', 'error.idinvalid']],
      ],
      [
        { predicateType: 'NER', nodeId: f.lexicon.id, nerTagTypeId: lexiconTag.id },
        [['nodeId', 'error.idinvalid']],
      ],
      [
        { predicateType: 'NER', nodeId: f.span.id, nerTagTypeId: tag.id, parentId: leaf.body.id },
        [['parentId', 'error.idinvalid']],
      ],
      [
        { predicateType: 'NER', nodeId: f.span.id, nerTagTypeId: tag.id, parentId: other.body.id },
        [['parentId', 'error.idinvalid']],
      ],
    ];
    for (const [json, keys] of cases) {
      const res = await post({ edgeId: f.last.id, ...json });
      expect({ json, status: res.status, keys: fieldKeys(res) }).toEqual({ json, status: 400, keys });
    }
    // A LEXICON node is a valid NER node on the edge after it.
    const after = await node(f.process.id, 'SEND_REQUEST');
    const lexEdge = await edge(f.lexicon.id, after.id);
    const lex = await post({
      edgeId: lexEdge.id,
      predicateType: 'NER',
      nodeId: f.lexicon.id,
      nerTagTypeId: lexiconTag.id,
    });
    expect(lex.status).toBe(201);
  });

  it('allows "no class" for a classifier node that is not mandatory', async () => {
    const process = await buildProcess(knex);
    const up = await node(process.id, 'HUP');
    const optional = await node(process.id, 'CLF', { mandatory: false });
    const mail = await node(process.id, 'SEND_MAIL');
    await edge(up.id, optional.id);
    const e = await edge(optional.id, mail.id);
    const res = await post({ edgeId: e.id, predicateType: 'CLF', nodeId: optional.id, clfTypeId: null });
    expect(res.status).toBe(201);
    expect(res.body).toMatchObject({ clfTypeId: null, clfTypeName: null, nodeName: optional.name });
  });

  it('updates a predicate on its edge and refuses a parent below itself', async () => {
    const f = await flow();
    const a = await clfType(f.clf.id);
    const b = await clfType(f.clf.id);
    const root = await post({ edgeId: f.last.id, predicateType: 'COMPLEX', logicalOperator: 'AND' });
    const inner = await post({
      edgeId: f.last.id,
      parentId: root.body.id,
      predicateType: 'COMPLEX',
      logicalOperator: 'OR',
    });
    const leaf = await post({
      edgeId: f.last.id,
      parentId: inner.body.id,
      predicateType: 'CLF',
      nodeId: f.clf.id,
      clfTypeId: a.id,
    });
    const updated = await send('PUT', '/api/predicates', suite.admin, {
      ...leaf.body,
      clfTypeId: b.id,
      equal: false,
    });
    expect(updated.status).toBe(200);
    expect(updated.headers.get('x-soaapp-alert')).toBe('soaApp.predicate.updated');
    expect(updated.body).toMatchObject({
      id: leaf.body.id,
      clfTypeId: b.id,
      clfTypeName: b.name,
      equal: false,
    });
    const switched = await send('PUT', '/api/predicates', suite.admin, {
      ...root.body,
      logicalOperator: 'OR',
    });
    expect(switched.body.logicalOperator).toBe('OR');
    expect(switched.body.predicates.map((p: PredicateDTO) => p.id)).toEqual([inner.body.id]);
    const loop = await send('PUT', '/api/predicates', suite.admin, { ...root.body, parentId: inner.body.id });
    expect(fieldKeys(loop)).toEqual([['parentId', 'error.idinvalid']]);
    const self = await send('PUT', '/api/predicates', suite.admin, {
      ...inner.body,
      parentId: inner.body.id,
    });
    expect(fieldKeys(self)).toEqual([['parentId', 'error.idinvalid']]);
    expect((await send('PUT', '/api/predicates', suite.admin, { ...root.body, id: MISSING_ID })).status).toBe(
      404,
    );
  });

  it('deletes a predicate with its children (204)', async () => {
    const f = await flow();
    const t = await clfType(f.clf.id);
    const root = await post({ edgeId: f.last.id, predicateType: 'COMPLEX', logicalOperator: 'AND' });
    const child = await post({
      edgeId: f.last.id,
      parentId: root.body.id,
      predicateType: 'CLF',
      nodeId: f.clf.id,
      clfTypeId: t.id,
    });
    const res = await send('DELETE', `/api/predicates/${root.body.id}`, suite.admin);
    expect(res.status).toBe(204);
    expect(res.headers.get('x-soaapp-alert')).toBe('soaApp.predicate.deleted');
    expect(await knex('predicates').whereIn('id', [root.body.id, child.body.id])).toEqual([]);
    expect((await send('DELETE', `/api/predicates/${root.body.id}`, suite.admin)).status).toBe(404);
  });

  it('needs READ to read and ADMIN to change (403), a token (401), and an edge or process (400/404)', async () => {
    const f = await flow();
    const t = await clfType(f.clf.id);
    const created = await post({
      edgeId: f.last.id,
      predicateType: 'CLF',
      nodeId: f.clf.id,
      clfTypeId: t.id,
    });
    const reader = await userWith(f.process.id, 'READ');
    const stranger = await signIn(await buildUser(knex));
    expect((await get(`/api/predicates?edgeId=${f.last.id}`, stranger)).status).toBe(403);
    expect((await get(`/api/predicates?processId=${f.process.id}`, stranger)).status).toBe(403);
    expect((await get(`/api/predicates?edgeId=${f.last.id}`)).status).toBe(401);
    expect((await get('/api/predicates', suite.admin)).status).toBe(400);
    expect((await get(`/api/predicates?edgeId=${MISSING_ID}`, suite.admin)).status).toBe(404);
    expect(
      (await post({ edgeId: f.last.id, predicateType: 'COMPLEX', logicalOperator: 'AND' }, reader)).status,
    ).toBe(403);
    expect((await send('PUT', '/api/predicates', reader, { ...created.body, equal: false })).status).toBe(
      403,
    );
    expect((await send('DELETE', `/api/predicates/${created.body.id}`, reader)).status).toBe(403);
    const anonymous = await send('POST', '/api/predicates', undefined, {
      edgeId: f.last.id,
      predicateType: 'COMPLEX',
      logicalOperator: 'AND',
    });
    expect(anonymous.status).toBe(401);
    expect(
      (await post({ edgeId: MISSING_ID, predicateType: 'COMPLEX', logicalOperator: 'AND' })).status,
    ).toBe(404);
    const adminUser = await userWith(f.process.id, 'ADMIN');
    expect((await send('DELETE', `/api/predicates/${created.body.id}`, adminUser)).status).toBe(204);
  });

  it("dry-runs an unsaved predicate over the process's last documents: counts and a few names per branch", async () => {
    // clf -> span (the edge edited) and clf -> other (saved: class B); documents tagged A, B, both or none
    const process = await buildProcess(knex);
    const up = await node(process.id, 'HUP');
    const clf = await node(process.id, 'CLF', { mandatory: false });
    const span = await node(process.id, 'SPAN');
    const other = await node(process.id, 'SPAN');
    await edge(up.id, clf.id);
    const edited = await edge(clf.id, span.id);
    const saved = await edge(clf.id, other.id);
    const [a, b] = [await clfType(clf.id, 'A'), await clfType(clf.id, 'B')];
    expect(
      (await post({ edgeId: saved.id, predicateType: 'CLF', nodeId: clf.id, clfTypeId: b.id })).status,
    ).toBe(201);
    const kept = await post({ edgeId: edited.id, predicateType: 'CLF', nodeId: clf.id, clfTypeId: b.id });
    const docs: number[] = [];
    for (const [name, classes] of [
      ['a.txt', [a.id]],
      ['b.txt', [b.id]],
      ['ab.txt', [a.id, b.id]],
      ['none.txt', []],
    ] as const) {
      const [row] = await knex('documents')
        .insert({
          process_id: process.id,
          upload_node_id: up.id,
          filename: name,
          path: unique('p'),
          content_hash: 'h',
          mime_type: 'text/plain',
          size: 1,
          document_type: 'TEXTFILE',
        })
        .returning('id');
      docs.push(row.id);
      for (const c of classes)
        await knex('classifier_tags').insert({ document_id: row.id, node_id: clf.id, classifier_type_id: c });
    }
    const dry = (json: Record<string, unknown>, token = suite.admin) =>
      send('POST', `/api/edges/${edited.id}/predicate-dry-run`, token, json);

    // the saved predicate of the edited edge is replaced by the draft (class A), nothing is written
    const res = await dry({
      id: kept.body.id,
      predicateType: 'CLF',
      nodeId: clf.id,
      clfTypeId: a.id,
      equal: true,
    });
    expect(res.status).toBe(200);
    const names = (ids: number[]) =>
      ids.map((i) => ({ id: docs[i], name: ['a.txt', 'b.txt', 'ab.txt', 'none.txt'][i] }));
    expect(res.body).toEqual({
      evaluated: 4,
      branches: [
        { edgeId: edited.id, toNodeId: span.id, count: 2, documents: names([0, 2]) },
        { edgeId: saved.id, toNodeId: other.id, count: 2, documents: names([1, 2]) },
        { edgeId: null, toNodeId: null, count: 1, documents: names([3]) },
      ],
    });
    expect((await knex('predicates').where('id', kept.body.id).first()).clf_type_id).toBe(b.id);

    // a new predicate added to the edge (AND with the saved one): only "ab" (a and none take no branch); "no class"
    const added = await dry({ predicateType: 'CLF', nodeId: clf.id, clfTypeId: a.id });
    expect(added.body.branches.map((x: { count: number }) => x.count)).toEqual([1, 2, 2]);
    const empty = await dry({ id: kept.body.id, predicateType: 'CLF', nodeId: clf.id, clfTypeId: null });
    expect(empty.body.branches[0].documents).toEqual(names([3]));

    // the last N documents only
    const last = await dry({
      id: kept.body.id,
      predicateType: 'CLF',
      nodeId: clf.id,
      clfTypeId: a.id,
      limit: 2,
    });
    expect(last.body.evaluated).toBe(2);
    expect(last.body.branches[0].documents).toEqual(names([2]));

    // READ on the process is enough; none at all is 403; a draft without a type 400
    const reader = await userWith(process.id, 'READ');
    expect((await dry({ predicateType: 'COMPLEX', logicalOperator: 'OR' }, reader)).status).toBe(200);
    const stranger = await signIn(await buildUser(knex));
    expect((await dry({ predicateType: 'COMPLEX' }, stranger)).status).toBe(403);
    expect((await dry({ limit: 0 })).status).toBe(400);
  });
});
