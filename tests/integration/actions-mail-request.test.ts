/**
 * Send-mail and send-request nodes at run time, on real peers on loopback started here: an SMTP server
 * (smtp-server) and an HTTP server. Two Workers of this suite: one whose deployment allowlist admits
 * 127.0.0.1, one with an empty allowlist (the net guard refuses loopback).
 */
import { sealValue } from '../../db/crypto';
import crypto from 'node:crypto';
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import type { Knex } from 'knex';
import { SMTPServer } from 'smtp-server';
import { fieldKeys } from '../support/harness';
import { createActionActivities } from '../../activities/actions';
import {
  GraphBuilder,
  setupEngineSuite,
  startWorkers,
  startDocument,
  stepReaching,
  type EngineSuite,
} from '../support/engine';

interface Mail {
  from: string;
  rcptTo: string[];
  raw: string;
  user?: string;
}

interface Received {
  method: string;
  url: string;
  headers: http.IncomingHttpHeaders;
  body: string;
}

describe('send mail and send request nodes', () => {
  const s = setupEngineSuite('actions', { worker: false });
  const refusingQueue = `test-actions-refusing-${crypto.randomUUID()}`;
  let workers: { stop(): Promise<void> } | undefined;
  let smtp: SMTPServer;
  let smtpPort: number;
  const mails: Mail[] = [];
  let web: http.Server;
  let webPort: number;
  const requests: Received[] = [];
  /** Statuses the HTTP server answers with, in turn (then 201). */
  const answers: number[] = [];

  beforeAll(async () => {
    smtp = new SMTPServer({
      secure: false,
      disabledCommands: ['STARTTLS'],
      allowInsecureAuth: true,
      authMethods: ['PLAIN', 'LOGIN'],
      onAuth(auth, _session, cb) {
        if (auth.password === 'smtp-secret') cb(null, { user: auth.username });
        else cb(new Error('Invalid username or password'));
      },
      onData(stream, session, cb) {
        const chunks: Buffer[] = [];
        stream.on('data', (c: Buffer) => chunks.push(c));
        stream.on('end', () => {
          mails.push({
            from: session.envelope.mailFrom ? session.envelope.mailFrom.address : '',
            rcptTo: session.envelope.rcptTo.map((r) => r.address),
            raw: Buffer.concat(chunks).toString('utf8'),
            user: session.user as string | undefined,
          });
          cb();
        });
      },
    });
    await new Promise<void>((r) => smtp.listen(0, '127.0.0.1', r));
    smtpPort = (smtp.server.address() as AddressInfo).port;

    web = http.createServer((req, res) => {
      const chunks: Buffer[] = [];
      req.on('data', (c: Buffer) => chunks.push(c));
      req.on('end', () => {
        requests.push({
          method: req.method!,
          url: req.url!,
          headers: req.headers,
          body: Buffer.concat(chunks).toString('utf8'),
        });
        const status = answers.shift() ?? 201;
        res.writeHead(status, { 'Content-Type': 'application/json' });
        res.end(JSON.stringify({ received: requests.length, status }));
      });
    });
    await new Promise<void>((r) => web.listen(0, '127.0.0.1', r));
    webPort = (web.address() as AddressInfo).port;

    workers = await startWorkers(s, [
      { taskQueue: s.taskQueue, outboundAllowlist: ['127.0.0.1'] },
      { taskQueue: refusingQueue, outboundAllowlist: [] },
    ]);
  });

  afterAll(async () => {
    await workers?.stop();
    await new Promise<void>((r) => smtp?.close(() => r()));
    await new Promise<void>((r) => web?.close(() => r()));
  });

  const configure = (knex: Knex, nodeId: number, settings: Record<string, unknown>) =>
    knex('nodes')
      .where('id', nodeId)
      .update({ settings: JSON.stringify(settings) });

  const secret = async (g: GraphBuilder, active = true) =>
    (
      await s
        .knex('secrets')
        .insert({
          process_id: g.processId,
          name: `smtp-${crypto.randomUUID().slice(0, 8)}`,
          value: sealValue('secrets', 'value', 'smtp-secret'), // as the API stores it
          active,
        })
        .returning('id')
    )[0].id as number;

  const resultsOf = (nodeId: number) =>
    s.knex('action_execution_results').where('node_id', nodeId).orderBy('id');

  /** HUP -> FILE_PARSER -> the action node, configured with settings. */
  async function actionGraph(
    activityType: string,
    settings: (g: GraphBuilder) => Promise<Record<string, unknown>>,
  ) {
    const g = await GraphBuilder.create(s.knex);
    const hup = await g.node('HUP');
    const parser = await g.node('FILE_PARSER', { autoStepStatus: 'DONE' });
    const action = await g.node(activityType, { automatic: true, autoStepStatus: 'ACCEPTED' });
    await configure(s.knex, action, await settings(g));
    await g.edge(hup, parser);
    await g.edge(parser, action);
    return { g, hup, action };
  }

  const mailSettings = async (g: GraphBuilder, active = true) => ({
    smtpHost: '127.0.0.1',
    smtpPort,
    username: 'sender@example.test',
    secret: { id: await secret(g, active) },
    subject: 'Document ${document.id} of ${process.name}',
    template: '<p>File ${document.filename}:</p><p>${document.content}</p><p>${util.date}</p>',
    mailReceivers: [
      { id: 1, email: 'to@example.test', type: 'DO' },
      { id: 2, email: 'cc@example.test', type: 'DW' },
      { id: 3, email: 'hidden@example.test', type: 'UDW' },
    ],
  });

  it('sends the rendered mail with To, Cc and a Bcc in the envelope only, signed in with the secret', async () => {
    const { g, hup, action } = await actionGraph('SEND_MAIL', (g) => mailSettings(g));
    const doc = await startDocument(s, g, hup, { name: 'report.txt', content: 'Fish & <chips> for Ann.\n' });
    await stepReaching(s.knex, doc.id, action, ['ACCEPTED']);
    const process = await s.knex('processes').where('id', g.processId).first('name');
    const mail = mails.find((m) => m.raw.includes(`Document ${doc.id} of ${process.name}`));
    expect(mail).toBeDefined();
    expect(mail!.user).toBe('sender@example.test');
    expect(mail!.from).toBe('sender@example.test');
    expect(mail!.rcptTo.sort()).toEqual(['cc@example.test', 'hidden@example.test', 'to@example.test']);
    const head = mail!.raw.split(/\r?\n\r?\n/, 1)[0];
    expect(head).toMatch(/^To: to@example\.test$/m);
    expect(head).toMatch(/^Cc: cc@example\.test$/m);
    expect(mail!.raw).not.toContain('hidden@example.test');
    expect(head).toMatch(/Content-Type: text\/html/i);
    expect(mail!.raw).toContain('report.txt');
    expect(mail!.raw).toContain('Fish &amp; &lt;chips&gt; for Ann.');
    const [row] = await resultsOf(action);
    expect(row).toMatchObject({ status: 'SUCCESS', document_id: doc.id });
    expect(row.details.messageId).toMatch(/^<.+@.+>$/);
    expect(mail!.raw).toContain(`Message-ID: ${row.details.messageId}`);
  });

  it('ends the step in ERROR without sending when the secret is inactive', async () => {
    const { g, hup, action } = await actionGraph('SEND_MAIL', (g) => mailSettings(g, false));
    const before = mails.length;
    const doc = await startDocument(s, g, hup);
    const step = await stepReaching(s.knex, doc.id, action, ['ERROR']);
    expect(step.errorMessage).toMatch(/secret ".+" of the mail node is inactive/);
    expect(mails.length).toBe(before);
    expect((await resultsOf(action)).map((r) => r.status)).toEqual(['FAILURE']);
  });

  it('sends the rendered request, stores the answer, readable through the API and by a later wildcard', async () => {
    const g = await GraphBuilder.create(s.knex);
    const hup = await g.node('HUP');
    const first = await g.node('SEND_REQUEST', { automatic: true, autoStepStatus: 'ACCEPTED' });
    const second = await g.node('SEND_REQUEST', { automatic: true, autoStepStatus: 'ACCEPTED' });
    await configure(s.knex, first, {
      httpRequestMethod: 'POST',
      url: `http://127.0.0.1:${webPort}/hook/\${document.id}?file=\${document.filename}`,
      headers: { 'X-Document': { value: '${document.id}' }, Authorization: { value: 'Token abc' } },
      requestBody: {
        bodyType: 'JSON',
        jsonBody: { file: { value: '${document.filename}' }, process: { value: '${process.name}' } },
      },
    });
    await configure(s.knex, second, {
      httpRequestMethod: 'PUT',
      url: `http://127.0.0.1:${webPort}/second`,
      headers: {},
      requestBody: {
        bodyType: 'PLAIN_TEXT',
        plainTextBody: `previous: \${node.${first}.sendrequestresult.body}`,
      },
    });
    await g.edge(hup, first);
    await g.edge(first, second);
    const doc = await startDocument(s, g, hup, { name: 'a b.txt' });
    await stepReaching(s.knex, doc.id, second, ['ACCEPTED']);

    const process = await s.knex('processes').where('id', g.processId).first('name');
    const hook = requests.find((r) => r.url === `/hook/${doc.id}?file=a%20b.txt`);
    expect(hook).toBeDefined();
    expect(hook!.method).toBe('POST');
    expect(hook!.headers).toMatchObject({
      'x-document': String(doc.id),
      authorization: 'Token abc',
      'content-type': 'application/json',
      host: `127.0.0.1:${webPort}`,
    });
    expect(JSON.parse(hook!.body)).toEqual({ file: 'a b.txt', process: process.name });
    const answer = JSON.parse((await resultsOf(first))[0].details.body);
    const later = requests.find((r) => r.url === '/second' && r.body.startsWith('previous: '));
    expect(later).toMatchObject({ method: 'PUT' });
    expect(JSON.parse(later!.body.slice('previous: '.length))).toEqual(answer);

    const res = await s.get(`/api/action-execution-results?nodeId=${first}`, s.admin);
    expect(res.status).toBe(200);
    expect(res.headers.get('x-total-count')).toBe('1');
    expect(res.body).toEqual([
      expect.objectContaining({
        nodeId: first,
        documentId: doc.id,
        status: 'SUCCESS',
        details: expect.objectContaining({ method: 'POST', status: 201, body: JSON.stringify(answer) }),
      }),
    ]);
    const stranger = await s.userWith((await GraphBuilder.create(s.knex)).processId, 'READ'); // another process
    expect((await s.get(`/api/action-execution-results?nodeId=${first}`, stranger)).status).toBe(403);
    const reader = await s.userWith(g.processId, 'READ');
    expect((await s.get(`/api/action-execution-results?nodeId=${first}&page=1&size=1`, reader)).body).toEqual(
      [],
    );
  });

  it('refuses a request to 127.0.0.1 when the allowlist does not admit it: the step ends in ERROR', async () => {
    const g = await GraphBuilder.create(s.knex);
    const hup = await g.node('HUP');
    const action = await g.node('SEND_REQUEST', { automatic: true, autoStepStatus: 'ACCEPTED' });
    await configure(s.knex, action, { httpRequestMethod: 'GET', url: `http://127.0.0.1:${webPort}/refused` });
    await g.edge(hup, action);
    const refusing = Object.create(s, { taskQueue: { value: refusingQueue } }) as EngineSuite;
    const doc = await startDocument(refusing, g, hup);
    const step = await stepReaching(s.knex, doc.id, action, ['ERROR']);
    expect(step.errorMessage).toBe(
      'Connections to 127.0.0.1 are not allowed (loopback address 127.0.0.1). ' +
        'An administrator may admit the address with OUTBOUND_ALLOWLIST.',
    );
    expect(requests.some((r) => r.url === '/refused')).toBe(false);
    expect((await resultsOf(action)).map((r) => r.status)).toEqual(['FAILURE']);
  });

  it('retries a 5xx answer, and a retry after the success sends nothing again', async () => {
    const g = await GraphBuilder.create(s.knex);
    const hup = await g.node('HUP');
    const action = await g.node('SEND_REQUEST', { automatic: true, autoStepStatus: 'ACCEPTED' });
    const path = `/retry/${crypto.randomUUID()}`;
    await configure(s.knex, action, { httpRequestMethod: 'GET', url: `http://127.0.0.1:${webPort}${path}` });
    await g.edge(hup, action);
    answers.push(503);
    const doc = await startDocument(s, g, hup);
    const step = await stepReaching(s.knex, doc.id, action, ['ACCEPTED']);
    expect(requests.filter((r) => r.url === path)).toHaveLength(2); // the 503, then the success
    const rows = await resultsOf(action);
    expect(rows.map((r) => [r.status, r.details.status])).toEqual([['SUCCESS', 201]]);

    // The activity run again for the same run of the step (as Temporal retries it) sends nothing.
    const { runAutomaticNode } = createActionActivities({
      knex: s.knex,
      filesDir: s.filesDir,
      outboundAllowlist: ['127.0.0.1'],
    });
    await runAutomaticNode({
      documentId: doc.id,
      stepId: step.id,
      nodeId: action,
      activityType: 'SEND_REQUEST',
      attempt: 1,
    });
    expect(requests.filter((r) => r.url === path)).toHaveLength(2);
    expect(await resultsOf(action)).toHaveLength(1);
  });
  it('refuses to save templates with unknown or unavailable wildcards', async () => {
    const processId = (await GraphBuilder.create(s.knex)).processId;
    const bad = await s.createNode(processId, {
      activityType: 'SEND_REQUEST',
      url: 'http://example.com/${document.nope}',
    });
    expect(bad.status).toBe(400);
    expect(fieldKeys(bad)).toEqual([['url', 'soaApp.node.unknownWildcard']]);
    const first = await s.node(processId, 'SEND_REQUEST');
    const second = await s.node(processId, 'SEND_REQUEST');
    await s.edge(first.id, second.id);
    const request = {
      ...second,
      httpRequestMethod: 'POST',
      url: 'http://example.com/${document.id}',
      headers: { 'X-Previous': { value: `\${node.${first.id}.sendrequestresult.body}` } },
      requestBody: { bodyType: 'PLAIN_TEXT', plainTextBody: '${process.name}' },
    };
    expect((await s.send('PUT', '/api/nodes', s.admin, request)).status).toBe(200);
    // A later node's result is no wildcard of an earlier one.
    const later = await s.send('PUT', '/api/nodes', s.admin, {
      ...first,
      httpRequestMethod: 'GET',
      url: `http://example.com/\${node.${second.id}.sendrequestresult.body}`,
    });
    expect(fieldKeys(later)).toEqual([['url', 'soaApp.node.unknownWildcard']]);
    const cron = await s.send('PUT', '/api/nodes', s.admin, {
      ...request,
      triggerType: 'CRON',
      cron: '0 0 8 * * MON-FRI',
    });
    // Under CRON the document and node wildcards render the aggregate of the collected documents...
    expect(cron.status).toBe(200);
    // ...but a list of many documents' names is no file name.
    const sftp = await s.createNode(processId, {
      activityType: 'SEND_TO_SFTP',
      triggerType: 'CRON',
      cron: '0 0 8 * * MON-FRI',
      preferredFilename: 'report-${document.filename}',
      fileContent: '${document.content}',
    });
    expect(fieldKeys(sftp)).toEqual([['preferredFilename', 'soaApp.node.unknownWildcard']]);
    const always = await s.createNode(processId, {
      activityType: 'SEND_TO_SFTP',
      preferredFilename: 'report-${document.filename}',
      fileContent: '${document.content}',
    });
    expect(always.status).toBe(201);
  });
});
