/**
 * Send-to-SFTP and inter-process (IPS -> IPR) nodes at run time, with real Workers of this suite and a real
 * OpenSSH sshd on loopback started here (key authentication). One Worker's deployment allowlist admits
 * 127.0.0.1, the other's is empty (the net guard refuses loopback).
 */
import { sealValue } from '../../db/crypto';
import crypto from 'node:crypto';
import fs from 'node:fs';
import path from 'node:path';
import { createActionActivities } from '../../activities/actions';
import {
  GraphBuilder,
  eventually,
  setupEngineSuite,
  startWorkers,
  startDocument,
  stepReaching,
  stepsOf,
  userWithNodeMode,
  type EngineSuite,
} from '../support/engine';
import { startSshd, type TestSshd } from '../support/sshd';

describe('send-to-SFTP and inter-process nodes', () => {
  const s = setupEngineSuite('sftp-ips', { worker: false });
  const refusingQueue = `test-sftp-ips-refusing-${crypto.randomUUID()}`;
  let workers: { stop(): Promise<void> } | undefined;
  let sshd: TestSshd;

  beforeAll(async () => {
    sshd = await startSshd();
    workers = await startWorkers(s, [
      { taskQueue: s.taskQueue, outboundAllowlist: ['127.0.0.1'] },
      { taskQueue: refusingQueue, outboundAllowlist: [] },
    ]);
  });

  afterAll(async () => {
    await workers?.stop();
    await sshd?.stop();
  });

  const configure = (nodeId: number, settings: Record<string, unknown>) =>
    s
      .knex('nodes')
      .where('id', nodeId)
      .update({ settings: JSON.stringify(settings) });

  const resultsOf = (nodeId: number) =>
    s.knex('action_execution_results').where('node_id', nodeId).orderBy('id');

  /** HUP -> FILE_PARSER -> SEND_TO_SFTP with a key-authenticated connection to the test sshd. */
  async function sftpGraph(preferredFilename: string, fileContent: string, hostKey: string | null = null) {
    const g = await GraphBuilder.create(s.knex);
    const hup = await g.node('HUP');
    const parser = await g.node('FILE_PARSER', { autoStepStatus: 'DONE' });
    const action = await g.node('SEND_TO_SFTP', { automatic: true, autoStepStatus: 'ACCEPTED' });
    await g.edge(hup, parser);
    await g.edge(parser, action);
    const [conn] = await s
      .knex('sftp_connections')
      .insert({
        node_id: action,
        name: 'test sshd',
        address: sshd.host,
        port: sshd.port,
        folder: sshd.folder,
        use_key: true,
        username: sshd.username,
        public_key: sshd.clientKey.publicKey,
        private_key: sealValue('sftp_connections', 'private_key', sshd.clientKey.privateKey), // as stored
        host_key: hostKey,
      })
      .returning('id');
    await configure(action, { sftpConnection: { id: conn.id }, preferredFilename, fileContent });
    return { g, hup, action, connectionId: conn.id as number };
  }

  it('uploads the rendered file, with a numeric suffix when the name is taken, once per run', async () => {
    // hello.txt is already in the sshd's folder.
    const { g, hup, action, connectionId } = await sftpGraph(
      'hello.txt',
      'Document ${document.id}: ${document.content}',
    );
    const [a, b] = await Promise.all([
      startDocument(s, g, hup, { content: 'first text\n' }),
      startDocument(s, g, hup, { content: 'second text\n' }),
    ]);
    const stepA = await stepReaching(s.knex, a.id, action, ['ACCEPTED']);
    await stepReaching(s.knex, b.id, action, ['ACCEPTED']);

    const read = (name: string) => fs.readFileSync(path.join(sshd.folder, name), 'utf8');
    expect(read('hello.txt')).toBe('hello\n');
    const uploaded = [read('hello-1.txt'), read('hello-2.txt')].sort();
    expect(uploaded).toEqual([`Document ${a.id}: first text\n`, `Document ${b.id}: second text\n`].sort());
    const nameOf = (docId: number) =>
      read('hello-1.txt').startsWith(`Document ${docId}:`) ? 'hello-1.txt' : 'hello-2.txt';

    const rows = await resultsOf(action);
    expect(rows.map((r) => r.status)).toEqual(['SUCCESS', 'SUCCESS']);
    const rowA = rows.find((r) => r.document_id === a.id)!;
    expect(rowA.details.createdFileAddress).toBe(
      `sftp://127.0.0.1:${sshd.port}${path.posix.join(sshd.folder, nameOf(a.id))}`,
    );
    expect(fs.readdirSync(sshd.folder).sort()).toEqual(['hello-1.txt', 'hello-2.txt', 'hello.txt']);
    // not pinned before: the first successful connection pinned the server's host key (trust on first use)
    const conn = await s.knex('sftp_connections').where('id', connectionId).first('host_key');
    expect(conn.host_key).toBe(sshd.hostKeyFingerprint);
    const viaApi = await s.get(`/api/action-execution-results/send-to-sftp?stepId=${stepA.id}`, s.admin);
    expect(viaApi.status).toBe(200);
    expect(viaApi.body).toEqual({ status: 'SUCCESS', createdFileAddress: rowA.details.createdFileAddress });
    expect((await s.get(`/api/action-execution-results/send-to-sftp?stepId=${stepA.id}`)).status).toBe(401);

    // The activity run again for the same run of the step (as Temporal retries it) uploads nothing.
    const { runAutomaticNode } = createActionActivities({
      knex: s.knex,
      filesDir: s.filesDir,
      outboundAllowlist: ['127.0.0.1'],
    });
    await runAutomaticNode({
      documentId: a.id,
      stepId: stepA.id,
      nodeId: action,
      activityType: 'SEND_TO_SFTP',
      attempt: 1,
    });
    expect(fs.readdirSync(sshd.folder)).toHaveLength(3);
    expect(await resultsOf(action)).toHaveLength(2);
  });

  it('refuses 127.0.0.1 when the allowlist does not admit it: the step ends in ERROR, nothing is written', async () => {
    const { g, hup, action } = await sftpGraph('refused-${document.id}.txt', 'never');
    const refusing = Object.create(s, { taskQueue: { value: refusingQueue } }) as EngineSuite;
    const doc = await startDocument(refusing, g, hup);
    const step = await stepReaching(s.knex, doc.id, action, ['ERROR']);
    expect(step.errorMessage).toBe(
      'Connections to 127.0.0.1 are not allowed (loopback address 127.0.0.1). ' +
        'An administrator may admit the address with OUTBOUND_ALLOWLIST.',
    );
    expect(fs.existsSync(path.join(sshd.folder, `refused-${doc.id}.txt`))).toBe(false);
    expect((await resultsOf(action)).map((r) => r.status)).toEqual(['FAILURE']);
  });

  it('refuses a server whose host key is not the pinned one: the step ends in ERROR at once, nothing is written', async () => {
    const pinned = 'SHA256:' + Buffer.alloc(32, 9).toString('base64').replace(/=+$/, '');
    const { g, hup, action } = await sftpGraph('impostor-${document.id}.txt', 'secret', pinned);
    const doc = await startDocument(s, g, hup);
    const step = await stepReaching(s.knex, doc.id, action, ['ERROR']);
    const message =
      `SFTP connection "test sshd": the host key of 127.0.0.1:${sshd.port} does not match the pinned one ` +
      `(expected ${pinned}, presented ${sshd.hostKeyFingerprint}); connection refused. If the server's key ` +
      `was changed on purpose, pin the new fingerprint on the connection.`;
    expect(step.errorMessage).toBe(message);
    expect(fs.readdirSync(sshd.folder).filter((f) => f.startsWith('impostor-'))).toEqual([]);
    const rows = await resultsOf(action);
    expect(rows.map((r) => [r.status, r.details.error])).toEqual([['FAILURE', message]]);

    // a permanent failure: the activity fails non-retryable, so Temporal does not try again
    const { runAutomaticNode } = createActionActivities({
      knex: s.knex,
      filesDir: s.filesDir,
      outboundAllowlist: ['127.0.0.1'],
    });
    const run = {
      documentId: doc.id,
      stepId: step.id,
      nodeId: action,
      activityType: 'SEND_TO_SFTP' as const,
    };
    await expect(runAutomaticNode({ ...run, attempt: 2 })).rejects.toMatchObject({
      nonRetryable: true,
      message,
    });
  });

  it('uploads to a server whose host key is the pinned one', async () => {
    const { g, hup, action } = await sftpGraph(
      'pinned-${document.id}.txt',
      'pinned',
      sshd.hostKeyFingerprint,
    );
    const doc = await startDocument(s, g, hup);
    await stepReaching(s.knex, doc.id, action, ['ACCEPTED']);
    expect(fs.readFileSync(path.join(sshd.folder, `pinned-${doc.id}.txt`), 'utf8')).toBe('pinned');
  });

  it('ends the step in ERROR when the node has no SFTP connection', async () => {
    const g = await GraphBuilder.create(s.knex);
    const hup = await g.node('HUP');
    const action = await g.node('SEND_TO_SFTP', { automatic: true, autoStepStatus: 'ACCEPTED' });
    await configure(action, { preferredFilename: 'x.txt', fileContent: 'x' });
    await g.edge(hup, action);
    const doc = await startDocument(s, g, hup);
    const step = await stepReaching(s.knex, doc.id, action, ['ERROR']);
    expect(step.errorMessage).toBe('The SFTP node has no SFTP connection');
  });

  it('sends a document to the receiving process, whose workflow starts at its IPR node and walks on', async () => {
    const receiver = await GraphBuilder.create(s.knex);
    const ipr = await receiver.node('IPR', { automatic: true, autoStepStatus: 'ACCEPTED' });
    const next = await receiver.node('CLF', { automatic: false });
    await receiver.edge(ipr, next);

    const sender = await GraphBuilder.create(s.knex);
    const hup = await sender.node('HUP');
    const parser = await sender.node('FILE_PARSER', { autoStepStatus: 'DONE' });
    const ips = await sender.node('IPS', { automatic: true, autoStepStatus: 'ACCEPTED' });
    await configure(ips, {
      receivers: [{ id: ipr }],
      preferredDocName: 'from-${document.id}.txt',
      payload: 'Sent by ${process.name}: ${document.content}',
    });
    await sender.edge(hup, parser);
    await sender.edge(parser, ips);
    const doc = await startDocument(s, sender, hup, { content: 'payload text' });
    await stepReaching(s.knex, doc.id, ips, ['ACCEPTED']);

    const [row] = await resultsOf(ips);
    expect(row.status).toBe('SUCCESS');
    const [sentId] = row.details.documentIds as number[];
    const sent = await s.knex('documents').where('id', sentId).first();
    const senderProcess = await s.knex('processes').where('id', sender.processId).first('name');
    expect(sent).toMatchObject({
      process_id: receiver.processId,
      upload_node_id: ipr,
      filename: `from-${doc.id}.txt`,
      document_type: 'TEXTFILE',
    });
    const text = `Sent by ${senderProcess.name}: payload text`;
    expect(fs.readFileSync(path.join(s.filesDir, sent.path), 'utf8')).toBe(text);
    expect((await s.knex('document_contents').where('document_id', sentId).first('content')).content).toBe(
      text,
    );

    await stepReaching(s.knex, sentId, next, ['WAITING']);
    const steps = await eventually('both steps of the sent document', async () => {
      const all = await stepsOf(s.knex, sentId);
      return all.length === 2 && all;
    });
    expect(steps.map((x) => [x.nodeId, x.status])).toEqual([
      [ipr, 'ACCEPTED'],
      [next, 'WAITING'],
    ]);
  });

  it('holds a sent document at an IPR node that is not automatic until someone completes it', async () => {
    const receiver = await GraphBuilder.create(s.knex);
    const ipr = await receiver.node('IPR', { automatic: false, autoStepStatus: 'ACCEPTED' });
    const next = await receiver.node('CLF', { automatic: false });
    await receiver.edge(ipr, next);
    const sender = await GraphBuilder.create(s.knex);
    const hup = await sender.node('HUP');
    const ips = await sender.node('IPS', { automatic: true, autoStepStatus: 'ACCEPTED' });
    await configure(ips, { receivers: [{ id: ipr }], preferredDocName: 'held.txt', payload: 'held' });
    await sender.edge(hup, ips);
    const doc = await startDocument(s, sender, hup);
    await stepReaching(s.knex, doc.id, ips, ['ACCEPTED']);
    const [sentId] = (await resultsOf(ips))[0].details.documentIds as number[];

    const held = await stepReaching(s.knex, sentId, ipr, ['WAITING']);
    expect((await stepsOf(s.knex, sentId)).map((x) => x.nodeId)).toEqual([ipr]);
    const assigned = await s.send('POST', `/api/step/assign?docId=${sentId}&nodeId=${ipr}`, s.admin);
    expect(assigned.status).toBe(200);
    expect((await s.send('PUT', `/api/steps/${held.id}/complete`, s.admin)).status).toBe(200);
    await stepReaching(s.knex, sentId, next, ['WAITING']);
  });

  it("lists a node's results with their deliveries, and sends a failed send again to the receiver", async () => {
    const receiver = await GraphBuilder.create(s.knex);
    const ipr = await receiver.node('IPR', { automatic: true, autoStepStatus: 'ACCEPTED' });
    const held = await receiver.node('CLF', { automatic: false });
    await receiver.edge(ipr, held);
    const sender = await GraphBuilder.create(s.knex);
    const hup = await sender.node('HUP');
    const ips = await sender.node('IPS', { automatic: true, autoStepStatus: 'ACCEPTED' });
    // the receiver named is not an IPR node: the send fails
    await configure(ips, { receivers: [{ id: held }], preferredDocName: 'resent.txt', payload: 'again' });
    await sender.edge(hup, ips);
    const doc = await startDocument(s, sender, hup, { name: 'to-resend.txt' });
    const failed = await stepReaching(s.knex, doc.id, ips, ['ERROR']);

    const list = (query = '') => s.get(`/api/action-execution-results?nodeId=${ips}${query}`, s.admin);
    const first = await list();
    expect(first.status).toBe(200);
    expect(first.headers.get('x-total-count')).toBe('1');
    expect(first.body).toEqual([
      expect.objectContaining({
        stepId: failed.id,
        documentId: doc.id,
        documentName: 'to-resend.txt',
        status: 'FAILURE',
        error: `The receiver node ${held} is not an inter-process receiver`,
        deliveries: [],
        resendable: true,
      }),
    ]);
    expect(first.body[0].durationMs).toEqual(expect.any(Number));

    // a node WRITE user may read the results but not send again; nor can a step that has not failed be
    const writer = await userWithNodeMode(s, [
      { componentId: sender.processId, type: 'PROCESS', mode: 'WRITE' },
    ]);
    expect((await s.get(`/api/action-execution-results?nodeId=${ips}`, writer.token)).status).toBe(200);
    expect((await s.send('POST', `/api/steps/${failed.id}/resend`, writer.token)).status).toBe(403);
    const hupStep = (await stepsOf(s.knex, doc.id)).find((x) => x.nodeId === hup)!;
    const refused = await s.send('POST', `/api/steps/${hupStep.id}/resend`, s.admin);
    expect(refused.status).toBe(409);
    expect(refused.body.message).toBe('error.step.notResendable');

    await configure(ips, { receivers: [{ id: ipr }], preferredDocName: 'resent.txt', payload: 'again' });
    const resent = await s.send('POST', `/api/steps/${failed.id}/resend`, s.admin);
    expect(resent.status).toBe(200);
    await stepReaching(s.knex, doc.id, ips, ['ACCEPTED']);

    const delivered = await eventually('the delivered document at its held step', async () => {
      const res = await list('&status=SUCCESS');
      const d = res.body[0]?.deliveries?.[0];
      return d?.documentStatus === 'WAITING' && res;
    });
    expect(delivered.headers.get('x-total-count')).toBe('1');
    const receiverProcess = await s.knex('processes').where('id', receiver.processId).first('name');
    const [sent] = await s.knex('documents').where({ process_id: receiver.processId }).select('id');
    expect(delivered.body[0]).toMatchObject({
      status: 'SUCCESS',
      error: null,
      resendable: false,
      deliveries: [
        {
          receiverNodeId: ipr,
          processId: receiver.processId,
          processName: receiverProcess.name,
          documentId: sent.id,
          documentName: 'resent.txt',
          documentStatus: 'WAITING',
        },
      ],
    });
    expect((await list('&status=FAILURE')).body.map((r: { status: string }) => r.status)).toEqual([
      'FAILURE',
    ]);
    expect((await list(`&documentId=${doc.id}`)).body).toHaveLength(2);
    expect((await list('&status=PENDING')).status).toBe(400);
  });

  it('keeps the documents a failed send created when it runs again: a receiver never gets a second copy', async () => {
    const receiver = await GraphBuilder.create(s.knex);
    const first = await receiver.node('IPR', { automatic: false });
    const second = await receiver.node('IPR', { automatic: false });
    const sender = await GraphBuilder.create(s.knex);
    const hup = await sender.node('HUP');
    // not automatic: its step waits, and this test runs the executor itself
    const ips = await sender.node('IPS', { automatic: false });
    await configure(ips, {
      receivers: [{ id: first }, { id: second }],
      preferredDocName: 'once.txt',
      payload: 'x',
    });
    await sender.edge(hup, ips);
    const doc = await startDocument(s, sender, hup);
    const step = await stepReaching(s.knex, doc.id, ips, ['WAITING']);
    const started: number[] = [];
    const run = (attempt: number, startDocument: (input: { documentId: number }) => Promise<unknown>) =>
      createActionActivities({ knex: s.knex, filesDir: s.filesDir, startDocument }).runAutomaticNode({
        documentId: doc.id,
        stepId: step.id,
        nodeId: ips,
        activityType: 'IPS',
        attempt,
      });

    // both documents are created, the second one's workflow cannot be started: the run fails
    await expect(
      run(1, async (input) => {
        if (started.length > 0) throw new Error('Temporal is down');
        started.push(input.documentId);
      }),
    ).rejects.toThrow(/Starting document \d+ in process \d+ failed: Temporal is down/);
    const received = () =>
      s.knex('documents').where('process_id', receiver.processId).orderBy('id').select('id');
    const created = (await received()).map((d) => d.id);
    expect(created).toHaveLength(2);

    // the rerun (a new attempt, as a re-send makes it) starts them without creating any again
    await run(2, async (input) => {
      started.push(input.documentId);
    });
    expect((await received()).map((d) => d.id)).toEqual(created);
    expect(started).toEqual([created[0], ...created]);
    const rows = await resultsOf(ips);
    expect(rows.map((r) => r.status)).toEqual(['FAILURE', 'SUCCESS']);
    expect(rows[1].details.documentIds).toEqual(created);
  });
});
