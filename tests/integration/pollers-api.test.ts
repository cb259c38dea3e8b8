/**
 * The upload pollers through the API (issue 5): an e-mail connection saved through the API gets its node a
 * Temporal Schedule on the connection's cron (removed with the last connection), `PUT
 * api/email-upload-node/{id}/fetch-mail` polls the real Dovecot now and answers what it imported, a failing
 * connection is reported on the node (pollerStatus: last error and its time) while the next poll still runs,
 * and the fetch routes check the caller's mode and the node's type.
 */
import { ScheduleNotFoundError } from '@temporalio/client';
import { uploadPollerScheduleId } from '../../workflows/action-contract';
import { GraphBuilder, setupEngineSuite, startWorkers, stepReaching } from '../support/engine';
import { startDovecot, type TestDovecot } from '../support/dovecot';

jest.setTimeout(90_000);

const mail = (subject: string) =>
  [
    'From: Alice <alice@example.test>',
    'To: reader@example.test',
    `Subject: ${subject}`,
    `Message-ID: <${subject.replace(/\s/g, '-')}@example.test>`,
    'Content-Type: text/plain; charset=utf-8',
    '',
    `Body of ${subject}.`,
    '',
  ].join('\r\n');

describe('upload pollers through the API', () => {
  const s = setupEngineSuite('pollers-api', { worker: false });
  let workers: { stop(): Promise<void> } | undefined;
  let dovecot: TestDovecot;

  beforeAll(async () => {
    dovecot = await startDovecot();
    workers = await startWorkers(s, [{ taskQueue: s.taskQueue, outboundAllowlist: ['127.0.0.1'] }]);
  });

  afterAll(async () => {
    await workers?.stop();
    await dovecot?.stop();
  });

  it('schedules, fetches now and reports a failing connection on the node', async () => {
    const g = await GraphBuilder.create(s.knex);
    const upload = await g.node('EMAIL_UPLOAD', { automatic: true, autoStepStatus: 'ACCEPTED' });
    const parser = await g.node('FILE_PARSER', { autoStepStatus: 'DONE' });
    await g.edge(upload, parser);
    const schedule = s.client.schedule.getHandle(uploadPollerScheduleId(upload));
    await expect(schedule.describe()).rejects.toBeInstanceOf(ScheduleNotFoundError);

    const created = await s.send('POST', '/api/email-upload-connection-data', s.admin, {
      nodeId: upload,
      imapHost: '127.0.0.1',
      imapPort: 143,
      address: dovecot.user,
      password: dovecot.password,
      folder: 'INBOX',
      contentType: 'MESSAGE',
      cron: '0 0 6 * * ?',
    });
    expect(created.status).toBe(201);
    // The API only admits the IMAP ports 993 and 143; the test server listens elsewhere.
    await s.knex('email_upload_connections').where('id', created.body.id).update({ imap_port: dovecot.port });
    const described = await schedule.describe();
    expect(described.state.paused).toBe(false);
    expect(described.spec.calendars).toHaveLength(1);
    expect((await s.get(`/api/nodes/${upload}`, s.admin)).body.pollerStatus).toBeNull();

    dovecot.deliver(mail('Fetched now'));
    const fetched = await s.send('PUT', `/api/email-upload-node/${upload}/fetch-mail`, s.admin);
    expect(fetched.status).toBe(200);
    expect(fetched.body).toMatchObject({ nodeId: upload, polled: true, imported: 1, errors: [] });
    const [doc] = await s.knex('documents').where('upload_node_id', upload);
    expect(doc.filename).toBe('Fetched now.eml');
    await stepReaching(s.knex, doc.id, parser, ['DONE']);
    const again = await s.send('PUT', `/api/email-upload-node/${upload}/fetch-mail`, s.admin);
    expect(again.body).toMatchObject({ imported: 0, errors: [] });
    const ok = (await s.get(`/api/nodes/${upload}`, s.admin)).body.pollerStatus;
    expect(ok).toMatchObject({ lastImported: 0, lastError: null, lastErrorDate: null });
    expect(ok.lastSuccessDate).toEqual(expect.any(String));

    // A second connection that cannot sign in: reported on the node; the good one still imports.
    const [bad] = await s
      .knex('email_upload_connections')
      .insert({
        node_id: upload,
        imap_host: '127.0.0.1',
        imap_port: dovecot.port,
        address: dovecot.user,
        password: 'wrong',
        folder: 'INBOX',
        content_type: 'MESSAGE',
      })
      .returning('id');
    dovecot.deliver(mail('Second mail'));
    const mixed = await s.send('PUT', `/api/email-upload-node/${upload}/fetch-mail`, s.admin);
    expect(mixed.body.imported).toBe(1);
    expect(mixed.body.errors).toEqual([expect.stringMatching(/sign-in failed/)]);
    const failing = (await s.get(`/api/nodes/${upload}`, s.admin)).body.pollerStatus;
    expect(failing.lastError).toMatch(/sign-in failed/);
    expect(failing.lastErrorDate).toEqual(expect.any(String));
    expect(failing.lastImported).toBe(1);
    await s.knex('email_upload_connections').where('id', bad.id).delete();

    // Modes and types.
    const reader = await s.userWith(g.processId, 'READ');
    expect((await s.send('PUT', `/api/email-upload-node/${upload}/fetch-mail`, reader)).status).toBe(403);
    const wrong = await s.send('PUT', `/api/sftp-upload-node/${upload}/fetch-sftp-content`, s.admin);
    expect(wrong.status).toBe(400);
    expect(wrong.body.detail).toMatch(/is not an SFTP upload node/);
    expect(
      (await s.send('PUT', `/api/google-drive-upload-node/${parser}/fetch-content`, s.admin)).status,
    ).toBe(400);
    expect((await s.send('PUT', '/api/email-upload-node/987654321/fetch-mail', s.admin)).status).toBe(404);

    // Without connections the node has nothing to poll: the schedule goes.
    expect(
      (await s.send('DELETE', `/api/email-upload-connection-data/${created.body.id}`, s.admin)).status,
    ).toBe(204);
    await expect(schedule.describe()).rejects.toBeInstanceOf(ScheduleNotFoundError);
  });

  it('keeps the schedules of SFTP and drive upload nodes in step with the nodes', async () => {
    const { processId } = await GraphBuilder.create(s.knex);
    const sftp = await s.node(processId, 'SFTP_UPLOAD');
    const sftpSchedule = s.client.schedule.getHandle(uploadPollerScheduleId(sftp.id));
    // No cron of its own: every five minutes.
    const every5 = await sftpSchedule.describe();
    expect(every5.state.paused).toBe(false);
    expect(every5.state.note).toBe('polls on 0 */5 * * * * *');

    const drive = await s.node(processId, 'GDU_UPLOAD', { cron: '0 0 7 * * ?', active: true });
    const driveSchedule = s.client.schedule.getHandle(uploadPollerScheduleId(drive.id));
    expect((await driveSchedule.describe()).state).toMatchObject({
      paused: false,
      note: 'polls on 0 0 7 * * * *',
    });
    const stored = (await s.get(`/api/nodes/${drive.id}`, s.admin)).body;
    expect((await s.send('PUT', '/api/nodes', s.admin, { ...stored, active: false })).status).toBe(200);
    expect((await driveSchedule.describe()).state).toMatchObject({
      paused: true,
      note: 'the node is inactive',
    });

    expect((await s.send('DELETE', `/api/nodes/${sftp.id}`, s.admin)).status).toBe(204);
    await expect(sftpSchedule.describe()).rejects.toBeInstanceOf(ScheduleNotFoundError);
  });
});
