/**
 * LLM prompt nodes at run time, on a local OpenAI-compatible chat API started here (tests/support/openai-server):
 * the rendered prompt reaches it with the node's model, temperature and secret as the bearer token; the answer
 * is stored as a chat response of the step and renders into a later node's `${node.<id>.llmresponse}`.
 * The rerun route goes through the suite's API, whose configuration knows no chat API: the rerun runs on the
 * worker (llmRerunWorkflow), pointed at the local one.
 */
import { sealValue } from '../../db/crypto';
import crypto from 'node:crypto';
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import type { Knex } from 'knex';
import { createKnex } from '../../db/connection';
import { call } from '../support/harness';
import { createWorker, type WorkerGroup } from '../../workflows/worker';
import { GraphBuilder, setupEngineSuite, startDocument, stepReaching } from '../support/engine';
import { echoAnswer, startOpenAiServer, userText, type OpenAiServer } from '../support/openai-server';

describe('LLM prompt nodes', () => {
  const s = setupEngineSuite('actions-llm', { worker: false });
  let worker: WorkerGroup;
  let running: Promise<void>;
  let closeConnection: () => Promise<void>;
  let workerKnex: Knex;
  let llm: OpenAiServer;
  let web: http.Server;
  let webPort: number;
  const hooks: string[] = [];

  beforeAll(async () => {
    llm = await startOpenAiServer();
    web = http.createServer((req, res) => {
      const chunks: Buffer[] = [];
      req.on('data', (c: Buffer) => chunks.push(c));
      req.on('end', () => {
        hooks.push(Buffer.concat(chunks).toString('utf8'));
        res.writeHead(200, { 'Content-Type': 'text/plain' });
        res.end('ok');
      });
    });
    await new Promise<void>((r) => web.listen(0, '127.0.0.1', r));
    webPort = (web.address() as AddressInfo).port;
    workerKnex = createKnex(process.env.DATABASE_URL!, { min: 0, max: 4 });
    const created = await createWorker({
      temporalAddress: process.env.TEMPORAL_ADDRESS!,
      namespace: 'default',
      taskQueue: s.taskQueue,
      knex: workerKnex,
      filesDir: s.filesDir,
      outboundAllowlist: ['127.0.0.1'],
      llmBaseUrl: llm.baseUrl,
      workflowBundle: { codePath: process.env.WORKFLOW_BUNDLE_PATH! },
    });
    worker = created.worker;
    closeConnection = () => created.connection.close();
    running = worker.run();
  });

  afterAll(async () => {
    worker?.shutdown();
    await running;
    await closeConnection?.();
    await workerKnex?.destroy();
    await llm?.close();
    await new Promise<void>((r) => web?.close(() => r()));
  });

  const configure = (nodeId: number, settings: Record<string, unknown>) =>
    s
      .knex('nodes')
      .where('id', nodeId)
      .update({ settings: JSON.stringify(settings) });

  const secret = async (g: GraphBuilder, value: string, active = true) =>
    (
      await s
        .knex('secrets')
        .insert({
          process_id: g.processId,
          name: `llm-${crypto.randomUUID().slice(0, 8)}`,
          value: sealValue('secrets', 'value', value), // as the API stores it
          active,
        })
        .returning('id')
    )[0].id as number;

  const modelId = async (name: string) => (await s.knex('llm_models').where('name', name).first('id')).id;

  /** HUP -> FILE_PARSER -> LLM_PROMPT (automatic), configured with settings. */
  async function llmGraph(settings: (g: GraphBuilder) => Promise<Record<string, unknown>>) {
    const g = await GraphBuilder.create(s.knex);
    const hup = await g.node('HUP');
    const parser = await g.node('FILE_PARSER', { autoStepStatus: 'DONE' });
    const prompt = await g.node('LLM_PROMPT', { automatic: true, autoStepStatus: 'ACCEPTED' });
    await configure(prompt, await settings(g));
    await g.edge(hup, parser);
    await g.edge(parser, prompt);
    return { g, hup, prompt };
  }

  const requestsWith = (text: string) => llm.requests.filter((r) => userText(r).includes(text));

  it('sends the rendered prompt with model, temperature and key; the answer feeds a later node', async () => {
    const marker = crypto.randomUUID();
    const { g, hup, prompt } = await llmGraph(async (g) => ({
      llmModel: { id: await modelId('llama-3.1-8b-instruct') },
      secret: { id: await secret(g, 'sk-test-llm') },
      prompt: `Summarise ${marker} \${document.filename}: \${document.content}`,
      promptEditorState: '{"editor":1}',
      temperature: 0.3,
      attachFile: true, // ignored: the model has no modalities
    }));
    const hook = await g.node('SEND_REQUEST', { automatic: true, autoStepStatus: 'ACCEPTED' });
    await configure(hook, {
      httpRequestMethod: 'POST',
      url: `http://127.0.0.1:${webPort}/llm`,
      headers: {},
      requestBody: { bodyType: 'PLAIN_TEXT', plainTextBody: `answer=\${node.${prompt}.llmresponse}` },
    });
    await g.edge(prompt, hook);
    const doc = await startDocument(s, g, hup, { name: 'notes.txt', content: 'Fish and chips.\n' });
    await stepReaching(s.knex, doc.id, hook, ['ACCEPTED']);

    const [req] = requestsWith(marker);
    expect(requestsWith(marker)).toHaveLength(1);
    expect(req.authorization).toBe('Bearer sk-test-llm');
    expect(req.body).toMatchObject({ model: 'llama-3.1-8b-instruct', temperature: 0.3 });
    expect(req.body.messages).toEqual([
      {
        role: 'user',
        content: expect.stringMatching(new RegExp(`^Summarise ${marker} notes\\.txt: Fish and chips\\.`)),
      },
    ]);
    const answer = echoAnswer(req);
    const step = await stepReaching(s.knex, doc.id, prompt, ['ACCEPTED']);
    const rows = await s.knex('llm_chat_responses').where('step_id', step.id);
    expect(rows).toEqual([
      expect.objectContaining({
        node_id: prompt,
        document_id: doc.id,
        prompt: userText(req),
        prompt_editor_state: '{"editor":1}',
        response: answer,
      }),
    ]);
    const results = await s.knex('action_execution_results').where('node_id', prompt);
    expect(results).toEqual([
      expect.objectContaining({ status: 'SUCCESS', step_id: step.id, document_id: doc.id }),
    ]);
    expect(results[0].details).toMatchObject({ model: 'llama-3.1-8b-instruct', temperature: 0.3 });
    expect(hooks).toContain(`answer=${answer}`);
  });

  it('attaches the document text for a model with modalities and defaults the temperature to 1', async () => {
    const marker = crypto.randomUUID();
    const { g, hup, prompt } = await llmGraph(async (g) => ({
      llmModel: { id: await modelId('gpt-4o-mini') },
      secret: { id: await secret(g, 'sk-attach') },
      prompt: `Read the file ${marker}`,
      attachFile: true,
    }));
    const doc = await startDocument(s, g, hup, { name: 'letter.txt', content: 'Dear Ann.\n' });
    await stepReaching(s.knex, doc.id, prompt, ['ACCEPTED']);
    const [req] = requestsWith(marker);
    expect(req.body.temperature).toBe(1);
    expect(req.body.messages).toEqual([
      {
        role: 'user',
        content: [
          { type: 'text', text: `Read the file ${marker}` },
          { type: 'text', text: expect.stringMatching(/^Attached file letter\.txt:\nDear Ann\./) },
        ],
      },
    ]);
  });

  it('retries a 5xx answer and stores one response; a 401 ends the step in ERROR', async () => {
    const marker = crypto.randomUUID();
    const { g, hup, prompt } = await llmGraph(async (g) => ({
      llmModel: { id: await modelId('gpt-4o') },
      secret: { id: await secret(g, 'sk-flaky') },
      prompt: `Retry ${marker}`,
    }));
    llm.failures.push(503);
    const doc = await startDocument(s, g, hup);
    const step = await stepReaching(s.knex, doc.id, prompt, ['ACCEPTED']);
    expect(requestsWith(marker)).toHaveLength(2);
    expect(await s.knex('llm_chat_responses').where('step_id', step.id)).toHaveLength(1);

    const denied = crypto.randomUUID();
    await configure(prompt, {
      llmModel: { id: await modelId('gpt-4o') },
      secret: { id: await secret(g, 'sk-denied') },
      prompt: `Denied ${denied}`,
    });
    llm.failures.push(401);
    const other = await startDocument(s, g, hup);
    const failed = await stepReaching(s.knex, other.id, prompt, ['ERROR']);
    expect(failed.errorMessage).toMatch(/The LLM API failed: 401/);
    expect(requestsWith(denied)).toHaveLength(1);
    expect(await s.knex('llm_chat_responses').where('step_id', failed.id)).toHaveLength(0);
  });

  it('ends the step in ERROR without calling the API when the secret is inactive', async () => {
    const marker = crypto.randomUUID();
    const { g, hup, prompt } = await llmGraph(async (g) => ({
      llmModel: { id: await modelId('gpt-4o-mini') },
      secret: { id: await secret(g, 'sk-off', false) },
      prompt: `Inactive ${marker}`,
    }));
    const doc = await startDocument(s, g, hup);
    const step = await stepReaching(s.knex, doc.id, prompt, ['ERROR']);
    expect(step.errorMessage).toMatch(/secret ".+" of the LLM prompt node is inactive/);
    expect(requestsWith(marker)).toHaveLength(0);
    expect((await s.knex('action_execution_results').where('node_id', prompt)).map((r) => r.status)).toEqual([
      'FAILURE',
    ]);
  });

  it('reruns a step with an edited prompt and lists the chat responses by document', async () => {
    const marker = crypto.randomUUID();
    const { g, hup, prompt } = await llmGraph(async (g) => ({
      llmModel: { id: await modelId('gpt-4o') },
      secret: { id: await secret(g, 'sk-rerun') },
      prompt: `First ${marker}`,
      temperature: 0.5,
    }));
    const doc = await startDocument(s, g, hup, { name: 'rerun.txt' });
    const step = await stepReaching(s.knex, doc.id, prompt, ['ACCEPTED']);
    const rerun = (token: string, json: unknown) =>
      call(s.api.baseUrl, `/api/llm-prompt-step/${step.id}/rerun`, { method: 'POST', token, json });

    const reader = await s.userWith(g.processId, 'READ');
    expect((await rerun(reader, { prompt: 'x' })).status).toBe(403);
    expect((await rerun(s.admin, { prompt: '  ' })).status).toBe(400);
    expect(requestsWith(marker)).toHaveLength(1);

    const writer = await s.userWith(g.processId, 'WRITE');
    const res = await rerun(writer, {
      prompt: `Second ${marker} \${document.filename}`,
      promptEditorState: '{"v":2}',
    });
    expect(res.status).toBe(201);
    const req = requestsWith(marker)[1];
    expect(req.authorization).toBe('Bearer sk-rerun');
    expect(req.body).toMatchObject({ model: 'gpt-4o', temperature: 0.5 });
    expect(userText(req)).toBe(`Second ${marker} rerun.txt`);
    expect(res.body).toMatchObject({
      stepId: step.id,
      nodeId: prompt,
      documentId: doc.id,
      prompt: `Second ${marker} rerun.txt`,
      promptEditorState: '{"v":2}',
      response: echoAnswer(req),
    });

    const list = await call(s.api.baseUrl, `/api/llm-chat-responses?documentId=${doc.id}`, { token: reader });
    expect(list.status).toBe(200);
    expect(list.body.map((r: { prompt: string }) => r.prompt)).toEqual([
      `First ${marker}`,
      `Second ${marker} rerun.txt`,
    ]);
    const stranger = await s.userWith((await GraphBuilder.create(s.knex)).processId, 'READ');
    expect(
      (await call(s.api.baseUrl, `/api/llm-chat-responses?documentId=${doc.id}`, { token: stranger })).status,
    ).toBe(403);

    llm.failures.push(500);
    const failed = await rerun(writer, { prompt: `Third ${marker}` });
    expect(failed.status).toBe(502);
    expect(await s.knex('llm_chat_responses').where('step_id', step.id)).toHaveLength(2);
  });
});
