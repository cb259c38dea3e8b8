/**
 * Issue 5: a worker killed (SIGKILL) in the middle of a send does not send twice. The worker is a real OS
 * process on this suite's own queue (OUTBOUND_ALLOWLIST admitting loopback); a second one takes over once the
 * activity's heartbeat timeout (20 s) has passed.
 * - Mail: the SMTP server keeps the end of the message unanswered; the worker is killed after the server has
 *   the whole mail. The retry finds the send's outbox mark and does not send again: the step ends in ERROR
 *   saying the mail may have been delivered, one mail is received. A node admin's rerun sends it again.
 * - Request (issue 10): the same as the mail with SEND_REQUEST: the HTTP server has the request and holds its
 *   answer; the worker is killed; the retry finds the outbox mark, the step ends in ERROR saying the request
 *   may have been received, the server has it once; a node admin's rerun sends it again.
 * - SFTP: the worker is frozen and killed while it uploads a large file (its pending name recorded); the
 *   retry finishes the upload (or finds the finished file) and removes the partial one: one file is written.
 */
import crypto from 'node:crypto';
import fs from 'node:fs';
import http from 'node:http';
import path from 'node:path';
import type { AddressInfo } from 'node:net';
import { SMTPServer } from 'smtp-server';
import {
  GraphBuilder,
  eventually,
  setupEngineSuite,
  spawnWorkerProcess,
  startDocument,
  stepReaching,
  type WorkerProcess,
} from '../support/engine';
import { startSshd, type TestSshd } from '../support/sshd';

jest.setTimeout(180_000);

describe('a worker killed during a send', () => {
  const s = setupEngineSuite('action-sigkill', { worker: false });
  const workers: WorkerProcess[] = [];
  let smtp: SMTPServer;
  let smtpPort: number;
  let sshd: TestSshd;
  const mails: string[] = [];
  let web: http.Server;
  let webPort: number;
  /** Paths of the requests the HTTP server received; answers held while `holdingRequests` is on. */
  const requests: string[] = [];
  let holdingRequests = true;
  const heldRequests: (() => void)[] = [];
  /** The SMTP answer to the end of a message, held while `holding` is on. */
  let holding = true;
  const held: (() => void)[] = [];

  beforeAll(async () => {
    smtp = new SMTPServer({
      secure: false,
      disabledCommands: ['STARTTLS'],
      allowInsecureAuth: true,
      authMethods: ['PLAIN', 'LOGIN'],
      onAuth: (auth, _session, cb) => cb(null, { user: auth.username }),
      onData(stream, _session, cb) {
        const chunks: Buffer[] = [];
        stream.on('data', (c: Buffer) => chunks.push(c));
        stream.on('end', () => {
          mails.push(Buffer.concat(chunks).toString('utf8'));
          if (holding) held.push(() => cb());
          else cb();
        });
      },
    });
    await new Promise<void>((r) => smtp.listen(0, '127.0.0.1', r));
    smtpPort = (smtp.server.address() as AddressInfo).port;
    sshd = await startSshd();
    web = http.createServer((req, res) => {
      req.resume();
      req.on('end', () => {
        requests.push(req.url ?? '');
        const answer = () => res.writeHead(200, { 'Content-Type': 'text/plain' }).end('received');
        if (holdingRequests) heldRequests.push(answer);
        else answer();
      });
    });
    await new Promise<void>((r) => web.listen(0, '127.0.0.1', r));
    webPort = (web.address() as AddressInfo).port;
  });

  afterAll(async () => {
    await Promise.all(workers.map((w) => w.kill('SIGKILL')));
    for (const release of held.splice(0)) release();
    for (const release of heldRequests.splice(0)) release();
    web?.closeAllConnections();
    await new Promise<void>((r) => (web ? web.close(() => r()) : r()));
    await new Promise<void>((r) => smtp?.close(() => r()));
    await sshd?.stop();
  });

  const startWorker = () => {
    const w = spawnWorkerProcess({
      taskQueue: s.taskQueue,
      filesDir: s.filesDir,
      env: { OUTBOUND_ALLOWLIST: '127.0.0.1' },
    });
    workers.push(w);
    return w;
  };

  /** Ends the workers of earlier tests, so the one a test kills is the only one that can hold its send. */
  const endEarlierWorkers = () => Promise.all(workers.map((w) => w.kill('SIGKILL')));

  const configure = (nodeId: number, settings: Record<string, unknown>) =>
    s
      .knex('nodes')
      .where('id', nodeId)
      .update({ settings: JSON.stringify(settings) });

  it('sends the mail once, and again only when a node admin reruns the step', async () => {
    const g = await GraphBuilder.create(s.knex);
    const hup = await g.node('HUP');
    const action = await g.node('SEND_MAIL', { automatic: true, autoStepStatus: 'ACCEPTED' });
    await g.edge(hup, action);
    const [secret] = await s
      .knex('secrets')
      .insert({ process_id: g.processId, name: `smtp-${crypto.randomUUID().slice(0, 8)}`, value: 'pw' })
      .returning('id');
    const marker = crypto.randomUUID();
    await configure(action, {
      smtpHost: '127.0.0.1',
      smtpPort,
      username: 'sender@example.test',
      secret: { id: secret.id },
      subject: `Once ${marker}`,
      template: 'Document ${document.id}',
      mailReceivers: [{ id: 1, email: 'to@example.test', type: 'DO' }],
    });
    const ours = () => mails.filter((m) => m.includes(marker));

    const first = startWorker();
    await first.ready;
    const doc = await startDocument(s, g, hup);
    // The server has the whole mail; its answer is held: the worker dies before it learns the outcome.
    await eventually('the mail at the server', async () => (ours().length === 1 ? true : undefined));
    await first.kill('SIGKILL');
    holding = false;
    for (const release of held.splice(0)) release();

    const second = startWorker();
    await second.ready;
    const step = await stepReaching(s.knex, doc.id, action, ['ERROR'], 90_000);
    expect(step.errorMessage).toMatch(/stopped while sending the mail .* it may have been delivered/);
    expect(ours()).toHaveLength(1);
    const rows = await s.knex('action_execution_results').where('node_id', action);
    expect(rows.map((r) => r.status)).toEqual(['FAILURE']);

    // A deliberate rerun is a new execution: it sends.
    const rerun = await s.send('PUT', `/api/steps/${step.id}/rerun`, s.admin);
    expect(rerun.status).toBe(200);
    await stepReaching(s.knex, doc.id, action, ['ACCEPTED'], 60_000);
    expect(ours()).toHaveLength(2);
  });

  it('sends the request once, and again only when a node admin reruns the step', async () => {
    const g = await GraphBuilder.create(s.knex);
    const hup = await g.node('HUP');
    const action = await g.node('SEND_REQUEST', { automatic: true, autoStepStatus: 'ACCEPTED' });
    await g.edge(hup, action);
    const marker = crypto.randomUUID();
    await configure(action, {
      httpRequestMethod: 'POST',
      url: `http://127.0.0.1:${webPort}/once/${marker}/\${document.id}`,
      headers: {},
      requestBody: { bodyType: 'JSON', jsonBody: { document: { value: '${document.id}' } } },
    });
    const ours = () => requests.filter((r) => r.startsWith(`/once/${marker}/`));

    await endEarlierWorkers();
    const first = startWorker();
    await first.ready;
    const doc = await startDocument(s, g, hup);
    // The server has the request; its answer is held: the worker dies before it learns the outcome.
    await eventually('the request at the server', async () => (ours().length === 1 ? true : undefined));
    await first.kill('SIGKILL');
    holdingRequests = false;
    for (const release of heldRequests.splice(0)) release();

    const second = startWorker();
    await second.ready;
    const step = await stepReaching(s.knex, doc.id, action, ['ERROR'], 90_000);
    expect(step.errorMessage).toBe(
      `An earlier attempt stopped while sending the request to 127.0.0.1:${webPort}: it may have been ` +
        'received, so it is not sent again. Rerun the step to send it once more.',
    );
    expect(ours()).toEqual([`/once/${marker}/${doc.id}`]);
    const rows = await s.knex('action_execution_results').where('node_id', action);
    expect(rows.map((r) => r.status)).toEqual(['FAILURE']);

    // A deliberate rerun is a new execution: it sends.
    const rerun = await s.send('PUT', `/api/steps/${step.id}/rerun`, s.admin);
    expect(rerun.status).toBe(200);
    await stepReaching(s.knex, doc.id, action, ['ACCEPTED'], 60_000);
    expect(ours()).toHaveLength(2);
  });

  it('writes the SFTP file once', async () => {
    const g = await GraphBuilder.create(s.knex);
    const hup = await g.node('HUP');
    const parser = await g.node('FILE_PARSER', { autoStepStatus: 'DONE' });
    const action = await g.node('SEND_TO_SFTP', { automatic: true, autoStepStatus: 'ACCEPTED' });
    await g.edge(hup, parser);
    await g.edge(parser, action);
    const folder = fs.mkdtempSync(path.join(sshd.folder, 'once-'));
    const [conn] = await s
      .knex('sftp_connections')
      .insert({
        node_id: action,
        name: 'archive',
        address: sshd.host,
        port: sshd.port,
        folder,
        use_key: true,
        username: sshd.username,
        public_key: sshd.clientKey.publicKey,
        private_key: sshd.clientKey.privateKey,
      })
      .returning('id');
    await configure(action, {
      sftpConnection: { id: conn.id },
      preferredFilename: 'big-${document.id}.txt',
      fileContent: '${document.content}',
    });
    // Large enough that the upload takes a while on loopback.
    const content = `${'All work and no play makes Jack a dull boy. '.repeat(600_000)}\n`;

    await endEarlierWorkers();
    const first = startWorker();
    await first.ready;
    const doc = await startDocument(s, g, hup, { name: 'big.txt', content });
    await eventually(
      'the upload under way',
      async () => {
        const row = await s.knex('action_execution_results').where('node_id', action).first('details');
        return row?.details?.pendingFile ? true : undefined;
      },
      60_000,
    );
    process.kill(-first.pid, 'SIGSTOP');
    await first.kill('SIGKILL');

    const second = startWorker();
    await second.ready;
    await stepReaching(s.knex, doc.id, action, ['ACCEPTED'], 90_000);
    expect(fs.readdirSync(folder)).toEqual([`big-${doc.id}.txt`]);
    expect(fs.readFileSync(path.join(folder, `big-${doc.id}.txt`), 'utf8')).toBe(content);
  });
});
