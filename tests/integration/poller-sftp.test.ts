/**
 * SFTP upload polling and SFTP password authentication against a real OpenSSH sshd on loopback
 * (tests/support/sshd.ts): transfer rules with a password-authenticated source and a key-authenticated
 * target import new files as documents (their workflows run on this suite's Worker), copy them, delete them
 * when asked, import nothing twice and report a failing rule without stopping the others. The poll activity
 * is called directly; a send-to-SFTP node writes over password authentication.
 */
import { sealValue } from '../../db/crypto';
import fs from 'node:fs';
import path from 'node:path';
import { createActionActivities } from '../../activities/actions';
import { createPollerActivities } from '../../activities/pollers';
import { startDocumentWorkflow } from '../../server/document-workflows';
import { GraphBuilder, setupEngineSuite, startDocument, startWorkers, stepReaching } from '../support/engine';
import { unique } from '../support/harness';
import { startSshd, type TestSshd } from '../support/sshd';

describe('SFTP upload poller', () => {
  const s = setupEngineSuite('poller-sftp', { worker: false });
  let workers: { stop(): Promise<void> } | undefined;
  let sshd: TestSshd;

  const pollerActivities = (outboundAllowlist: string[]) =>
    createPollerActivities({
      knex: s.knex,
      filesDir: s.filesDir,
      outboundAllowlist,
      startDocument: (input) => startDocumentWorkflow(s.client, input, s.taskQueue),
    });
  const poll = (nodeId: number, allowlist = ['127.0.0.1']) =>
    pollerActivities(allowlist).pollUploadNode({ nodeId });

  beforeAll(async () => {
    sshd = await startSshd();
    workers = await startWorkers(s, [{ taskQueue: s.taskQueue, outboundAllowlist: ['127.0.0.1'] }]);
  });

  afterAll(async () => {
    await workers?.stop();
    await sshd?.stop();
  });

  /** A new folder the password account owns (it must be able to delete files there). */
  function passwordFolder(name: string): string {
    const dir = path.join(sshd.passwordUser.folder, unique(name));
    fs.mkdirSync(dir);
    const owner = fs.statSync(sshd.passwordUser.folder);
    fs.chownSync(dir, owner.uid, owner.gid);
    return dir;
  }
  /** A new folder in the key account's area. */
  function keyFolder(name: string): string {
    const dir = path.join(sshd.folder, unique(name));
    fs.mkdirSync(dir);
    return dir;
  }
  const write = (dir: string, name: string, content: string) =>
    fs.writeFileSync(path.join(dir, name), content);
  const list = (dir: string) => fs.readdirSync(dir).sort();
  const read = (dir: string, name: string) => fs.readFileSync(path.join(dir, name), 'utf8');

  /** SFTP_UPLOAD -> FILE_PARSER, with helpers adding connections and rules to the upload node. */
  async function uploadGraph() {
    const g = await GraphBuilder.create(s.knex);
    const upload = await g.node('SFTP_UPLOAD', { automatic: true, autoStepStatus: 'ACCEPTED' });
    const parser = await g.node('FILE_PARSER', { autoStepStatus: 'DONE' });
    await g.edge(upload, parser);
    const passwordConnection = async (name: string, folder: string, password = sshd.passwordUser.password) =>
      insertConnection(upload, {
        name,
        folder,
        use_key: false,
        username: sshd.passwordUser.username,
        password,
      });
    const keyConnection = async (name: string, folder: string) =>
      insertConnection(upload, {
        name,
        folder,
        use_key: true,
        username: sshd.username,
        public_key: sshd.clientKey.publicKey,
        private_key: sshd.clientKey.privateKey,
      });
    const rule = async (
      name: string,
      sourceId: number,
      targetId: number | null,
      deleteAfterTransfer: boolean,
    ) =>
      s.knex('sftp_transfer_rules').insert({
        node_id: upload,
        name,
        source_id: sourceId,
        target_id: targetId,
        delete_after_transfer: deleteAfterTransfer,
      });
    return { upload, parser, passwordConnection, keyConnection, rule };
  }

  async function insertConnection(nodeId: number, row: Record<string, unknown>): Promise<number> {
    const [conn] = await s
      .knex('sftp_connections')
      .insert({
        node_id: nodeId,
        address: sshd.host,
        port: sshd.port,
        ...row,
        // stored sealed, as the API stores them
        password: sealValue('sftp_connections', 'password', row.password as string | null),
        private_key: sealValue('sftp_connections', 'private_key', row.private_key as string | null),
      })
      .returning('id');
    return conn.id;
  }

  const documentsOf = (nodeId: number) =>
    s.knex('documents').where('upload_node_id', nodeId).orderBy('filename').select('id', 'filename');
  const itemsOf = async (nodeId: number) =>
    (await s.knex('imported_items').where('node_id', nodeId).select('source_key', 'state', 'detail')).map(
      (r) => ({ file: path.posix.basename(r.source_key.split(':')[2]), state: r.state, detail: r.detail }),
    );
  const sortByFile = <T extends { file: string }>(rows: T[]) =>
    rows.sort((a, b) => a.file.localeCompare(b.file));

  it('imports new files, copies them, deletes them when asked, and reports a failing rule without stopping the others', async () => {
    const graph = await uploadGraph();
    const moveFrom = passwordFolder('move');
    const copyFrom = passwordFolder('copy');
    const target = keyFolder('target');
    write(moveFrom, 'a.txt', 'alpha text\n');
    write(moveFrom, 'notes.xyz', 'not a document type\n');
    fs.mkdirSync(path.join(moveFrom, 'sub'));
    write(path.join(moveFrom, 'sub'), 'deep.txt', 'not listed: no recursion\n');
    write(copyFrom, 'b.txt', 'beta text\n');
    write(target, 'a.txt', 'already there\n');

    const wrong = await graph.passwordConnection('wrong password', moveFrom, 'not-the-password');
    const mover = await graph.passwordConnection('mover', moveFrom);
    const copier = await graph.passwordConnection('copier', copyFrom);
    const archive = await graph.keyConnection('archive', target);
    // The failing rule comes first: the rules after it still run.
    await graph.rule('broken', wrong, archive, true);
    await graph.rule('move', mover, archive, true);
    await graph.rule('copy', copier, archive, false);

    const authError = `SFTP connection "wrong password": connecting to 127.0.0.1:${sshd.port} failed: All configured authentication methods failed`;
    const first = await poll(graph.upload);
    expect(first).toEqual({ nodeId: graph.upload, polled: true, imported: 2, errors: [authError] });
    // Trust on first use: each connection that logged in pinned the server's host key; the refused one did not.
    const pins = await s
      .knex('sftp_connections')
      .whereIn('id', [wrong, mover, copier, archive])
      .orderBy('id')
      .pluck('host_key');
    const fp = sshd.hostKeyFingerprint;
    expect(pins).toEqual([null, fp, fp, fp]);

    const docs = await documentsOf(graph.upload);
    expect(docs.map((d) => d.filename)).toEqual(['a.txt', 'b.txt']);
    for (const doc of docs) await stepReaching(s.knex, doc.id, graph.parser, ['DONE']);
    const contents = await s
      .knex('document_contents')
      .whereIn(
        'document_id',
        docs.map((d) => d.id),
      )
      .orderBy('document_id')
      .pluck('content');
    expect(contents).toEqual(['alpha text\n', 'beta text\n']);

    // Copied under the same name, or a suffixed one when taken; no temporary files left.
    expect(list(target)).toEqual(['a-1.txt', 'a.txt', 'b.txt']);
    expect(read(target, 'a.txt')).toBe('already there\n');
    expect(read(target, 'a-1.txt')).toBe('alpha text\n');
    expect(read(target, 'b.txt')).toBe('beta text\n');
    // Deleted after the transfer by the "move" rule; the refused file and the subfolder stay.
    expect(list(moveFrom)).toEqual(['notes.xyz', 'sub']);
    expect(list(copyFrom)).toEqual(['b.txt']);

    const address = (name: string) => `sftp://127.0.0.1:${sshd.port}${path.posix.join(target, name)}`;
    expect(sortByFile(await itemsOf(graph.upload))).toEqual([
      { file: 'a.txt', state: 'DONE', detail: `copied to ${address('a-1.txt')}; deleted from the source` },
      { file: 'b.txt', state: 'DONE', detail: `copied to ${address('b.txt')}` },
      {
        file: 'notes.xyz',
        state: 'REJECTED',
        detail: expect.stringContaining('Files of type .xyz are not accepted'),
      },
    ]);
    const status = await s.knex('poller_status').where('node_id', graph.upload).first();
    expect(status).toMatchObject({ last_imported: 2, last_error: authError });

    // A second poll finds nothing new: no document, no copy, the kept file stays.
    const second = await poll(graph.upload);
    expect(second).toEqual({ nodeId: graph.upload, polled: true, imported: 0, errors: [authError] });
    expect(await documentsOf(graph.upload)).toHaveLength(2);
    expect(list(target)).toEqual(['a-1.txt', 'a.txt', 'b.txt']);
    expect(list(copyFrom)).toEqual(['b.txt']);
    expect(list(moveFrom)).toEqual(['notes.xyz', 'sub']);
  });

  it('transfers a file imported by an earlier poll whose copy failed, without importing it again', async () => {
    const graph = await uploadGraph();
    const source = passwordFolder('later');
    const target = path.join(sshd.folder, unique('not-yet'));
    write(source, 'c.txt', 'gamma text\n');
    const from = await graph.passwordConnection('incoming', source);
    const to = await graph.keyConnection('outgoing', target);
    await graph.rule('move later', from, to, true);

    const first = await poll(graph.upload);
    expect(first.imported).toBe(1);
    expect(first.errors).toEqual([
      `SFTP connection "outgoing": copying c.txt failed: the folder ${target} does not exist`,
    ]);
    expect(list(source)).toEqual(['c.txt']); // not deleted: the copy did not happen
    const [item] = await itemsOf(graph.upload);
    expect(['IMPORTED', 'STARTED']).toContain(item.state);
    const status = await s.knex('poller_status').where('node_id', graph.upload).first();
    expect(status.last_error).toBe(first.errors[0]);

    fs.mkdirSync(target);
    const second = await poll(graph.upload);
    expect(second).toEqual({ nodeId: graph.upload, polled: true, imported: 0, errors: [] });
    expect(list(target)).toEqual(['c.txt']);
    expect(read(target, 'c.txt')).toBe('gamma text\n');
    expect(list(source)).toEqual([]);
    expect((await itemsOf(graph.upload)).map((i) => i.state)).toEqual(['DONE']);
    const docs = await documentsOf(graph.upload);
    expect(docs.map((d) => d.filename)).toEqual(['c.txt']);
    await stepReaching(s.knex, docs[0].id, graph.parser, ['DONE']);
    const after = await s.knex('poller_status').where('node_id', graph.upload).first();
    expect(after).toMatchObject({ last_imported: 0, last_error: null });
  });

  it('imports without copying or deleting when the rule has no target and no deletion', async () => {
    const graph = await uploadGraph();
    const source = passwordFolder('import-only');
    write(source, 'd.txt', 'delta text\n');
    await graph.rule('import only', await graph.passwordConnection('plain import', source), null, false);

    expect(await poll(graph.upload)).toMatchObject({ imported: 1, errors: [] });
    expect(list(source)).toEqual(['d.txt']);
    expect(await itemsOf(graph.upload)).toEqual([{ file: 'd.txt', state: 'DONE', detail: null }]);
    expect(await poll(graph.upload)).toMatchObject({ imported: 0, errors: [] });
    expect(await documentsOf(graph.upload)).toHaveLength(1);
  });

  it('refuses to connect to 127.0.0.1 when the allowlist does not admit it: nothing is imported', async () => {
    const graph = await uploadGraph();
    const source = passwordFolder('guarded');
    write(source, 'e.txt', 'epsilon\n');
    await graph.rule('guarded', await graph.passwordConnection('loopback', source), null, true);

    const outcome = await poll(graph.upload, []);
    expect(outcome).toMatchObject({ imported: 0 });
    expect(outcome.errors).toEqual([
      'SFTP connection "loopback": Connections to 127.0.0.1 are not allowed (loopback address 127.0.0.1). ' +
        'An administrator may admit the address with OUTBOUND_ALLOWLIST.',
    ]);
    expect(list(source)).toEqual(['e.txt']);
    expect(await documentsOf(graph.upload)).toHaveLength(0);
  });

  it('imports nothing from a server whose host key is not the pinned one, and names both keys', async () => {
    const graph = await uploadGraph();
    const source = passwordFolder('impostor');
    write(source, 'f.txt', 'zeta text\n');
    const impostor = await graph.passwordConnection('pinned elsewhere', source);
    const pinned = 'SHA256:' + Buffer.alloc(32, 5).toString('base64').replace(/=+$/, '');
    await s.knex('sftp_connections').where('id', impostor).update({ host_key: pinned });
    await graph.rule('pinned', impostor, null, true);

    const outcome = await poll(graph.upload);
    expect(outcome).toEqual({
      nodeId: graph.upload,
      polled: true,
      imported: 0,
      errors: [
        `SFTP connection "pinned elsewhere": the host key of 127.0.0.1:${sshd.port} does not match the ` +
          `pinned one (expected ${pinned}, presented ${sshd.hostKeyFingerprint}); connection refused. If the ` +
          `server's key was changed on purpose, pin the new fingerprint on the connection.`,
      ],
    });
    expect(list(source)).toEqual(['f.txt']);
    expect(await documentsOf(graph.upload)).toHaveLength(0);
    expect(await itemsOf(graph.upload)).toEqual([]);
    expect((await s.knex('sftp_connections').where('id', impostor).first()).host_key).toBe(pinned);

    // pinned to the server's own key, the same rule imports (and moves) the file
    await s.knex('sftp_connections').where('id', impostor).update({ host_key: sshd.hostKeyFingerprint });
    expect(await poll(graph.upload)).toMatchObject({ imported: 1, errors: [] });
    expect(list(source)).toEqual([]);
  });

  it('sends a file to SFTP over password authentication', async () => {
    const g = await GraphBuilder.create(s.knex);
    const hup = await g.node('HUP');
    const parser = await g.node('FILE_PARSER', { autoStepStatus: 'DONE' });
    const action = await g.node('SEND_TO_SFTP', { automatic: true, autoStepStatus: 'ACCEPTED' });
    await g.edge(hup, parser);
    await g.edge(parser, action);
    const folder = passwordFolder('sent');
    const connection = await insertConnection(action, {
      name: 'password account',
      folder,
      use_key: false,
      username: sshd.passwordUser.username,
      password: sshd.passwordUser.password,
    });
    await s
      .knex('nodes')
      .where('id', action)
      .update({
        settings: JSON.stringify({
          sftpConnection: { id: connection },
          preferredFilename: 'sent-${document.id}.txt',
          fileContent: 'Sent: ${document.content}',
        }),
      });

    const doc = await startDocument(s, g, hup, { content: 'over a password\n' });
    await stepReaching(s.knex, doc.id, action, ['ACCEPTED']);
    expect(list(folder)).toEqual([`sent-${doc.id}.txt`]);
    expect(read(folder, `sent-${doc.id}.txt`)).toBe('Sent: over a password\n');
    const [result] = await s.knex('action_execution_results').where('node_id', action);
    expect(result.status).toBe('SUCCESS');
    expect(result.details.createdFileAddress).toBe(
      `sftp://127.0.0.1:${sshd.port}${path.posix.join(folder, `sent-${doc.id}.txt`)}`,
    );
    // Run again for the same run of the step (a Temporal retry): nothing more is written.
    const { runAutomaticNode } = createActionActivities({
      knex: s.knex,
      filesDir: s.filesDir,
      outboundAllowlist: ['127.0.0.1'],
    });
    const step = await stepReaching(s.knex, doc.id, action, ['ACCEPTED']);
    await runAutomaticNode({
      documentId: doc.id,
      stepId: step.id,
      nodeId: action,
      activityType: 'SEND_TO_SFTP',
      attempt: 1,
    });
    expect(list(folder)).toEqual([`sent-${doc.id}.txt`]);
  });
});
