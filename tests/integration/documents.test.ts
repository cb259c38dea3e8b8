/**
 * Documents API: read, filename edit, creation from text, the content update and its 423, the block and the
 * assignees, the parser's output (page images, audio with range requests, utterances in linked-list order,
 * token hints), and the deletes (one, a list, all of a process) that end the workflows and remove rows and
 * files. The suite's task queue has no worker: started workflows stay RUNNING until a delete ends them.
 */
import crypto from 'node:crypto';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { Client, Connection } from '@temporalio/client';
import { insertObligatoryUploadNode } from '../../db/queries/nodes';
import {
  buildProcess,
  buildUser,
  grant,
  MISSING_ID,
  setupSuite,
  unique,
  type BuiltUser,
} from '../support/harness';

/** A 16 kHz mono 16-bit WAV of noise (unique content). */
function wav(samples = 8000): Buffer {
  const data = crypto.randomBytes(samples * 2);
  const header = Buffer.alloc(44);
  header.write('RIFF', 0, 'latin1');
  header.writeUInt32LE(36 + data.length, 4);
  header.write('WAVEfmt ', 8, 'latin1');
  header.writeUInt32LE(16, 16);
  header.writeUInt16LE(1, 20);
  header.writeUInt16LE(1, 22);
  header.writeUInt32LE(16000, 24);
  header.writeUInt32LE(32000, 28);
  header.writeUInt16LE(2, 32);
  header.writeUInt16LE(16, 34);
  header.write('data', 36, 'latin1');
  header.writeUInt32LE(data.length, 40);
  return Buffer.concat([header, data]);
}

const PNG = Buffer.from(
  'iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mNkYPhfDwAChwGA60e6kgAAAABJRU5ErkJggg==',
  'base64',
);

describe('documents API', () => {
  const filesDir = fs.mkdtempSync(path.join(os.tmpdir(), 'wb-documents-'));
  const taskQueue = `test-documents-${crypto.randomUUID()}`;
  const suite = setupSuite({ config: { filesDir, taskQueue } });
  let temporal: Connection;
  let client: Client;
  let processId: number;
  let uploadNodeId: number;
  let adminId: number;
  let reader: string;
  let writer: string;
  let writerUser: BuiltUser;
  let processAdmin: string;
  let processAdminUser: BuiltUser;
  let stranger: string;

  const knex = () => suite.knex;
  const create = async (content = unique('text'), filename = `${unique('doc')}.txt`, pid = processId) => {
    const res = await suite.send('POST', '/api/documents', suite.admin, {
      processId: pid,
      filename,
      content,
    });
    if (res.status !== 201) throw new Error(`create: ${res.status} ${JSON.stringify(res.body)}`);
    return res.body as { id: number; path: string; content: { id: number } };
  };
  const uploadWav = async (bytes: Buffer) => {
    const form = new FormData();
    form.append('nodeId', String(uploadNodeId));
    form.append('file', new Blob([new Uint8Array(bytes)]), 'speech.wav');
    const res = await fetch(`${suite.api.baseUrl}/api/file-upload`, {
      method: 'POST',
      body: form,
      headers: { Authorization: `Bearer ${suite.admin}` },
    });
    expect(res.status).toBe(201);
    return (await res.json()) as { id: number; path: string };
  };
  const workflowStatus = async (documentId: number) =>
    (await client.workflow.getHandle(`document-${documentId}`).describe()).status.name;
  const exists = (key: string) => fs.existsSync(path.join(filesDir, key));
  const newProcess = async () => {
    const p = await buildProcess(knex());
    const node = await insertObligatoryUploadNode(knex(), p.id);
    return { processId: p.id, uploadNodeId: node.id };
  };

  beforeAll(async () => {
    ({ processId, uploadNodeId } = await newProcess());
    adminId = (await knex()('users').where('login', 'admin').first()).id;
    const withMode = async (mode: 'READ' | 'WRITE' | 'ADMIN') => {
      const user = await buildUser(knex(), {
        authorities: [{ componentId: processId, type: 'PROCESS', mode }],
      });
      return { user, token: await suite.signIn(user) };
    };
    reader = (await withMode('READ')).token;
    ({ user: writerUser, token: writer } = await withMode('WRITE'));
    ({ user: processAdminUser, token: processAdmin } = await withMode('ADMIN'));
    stranger = await suite.signIn(await buildUser(knex()));
    temporal = await Connection.connect({ address: process.env.TEMPORAL_ADDRESS! });
    client = new Client({ connection: temporal });
  });
  afterAll(async () => {
    await temporal?.close();
    fs.rmSync(filesDir, { recursive: true, force: true });
  });

  describe('GET /api/documents/{id}', () => {
    it('returns the document with its content, assignees and blocker to a reader', async () => {
      const doc = await create('Ala ma kota');
      await knex()('document_assignees').insert({ document_id: doc.id, user_id: writerUser.id });
      const res = await suite.get(`/api/documents/${doc.id}`, reader);
      expect(res.status).toBe(200);
      expect(res.body).toMatchObject({
        id: doc.id,
        processId,
        documentType: 'TEXTFILE',
        status: 'WAITING',
        mimeType: 'text/plain',
        uploadNodeId,
        content: { id: expect.any(Number), content: 'Ala ma kota' },
        assignees: [{ id: writerUser.id, login: writerUser.login, email: writerUser.email }],
        blockedBy: null,
      });
      expect(res.body.assignees[0]).toHaveProperty('firstName');
    });

    it('is 403 without access, 401 anonymous, 404 for an unknown id, 400 for a non-numeric id', async () => {
      const doc = await create();
      expect((await suite.get(`/api/documents/${doc.id}`, stranger)).status).toBe(403);
      expect((await suite.get(`/api/documents/${doc.id}`)).status).toBe(401);
      expect((await suite.get(`/api/documents/${MISSING_ID}`, suite.admin)).status).toBe(404);
      expect((await suite.get(`/api/documents/abc`, suite.admin)).status).toBe(400);
    });

    it('reads a document, its page count and its hints with a mode on one node of its process only', async () => {
      // The one document-read rule (domain/access readsDocumentsOf), as for its state and history.
      const doc = await create();
      const annotator = await suite.signIn(
        await buildUser(knex(), { authorities: [{ componentId: uploadNodeId, type: 'NODE', mode: 'READ' }] }),
      );
      for (const path of [
        `/api/documents/${doc.id}`,
        `/api/documents/${doc.id}/images/length`,
        `/api/documents/${doc.id}/top/hints`,
        `/api/v2/document/${doc.id}/state`,
      ])
        expect([path, (await suite.get(path, annotator)).status]).toEqual([path, 200]);
      // Not another process's, and nothing that needs WRITE.
      const other = await buildProcess(knex());
      await insertObligatoryUploadNode(knex(), other.id);
      const foreign = await create(unique('text'), `${unique('doc')}.txt`, other.id);
      expect((await suite.get(`/api/documents/${foreign.id}`, annotator)).status).toBe(403);
      const rename = await suite.send('PUT', '/api/documents', annotator, {
        id: doc.id,
        filename: 'x.txt',
        path: doc.path,
        documentType: 'TEXTFILE',
        processId,
      });
      expect(rename.status).toBe(403);
    });

    it('answers 400 with a detail for ids and indexes beyond the database integer range', async () => {
      const doc = await create();
      for (const path of [
        `/api/documents/${doc.id}/images/2147483648`,
        `/api/documents/${doc.id}/images/99999999999999999999`,
        `/api/documents/${doc.id}/images/-1`,
        `/api/documents/${doc.id}/images/1e3`,
        '/api/documents/2147483648',
        '/api/documents/9007199254740993',
        `/api/documents/${doc.id}/top/hints?utteranceTokenId=4294967296`,
      ]) {
        const res = await suite.get(path, suite.admin);
        expect([path, res.status]).toEqual([path, 400]);
        expect(res.body.detail).toMatch(/must be a whole number from 0 to 2147483647/);
      }
      expect((await suite.get(`/api/documents/${doc.id}/images/2147483647`, suite.admin)).status).toBe(404);
      const huge = await suite.send('PUT', '/api/documents', suite.admin, { id: 1e300, filename: 'x.txt' });
      expect(huge.status).toBe(400);
      const hugeProcess = await suite.send('POST', '/api/documents', suite.admin, {
        processId: 2 ** 53,
        filename: 'x.txt',
        content: 'x',
      });
      expect(hugeProcess.status).toBe(400);
    });
  });

  describe('POST /api/documents', () => {
    it('creates a text document through the Upload node and starts its workflow', async () => {
      const res = await suite.send('POST', '/api/documents', writer, {
        processId,
        filename: 'notes',
        content: 'Zażółć gęślą jaźń',
      });
      expect(res.status).toBe(201);
      expect(res.body).toMatchObject({
        filename: 'notes.txt',
        documentType: 'TEXTFILE',
        status: 'WAITING',
        uploadNodeId,
        content: { content: 'Zażółć gęślą jaźń' },
      });
      expect(fs.readFileSync(path.join(filesDir, res.body.path), 'utf8')).toBe('Zażółć gęślą jaźń');
      expect(await workflowStatus(res.body.id)).toBe('RUNNING');
    });

    it('validates the body, refuses binary types, and needs WRITE', async () => {
      const bad = await suite.send('POST', '/api/documents', suite.admin, {
        processId,
        filename: ' ',
        content: 'x',
      });
      expect(bad.status).toBe(400);
      expect(bad.body.fieldErrors).toEqual([
        expect.objectContaining({ field: 'filename', key: 'entity.validation.required' }),
      ]);
      const shape = await suite.send('POST', '/api/documents', suite.admin, { processId, filename: 'a.txt' });
      expect(shape.status).toBe(400);
      const png = await suite.send('POST', '/api/documents', suite.admin, {
        processId,
        filename: 'a.png',
        content: 'text',
      });
      expect(png.status).toBe(415);
      const json = await suite.send('POST', '/api/documents', suite.admin, {
        processId,
        filename: 'a.json',
        content: '{"broken": ',
      });
      expect(json.status).toBe(415);
      const ok = { processId, filename: 'a.txt', content: 'x' };
      expect((await suite.send('POST', '/api/documents', reader, ok)).status).toBe(403);
      expect((await suite.send('POST', '/api/documents', stranger, ok)).status).toBe(403);
      expect(
        (await suite.send('POST', '/api/documents', suite.admin, { ...ok, processId: MISSING_ID })).status,
      ).toBe(404);
    });

    it('refuses a lone surrogate, a control or bidirectional character or a path in the filename before storing anything', async () => {
      // The process's documents: other suites write documents of their own at the same time.
      const count = async () =>
        Number((await knex()('documents').where({ process_id: processId }).count({ n: '*' }).first())!.n);
      const before = await count();
      for (const filename of [
        'bad\ud800.txt',
        'bad\udc00name.txt',
        'nul\u0000.txt',
        'dir/x.txt',
        '..\\x.txt',
        // bidirectional controls reorder what is shown: '\u202etxt.exe' reads 'exe.txt' (issue 25 finding 8)
        '\u202e_evil.txt',
        'a\u2067b.txt',
      ]) {
        const res = await suite.send('POST', '/api/documents', suite.admin, {
          processId,
          filename,
          content: 'x',
        });
        expect([filename, res.status]).toEqual([filename, 400]);
        expect(res.body.fieldErrors).toEqual([
          expect.objectContaining({ field: 'filename', key: 'entity.validation.pattern' }),
        ]);
      }
      const content = await suite.send('POST', '/api/documents', suite.admin, {
        processId,
        filename: 'c.txt',
        content: 'half \ud83d of an emoji',
      });
      expect(content.status).toBe(400);
      expect(await count()).toBe(before);
      // A well-formed pair is a character like any other.
      const emoji = await suite.send('POST', '/api/documents', suite.admin, {
        processId,
        filename: 'smile \ud83d\ude00.txt',
        content: 'x',
      });
      expect(emoji.status).toBe(201);
      expect(emoji.body.filename).toBe('smile \u{1f600}.txt');
    });
  });

  describe('PUT /api/documents (the edit form)', () => {
    const form = (doc: { id: number; path: string }, over: Record<string, unknown> = {}) => ({
      id: doc.id,
      filename: 'x.txt',
      path: doc.path,
      documentType: 'TEXTFILE',
      processId,
      ...over,
    });

    it('renames for WRITE, and keeps the rest', async () => {
      const doc = await create();
      const res = await suite.send('PUT', '/api/documents', writer, form(doc));
      expect(res.status).toBe(200);
      expect(res.body).toMatchObject({ id: doc.id, filename: 'x.txt', path: doc.path, processId });
      expect(res.headers.get('x-soaapp-alert')).toBe('soaApp.document.updated');
      expect((await suite.get(`/api/documents/${doc.id}`, reader)).body.filename).toBe('x.txt');
      const traversal = await suite.send(
        'PUT',
        '/api/documents',
        writer,
        form(doc, { filename: 'renamed/../y.txt' }),
      );
      expect(traversal.status).toBe(400);
      expect(traversal.body.fieldErrors).toEqual([
        expect.objectContaining({ field: 'filename', key: 'entity.validation.pattern' }),
      ]);
    });

    it('requires filename, path, documentType and process with the spec message', async () => {
      const doc = await create();
      const blank = await suite.send('PUT', '/api/documents', suite.admin, { id: doc.id, filename: '' });
      expect(blank.status).toBe(400);
      expect(
        blank.body.fieldErrors.map((e: { field: string; key: string; objectName: string }) => [
          e.objectName,
          e.field,
          e.key,
        ]),
      ).toEqual([
        ['document', 'filename', 'entity.validation.required'],
        ['document', 'path', 'entity.validation.required'],
        ['document', 'documentType', 'entity.validation.required'],
        ['document', 'processId', 'entity.validation.required'],
      ]);
      const spaces = await suite.send('PUT', '/api/documents', suite.admin, form(doc, { path: '   ' }));
      expect(spaces.status).toBe(400);
      expect(spaces.body.fieldErrors).toEqual([
        expect.objectContaining({ field: 'path', key: 'entity.validation.required' }),
      ]);
      const long = await suite.send(
        'PUT',
        '/api/documents',
        suite.admin,
        form(doc, { filename: `${'a'.repeat(300)}.txt` }),
      );
      expect(long.status).toBe(400);
      expect(long.body.fieldErrors[0]).toMatchObject({ key: 'entity.validation.maxlength' });
      const type = await suite.send(
        'PUT',
        '/api/documents',
        suite.admin,
        form(doc, { documentType: 'VIDEO' }),
      );
      expect(type.body.fieldErrors).toEqual([
        expect.objectContaining({ field: 'documentType', key: 'entity.validation.pattern' }),
      ]);
      expect((await suite.get(`/api/documents/${doc.id}`, reader)).body.filename).not.toBe('x.txt');
    });

    it('refuses to move the stored file, change the type or move the document to another process', async () => {
      const doc = await create();
      const other = await newProcess();
      const res = await suite.send(
        'PUT',
        '/api/documents',
        suite.admin,
        form(doc, { path: 'elsewhere/file', documentType: 'AUDIOFILE', processId: other.processId }),
      );
      expect(res.status).toBe(400);
      expect(res.body.fieldErrors.map((e: { field: string; key: string }) => [e.field, e.key])).toEqual([
        ['path', 'soaApp.document.validation.pathImmutable'],
        ['documentType', 'soaApp.document.validation.documentTypeImmutable'],
        ['processId', 'soaApp.document.validation.processImmutable'],
      ]);
      const after = (await suite.get(`/api/documents/${doc.id}`, suite.admin)).body;
      expect(after).toMatchObject({ path: doc.path, documentType: 'TEXTFILE', processId });
    });

    it('checks access before the form: 403 for READ even with an invalid form, 404 for an unknown id', async () => {
      const doc = await create();
      expect((await suite.send('PUT', '/api/documents', reader, form(doc))).status).toBe(403);
      expect((await suite.send('PUT', '/api/documents', reader, { id: doc.id, filename: '' })).status).toBe(
        403,
      );
      expect((await suite.send('PUT', '/api/documents', stranger, form(doc))).status).toBe(403);
      expect(
        (await suite.send('PUT', '/api/documents', suite.admin, form({ id: MISSING_ID, path: 'p' }))).status,
      ).toBe(404);
    });
  });

  describe('POST /api/file-upload refusals carry a reason the UI translates', () => {
    const upload = async (name: string, bytes: Buffer) => {
      const f = new FormData();
      f.append('nodeId', String(uploadNodeId));
      f.append('file', new Blob([new Uint8Array(bytes)]), name);
      const res = await fetch(`${suite.api.baseUrl}/api/file-upload`, {
        method: 'POST',
        body: f,
        headers: { Authorization: `Bearer ${writer}` },
      });
      return { status: res.status, body: (await res.json()) as Record<string, unknown> };
    };

    it('415 with the key and parameters of the refusal', async () => {
      const mismatch = await upload('scan.png', Buffer.from('plain words'));
      expect(mismatch).toMatchObject({
        status: 415,
        body: {
          message: 'error.upload.unsupportedType',
          reason: {
            key: 'error.upload.reason.mismatch',
            params: { filename: 'scan.png', expected: 'png', ext: 'png', found: 'unknown' },
          },
        },
      });
      const exe = await upload('tool.exe', Buffer.from('MZ'));
      expect(exe.body.reason).toMatchObject({ key: 'error.upload.reason.extension', params: { ext: 'exe' } });
      expect((await upload('image.png', PNG)).status).toBe(201);
    });
  });

  describe('PUT /api/document-content', () => {
    it('updates the content for WRITE', async () => {
      const doc = await create('old');
      const res = await suite.send('PUT', '/api/document-content', writer, {
        id: doc.content.id,
        docId: doc.id,
        content: 'new text',
      });
      expect(res.status).toBe(200);
      expect(res.body).toEqual({ id: doc.content.id, docId: doc.id, content: 'new text' });
      expect((await suite.get(`/api/documents/${doc.id}`, reader)).body.content.content).toBe('new text');
    });

    it('is 423 while another user blocks the document, 403 for READ, 404 for a foreign content id', async () => {
      const doc = await create('old');
      const other = await create('other');
      const body = { id: doc.content.id, docId: doc.id, content: 'x' };
      expect((await suite.send('PUT', '/api/document-content', reader, body)).status).toBe(403);
      expect(
        (await suite.send('PUT', '/api/document-content', writer, { ...body, id: other.content.id })).status,
      ).toBe(404);
      await knex()('documents').where('id', doc.id).update({ blocked_by_id: adminId });
      const res = await suite.send('PUT', '/api/document-content', writer, body);
      expect(res.status).toBe(423);
      expect(res.body.key).toBe('error.document.blocked');
      expect((await suite.send('PUT', '/api/document-content', suite.admin, body)).status).toBe(200);
      const invalid = await suite.send('PUT', '/api/document-content', writer, {
        docId: doc.id,
        content: 'x',
      });
      expect(invalid.status).toBe(400);
    });
  });

  describe('block and assignees', () => {
    const blockPath = (id: number) => `/api/v2/document/${id}/blocked-by/`;

    it('a process admin blocks (and becomes an assignee) and unblocks; others are refused', async () => {
      const doc = await create();
      expect((await suite.send('POST', blockPath(doc.id), writer)).status).toBe(403);
      const blocked = await suite.call(blockPath(doc.id), {
        method: 'POST',
        token: processAdmin,
        text: String(processAdminUser.id),
      });
      expect(blocked.status).toBe(200);
      expect(blocked.body.blockedBy).toMatchObject({
        id: processAdminUser.id,
        login: processAdminUser.login,
      });
      expect(blocked.body.assignees.map((a: { id: number }) => a.id)).toEqual([processAdminUser.id]);
      // Another admin cannot take over the block; nor block in someone else's name.
      expect((await suite.send('POST', blockPath(doc.id), suite.admin)).status).toBe(423);
      const other = await create();
      const inName = await suite.call(blockPath(other.id), {
        method: 'POST',
        token: suite.admin,
        text: '12345',
      });
      expect(inName.status).toBe(400);
      expect((await suite.send('DELETE', `/api/v2/document/${doc.id}/blocked-by`, writer)).status).toBe(403);
      const unblocked = await suite.send('DELETE', `/api/v2/document/${doc.id}/blocked-by`, processAdmin);
      expect(unblocked.status).toBe(200);
      expect(unblocked.body.blockedBy).toBeNull();
      expect(unblocked.body.assignees).toHaveLength(1);
    });

    it('adds assignees (WRITE), refusing users without access or unknown ones', async () => {
      const doc = await create();
      const add = (userId: number, token = writer) =>
        suite.send('POST', `/api/v2/document/${doc.id}/assignees/${userId}`, token);
      expect((await add(writerUser.id)).status).toBe(200);
      const res = await add(processAdminUser.id);
      expect(res.body.assignees.map((a: { id: number }) => a.id).sort()).toEqual(
        [writerUser.id, processAdminUser.id].sort(),
      );
      expect((await add(writerUser.id)).status).toBe(200); // idempotent
      const outsider = await buildUser(knex());
      const refused = await add(outsider.id);
      expect(refused.status).toBe(400);
      expect(refused.body.message).toBe('error.document.assigneeWithoutAccess');
      expect((await add(MISSING_ID)).status).toBe(404);
      expect((await add(writerUser.id, reader)).status).toBe(403);
    });

    it('removes yourself with WRITE, others with ADMIN; removing the blocker unblocks first', async () => {
      const doc = await create();
      const readerUser = await buildUser(knex(), {
        authorities: [{ componentId: processId, type: 'PROCESS', mode: 'READ' }],
      });
      await knex()('document_assignees').insert(
        [writerUser.id, processAdminUser.id, readerUser.id].map((user_id) => ({
          document_id: doc.id,
          user_id,
        })),
      );
      await knex()('documents').where('id', doc.id).update({ blocked_by_id: processAdminUser.id });
      const remove = (userId: number, token: string) =>
        suite.send('DELETE', `/api/v2/document/${doc.id}/assignee/${userId}`, token);
      expect((await remove(processAdminUser.id, writer)).status).toBe(403);
      const self = await remove(writerUser.id, writer);
      expect(self.status).toBe(200);
      expect(self.body.assignees.map((a: { id: number }) => a.id).sort()).toEqual(
        [processAdminUser.id, readerUser.id].sort(),
      );
      const readerToken = await suite.signIn(readerUser);
      expect((await remove(readerUser.id, readerToken)).status).toBe(403);
      const blocker = await remove(processAdminUser.id, suite.admin);
      expect(blocker.status).toBe(200);
      expect(blocker.body.blockedBy).toBeNull();
      expect(blocker.body.assignees.map((a: { id: number }) => a.id)).toEqual([readerUser.id]);
    });

    it('assigning yourself needs WRITE: a reader may not, a writer may', async () => {
      const doc = await create();
      const readerUser = await buildUser(knex(), {
        authorities: [{ componentId: processId, type: 'PROCESS', mode: 'READ' }],
      });
      const self = (userId: number, token: string) =>
        suite.send('POST', `/api/v2/document/${doc.id}/assignees/${userId}`, token);
      expect((await self(readerUser.id, await suite.signIn(readerUser))).status).toBe(403);
      const mine = await self(writerUser.id, writer);
      expect(mine.status).toBe(200);
      expect(mine.body.assignees.map((a: { id: number }) => a.id)).toEqual([writerUser.id]);
    });

    it("lists who may be assigned (WRITE): activated users with a mode on the process, their own or a role's, and admins", async () => {
      const path = `/api/processes/${processId}/assignable-users`;
      const role = unique('ROLE_TEAM').slice(0, 40);
      const [roleRow] = await knex()('roles').insert({ name: role }).returning('id');
      const viaRole = await buildUser(knex(), { roles: ['ROLE_USER', role] });
      await knex()('authorities')
        .insert({ component_id: processId, type: 'PROCESS', mode: 'READ' })
        .onConflict(['component_id', 'type', 'mode'])
        .ignore();
      const authority = await knex()('authorities')
        .where({ component_id: processId, type: 'PROCESS', mode: 'READ' })
        .first();
      await knex()('role_authorities').insert({ role_id: roleRow.id, authority_id: authority.id });
      const inactive = await buildUser(knex(), {
        activated: false,
        authorities: [{ componentId: processId, type: 'PROCESS', mode: 'WRITE' }],
      });
      const other = await newProcess();
      const elsewhere = await buildUser(knex(), {
        authorities: [{ componentId: other.processId, type: 'PROCESS', mode: 'ADMIN' }],
      });
      const res = await suite.send('GET', path, writer);
      expect(res.status).toBe(200);
      const ids = (res.body as { id: number; login: string; email: string }[]).map((u) => u.id);
      for (const id of [writerUser.id, processAdminUser.id, viaRole.id, adminId]) expect(ids).toContain(id);
      for (const id of [inactive.id, elsewhere.id]) expect(ids).not.toContain(id);
      const logins = (res.body as { login: string }[]).map((u) => u.login);
      expect(logins).toEqual([...logins].sort());
      expect(res.body.find((u: { id: number }) => u.id === writerUser.id)).toMatchObject({
        login: writerUser.login,
        email: writerUser.email,
        firstName: null,
        lastName: null,
      });
      expect((await suite.send('GET', path, reader)).status).toBe(403);
      expect((await suite.send('GET', path, stranger)).status).toBe(403);
    });

    it('replaces the assignees (ADMIN); a blocker left out no longer blocks', async () => {
      const doc = await create();
      await knex()('document_assignees').insert({ document_id: doc.id, user_id: processAdminUser.id });
      await knex()('documents').where('id', doc.id).update({ blocked_by_id: processAdminUser.id });
      const put = (json: unknown, token = processAdmin) =>
        suite.send('PUT', `/api/v2/document/${doc.id}/assignees`, token, json);
      expect((await put([writerUser.id], writer)).status).toBe(403);
      const kept = await put([processAdminUser.id, { id: writerUser.id }]);
      expect(kept.status).toBe(200);
      expect(kept.body.blockedBy).toMatchObject({ id: processAdminUser.id });
      expect(kept.body.assignees).toHaveLength(2);
      const replaced = await put([writerUser.id]);
      expect(replaced.body.blockedBy).toBeNull();
      expect(replaced.body.assignees.map((a: { id: number }) => a.id)).toEqual([writerUser.id]);
      expect((await put([])).body.assignees).toEqual([]);
      expect((await put(['x'])).status).toBe(400);
      expect((await put([MISSING_ID])).status).toBe(404);
    });
  });

  describe("the parser's output", () => {
    it('serves the page count and each page image', async () => {
      const doc = await create();
      const pages = [PNG, Buffer.concat([PNG, Buffer.from('second')])];
      for (const [index, bytes] of pages.entries()) {
        const key = `pages/${doc.id}/${index}.png`;
        fs.mkdirSync(path.join(filesDir, 'pages', String(doc.id)), { recursive: true });
        fs.writeFileSync(path.join(filesDir, key), bytes);
        await knex()('document_pages').insert({ document_id: doc.id, index, path: key });
      }
      expect((await suite.get(`/api/documents/${doc.id}/images/length`, reader)).body).toEqual({ length: 2 });
      const res = await fetch(`${suite.api.baseUrl}/api/documents/${doc.id}/images/1`, {
        headers: { Authorization: `Bearer ${reader}` },
      });
      expect(res.status).toBe(200);
      expect(res.headers.get('content-type')).toBe('image/png');
      expect(Buffer.from(await res.arrayBuffer()).equals(pages[1])).toBe(true);
      expect((await suite.get(`/api/documents/${doc.id}/images/7`, reader)).status).toBe(404);
      expect((await suite.get(`/api/documents/${doc.id}/images/length`, stranger)).status).toBe(403);
      const empty = await create();
      expect((await suite.get(`/api/documents/${empty.id}/images/length`, reader)).body).toEqual({
        length: 0,
      });
    });

    it('streams the audio with range requests', async () => {
      const bytes = wav();
      const doc = await uploadWav(bytes);
      const audio = (range?: string, token = reader) =>
        fetch(`${suite.api.baseUrl}/api/asr-documents/${doc.id}/audio`, {
          headers: { Authorization: `Bearer ${token}`, ...(range ? { Range: range } : {}) },
        });
      const full = await audio();
      expect(full.status).toBe(200);
      expect(full.headers.get('accept-ranges')).toBe('bytes');
      expect(full.headers.get('content-type')).toBe('audio/wav');
      expect(Number(full.headers.get('content-length'))).toBe(bytes.length);
      expect(Buffer.from(await full.arrayBuffer()).equals(bytes)).toBe(true);

      const part = await audio('bytes=100-1099');
      expect(part.status).toBe(206);
      expect(part.headers.get('content-range')).toBe(`bytes 100-1099/${bytes.length}`);
      expect(Number(part.headers.get('content-length'))).toBe(1000);
      expect(Buffer.from(await part.arrayBuffer()).equals(bytes.subarray(100, 1100))).toBe(true);

      const open = await audio(`bytes=${bytes.length - 10}-`);
      expect(open.status).toBe(206);
      expect(Buffer.from(await open.arrayBuffer()).equals(bytes.subarray(bytes.length - 10))).toBe(true);
      const suffix = await audio('bytes=-44');
      expect(suffix.status).toBe(206);
      expect(Buffer.from(await suffix.arrayBuffer()).equals(bytes.subarray(bytes.length - 44))).toBe(true);
      const beyondEnd = await audio(`bytes=0-${bytes.length + 100}`);
      expect(beyondEnd.headers.get('content-range')).toBe(`bytes 0-${bytes.length - 1}/${bytes.length}`);
      await beyondEnd.arrayBuffer();

      for (const bad of [`bytes=${bytes.length}-`, 'bytes=500-100', 'bytes=abc']) {
        const res = await audio(bad);
        expect({ bad, status: res.status }).toEqual({ bad, status: 416 });
        expect(res.headers.get('content-range')).toBe(`bytes */${bytes.length}`);
        await res.arrayBuffer();
      }
      expect((await audio(undefined, stranger)).status).toBe(403);
      const text = await create();
      expect((await suite.get(`/api/asr-documents/${text.id}/audio`, reader)).status).toBe(404);
    });

    it('lists utterances in linked-list order with their tokens, and the token hints', async () => {
      const doc = await uploadWav(wav(100));
      const insert = async (actor: string) =>
        (await knex()('utterances').insert({ document_id: doc.id, actor }).returning('id'))[0].id as number;
      // Inserted in an order different from the list order: c <- a <- b  (b, a, c).
      const a = await insert('SPEAKER1');
      const b = await insert('SPEAKER2');
      const c = await insert('SPEAKER1');
      await knex()('utterances').where('id', b).update({ prev_id: null, next_id: a });
      await knex()('utterances').where('id', a).update({ prev_id: b, next_id: c });
      await knex()('utterances').where('id', c).update({ prev_id: a, next_id: null });
      const token = async (utteranceId: number, position: number, value: string, tsStart: number) =>
        (
          await knex()('utterance_tokens')
            .insert({
              utterance_id: utteranceId,
              position,
              value,
              ts_start: tsStart,
              ts_end: tsStart + 300,
              confidence: 0.9,
            })
            .returning('id')
        )[0].id as number;
      await token(a, 1, 'world', 600);
      const hello = await token(a, 0, 'hello', 300);
      await token(b, 0, 'first', 0);
      await token(c, 0, 'last', 900);
      await knex()('utterance_tokens').where('id', hello).update({ unclear: true, properties: '["NOISE"]' });

      const res = await suite.get(`/api/asr-documents/${doc.id}/utterances`, reader);
      expect(res.status).toBe(200);
      expect(res.body.map((u: { id: number }) => u.id)).toEqual([b, a, c]);
      expect(res.body[1]).toEqual({
        id: a,
        docId: doc.id,
        actor: 'SPEAKER1',
        prevId: b,
        nextId: c,
        tokens: [
          {
            id: hello,
            utteranceId: a,
            value: 'hello',
            tsStart: 300,
            tsEnd: 600,
            confidence: 0.9,
            properties: ['NOISE'],
            unclear: true,
          },
          expect.objectContaining({ value: 'world', tsStart: 600, unclear: false, properties: [] }),
        ],
      });
      expect((await suite.get(`/api/asr-documents/${doc.id}/utterances`, stranger)).status).toBe(403);

      await knex()('token_hints').insert([
        { utterance_token_id: hello, value: 'yellow', confidence: 0.2 },
        { utterance_token_id: hello, value: 'hallo', confidence: 0.6 },
      ]);
      const hints = await suite.get(`/api/documents/${doc.id}/top/hints`, reader);
      expect(hints.status).toBe(200);
      expect(hints.body).toEqual([
        { id: expect.any(Number), utteranceTokenId: hello, value: 'hallo', confidence: 0.6 },
        { id: expect.any(Number), utteranceTokenId: hello, value: 'yellow', confidence: 0.2 },
      ]);
      const one = await suite.get(
        `/api/documents/${doc.id}/top/hints?utteranceTokenId=${MISSING_ID}`,
        reader,
      );
      expect(one.body).toEqual([]);
      expect((await suite.get(`/api/documents/${doc.id}/top/hints`, stranger)).status).toBe(403);
    });
  });

  describe('deletes', () => {
    it('DELETE /api/documents/{id}: ADMIN only; ends the workflow, removes the rows and the files', async () => {
      const doc = await create();
      fs.mkdirSync(path.join(filesDir, 'pages', String(doc.id)), { recursive: true });
      fs.writeFileSync(path.join(filesDir, 'pages', String(doc.id), '0.png'), PNG);
      await knex()('document_pages').insert({ document_id: doc.id, index: 0, path: `pages/${doc.id}/0.png` });
      // What an interrupted parse may leave beside the pages folder goes too.
      fs.mkdirSync(path.join(filesDir, 'pages', `${doc.id}.staging-x`), { recursive: true });
      expect((await suite.send('DELETE', `/api/documents/${doc.id}`, writer)).status).toBe(403);
      expect(await workflowStatus(doc.id)).toBe('RUNNING');
      const res = await suite.send('DELETE', `/api/documents/${doc.id}`, processAdmin);
      expect(res.status).toBe(204);
      expect(await knex()('documents').where('id', doc.id).first()).toBeUndefined();
      expect(await knex()('document_contents').where('document_id', doc.id).first()).toBeUndefined();
      expect(exists(doc.path)).toBe(false);
      expect(fs.existsSync(path.join(filesDir, 'pages', String(doc.id)))).toBe(false);
      expect(fs.existsSync(path.join(filesDir, 'pages', `${doc.id}.staging-x`))).toBe(false);
      expect(await workflowStatus(doc.id)).toBe('TERMINATED');
      // A gone id answers like an id of another process (issue 9: no existence leak): 403 but to an admin.
      expect((await suite.send('DELETE', `/api/documents/${doc.id}`, processAdmin)).status).toBe(403);
    });

    it('DELETE /api/documents {documentIds, processId}: deletes those of the process, keeps shared files', async () => {
      const shared = unique('shared content');
      const other = await newProcess();
      const [a, b] = [await create(), await create(shared)];
      const elsewhere = await create(shared, 'elsewhere.txt', other.processId);
      const untouched = await create();
      expect(elsewhere.path).toBe(b.path);
      const del = (json: unknown, token = processAdmin) =>
        suite.call('/api/documents', { method: 'DELETE', token, json });
      expect((await del({ documentIds: [a.id], processId }, writer)).status).toBe(403);
      expect((await del({ documentIds: [], processId })).status).toBe(400);
      expect((await del({ processId })).status).toBe(400);
      const res = await del({ documentIds: [a.id, b.id, elsewhere.id, MISSING_ID], processId });
      expect(res.status).toBe(200);
      expect(res.body.deleted.sort()).toEqual([a.id, b.id].sort());
      expect(await knex()('documents').whereIn('id', [a.id, b.id]).pluck('id')).toEqual([]);
      expect(exists(a.path)).toBe(false);
      expect(exists(b.path)).toBe(true); // still used by the other process's document
      expect([await workflowStatus(a.id), await workflowStatus(b.id)]).toEqual(['TERMINATED', 'TERMINATED']);
      expect(await workflowStatus(elsewhere.id)).toBe('RUNNING');
      expect(await workflowStatus(untouched.id)).toBe('RUNNING');
      expect(await knex()('documents').where('id', elsewhere.id).first()).toBeDefined();
    });

    it('DELETE /api/processes/{id}/documents: every document of the process, ADMIN only', async () => {
      const p = await newProcess();
      const docs = [
        await create(unique('x'), 'x.txt', p.processId),
        await create(unique('y'), 'y.txt', p.processId),
      ];
      const padmin = await suite.signIn(
        await buildUser(knex(), {
          authorities: [{ componentId: p.processId, type: 'PROCESS', mode: 'ADMIN' }],
        }),
      );
      const pwriter = await buildUser(knex());
      await grant(knex(), pwriter.id, { componentId: p.processId, type: 'PROCESS', mode: 'WRITE' });
      const keep = await create();
      expect(
        (await suite.send('DELETE', `/api/processes/${p.processId}/documents`, await suite.signIn(pwriter)))
          .status,
      ).toBe(403);
      const res = await suite.send('DELETE', `/api/processes/${p.processId}/documents`, padmin);
      expect(res.status).toBe(200);
      expect(res.body.deleted.sort()).toEqual(docs.map((d) => d.id).sort());
      expect(await knex()('documents').where('process_id', p.processId).first()).toBeUndefined();
      for (const d of docs) {
        expect(exists(d.path)).toBe(false);
        expect(await workflowStatus(d.id)).toBe('TERMINATED');
      }
      expect(await workflowStatus(keep.id)).toBe('RUNNING');
      expect((await suite.send('DELETE', `/api/processes/${MISSING_ID}/documents`, suite.admin)).status).toBe(
        404,
      );
    });

    it('DELETE /api/processes/{id}: ends the workflows of its documents and removes their files', async () => {
      const p = await newProcess();
      const docs = [
        await create(unique('x'), 'x.txt', p.processId),
        await create(unique('y'), 'y.txt', p.processId),
      ];
      expect((await suite.send('DELETE', `/api/processes/${p.processId}`, suite.admin)).status).toBe(204);
      expect(await knex()('documents').where('process_id', p.processId).first()).toBeUndefined();
      for (const d of docs) {
        expect(exists(d.path)).toBe(false);
        expect(await workflowStatus(d.id)).toBe('TERMINATED');
      }
    });
  });
});
