/**
 * External models of CLF and SPAN nodes and training of trainable nodes, with real Workers of this suite and
 * local peers started here: an OpenAI-compatible chat API (tests/support/openai-server), a custom REST model
 * and a training endpoint (plain HTTP servers on loopback). One Worker's allowlist admits 127.0.0.1, the
 * other's is empty (the net guard refuses loopback). The train route goes through the suite's API, whose
 * configuration admits no loopback address: the training runs on the worker (trainNodeWorkflow), under the
 * allowlist of the worker of the suite's task queue.
 */
import crypto from 'node:crypto';
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { createTrainingActivities } from '../../activities/training';
import { call, unique } from '../support/harness';
import {
  GraphBuilder,
  setupEngineSuite,
  startDocument,
  startWorkers,
  stepReaching,
  type EngineSuite,
} from '../support/engine';
import { startOpenAiServer, userText, type OpenAiServer } from '../support/openai-server';

interface Received {
  path: string;
  body: any;
}

/** A JSON-over-HTTP peer on loopback: records each request and answers `reply(request)`. */
async function startPeer(reply: (r: Received) => { status: number; body: string }) {
  const received: Received[] = [];
  const server = http.createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (c: Buffer) => chunks.push(c));
    req.on('end', () => {
      const text = Buffer.concat(chunks).toString('utf8');
      const r = { path: req.url ?? '', body: text ? JSON.parse(text) : null };
      received.push(r);
      const out = reply(r);
      res.writeHead(out.status, { 'Content-Type': 'application/json' });
      res.end(out.body);
    });
  });
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
  return {
    received,
    url: (path: string) => `http://127.0.0.1:${(server.address() as AddressInfo).port}${path}`,
    close: () => new Promise<void>((r) => server.close(() => r())),
  };
}

describe('external models and trainable nodes', () => {
  const s = setupEngineSuite('external', { worker: false });
  const refusingQueue = `test-external-refusing-${crypto.randomUUID()}`;
  let workers: { stop(): Promise<void> } | undefined;
  let llm: OpenAiServer;
  /** Custom model answers by the marker the document's content holds. */
  const customAnswers = new Map<string, { status: number; body: string }>();
  let custom: Awaited<ReturnType<typeof startPeer>>;
  /** Statuses the training endpoint answers with, in turn (then 202). */
  const trainingStatuses: number[] = [];
  let trainer: Awaited<ReturnType<typeof startPeer>>;
  /** LLM answers by the marker the prompt holds. */
  const llmAnswers = new Map<string, string>();

  beforeAll(async () => {
    llm = await startOpenAiServer();
    llm.answer = (req) => {
      const text = userText(req);
      for (const [marker, answer] of llmAnswers) if (text.includes(marker)) return answer;
      return '{}';
    };
    custom = await startPeer((r) => {
      for (const [marker, answer] of customAnswers)
        if (String(r.body?.content).includes(marker)) return answer;
      return { status: 404, body: '{}' };
    });
    trainer = await startPeer(() => ({ status: trainingStatuses.shift() ?? 202, body: '{"accepted":true}' }));
    workers = await startWorkers(s, [
      { taskQueue: s.taskQueue, outboundAllowlist: ['127.0.0.1'], llmBaseUrl: llm.baseUrl },
      { taskQueue: refusingQueue, outboundAllowlist: [], llmBaseUrl: llm.baseUrl },
    ]);
  });

  afterAll(async () => {
    await workers?.stop();
    await llm?.close();
    await custom?.close();
    await trainer?.close();
  });

  const externalConfig = (nodeId: number, config: Record<string, unknown>) =>
    s
      .knex('nodes')
      .where('id', nodeId)
      .update({ external_config: JSON.stringify(config) });

  const llmConfig = async (g: GraphBuilder, key: string) => {
    const [secret] = await s
      .knex('secrets')
      .insert({ process_id: g.processId, name: unique('key'), value: key, active: true })
      .returning('id');
    const model = await s.knex('llm_models').where('name', 'gpt-4o-mini').first('id');
    return { configType: 'LLM', llmModel: { id: model.id }, secret: { id: secret.id } };
  };

  const resultsOf = (nodeId: number) =>
    s.knex('action_execution_results').where('node_id', nodeId).orderBy('id');

  const contentOf = async (documentId: number): Promise<string> =>
    (await s.knex('document_contents').where('document_id', documentId).first('content')).content;

  /** HUP -> FILE_PARSER -> automatic CLF or SPAN node. */
  async function modelGraph(activityType: 'CLF' | 'SPAN', autoStepStatus: 'DONE' | 'ACCEPTED' = 'ACCEPTED') {
    const g = await GraphBuilder.create(s.knex);
    const hup = await g.node('HUP');
    const parser = await g.node('FILE_PARSER', { autoStepStatus: 'DONE' });
    const node = await g.node(activityType, { automatic: true, autoStepStatus });
    await g.edge(hup, parser);
    await g.edge(parser, node);
    return { g, hup, node };
  }

  const describeClass = (id: number, description: string) =>
    s.knex('classifier_types').where('id', id).update({ description });

  it('classifies with an LLM: classifier tags of the step, then its autoStepStatus', async () => {
    const marker = crypto.randomUUID();
    const { g, hup, node } = await modelGraph('CLF');
    const invoice = await g.classifierType(node, 'Invoice');
    await describeClass(invoice, 'A bill that asks for payment');
    await g.classifierType(node, 'Letter');
    await externalConfig(node, await llmConfig(g, 'sk-clf'));
    llmAnswers.set(marker, '```json\n{"labels": ["invoice", "Recipe"]}\n```');
    const doc = await startDocument(s, g, hup, {
      name: 'bill.txt',
      content: `Please pay 100 PLN. ${marker}\n`,
    });
    const step = await stepReaching(s.knex, doc.id, node, ['ACCEPTED', 'ERROR']);
    expect(step).toMatchObject({ status: 'ACCEPTED', errorMessage: null });

    const reqs = llm.requests.filter((r) => userText(r).includes(marker));
    expect(reqs).toHaveLength(1);
    expect(reqs[0].authorization).toBe('Bearer sk-clf');
    expect(reqs[0].body).toMatchObject({ model: 'gpt-4o-mini', temperature: 0 });
    const prompt = userText(reqs[0]);
    expect(prompt).toContain('"Invoice": A bill that asks for payment');
    expect(prompt).toContain('"Letter"');
    expect(prompt).toContain('{"labels": ["<label name>", ...]}');
    expect(prompt).toContain(`Document "bill.txt":\nPlease pay 100 PLN. ${marker}`);

    const tags = await s.knex('classifier_tags').where('document_id', doc.id);
    expect(tags).toEqual([
      expect.objectContaining({
        node_id: node,
        step_id: step.id,
        classifier_type_id: invoice,
        origin: 'LLM',
      }),
    ]);
    const results = await resultsOf(node);
    expect(results.map((r) => r.status)).toEqual(['SUCCESS']);
    expect(results[0].details).toMatchObject({
      configType: 'LLM',
      annotations: 1,
      ignoredLabels: ['Recipe'],
    });
  });

  it('annotates spans with an LLM at every occurrence of the text', async () => {
    const marker = crypto.randomUUID();
    const { g, hup, node } = await modelGraph('SPAN', 'DONE');
    const person = await g.nerTagType(node, 'Person');
    const city = await g.nerTagType(node, 'City');
    await externalConfig(node, await llmConfig(g, 'sk-span'));
    llmAnswers.set(
      marker,
      JSON.stringify({
        spans: [
          { label: 'Person', text: 'Anna Nowak' },
          { label: 'City', text: 'Warsaw' },
          { label: 'City', text: 'Gdansk' },
          { label: 'Pet', text: 'Rex' },
        ],
      }),
    );
    const doc = await startDocument(s, g, hup, {
      content: `Anna Nowak moved to Warsaw. Warsawian Anna Nowak likes Warsaw. ${marker}\n`,
    });
    const step = await stepReaching(s.knex, doc.id, node, ['DONE', 'ERROR']);
    expect(step.status).toBe('DONE');
    const content = await contentOf(doc.id);
    const at = (text: string, from = 0) => content.indexOf(text, from);
    const tags = await s
      .knex('ner_tags')
      .where('document_id', doc.id)
      .orderBy(['start_offset', 'ner_tag_type_id'])
      .select('ner_tag_type_id', 'type', 'start_offset', 'end_offset', 'step_id', 'origin');
    const second = (text: string) => at(text, at(text) + 1);
    const tag = (type: number, start: number, len: number) => ({
      ner_tag_type_id: type,
      type: 'SPAN_TAG',
      start_offset: start,
      end_offset: start + len,
      step_id: step.id,
      origin: 'LLM',
    });
    // "Warsawian" is not the city: a span never cuts a word.
    expect(tags).toEqual(
      [
        tag(person, at('Anna Nowak'), 10),
        tag(city, at('Warsaw'), 6),
        tag(person, second('Anna Nowak'), 10),
        tag(city, content.lastIndexOf('Warsaw'), 6),
      ].sort((a, b) => a.start_offset - b.start_offset),
    );
    const [result] = await resultsOf(node);
    expect(result.details).toMatchObject({
      annotations: 4,
      notFound: 1,
      ignoredLabels: ['Pet'],
      kind: 'text',
    });
  });

  it('annotates with a custom REST model: classes by name or id, transcript spans over tokens', async () => {
    const clfMarker = crypto.randomUUID();
    const clf = await modelGraph('CLF');
    await clf.g.classifierType(clf.node, 'Invoice');
    const letter = await clf.g.classifierType(clf.node, 'Letter');
    const contract = await clf.g.classifierType(clf.node, 'Contract');
    await externalConfig(clf.node, {
      configType: 'CUSTOM',
      model: 'doc-classes-v2',
      restApiUrl: custom.url('/classify?x=1'),
    });
    customAnswers.set(clfMarker, {
      status: 200,
      body: JSON.stringify({ labels: ['LETTER', contract, 999] }),
    });
    const doc = await startDocument(s, clf.g, clf.hup, {
      name: 'mail.txt',
      content: `Dear Ann ${clfMarker}\n`,
    });
    const step = await stepReaching(s.knex, doc.id, clf.node, ['ACCEPTED', 'ERROR']);
    expect(step.status).toBe('ACCEPTED');
    const [req] = custom.received.filter((r) => String(r.body.content).includes(clfMarker));
    expect(req.path).toBe('/classify?x=1');
    expect(req.body).toEqual({
      documentId: doc.id,
      filename: 'mail.txt',
      content: await contentOf(doc.id),
      labels: [
        { id: expect.any(Number), name: 'Invoice' },
        { id: letter, name: 'Letter' },
        { id: contract, name: 'Contract' },
      ],
      model: 'doc-classes-v2',
    });
    const classes = await s
      .knex('classifier_tags')
      .where('document_id', doc.id)
      .orderBy('classifier_type_id');
    expect(classes.map((c) => [c.classifier_type_id, c.origin])).toEqual([
      [letter, 'CUSTOM'],
      [contract, 'CUSTOM'],
    ]);
    expect((await resultsOf(clf.node))[0].details).toMatchObject({
      configType: 'CUSTOM',
      ignoredLabels: ['999'],
    });

    // A transcript: the model gets the tokens' text, its spans become tags of the tokens they cover.
    const spanMarker = `m${crypto.randomBytes(6).toString('hex')}`;
    const span = await modelGraph('SPAN');
    const person = await span.g.nerTagType(span.node, 'Person');
    await externalConfig(span.node, { configType: 'CUSTOM', model: null, restApiUrl: custom.url('/ner') });
    const text = `Call Anna Nowak ${spanMarker}\nBye Anna`;
    customAnswers.set(spanMarker, {
      status: 200,
      body: JSON.stringify({
        spans: [
          { label: 'Person', start: 5, end: 15 }, // Anna Nowak
          { label: person, start: text.indexOf('Bye') + 4, end: text.length }, // Anna
          { label: 'Person', start: 10, end: text.indexOf('Bye') + 3 }, // over two utterances
        ],
      }),
    });
    const token = (value: string, t: number) => ({ value, tsStart: t * 1000, tsEnd: t * 1000 + 500 });
    const transcript = {
      utterances: [
        {
          actor: 'SPEAKER1',
          tokens: [token('Call', 0), token('Anna', 1), token('Nowak', 2), token(spanMarker, 3)],
        },
        { actor: 'SPEAKER2', tokens: [token('Bye', 4), token('Anna', 5)] },
      ],
    };
    const audio = await startDocument(s, span.g, span.hup, {
      name: 'call.json',
      mimeType: 'application/json',
      content: JSON.stringify(transcript),
    });
    await stepReaching(s.knex, audio.id, span.node, ['ACCEPTED']);
    const [nerReq] = custom.received.filter((r) => String(r.body.content).includes(spanMarker));
    expect(nerReq.body.content).toBe(text);
    const tags = await s
      .knex('ner_tags as t')
      .join('ner_tag_tokens as l', 'l.ner_tag_id', 't.id')
      .join('utterance_tokens as k', 'k.id', 'l.utterance_token_id')
      .where('t.document_id', audio.id)
      .groupBy('t.id')
      .orderBy('t.id')
      .select(
        't.type',
        't.start_offset',
        't.ts_start',
        't.ts_end',
        't.origin',
        s.knex.raw("string_agg(k.value, ' ' order by k.id) as tokens"),
      );
    expect(tags).toEqual([
      {
        type: 'ASR_NER_TAG',
        start_offset: null,
        ts_start: 1000,
        ts_end: 2500,
        origin: 'CUSTOM',
        tokens: 'Anna Nowak',
      },
      {
        type: 'ASR_NER_TAG',
        start_offset: null,
        ts_start: 5000,
        ts_end: 5500,
        origin: 'CUSTOM',
        tokens: 'Anna',
      },
    ]);
    expect((await resultsOf(span.node))[0].details).toMatchObject({
      annotations: 2,
      crossingUtterances: 1,
      kind: 'transcript',
    });
  });

  it('refuses a custom model on 127.0.0.1 when the allowlist is empty', async () => {
    const marker = crypto.randomUUID();
    const { g, hup, node } = await modelGraph('CLF');
    await g.classifierType(node, 'Invoice');
    await externalConfig(node, { configType: 'CUSTOM', model: 'm', restApiUrl: custom.url('/refused') });
    customAnswers.set(marker, { status: 200, body: '{"labels": ["Invoice"]}' });
    const refusing = Object.create(s, { taskQueue: { value: refusingQueue } }) as EngineSuite;
    const doc = await startDocument(refusing, g, hup, { content: `refused ${marker}\n` });
    const step = await stepReaching(s.knex, doc.id, node, ['ERROR']);
    expect(step.errorMessage).toBe(
      'Connections to 127.0.0.1 are not allowed (loopback address 127.0.0.1). ' +
        'An administrator may admit the address with OUTBOUND_ALLOWLIST.',
    );
    expect(custom.received.filter((r) => r.path === '/refused')).toHaveLength(0);
    expect(await s.knex('classifier_tags').where('document_id', doc.id)).toHaveLength(0);
    expect((await resultsOf(node)).map((r) => r.status)).toEqual(['FAILURE']);
  });

  it('ends the step in ERROR with a FAILURE result on an answer that is not JSON or of the wrong shape', async () => {
    const marker = crypto.randomUUID();
    const { g, hup, node } = await modelGraph('CLF');
    await g.classifierType(node, 'Invoice');
    await externalConfig(node, await llmConfig(g, 'sk-bad'));
    const prose = `I am sorry, ${'I cannot classify this. '.repeat(40)}`;
    llmAnswers.set(marker, prose);
    const doc = await startDocument(s, g, hup, { content: `prose ${marker}\n` });
    const step = await stepReaching(s.knex, doc.id, node, ['ERROR', 'ACCEPTED']);
    expect(step).toMatchObject({ status: 'ERROR', errorMessage: 'The model did not answer with JSON' });
    expect(llm.requests.filter((r) => userText(r).includes(marker))).toHaveLength(1); // not retried
    const [result] = await resultsOf(node);
    expect(result.status).toBe('FAILURE');
    expect(result.details).toMatchObject({
      error: 'The model did not answer with JSON',
      answer: prose.slice(0, 500),
    });

    const shapeMarker = crypto.randomUUID();
    const other = await modelGraph('CLF');
    await other.g.classifierType(other.node, 'Invoice');
    await externalConfig(other.node, { configType: 'CUSTOM', model: 'm', restApiUrl: custom.url('/shape') });
    customAnswers.set(shapeMarker, { status: 200, body: '{"labels": "Invoice"}' });
    const bad = await startDocument(s, other.g, other.hup, { content: `shape ${shapeMarker}\n` });
    const failed = await stepReaching(s.knex, bad.id, other.node, ['ERROR', 'ACCEPTED']);
    expect(failed.status).toBe('ERROR');
    expect(failed.errorMessage).toMatch(
      /^The model's answer does not have the expected shape \{"labels": \[...\]\} at labels/,
    );
    expect((await resultsOf(other.node))[0].details).toMatchObject({ answer: '{"labels": "Invoice"}' });
  });

  // --- training ---

  /** A document with a step of the node in `status` (inserted directly: the walk is not under test here). */
  async function documentAt(g: GraphBuilder, nodeId: number, content: string, status = 'DONE') {
    const [doc] = await s
      .knex('documents')
      .insert({
        process_id: g.processId,
        filename: unique('doc') + '.txt',
        path: 'x',
        content_hash: 'x',
        mime_type: 'text/plain',
        size: content.length,
        document_type: 'TEXTFILE',
      })
      .returning(['id', 'filename']);
    await s.knex('document_contents').insert({ document_id: doc.id, content });
    const [step] = await s
      .knex('steps')
      .insert({ document_id: doc.id, node_id: nodeId, status, order: 2 })
      .returning('id');
    return { id: doc.id as number, filename: doc.filename as string, stepId: step.id as number };
  }

  const trainable = (nodeId: number, config: Record<string, unknown>) =>
    s
      .knex('nodes')
      .where('id', nodeId)
      .update({ trainable_config: JSON.stringify(config) });

  it('train posts the labels and the finished documents to the request path', async () => {
    const g = await GraphBuilder.create(s.knex);
    const node = await g.node('CLF');
    const invoice = await g.classifierType(node, 'Invoice');
    await describeClass(invoice, 'A bill');
    const letter = await g.classifierType(node, 'Letter');
    await trainable(node, {
      model: 'clf-v1',
      requestPath: trainer.url('/train/clf'),
      automaticTraining: false,
      threshold: 10,
    });
    const done = await documentAt(g, node, 'Pay 10 PLN.', 'DONE');
    const accepted = await documentAt(g, node, 'Dear Ann.', 'ACCEPTED');
    await documentAt(g, node, 'Not yet.', 'WAITING');
    await s.knex('classifier_tags').insert([
      { document_id: done.id, step_id: done.stepId, node_id: node, classifier_type_id: invoice },
      { document_id: accepted.id, step_id: accepted.stepId, node_id: node, classifier_type_id: letter },
    ]);
    const train = (id: number, token: string) =>
      call(s.api.baseUrl, `/api/trainable-nodes/${id}/train`, { method: 'PUT', token });

    const reader = await s.userWith(g.processId, 'READ');
    expect((await train(node, reader)).status).toBe(403);
    expect(trainer.received.filter((r) => r.path === '/train/clf')).toHaveLength(0);

    const admin = await s.userWith(g.processId, 'ADMIN');
    const res = await train(node, admin);
    expect(res.status).toBe(200);
    expect(res.body).toMatchObject({
      nodeId: node,
      reason: 'MANUAL',
      status: 'SUCCESS',
      documents: 2,
      httpStatus: 202,
    });
    const sent = trainer.received.filter((r) => r.path === '/train/clf');
    expect(sent.map((r) => r.body)).toEqual([
      {
        nodeId: node,
        model: 'clf-v1',
        labels: [
          { id: invoice, name: 'Invoice', description: 'A bill' },
          { id: letter, name: 'Letter', description: null },
        ],
        documents: [
          { id: done.id, filename: done.filename, content: 'Pay 10 PLN.', classifierLabels: ['Invoice'] },
          {
            id: accepted.id,
            filename: accepted.filename,
            content: 'Dear Ann.',
            classifierLabels: ['Letter'],
          },
        ],
      },
    ]);

    trainingStatuses.push(500);
    const failed = await train(node, admin);
    expect(failed.status).toBe(502);
    expect(failed.body.detail).toMatch(/answered HTTP 500/);
    const rows = await s.knex('node_trainings').where('node_id', node).orderBy('id');
    expect(rows.map((r) => [r.reason, r.status, r.documents, r.http_status])).toEqual([
      ['MANUAL', 'SUCCESS', 2, 202],
      ['MANUAL', 'FAILURE', 2, 500],
    ]);

    const plain = await g.node('CLF');
    expect((await train(plain, admin)).status).toBe(400);
    const noPath = await g.node('SPAN');
    await trainable(noPath, { model: 'x', requestPath: null, automaticTraining: false, threshold: 10 });
    const missing = await train(noPath, admin);
    expect(missing.status).toBe(400);
    expect(missing.body.detail).toBe('The trainable node has no request path');
  });

  it('maybeTrainNode trains once threshold new documents are finished, and not before', async () => {
    const g = await GraphBuilder.create(s.knex);
    const node = await g.node('SPAN');
    const city = await g.nerTagType(node, 'City');
    await trainable(node, {
      model: 'ner-v1',
      requestPath: trainer.url(`/train/ner/${node}`),
      automaticTraining: true,
      threshold: 10,
    });
    const { maybeTrainNode } = createTrainingActivities({ knex: s.knex, outboundAllowlist: ['127.0.0.1'] });
    const sent = () => trainer.received.filter((r) => r.path === `/train/ner/${node}`);

    const docs = [];
    for (let i = 0; i < 9; i++) docs.push(await documentAt(g, node, `Trip ${i} to Warsaw.`));
    await documentAt(g, node, 'Still open.', 'WAITING');
    await s.knex('ner_tags').insert({
      document_id: docs[0].id,
      step_id: docs[0].stepId,
      ner_tag_type_id: city,
      type: 'SPAN_TAG',
      start_offset: 10,
      end_offset: 16,
    });
    expect(await maybeTrainNode({ nodeId: node })).toMatchObject({ trained: false });
    expect(sent()).toHaveLength(0);

    docs.push(await documentAt(g, node, 'Trip 9 home.'));
    const trained = await maybeTrainNode({ nodeId: node });
    expect(trained).toMatchObject({ trained: true, training: { reason: 'AUTOMATIC', documents: 10 } });
    expect(sent()).toHaveLength(1);
    const body = sent()[0].body;
    expect(body).toMatchObject({ nodeId: node, model: 'ner-v1', labels: [{ id: city, name: 'City' }] });
    expect(body.documents).toHaveLength(10);
    expect(body.documents[0]).toEqual({
      id: docs[0].id,
      filename: docs[0].filename,
      content: 'Trip 0 to Warsaw.',
      spans: [{ label: 'City', start: 10, end: 16, text: 'Warsaw' }],
    });
    expect(body.documents[1].spans).toEqual([]);

    // The next training waits for 10 more.
    expect(await maybeTrainNode({ nodeId: node })).toMatchObject({ trained: false });
    await documentAt(g, node, 'Trip 10.');
    expect(await maybeTrainNode({ nodeId: node })).toMatchObject({ trained: false });
    expect(sent()).toHaveLength(1);

    await trainable(node, {
      model: 'ner-v1',
      requestPath: trainer.url('/x'),
      automaticTraining: false,
      threshold: 10,
    });
    for (let i = 0; i < 10; i++) await documentAt(g, node, `More ${i}.`);
    expect(await maybeTrainNode({ nodeId: node })).toEqual({
      trained: false,
      skipped: 'Automatic training is off',
    });
  });
});
