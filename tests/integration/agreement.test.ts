/**
 * `GET api/nodes/{id}/agreement` (issue 31 section 2): the figures of a multiprocessed CLF node and of a SPAN
 * node from each annotator's own tags, documents with fewer than two finished steps left out and counted, the
 * date range, the refusals. The expected figures are worked out by hand here (Cohen's kappa, span F1) or by
 * the measures of domain/agreement.ts (tested against published examples) on the raw choices.
 */
import { categoryOfSet, fleissKappa, krippendorffAlphaNominal, unitizingAlpha } from '../../domain/agreement';
import { buildProcess, buildUser, insertNerTagType, insertNode, setupSuite } from '../support/harness';
import { insertDocument } from '../support/documents';

describe('agreement API', () => {
  const s = setupSuite();
  const today = new Date().toISOString().slice(0, 10);

  async function world(activityType: 'CLF' | 'SPAN') {
    const p = await buildProcess(s.knex);
    const hup = await insertNode(s.knex, p.id, 'HUP');
    const node = await insertNode(s.knex, p.id, activityType);
    const users = [];
    for (let i = 0; i < 3; i++) users.push((await buildUser(s.knex)).id);
    /** a document whose steps of the node are [user, status, own tags] */
    const doc = async (
      steps: [number, string, (stepId: number, documentId: number) => Promise<unknown>][],
    ) => {
      const id = await insertDocument(s.knex, p.id, hup.id, `doc-${Math.random()}.txt`);
      for (const [i, [user, status, tag]] of steps.entries()) {
        const [row] = await s
          .knex('steps')
          .insert({
            document_id: id,
            node_id: node.id,
            status,
            order: i + 1,
            master: i === 0,
            blocked_by_id: user,
          })
          .returning('id');
        await tag(Number(row.id), id);
      }
      return id;
    };
    return { p, node: node.id, users, doc };
  }

  it('gives Cohen per pair, Fleiss and alpha of a CLF node; lowest documents first; left-out counted', async () => {
    const { node, users, doc } = await world('CLF');
    const [a, b, c] = users;
    const [x] = await s
      .knex('classifier_types')
      .insert({ node_id: node, name: 'X', background_color: '#ffffff' })
      .returning('id');
    const [y] = await s
      .knex('classifier_types')
      .insert({ node_id: node, name: 'Y', background_color: '#ffffff' })
      .returning('id');
    const cls = (typeId: number | null) => async (stepId: number, documentId: number) =>
      typeId &&
      s
        .knex('classifier_tags')
        .insert({ document_id: documentId, step_id: stepId, node_id: node, classifier_type_id: typeId });
    const X = Number(x.id);
    const Y = Number(y.id);
    const d1 = await doc([
      [a, 'DONE', cls(X)],
      [b, 'DONE', cls(X)],
      [c, 'ACCEPTED', cls(X)],
    ]);
    const d2 = await doc([
      [a, 'DONE', cls(X)],
      [b, 'DONE', cls(Y)],
      [c, 'DONE', cls(X)],
    ]);
    const d3 = await doc([
      [a, 'DONE', cls(Y)],
      [b, 'DONE', cls(Y)],
      [c, 'DONE', cls(null)],
    ]);
    await doc([
      [a, 'DONE', cls(X)],
      [b, 'WAITING', cls(Y)],
    ]); // one finished step: left out

    const r = await s.get(`/api/nodes/${node}/agreement?from=${today}&to=${today}`, s.admin);
    expect(r.status).toBe(200);
    expect([r.body.documents, r.body.leftOut]).toEqual([3, 1]);
    expect(r.body.users.map((u: { id: number }) => u.id)).toEqual([a, b, c]);
    // a: X X Y, b: X Y Y: po 2/3, pe 2/3*1/3 + 1/3*2/3 = 4/9, kappa (6/9 - 4/9) / (5/9) = 0.4
    const ab = r.body.cohenKappa.find(
      (k: { userA: number; userB: number }) => k.userA === a && k.userB === b,
    );
    expect(ab.documents).toBe(3);
    expect(ab.value).toBeCloseTo(0.4, 10);
    expect(r.body.cohenKappa).toHaveLength(3);
    const units = [
      [X, X, X],
      [X, Y, X],
      [Y, Y, null],
    ].map((u) => u.map((v) => categoryOfSet(v === null ? [] : [v])));
    expect(r.body.fleissKappa).toBeCloseTo(fleissKappa(units)!, 10);
    expect(r.body.krippendorffAlpha).toBeCloseTo(krippendorffAlphaNominal(units)!, 10);
    expect([r.body.spanF1, r.body.unitizingAlpha]).toEqual([null, null]);
    // d2 and d3: one pair of three agrees; d1: all
    expect(r.body.lowest.map((l: { documentId: number; value: number }) => [l.documentId, l.value])).toEqual([
      [d2, 1 / 3],
      [d3, 1 / 3],
      [d1, 1],
    ]);

    const past = await s.get(`/api/nodes/${node}/agreement?from=2020-01-01&to=2020-01-31`, s.admin);
    expect([past.body.documents, past.body.leftOut, past.body.fleissKappa]).toEqual([0, 0, null]);
    const bad = await s.get(`/api/nodes/${node}/agreement?from=2020-02-30&to=2020-01-01`, s.admin);
    expect(bad.status).toBe(400);
    expect(bad.body.fieldErrors.map((f: { key: string }) => f.key)).toEqual([
      'soaApp.nodePanel.agreement.errors.dateInvalid',
    ]);
  });

  it('gives span F1 and unitizing alpha per label of a SPAN node; refuses a node without annotations', async () => {
    const { p, node, users, doc } = await world('SPAN');
    const [a, b] = users;
    const per = (await insertNerTagType(s.knex, node, 'PER')).id;
    const loc = (await insertNerTagType(s.knex, node, 'LOC')).id;
    const text = 'Alice met Bob in Paris.';
    const spans = (list: [number, number, number][]) => async (stepId: number, documentId: number) => {
      await s
        .knex('document_contents')
        .insert({ document_id: documentId, content: text })
        .onConflict('document_id')
        .ignore();
      for (const [type, start, end] of list)
        await s
          .knex('ner_tags')
          .insert({
            document_id: documentId,
            step_id: stepId,
            ner_tag_type_id: type,
            type: 'SPAN_TAG',
            start_offset: start,
            end_offset: end,
          });
    };
    await doc([
      [
        a,
        'DONE',
        spans([
          [per, 0, 5],
          [per, 10, 13],
          [loc, 17, 22],
        ]),
      ],
      [
        b,
        'DONE',
        spans([
          [per, 0, 5],
          [per, 10, 14],
        ]),
      ],
    ]);
    const r = await s.get(`/api/nodes/${node}/agreement`, s.admin);
    expect(r.status).toBe(200);
    expect([
      r.body.documents,
      r.body.leftOut,
      r.body.cohenKappa,
      r.body.fleissKappa,
      r.body.krippendorffAlpha,
    ]).toEqual([1, 0, null, null, null]);
    // PER: 2 + 2 spans, 1 exact (F1 2*1/4), all 4 overlap one of the other's; LOC: a's span alone
    expect(r.body.spanF1).toEqual([
      { label: 'LOC', exact: 0, overlap: 0 },
      { label: 'PER', exact: 0.5, overlap: 1 },
    ]);
    const study = {
      length: text.length,
      coders: 2,
      units: [
        { coder: 0, start: 0, length: 5, category: 'PER' },
        { coder: 0, start: 10, length: 3, category: 'PER' },
        { coder: 0, start: 17, length: 5, category: 'LOC' },
        { coder: 1, start: 0, length: 5, category: 'PER' },
        { coder: 1, start: 10, length: 4, category: 'PER' },
      ],
    };
    expect(r.body.unitizingAlpha).toEqual([
      { label: 'LOC', value: unitizingAlpha(study, 'LOC') },
      { label: 'PER', value: unitizingAlpha(study, 'PER') },
    ]);

    const llm = await insertNode(s.knex, p.id, 'LLM_PROMPT');
    const refused = await s.get(`/api/nodes/${llm.id}/agreement`, s.admin);
    expect(refused.status).toBe(400);
    expect(refused.body.fieldErrors[0].key).toBe('soaApp.nodePanel.agreement.errors.notMultiprocessed');
    const writer = await buildUser(s.knex, {
      authorities: [{ componentId: p.id, type: 'PROCESS', mode: 'WRITE' }],
    });
    expect((await s.get(`/api/nodes/${node}/agreement`, await s.signIn(writer))).status).toBe(403);
  });
});
