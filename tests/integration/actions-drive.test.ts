/**
 * Cloud-drive nodes at run time: send-to-drive actions and the drive upload poller, with a real Worker of
 * this suite whose DRIVE_API_BASE_URL and OAuth token endpoint are a local Drive v3 stand-in started here
 * (tests/support/drive-server.ts). Connections are inserted with tokens that server issued.
 */
import { isSealed, openValue } from '../../db/crypto';
import crypto from 'node:crypto';
import { createActionActivities } from '../../activities/actions';
import { sendToDrive, UPLOAD_TOKEN_PROPERTY } from '../../activities/actions/send-to-drive';
import { startDriveServer, type DriveServer } from '../support/drive-server';
import { GraphBuilder, setupEngineSuite, startDocument, startWorkers, stepReaching } from '../support/engine';
import { unique } from '../support/harness';

describe('cloud-drive nodes', () => {
  const s = setupEngineSuite('drive', { worker: false });
  let workers: { stop(): Promise<void> } | undefined;
  let drive: DriveServer;
  const HOUR = 3600_000;

  beforeAll(async () => {
    drive = await startDriveServer();
    workers = await startWorkers(s, [
      {
        taskQueue: s.taskQueue,
        outboundAllowlist: ['127.0.0.1'],
        driveApiBaseUrl: drive.baseUrl,
        googleOAuth: drive.oauth,
      },
    ]);
  });

  afterAll(async () => {
    await workers?.stop();
    await drive?.close();
  });

  const deps = () => ({
    knex: s.knex,
    filesDir: s.filesDir,
    driveApiBaseUrl: drive.baseUrl,
    googleOAuth: drive.oauth,
  });

  const configure = (nodeId: number, settings: Record<string, unknown>) =>
    s
      .knex('nodes')
      .where('id', nodeId)
      .update({ settings: JSON.stringify(settings) });

  const resultsOf = (nodeId: number) =>
    s.knex('action_execution_results').where('node_id', nodeId).orderBy('id');

  /** A signed-in connection of the node to a new folder; `overrides` change its columns. */
  async function connect(nodeId: number, overrides: Record<string, unknown> = {}) {
    const row = {
      node_id: nodeId,
      name: unique('drive'),
      folder_id: unique('folder'),
      access_token: drive.issueAccessToken(),
      refresh_token: drive.issueRefreshToken(),
      token_expiry: new Date(Date.now() + HOUR),
      granted_scope: 'https://www.googleapis.com/auth/drive.file',
      authorized: true,
      ...overrides,
    };
    const [{ id }] = await s.knex('drive_connections').insert(row).returning('id');
    return { ...row, id: Number(id) };
  }

  /** HUP -> FILE_PARSER -> SEND_TO_GOOGLE_DRIVE, with a connection unless `connection` is null. */
  async function driveGraph(
    settings: { preferredFilename: string; fileContent: string },
    connection: Record<string, unknown> | null = {},
  ) {
    const g = await GraphBuilder.create(s.knex);
    const hup = await g.node('HUP');
    const parser = await g.node('FILE_PARSER', { autoStepStatus: 'DONE' });
    const action = await g.node('SEND_TO_GOOGLE_DRIVE', { automatic: true, autoStepStatus: 'ACCEPTED' });
    await g.edge(hup, parser);
    await g.edge(parser, action);
    await configure(action, settings);
    const conn = connection && (await connect(action, connection));
    return { g, hup, action, conn };
  }

  const uploadNamed = (name: string) => drive.uploads.filter((u) => u.metadata.name === name);

  it('uploads the rendered file into the folder; the next node renders its id and URL; a retry sends nothing', async () => {
    const { g, hup, action, conn } = await driveGraph({
      preferredFilename: 'report-${document.id}.txt',
      fileContent: 'Document ${document.id}: ${document.content}',
    });
    const next = await g.node('SEND_TO_GOOGLE_DRIVE', { automatic: true, autoStepStatus: 'ACCEPTED' });
    await g.edge(action, next);
    await configure(next, {
      preferredFilename: 'link-${document.id}.txt',
      fileContent: `id=\${node.${action}.googledriveresult.fileid} url=\${node.${action}.googledriveresult.url}`,
    });
    const nextConn = await connect(next);

    const doc = await startDocument(s, g, hup, { content: 'Quarterly numbers\n' });
    const step = await stepReaching(s.knex, doc.id, action, ['ACCEPTED']);
    await stepReaching(s.knex, doc.id, next, ['ACCEPTED']);

    const [upload] = uploadNamed(`report-${doc.id}.txt`);
    expect(upload.metadata).toMatchObject({ parents: [conn!.folder_id], mimeType: 'text/plain' });
    expect(upload.contentType).toBe('text/plain');
    expect(upload.content.toString('utf8')).toBe(`Document ${doc.id}: Quarterly numbers\n`);
    const fileUrl = drive.webViewLink(upload.fileId);

    const [row] = await resultsOf(action);
    expect(row.status).toBe('SUCCESS');
    expect(row.details).toMatchObject({
      createdFileId: upload.fileId,
      fileUrl,
      filename: `report-${doc.id}.txt`,
    });

    const [link] = uploadNamed(`link-${doc.id}.txt`);
    expect(link.metadata.parents).toEqual([nextConn.folder_id]);
    expect(link.content.toString('utf8')).toBe(`id=${upload.fileId} url=${fileUrl}`);

    const route = `/api/action-execution-results/send-to-google-drive?stepId=${step.id}`;
    const viaApi = await s.get(route, s.admin);
    expect(viaApi.status).toBe(200);
    expect(viaApi.body).toEqual({ status: 'SUCCESS', createdFileId: upload.fileId, fileUrl });
    expect((await s.get(route)).status).toBe(401);
    const other = await GraphBuilder.create(s.knex);
    expect((await s.get(route, await s.userWith(other.processId, 'READ'))).status).toBe(403);

    // The activity run again for the same run of the step (as Temporal retries it) uploads nothing.
    const uploads = drive.uploads.length;
    await createActionActivities(deps()).runAutomaticNode({
      documentId: doc.id,
      stepId: step.id,
      nodeId: action,
      activityType: 'SEND_TO_GOOGLE_DRIVE',
      attempt: 1,
    });
    expect(drive.uploads).toHaveLength(uploads);
    expect(await resultsOf(action)).toHaveLength(1);
  });

  it('retries a 5xx answer of Drive and writes the file once', async () => {
    const { g, hup, action } = await driveGraph({
      preferredFilename: 'retried-${document.id}.txt',
      fileContent: 'x',
    });
    drive.failures.push(503);
    const doc = await startDocument(s, g, hup);
    await stepReaching(s.knex, doc.id, action, ['ACCEPTED']);
    expect(uploadNamed(`retried-${doc.id}.txt`)).toHaveLength(1);
    expect((await resultsOf(action)).map((r) => r.status)).toEqual(['SUCCESS']);
  });

  it('refreshes an expired access token and stores the new one', async () => {
    const stale = drive.issueAccessToken();
    drive.revoke(stale);
    const { g, hup, action, conn } = await driveGraph(
      { preferredFilename: 'fresh-${document.id}.txt', fileContent: 'fresh' },
      { access_token: stale, token_expiry: new Date(Date.now() - HOUR) },
    );
    const refreshes = drive.tokenRequests.length;
    const doc = await startDocument(s, g, hup);
    await stepReaching(s.knex, doc.id, action, ['ACCEPTED']);

    expect(drive.tokenRequests.slice(refreshes).map((f) => f.get('refresh_token'))).toEqual([
      conn!.refresh_token,
    ]);
    const stored = await s.knex('drive_connections').where('id', conn!.id).first();
    expect(stored.access_token).not.toBe(stale);
    expect(stored.token_expiry.getTime()).toBeGreaterThan(Date.now());
    expect(uploadNamed(`fresh-${doc.id}.txt`)).toHaveLength(1);
    const authorizations = drive.requests
      .filter((r) => r.path.startsWith('/upload/'))
      .map((r) => r.authorization);
    // the refreshed token is stored sealed
    expect(isSealed(stored.access_token)).toBe(true);
    expect(authorizations).toContain(
      `Bearer ${openValue('drive_connections', 'access_token', stored.access_token)}`,
    );
    expect(authorizations).not.toContain(`Bearer ${stale}`);
  });

  it('ends the step in ERROR with a FAILURE result when the connection is not authorized', async () => {
    const { g, hup, action, conn } = await driveGraph(
      { preferredFilename: 'never.txt', fileContent: 'never' },
      { authorized: false, access_token: null, refresh_token: null },
    );
    const doc = await startDocument(s, g, hup);
    const step = await stepReaching(s.knex, doc.id, action, ['ERROR']);
    const message = `The cloud-drive connection "${conn!.name}" is not authorized: sign in again in the node's settings`;
    expect(step.errorMessage).toBe(message);
    const rows = await resultsOf(action);
    expect(rows.map((r) => [r.status, r.details.error])).toEqual([['FAILURE', message]]);
    const viaApi = await s.get(
      `/api/action-execution-results/send-to-google-drive?stepId=${step.id}`,
      s.admin,
    );
    expect(viaApi.body).toEqual({ status: 'FAILURE', createdFileId: null, fileUrl: null });
    expect(uploadNamed('never.txt')).toHaveLength(0);
  });

  it('ends the step in ERROR when the refresh token was revoked', async () => {
    const revoked = drive.issueRefreshToken();
    drive.revoke(revoked);
    const { g, hup, action, conn } = await driveGraph(
      { preferredFilename: 'revoked-${document.id}.txt', fileContent: 'x' },
      { refresh_token: revoked, token_expiry: new Date(Date.now() - HOUR) },
    );
    const doc = await startDocument(s, g, hup);
    const step = await stepReaching(s.knex, doc.id, action, ['ERROR']);
    expect(step.errorMessage).toBe(
      `The sign-in of the cloud-drive connection "${conn!.name}" was refused (invalid_grant): ` +
        "sign in again in the node's settings",
    );
    expect((await resultsOf(action)).map((r) => r.status)).toEqual(['FAILURE']);
  });

  it('ends the step in ERROR when the node has no connection', async () => {
    const { g, hup, action } = await driveGraph({ preferredFilename: 'x.txt', fileContent: 'x' }, null);
    const doc = await startDocument(s, g, hup);
    const step = await stepReaching(s.knex, doc.id, action, ['ERROR']);
    expect(step.errorMessage).toBe('The cloud-drive node has no cloud-drive connection');
  });

  it('after a crash between upload and result, finds its own file by name and token instead of uploading again', async () => {
    const g = await GraphBuilder.create(s.knex);
    const hup = await g.node('HUP');
    const action = await g.node('SEND_TO_GOOGLE_DRIVE', { automatic: false });
    await g.edge(hup, action);
    await configure(action, { preferredFilename: 'crash.txt', fileContent: 'content' });
    const conn = await connect(action);
    const doc = await startDocument(s, g, hup);
    const step = await stepReaching(s.knex, doc.id, action, ['WAITING']);
    const input = {
      documentId: doc.id,
      stepId: step.id,
      nodeId: action,
      activityType: 'SEND_TO_GOOGLE_DRIVE',
      attempt: 1,
    };

    // The crashed attempt recorded its pending upload, and Drive holds its file next to an older one.
    const token = crypto.randomUUID();
    drive.addFile({ name: 'crash.txt', parent: conn.folder_id, content: 'older file' });
    const mine = drive.addFile({ name: 'crash.txt', parent: conn.folder_id, content: 'content' });
    mine.appProperties[UPLOAD_TOKEN_PROPERTY] = token;
    await s.knex('action_execution_results').insert({
      node_id: action,
      step_id: step.id,
      document_id: doc.id,
      execution_key: `step:${step.id}:1`,
      status: 'FAILURE',
      details: JSON.stringify({ pendingUpload: { name: 'crash.txt', token }, error: 'upload unfinished' }),
    });

    const uploads = drive.uploads.length;
    await sendToDrive(input, deps());
    expect(drive.uploads).toHaveLength(uploads);
    const [row] = await resultsOf(action);
    expect(row.status).toBe('SUCCESS');
    expect(row.details).toMatchObject({ createdFileId: mine.id, fileUrl: drive.webViewLink(mine.id) });
  });

  describe('cloud-drive upload poller', () => {
    const poll = (nodeId: number) =>
      s.client.workflow.execute('uploadPollerWorkflow', {
        taskQueue: s.taskQueue,
        workflowId: `test-drive-poll-${crypto.randomUUID()}`,
        args: [{ nodeId }],
      }) as Promise<{ imported: number; errors: string[]; polled: boolean }>;

    it('imports the files of the folder once, skipping Google Docs, subfolders and other folders', async () => {
      const g = await GraphBuilder.create(s.knex);
      const gdu = await g.node('GDU_UPLOAD', { automatic: true, autoStepStatus: 'ACCEPTED' });
      const review = await g.node('CLF', { automatic: false });
      await g.edge(gdu, review);
      // A revoked access token that has not expired yet: the first call answers 401 and the client refreshes.
      const revoked = drive.issueAccessToken();
      drive.revoke(revoked);
      const conn = await connect(gdu, { access_token: revoked });
      const folder = conn.folder_id;
      const texts = { 'a.txt': 'first file\n', 'b.txt': 'second file\n', 'c.json': '{"third": true}' };
      for (const [name, content] of Object.entries(texts)) drive.addFile({ name, parent: folder, content });
      drive.addFile({ name: 'Notes', parent: folder, mimeType: 'application/vnd.google-apps.document' });
      drive.addFile({ name: 'sub', parent: folder, mimeType: 'application/vnd.google-apps.folder' });
      drive.addFile({ name: 'elsewhere.txt', parent: unique('other-folder'), content: 'not mine' });
      const trashed = drive.addFile({ name: 'trashed.txt', parent: folder, content: 'gone' });
      trashed.trashed = true;

      const first = await poll(gdu);
      expect(first).toMatchObject({ polled: true, imported: 3, errors: [] });
      const docs: { id: number; filename: string; path: string }[] = await s
        .knex('documents')
        .where({ process_id: g.processId, upload_node_id: gdu })
        .orderBy('filename')
        .select('id', 'filename', 'path');
      expect(docs.map((d) => d.filename)).toEqual(['a.txt', 'b.txt', 'c.json']);
      for (const d of docs) await stepReaching(s.knex, d.id, review, ['WAITING']);
      const rejected = await s
        .knex('imported_items')
        .where({ node_id: gdu, state: 'REJECTED' })
        .pluck('detail');
      expect(rejected).toEqual([expect.stringContaining('Notes is a Google Docs file')]);
      // Listing took several pages, and the refreshed token was stored.
      const lists = drive.requests.filter(
        (r) => r.path === '/drive/v3/files' && r.query.get('q')?.includes(folder),
      );
      expect(lists.some((r) => r.query.get('pageToken'))).toBe(true);
      expect((await s.knex('drive_connections').where('id', conn.id).first()).access_token).not.toBe(revoked);

      const second = await poll(gdu);
      expect(second).toMatchObject({ polled: true, imported: 0, errors: [] });
      const [{ count }] = await s.knex('documents').where({ upload_node_id: gdu }).count();
      expect(Number(count)).toBe(3);
      const status = await s.knex('poller_status').where('node_id', gdu).first();
      expect(status).toMatchObject({ last_imported: 0, last_error: null });
    });

    it('reports a connection that is not authorized in the poll outcome', async () => {
      const g = await GraphBuilder.create(s.knex);
      const gdu = await g.node('GDU_UPLOAD', { automatic: true, autoStepStatus: 'ACCEPTED' });
      const conn = await connect(gdu, { authorized: false });
      const outcome = await poll(gdu);
      expect(outcome).toMatchObject({
        imported: 0,
        errors: [`Connection "${conn.name}": not authorized, sign in again in the node's settings`],
      });
      const status = await s.knex('poller_status').where('node_id', gdu).first();
      expect(status.last_error).toBe(outcome.errors[0]);
    });
  });
});
