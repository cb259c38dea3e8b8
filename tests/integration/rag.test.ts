/**
 * RAG (issue 16 section 3) with the real engine: documents that reach DONE in a RAG process are chunked and
 * indexed by the worker, edited content is chunked again, deletion takes the chunks and their term statistics
 * away; `POST api/rag` retrieves (BM25 in PostgreSQL; fused with dense vectors when an embeddings model is
 * configured), renders the template and asks the chat API (tests/support/openai-server.ts); refusals and the
 * template rules. The suite's API has the rag profile; its worker has no embeddings model (lexical path); the
 * dense path has a worker and an API of its own on another task queue.
 */
import crypto from 'node:crypto';
import type { Knex } from 'knex';
import { sealValue } from '../../db/crypto';
import { createKnex } from '../../db/connection';
import { RAG_TEMPLATE_ERROR } from '../../domain/rag';
import type { RagResponse } from '../../domain/rag-types';
import { createWorker, type WorkerGroup } from '../../workflows/worker';
import { GraphBuilder, documentStatus, eventually, setupEngineSuite, startDocument } from '../support/engine';
import { call, fieldKeyMap, login, startTestApi, unique, type TestApi } from '../support/harness';
import { startOpenAiServer, userText, type OpenAiServer } from '../support/openai-server';

const FACTS = [
  ['aurora', 'The lighthouse keeper Ingrid paints her door cobalt blue every spring.'],
  ['basalt', 'Our quarry ships basalt gravel to Tromso on Thursdays only.'],
  ['cedar', 'The violin workshop seasons cedar planks for exactly seven winters.'],
] as const;

const filler = (n: number) =>
  Array.from(
    { length: n },
    (_, i) => `Paragraph ${i} of routine notes: the weather was mild and the meeting ran as planned.`,
  ).join('\n\n');

interface ChunkRow {
  id: number;
  document_id: number;
  ordinal: number;
  start_offset: number;
  end_offset: number;
  text: string;
}

describe('RAG', () => {
  let llm: OpenAiServer;
  beforeAll(async () => {
    llm = await startOpenAiServer();
  });
  const s = setupEngineSuite('rag', {
    config: { profiles: ['dev', 'rag'] },
    settings: {
      get llmBaseUrl() {
        return llm.baseUrl;
      },
      embeddings: null,
    },
  });
  afterAll(async () => {
    await llm?.close();
  });

  const chunksOf = (documentId: number): Promise<ChunkRow[]> =>
    s.knex('rag_chunks').where('document_id', documentId).orderBy('ordinal').select();
  const df = async (processId: number, lexeme: string) =>
    Number((await s.knex('rag_term_stats').where({ process_id: processId, lexeme }).first('df'))?.df ?? 0);
  const chunkCount = async (processId: number) =>
    Number(
      (await s.knex('rag_process_stats').where('process_id', processId).first('chunk_count'))?.chunk_count ??
        0,
    );
  const contentOf = async (documentId: number) =>
    (await s.knex('document_contents').where('document_id', documentId).first('id', 'content')) as {
      id: number;
      content: string;
    };
  const modelId = async () =>
    (await s.knex('llm_models').where('name', 'gpt-4o-mini').first('id')).id as number;
  const secretOf = async (processId: number, value: string, active = true) =>
    (
      await s
        .knex('secrets')
        .insert({
          process_id: processId,
          name: unique('rag'),
          value: sealValue('secrets', 'value', value),
          active,
        })
        .returning('id')
    )[0].id as number;

  /** A RAG process HUP -> FILE_PARSER (DONE): a text document ends DONE once parsed. */
  async function ragProcess(enabled = true) {
    const g = await GraphBuilder.create(s.knex);
    await s.knex('processes').where('id', g.processId).update({ is_rag_enabled: enabled });
    const hup = await g.node('HUP');
    const parser = await g.node('FILE_PARSER', { autoStepStatus: 'DONE' });
    await g.edge(hup, parser);
    return { g, hup };
  }

  async function doneDocument(g: GraphBuilder, hup: number, name: string, content: string) {
    const doc = await startDocument(s, g, hup, { name, content });
    await eventually(`${name} DONE`, async () => (await documentStatus(s.knex, doc.id)) === 'DONE');
    return doc.id;
  }

  const indexed = (documentId: number) =>
    eventually(`chunks of ${documentId}`, async () => {
      const rows = await chunksOf(documentId);
      return rows.length > 0 && rows;
    });

  let P: { g: GraphBuilder; hup: number };
  const docs: Record<string, number> = {};
  let reader: string;

  beforeAll(async () => {
    P = await ragProcess();
    for (const [key, fact] of FACTS)
      docs[key] = await doneDocument(P.g, P.hup, `${key}.txt`, `${filler(15)}\n\n${fact}\n\n${filler(12)}`);
    for (const id of Object.values(docs)) await indexed(id);
    reader = await s.userWith(P.g.processId, 'READ');
  }, 120_000);

  const ask = (token: string, json: Record<string, unknown>, api: { baseUrl: string } = s.api) =>
    call<RagResponse & { message?: string; detail?: string }>(api.baseUrl, '/api/rag', {
      method: 'POST',
      token,
      json,
    });

  it('chunks documents that reach DONE on paragraph boundaries, with offsets that slice the text', async () => {
    const id = docs.aurora;
    const { content } = await contentOf(id);
    const chunks = await chunksOf(id);
    expect(chunks.length).toBeGreaterThan(0);
    for (const c of chunks) expect(content.slice(c.start_offset, c.end_offset)).toBe(c.text);
    // packed paragraphs: every chunk starts at a paragraph start
    for (const c of chunks)
      expect(c.start_offset === 0 || content.slice(c.start_offset - 2, c.start_offset) === '\n\n').toBe(true);
    expect(chunks.map((c) => c.text).join('\n\n')).toBe(content.trim());
    expect(await df(P.g.processId, 'cobalt')).toBe(1);
    expect(await df(P.g.processId, 'weather')).toBe(
      Number(
        (
          await s
            .knex('rag_chunks')
            .where('process_id', P.g.processId)
            .whereRaw("tsv @@ 'weather'::tsquery")
            .count({ n: '*' })
        )[0].n,
      ),
    );
    expect(await chunkCount(P.g.processId)).toBe(
      Number((await s.knex('rag_chunks').where('process_id', P.g.processId).count({ n: '*' }))[0].n),
    );
  });

  it('answers the document holding the fact first, with the template rendered for the chat API', async () => {
    const secret = await secretOf(P.g.processId, 'sk-rag');
    llm.requests.length = 0;
    const res = await ask(reader, {
      processId: P.g.processId,
      query: 'Which colour does Ingrid paint her door in any weather?',
      topK: 3,
      similarityThreshold: 0,
      temperature: 0.3,
      llmModel: { id: await modelId() },
      secret: { id: secret },
    });
    expect(res.status).toBe(200);
    const first = res.body.matchedDocuments[0];
    expect(first).toMatchObject({ docId: docs.aurora, filename: 'aurora.txt' });
    expect(first.chunks[0].score).toBe(1);
    expect(first.chunks[0].text).toContain('cobalt blue');
    const { content } = await contentOf(docs.aurora);
    expect(content.slice(first.chunks[0].startOffset, first.chunks[0].endOffset)).toBe(first.chunks[0].text);
    expect(res.body.matchedDocuments.flatMap((d) => d.chunks)).toHaveLength(3);
    // the chat API got the default template with the query and the chunks, the model, key and temperature
    expect(llm.requests).toHaveLength(1);
    const [req] = llm.requests;
    expect(req.authorization).toBe('Bearer sk-rag');
    expect(req.body).toMatchObject({ model: 'gpt-4o-mini', temperature: 0.3 });
    const prompt = userText(req);
    expect(prompt).toContain('Which colour does Ingrid paint her door in any weather?');
    expect(prompt).toContain(`Document ${docs.aurora} (aurora.txt):`);
    expect(prompt).toContain('cobalt blue every spring');
    expect(res.body.llmResponse).toBe(`echo(gpt-4o-mini, t=0.3): ${prompt}`);
  });

  it('applies topK (chunks) and the similarity threshold', async () => {
    const base = {
      processId: P.g.processId,
      query: 'basalt gravel quarry Thursdays weather',
      llmModel: { id: await modelId() },
    };
    const one = await ask(reader, { ...base, topK: 1 });
    expect(one.status).toBe(200);
    expect(one.body.matchedDocuments).toEqual([expect.objectContaining({ docId: docs.basalt })]);
    expect(one.body.matchedDocuments[0].chunks).toHaveLength(1);
    const all = await ask(reader, { ...base, topK: 10 });
    const scores = all.body.matchedDocuments.flatMap((d) => d.chunks.map((c) => c.score));
    expect(scores.length).toBeGreaterThan(1);
    expect(Math.max(...scores)).toBe(1);
    const strict = await ask(reader, { ...base, topK: 10, similarityThreshold: 0.95 });
    const kept = strict.body.matchedDocuments.flatMap((d) => d.chunks.map((c) => c.score));
    expect(kept.length).toBeLessThan(scores.length);
    expect(kept.every((x) => x >= 0.95)).toBe(true);
    expect(strict.body.matchedDocuments[0].docId).toBe(docs.basalt);
  });

  it('chunks edited content again and keeps the statistics right', async () => {
    const id = await doneDocument(
      P.g,
      P.hup,
      'edit.txt',
      'Original paragraph about marmalade.\n\nSecond paragraph.',
    );
    await indexed(id);
    expect(await df(P.g.processId, 'marmalade')).toBe(1);
    const row = await contentOf(id);
    const edited = 'Rewritten paragraph about quince jelly.\n\nSecond paragraph.\n\nThird one about quince.';
    const res = await s.send('PUT', '/api/document-content', s.admin, {
      id: row.id,
      docId: id,
      content: edited,
    });
    expect(res.status).toBe(200);
    const chunks = await eventually('re-chunked', async () => {
      const rows = await chunksOf(id);
      return rows.some((r) => r.text.includes('quince')) && rows;
    });
    for (const c of chunks) expect(edited.slice(c.start_offset, c.end_offset)).toBe(c.text);
    expect(await df(P.g.processId, 'marmalade')).toBe(0);
    expect(await df(P.g.processId, 'quince')).toBe(chunks.filter((c) => /quince/.test(c.text)).length);
  });

  it('removes the chunks and their statistics when a document is deleted', async () => {
    const id = await doneDocument(P.g, P.hup, 'gone.txt', 'A note on zeppelin hangars.\n\nAnother on tides.');
    await indexed(id);
    const before = await chunkCount(P.g.processId);
    const own = (await chunksOf(id)).length;
    expect(await df(P.g.processId, 'zeppelin')).toBe(1);
    const res = await s.send('DELETE', `/api/documents/${id}`, s.admin);
    expect(res.status).toBeLessThan(300);
    expect(await chunksOf(id)).toEqual([]);
    expect(await df(P.g.processId, 'zeppelin')).toBe(0);
    expect(await chunkCount(P.g.processId)).toBe(before - own);
  });

  it('refuses READ of another process, a process with RAG off, the profile off and invalid fields', async () => {
    const llmModel = { id: await modelId() };
    const other = await ragProcess();
    const outsider = await s.userWith(other.g.processId, 'ADMIN');
    expect((await ask(outsider, { processId: P.g.processId, query: 'x', llmModel })).status).toBe(403);

    const off = await ragProcess(false);
    const offRes = await ask(s.admin, { processId: off.g.processId, query: 'x', llmModel });
    expect(offRes.status).toBe(400);
    expect(offRes.body.message).toBe('error.rag.processOff');
    expect(offRes.body.detail).toMatch(/RAG is not enabled on the process/);

    const profiles = s.api.config.profiles;
    s.api.config.profiles = ['dev'];
    try {
      const res = await ask(reader, { processId: P.g.processId, query: 'x', llmModel });
      expect(res.status).toBe(400);
      expect(res.body.message).toBe('error.rag.profileOff');
    } finally {
      s.api.config.profiles = profiles;
    }

    const invalid = await ask(reader, {
      processId: P.g.processId,
      query: 'x',
      topK: 11,
      similarityThreshold: 1.5,
      temperature: -1,
    });
    expect(invalid.status).toBe(400);
    expect(fieldKeyMap(invalid.body as never)).toEqual({
      llmModel: 'entity.validation.required',
      topK: 'entity.validation.max',
      similarityThreshold: 'entity.validation.max',
      temperature: 'entity.validation.min',
    });
    const zero = await ask(reader, { processId: P.g.processId, query: 'x', topK: 0, llmModel });
    expect(fieldKeyMap(zero.body as never)).toEqual({ topK: 'entity.validation.min' });

    const foreignSecret = await secretOf(other.g.processId, 'k');
    const foreign = await ask(reader, {
      processId: P.g.processId,
      query: 'x',
      llmModel,
      secret: { id: foreignSecret },
    });
    expect(fieldKeyMap(foreign.body as never)).toEqual({ secret: 'error.idnotfound' });
    const inactive = await secretOf(P.g.processId, 'k', false);
    const inactiveRes = await ask(reader, {
      processId: P.g.processId,
      query: 'x',
      llmModel,
      secret: { id: inactive },
    });
    expect(inactiveRes.status).toBe(400);
    expect(inactiveRes.body.detail).toMatch(/is inactive/);

    llm.failures.push(500);
    const failed = await ask(reader, { processId: P.g.processId, query: 'cedar', llmModel });
    expect(failed.status).toBe(502);
    expect(failed.body.detail).toMatch(/^The LLM API failed: /);
  });

  it('keeps one template per process with both wildcards, and resets it to the default', async () => {
    const pid = P.g.processId;
    const defaults = await s.get('/api/rag-templates/defaults', reader);
    expect(defaults.status).toBe(200);
    expect(defaults.body.template).toContain('${process.rag.input}');
    const initial = await s.get(`/api/rag-templates?processId=${pid}`, reader);
    expect(initial.body).toMatchObject({
      id: null,
      processId: pid,
      template: defaults.body.template,
      active: true,
    });

    for (const template of ['', 'only ${process.rag.input}', 'only ${process.rag.documents}']) {
      const bad = await s.send('PUT', '/api/rag-templates', s.admin, { processId: pid, template });
      expect(bad.status).toBe(400);
      expect(fieldKeyMap(bad.body)).toEqual({ template: RAG_TEMPLATE_ERROR });
    }
    const own = 'CUSTOM TEMPLATE. Q=${process.rag.input} D=${process.rag.documents}';
    expect(
      (await s.send('PUT', '/api/rag-templates', reader, { processId: pid, template: own })).status,
    ).toBe(403);
    const saved = await s.send('PUT', '/api/rag-templates', s.admin, {
      processId: pid,
      template: own,
      templateEditorState: '{"editor":1}',
      active: true,
    });
    expect(saved.status).toBe(200);
    expect(saved.body).toMatchObject({ processId: pid, template: own, templateEditorState: '{"editor":1}' });
    expect((await s.get(`/api/rag-templates?processId=${pid}`, reader)).body.id).toBe(saved.body.id);

    llm.requests.length = 0;
    await ask(reader, { processId: pid, query: 'cedar planks', llmModel: { id: await modelId() } });
    expect(userText(llm.requests[0])).toMatch(
      /^CUSTOM TEMPLATE\. Q=cedar planks D=Document \d+ \(cedar\.txt\):/,
    );

    expect((await s.send('DELETE', `/api/rag-templates/${saved.body.id}`, reader)).status).toBe(403);
    expect((await s.send('DELETE', `/api/rag-templates/${saved.body.id}`, s.admin)).status).toBe(204);
    expect((await s.get(`/api/rag-templates?processId=${pid}`, reader)).body).toMatchObject({
      id: null,
      template: defaults.body.template,
    });
  });

  it('indexes the DONE documents of a process when RAG is turned on, with the chosen splitter', async () => {
    const splitters = await s.get('/api/external-document-splitter', s.admin);
    const names = splitters.body.map((x: { name: string }) => x.name);
    expect(names).toEqual(expect.arrayContaining(['Paragraph', 'Sentence', 'Fixed window']));
    const sentence = splitters.body.find((x: { name: string }) => x.name === 'Sentence').id;

    const { g, hup } = await ragProcess(false);
    const text = 'First sentence about walruses. Second sentence about otters.\n\nA second paragraph.';
    const ids = [
      await doneDocument(g, hup, 'w1.txt', text),
      await doneDocument(g, hup, 'w2.txt', 'Walruses again.'),
    ];
    expect(await chunksOf(ids[0])).toEqual([]);
    const admin = await s.userWith(g.processId, 'ADMIN');
    const on = await s.send('PUT', `/api/processes/${g.processId}/rag`, admin, {
      isRagEnabled: true,
      ragTextSplitter: { id: sentence },
    });
    expect(on.status).toBe(200);
    expect(on.body).toMatchObject({ isRagEnabled: true, ragTextSplitter: { id: sentence } });
    const chunks = await indexed(ids[0]);
    await indexed(ids[1]);
    // the sentence splitter: packed sentences of one paragraph, never across the paragraph break
    expect(chunks.map((c) => c.text)).toEqual([
      'First sentence about walruses. Second sentence about otters.',
      'A second paragraph.',
    ]);
    expect(await df(g.processId, 'walruses')).toBe(2);
    expect(
      (await s.send('PUT', `/api/processes/${g.processId}/rag`, reader, { isRagEnabled: false })).status,
    ).toBe(403);
    const offRes = await s.send('PUT', `/api/processes/${g.processId}/rag`, admin, { isRagEnabled: false });
    expect(offRes.status).toBe(200);
    await eventually('chunks removed', async () => (await chunkCount(g.processId)) === 0);
    expect(await df(g.processId, 'walruses')).toBe(0);
  });

  describe('with an embeddings model', () => {
    let worker: WorkerGroup;
    let running: Promise<void>;
    let closeConnection: () => Promise<void>;
    let workerKnex: Knex;
    let api: TestApi;
    let token: string;
    const taskQueue = `test-rag-dense-${crypto.randomUUID()}`;

    beforeAll(async () => {
      workerKnex = createKnex(process.env.DATABASE_URL!, { min: 0, max: 4 });
      const created = await createWorker({
        temporalAddress: process.env.TEMPORAL_ADDRESS!,
        namespace: 'default',
        taskQueue,
        knex: workerKnex,
        filesDir: s.filesDir,
        llmBaseUrl: llm.baseUrl,
        embeddings: { model: 'test-embed', baseUrl: llm.baseUrl, apiKey: 'sk-embed' },
        workflowBundle: { codePath: process.env.WORKFLOW_BUNDLE_PATH! },
      });
      worker = created.worker;
      closeConnection = () => created.connection.close();
      running = worker.run();
      api = await startTestApi({ taskQueue, filesDir: s.filesDir, profiles: ['rag'] });
      token = await login(api.baseUrl, 'admin', 'admin');
    });

    afterAll(async () => {
      worker?.shutdown();
      await running;
      await closeConnection?.();
      await workerKnex?.destroy();
      await api?.close();
    });

    it('stores vectors at indexing and fuses the dense list with the lexical one', async () => {
      // Two synonyms point the same way; everything else by its words (wordVector).
      const { wordVector } = await import('../support/openai-server');
      llm.embed = (t) => (/feline|cat/i.test(t) ? [9, ...new Array(31).fill(0)] : wordVector(t));
      const { g, hup } = await ragProcess(false);
      const cat = await doneDocument(g, hup, 'cat.txt', 'The cat sleeps on the warm stove all afternoon.');
      const dog = await doneDocument(g, hup, 'dog.txt', 'Which animal barks at the postman? The dog does.');
      const on = await call(api.baseUrl, `/api/processes/${g.processId}/rag`, {
        method: 'PUT',
        token,
        json: { isRagEnabled: true },
      });
      expect(on.status).toBe(200);
      for (const id of [cat, dog])
        await eventually(`vectors of ${id}`, async () => {
          const n = await s
            .knex('rag_chunk_vectors as v')
            .join('rag_chunks as c', 'c.id', 'v.chunk_id')
            .where({ 'c.document_id': id, 'v.model': 'test-embed' })
            .count({ n: '*' });
          return Number(n[0].n) > 0;
        });
      expect(llm.embeddingRequests.some((r) => r.authorization === 'Bearer sk-embed')).toBe(true);
      // 'feline' is in no chunk: only the dense list finds the cat; 'animal' finds the dog lexically.
      const res = await ask(
        token,
        { processId: g.processId, query: 'feline animal', llmModel: { id: await modelId() } },
        api,
      );
      expect(res.status).toBe(200);
      const found = res.body.matchedDocuments.map((d) => d.docId).sort((a, b) => a - b);
      expect(found).toEqual([cat, dog].sort((a, b) => a - b));
      const lexicalOnly = await ask(reader, {
        processId: P.g.processId,
        query: 'feline',
        llmModel: { id: await modelId() },
      });
      expect(lexicalOnly.body.matchedDocuments).toEqual([]);

      llm.failures.push(500);
      const failed = await ask(
        token,
        { processId: g.processId, query: 'cat', llmModel: { id: await modelId() } },
        api,
      );
      expect(failed.status).toBe(502);
      expect(failed.body.detail).toMatch(/^The embeddings API failed: /);
    });
  });
});
