/**
 * Processes (Spheres) API: list with access and search filters, read, create, delete, tag replacement,
 * actors and the external document splitters. Other suites share the database: names are unique() and no
 * test assumes an empty table.
 */
import type { ProcessDTO } from '../../domain/api-types';
import {
  buildProcess,
  buildTag,
  buildUser,
  fieldKeys,
  MISSING_ID,
  setupSuite,
  unique,
} from '../support/harness';

const GLOBAL_WRITE = { componentId: -1, type: 'PROCESS', mode: 'WRITE' } as const;

describe('processes API', () => {
  const suite = setupSuite();
  const { knex, get, send, signIn } = suite;
  let production: { id: number };
  let development: { id: number };

  const createProcess = (token: string, json: Record<string, unknown>) =>
    send('POST', '/api/processes', token, { isRagEnabled: false, ragTextSplitter: null, ...json });

  beforeAll(async () => {
    [production, development] = await knex('process_tags').where({ predefined: true }).orderBy('id').limit(2);
  });

  describe('GET /api/processes', () => {
    it('rejects a caller without a token (401)', async () => {
      const res = await get('/api/processes');
      expect(res.status).toBe(401);
      expect(res.body.message).toBe('error.http.401');
    });

    it('lists every process for an admin, sorted by id, with sorted tags, actors and the access mode', async () => {
      const zebra = await buildTag(knex, { name: unique('Zebra') });
      const apple = await buildTag(knex, { name: unique('apple') });
      const created = await createProcess(suite.admin, {
        name: unique('Listed'),
        processTags: [{ id: zebra.id }, { id: production.id }, { id: apple.id }],
      });
      const other = await buildProcess(knex);

      const res = await get('/api/processes', suite.admin);
      expect(res.status).toBe(200);
      const ids = res.body.map((p: ProcessDTO) => p.id);
      expect(ids).toEqual([...ids].sort((a, b) => a - b));
      expect(ids).toEqual(expect.arrayContaining([created.body.id, other.id]));
      const listed = res.body.find((p: ProcessDTO) => p.id === created.body.id);
      expect(listed.processTags.map((t: { id: number }) => t.id)).toEqual([
        production.id,
        apple.id,
        zebra.id,
      ]);
      expect(listed.actors.map((a: { actor: string; name: string }) => [a.actor, a.name])).toEqual([
        ['SPEAKER1', 'Speaker 1'],
        ['SPEAKER2', 'Speaker 2'],
      ]);
      expect(listed).toMatchObject({ isRagEnabled: false, ragTextSplitter: null, accessMode: 'ADMIN' });
    });

    it('shows a non-admin only the processes they hold a mode on, with that mode', async () => {
      const readable = await buildProcess(knex);
      const writable = await buildProcess(knex);
      const hidden = await buildProcess(knex);
      const user = await buildUser(knex, {
        authorities: [
          { componentId: readable.id, type: 'PROCESS', mode: 'READ' },
          { componentId: writable.id, type: 'PROCESS', mode: 'WRITE' },
          GLOBAL_WRITE,
        ],
      });
      const res = await get('/api/processes', await signIn(user));
      expect(res.status).toBe(200);
      expect(res.body.map((p: ProcessDTO) => [p.id, p.accessMode])).toEqual([
        [readable.id, 'READ'],
        [writable.id, 'WRITE'],
      ]);
      expect(res.body.map((p: ProcessDTO) => p.id)).not.toContain(hidden.id);
    });

    it('gives a user without any process authority an empty list', async () => {
      await buildProcess(knex);
      const res = await get('/api/processes', await signIn(await buildUser(knex)));
      expect(res.status).toBe(200);
      expect(res.body).toEqual([]);
    });

    it('searches names as a case-insensitive substring', async () => {
      const token = unique('Needle');
      const a = await buildProcess(knex, { name: `Alpha ${token} Omega` });
      const b = await buildProcess(knex, { name: `x${token.toUpperCase()}y` });
      await buildProcess(knex, { name: unique('Haystack') });
      const mixedCase = token.slice(2, -2).toLowerCase().replace('e', 'E');
      const res = await get(`/api/processes?name=${encodeURIComponent(mixedCase)}`, suite.admin);
      expect(res.status).toBe(200);
      expect(res.body.map((p: ProcessDTO) => p.id)).toEqual([a.id, b.id]);
    });

    it('matches % and _ in the name search literally', async () => {
      const token = unique('Lit');
      const percent = await buildProcess(knex, { name: `${token}%x` });
      await buildProcess(knex, { name: `${token}Ax` });
      const underscore = await buildProcess(knex, { name: `${token}_y` });
      await buildProcess(knex, { name: `${token}By` });
      const byPercent = await get(`/api/processes?name=${encodeURIComponent(`${token}%`)}`, suite.admin);
      expect(byPercent.body.map((p: ProcessDTO) => p.id)).toEqual([percent.id]);
      const byUnderscore = await get(`/api/processes?name=${encodeURIComponent(`${token}_`)}`, suite.admin);
      expect(byUnderscore.body.map((p: ProcessDTO) => p.id)).toEqual([underscore.id]);
    });

    it('filters by tag, within what the caller may read', async () => {
      const tag = await buildTag(knex);
      const tagged = await buildProcess(knex, { tagIds: [production.id, tag.id] });
      const taggedHidden = await buildProcess(knex, { tagIds: [development.id, tag.id] });
      await buildProcess(knex);
      const byAdmin = await get(`/api/processes?tagId=${tag.id}`, suite.admin);
      expect(byAdmin.status).toBe(200);
      expect(byAdmin.body.map((p: ProcessDTO) => p.id)).toEqual([tagged.id, taggedHidden.id]);

      const reader = await buildUser(knex, {
        authorities: [{ componentId: tagged.id, type: 'PROCESS', mode: 'READ' }],
      });
      const byReader = await get(`/api/processes?tagId=${tag.id}`, await signIn(reader));
      expect(byReader.body.map((p: ProcessDTO) => p.id)).toEqual([tagged.id]);
    });

    it('combines the name and tag filters', async () => {
      const tag = await buildTag(knex);
      const token = unique('Both');
      const match = await buildProcess(knex, { name: `${token} one`, tagIds: [production.id, tag.id] });
      await buildProcess(knex, { name: `${token} two` });
      await buildProcess(knex, { tagIds: [production.id, tag.id] });
      const res = await get(`/api/processes?name=${token}&tagId=${tag.id}`, suite.admin);
      expect(res.body.map((p: ProcessDTO) => p.id)).toEqual([match.id]);
    });

    it('rejects a tagId that is not a number (400)', async () => {
      expect((await get('/api/processes?tagId=abc', suite.admin)).status).toBe(400);
    });
  });

  describe('GET /api/processes/:id', () => {
    it('returns the process to a user with READ on it', async () => {
      const process = await buildProcess(knex, { tagIds: [development.id] });
      const reader = await buildUser(knex, {
        authorities: [{ componentId: process.id, type: 'PROCESS', mode: 'READ' }],
      });
      const res = await get(`/api/processes/${process.id}`, await signIn(reader));
      expect(res.status).toBe(200);
      expect(res.body).toMatchObject({ id: process.id, name: process.name, accessMode: 'READ' });
      expect(res.body.processTags.map((t: { id: number }) => t.id)).toEqual([development.id]);
    });

    it('refuses a user without a mode on an existing process (403)', async () => {
      const process = await buildProcess(knex);
      const res = await get(`/api/processes/${process.id}`, await signIn(await buildUser(knex)));
      expect(res.status).toBe(403);
      expect(res.body.message).toBe('error.http.403');
    });

    it('answers 404 for a process that does not exist', async () => {
      const res = await get(`/api/processes/${MISSING_ID}`, suite.admin);
      expect(res.status).toBe(404);
      expect(res.body.message).toBe('error.url.not.found');
    });

    it('rejects a caller without a token (401)', async () => {
      const process = await buildProcess(knex);
      expect((await get(`/api/processes/${process.id}`)).status).toBe(401);
    });
  });

  describe('POST /api/processes', () => {
    it('creates a process with its tags and the two default speakers (201 and a success alert)', async () => {
      const tag = await buildTag(knex);
      const name = unique('Created Sphere');
      const res = await createProcess(suite.admin, {
        name,
        processTags: [{ id: production.id }, { id: tag.id }],
      });
      expect(res.status).toBe(201);
      expect(res.headers.get('x-soaapp-alert')).toBe('soaApp.process.created');
      expect(decodeURIComponent(res.headers.get('x-soaapp-params') ?? '')).toBe(name);
      expect(res.body).toMatchObject({
        name,
        isRagEnabled: false,
        ragTextSplitter: null,
        accessMode: 'ADMIN',
      });
      expect(res.body.processTags.map((t: { id: number }) => t.id)).toEqual([production.id, tag.id]);
      expect(res.body.actors).toEqual([
        expect.objectContaining({ processId: res.body.id, actor: 'SPEAKER1', name: 'Speaker 1' }),
        expect.objectContaining({ processId: res.body.id, actor: 'SPEAKER2', name: 'Speaker 2' }),
      ]);
      expect((await get(`/api/processes/${res.body.id}`, suite.admin)).body).toEqual(res.body);
    });

    it('gives a creator without the admin role ADMIN on the new process, so they can delete it', async () => {
      const writer = await buildUser(knex, { authorities: [GLOBAL_WRITE] });
      const token = await signIn(writer);
      const res = await createProcess(token, { name: unique('Mine'), processTags: [{ id: production.id }] });
      expect(res.status).toBe(201);
      expect(res.body.accessMode).toBe('ADMIN');
      const granted = await knex('authorities')
        .join('user_authorities', 'authorities.id', 'user_authorities.authority_id')
        .where({ 'user_authorities.user_id': writer.id, component_id: res.body.id, type: 'PROCESS' })
        .pluck('mode');
      expect(granted).toEqual(['ADMIN']);
      const listed = await get('/api/processes', token);
      expect(listed.body.map((p: ProcessDTO) => [p.id, p.accessMode])).toEqual([[res.body.id, 'ADMIN']]);
      expect((await send('DELETE', `/api/processes/${res.body.id}`, token)).status).toBe(204);
    });

    it('does not grant an authority to an admin creator', async () => {
      const res = await createProcess(suite.admin, {
        name: unique('AdminMade'),
        processTags: [{ id: production.id }],
      });
      expect(res.status).toBe(201);
      expect(await knex('authorities').where({ component_id: res.body.id, type: 'PROCESS' })).toEqual([]);
    });

    it('refuses users without the global WRITE permission (403)', async () => {
      const nothing = await buildUser(knex);
      const globalReader = await buildUser(knex, {
        authorities: [{ componentId: -1, type: 'PROCESS', mode: 'READ' }],
      });
      const processAdmin = await buildUser(knex, {
        authorities: [{ componentId: (await buildProcess(knex)).id, type: 'PROCESS', mode: 'ADMIN' }],
      });
      const name = unique('Refused');
      for (const user of [nothing, globalReader, processAdmin]) {
        const res = await createProcess(await signIn(user), { name, processTags: [{ id: production.id }] });
        expect(res.status).toBe(403);
        expect(res.body.message).toBe('error.http.403');
      }
      expect(await knex('processes').where({ name })).toEqual([]);
    });

    it('rejects a caller without a token (401)', async () => {
      const res = await suite.call('/api/processes', {
        json: { name: unique('Anon'), processTags: [{ id: production.id }] },
      });
      expect(res.status).toBe(401);
    });

    it('requires a name', async () => {
      for (const name of [undefined, '', '   ']) {
        const res = await createProcess(suite.admin, { name, processTags: [{ id: production.id }] });
        expect(res.status).toBe(400);
        expect(res.body.message).toBe('error.validation');
        expect(fieldKeys(res)).toEqual([['name', 'entity.validation.required']]);
      }
    });

    it('rejects a name longer than 255 characters', async () => {
      const tooLong = await createProcess(suite.admin, {
        name: 'n'.repeat(256),
        processTags: [{ id: production.id }],
      });
      expect(tooLong.status).toBe(400);
      expect(fieldKeys(tooLong)).toEqual([['name', 'entity.validation.maxlength']]);
      const longest = await createProcess(suite.admin, {
        name: unique('L').padEnd(255, 'l'),
        processTags: [{ id: production.id }],
      });
      expect(longest.status).toBe(201);
    });

    it('rejects a process name that is already taken, ignoring case and surrounding spaces', async () => {
      const existing = await buildProcess(knex, { name: unique('Taken') });
      const res = await createProcess(suite.admin, {
        name: `  ${existing.name.toUpperCase()} `,
        processTags: [{ id: production.id }],
      });
      expect(res.status).toBe(400);
      expect(res.body.fieldErrors).toEqual([
        { objectName: 'process', field: 'name', message: 'NotUnique', key: 'soaApp.process.nameNotUnique' },
      ]);
    });

    it('reports a name taken by a concurrent request with the same field error', async () => {
      const name = unique('Race');
      const results = await Promise.all(
        [0, 1, 2].map(() => createProcess(suite.admin, { name, processTags: [{ id: production.id }] })),
      );
      expect(results.map((r) => r.status).sort()).toEqual([201, 400, 400]);
      for (const r of results.filter((x) => x.status === 400)) {
        expect(fieldKeys(r)).toEqual([['name', 'soaApp.process.nameNotUnique']]);
      }
      expect(await knex('processes').where({ name })).toHaveLength(1);
    });

    it('requires exactly one predefined tag', async () => {
      const userTag = await buildTag(knex);
      for (const processTags of [[], [{ id: userTag.id }], [{ id: production.id }, { id: development.id }]]) {
        const res = await createProcess(suite.admin, { name: unique('Tagless'), processTags });
        expect(res.status).toBe(400);
        expect(fieldKeys(res)).toEqual([['processTags', 'soaApp.process.predefinedTagRequired']]);
      }
    });

    it('reports the name and tag violations together', async () => {
      const res = await createProcess(suite.admin, { name: '', processTags: [] });
      expect(fieldKeys(res)).toEqual([
        ['name', 'entity.validation.required'],
        ['processTags', 'soaApp.process.predefinedTagRequired'],
      ]);
    });

    it('rejects an unknown tag id with an app error', async () => {
      const res = await createProcess(suite.admin, {
        name: unique('Ghost'),
        processTags: [{ id: production.id }, { id: MISSING_ID }],
      });
      expect(res.status).toBe(400);
      expect(res.headers.get('x-soaapp-error')).toBe('error.idnotfound');
      expect(res.headers.get('x-soaapp-params')).toBe('processTag');
    });

    it('rejects a body of the wrong shape with field errors', async () => {
      const res = await createProcess(suite.admin, { name: unique('Shape'), processTags: 'all' });
      expect(res.status).toBe(400);
      expect(res.body.message).toBe('error.validation');
      expect(fieldKeys(res)).toEqual([['processTags', 'entity.validation.required']]);
    });

    it('keeps the text splitter only with RAG on, and rejects an unknown one', async () => {
      const [splitter] = await knex('external_document_splitters')
        .insert({ name: unique('splitter'), description: 'test' })
        .returning('*');
      const withRag = await createProcess(suite.admin, {
        name: unique('Rag'),
        isRagEnabled: true,
        processTags: [{ id: production.id }],
        ragTextSplitter: { id: splitter.id },
      });
      expect(withRag.status).toBe(201);
      expect(withRag.body).toMatchObject({
        isRagEnabled: true,
        ragTextSplitter: { id: splitter.id, name: splitter.name },
      });

      const withoutRag = await createProcess(suite.admin, {
        name: unique('NoRag'),
        processTags: [{ id: production.id }],
        ragTextSplitter: { id: MISSING_ID },
      });
      expect(withoutRag.status).toBe(201);
      expect(withoutRag.body.ragTextSplitter).toBeNull();

      const unknown = await createProcess(suite.admin, {
        name: unique('BadRag'),
        isRagEnabled: true,
        processTags: [{ id: production.id }],
        ragTextSplitter: { id: MISSING_ID },
      });
      expect(unknown.status).toBe(400);
      expect(unknown.headers.get('x-soaapp-error')).toBe('error.idnotfound');
    });
  });

  describe('DELETE /api/processes/:id', () => {
    it('deletes the process and every authority on it (204 and a success alert)', async () => {
      const process = await buildProcess(knex);
      const reader = await buildUser(knex, {
        authorities: [{ componentId: process.id, type: 'PROCESS', mode: 'READ' }],
      });
      const res = await send('DELETE', `/api/processes/${process.id}`, suite.admin);
      expect(res.status).toBe(204);
      expect(res.headers.get('x-soaapp-alert')).toBe('soaApp.process.deleted');
      expect(decodeURIComponent(res.headers.get('x-soaapp-params') ?? '')).toBe(process.name);
      expect((await get(`/api/processes/${process.id}`, suite.admin)).status).toBe(404);
      expect(await knex('authorities').where({ component_id: process.id, type: 'PROCESS' })).toEqual([]);
      expect(await knex('user_authorities').where({ user_id: reader.id })).toEqual([]);
    });

    it('also removes the authorities on the nodes of the deleted process', async () => {
      const process = await buildProcess(knex);
      const [node] = await knex('nodes')
        .insert({ process_id: process.id, name: unique('Span'), activity_type: 'SPAN' })
        .returning('*');
      const annotator = await buildUser(knex, {
        authorities: [{ componentId: node.id, type: 'NODE', mode: 'WRITE' }],
      });
      expect(await knex('user_authorities').where({ user_id: annotator.id })).toHaveLength(1);
      expect((await send('DELETE', `/api/processes/${process.id}`, suite.admin)).status).toBe(204);
      expect(await knex('authorities').where({ component_id: node.id, type: 'NODE' })).toEqual([]);
      expect(await knex('user_authorities').where({ user_id: annotator.id })).toEqual([]);
    });

    it('refuses users below ADMIN on the process (403)', async () => {
      const process = await buildProcess(knex);
      for (const mode of ['READ', 'WRITE'] as const) {
        const user = await buildUser(knex, {
          authorities: [{ componentId: process.id, type: 'PROCESS', mode }, GLOBAL_WRITE],
        });
        const res = await send('DELETE', `/api/processes/${process.id}`, await signIn(user));
        expect(res.status).toBe(403);
      }
      expect(await knex('processes').where({ id: process.id })).toHaveLength(1);
    });

    it('lets a user with ADMIN on the process delete it', async () => {
      const process = await buildProcess(knex);
      const owner = await buildUser(knex, {
        authorities: [{ componentId: process.id, type: 'PROCESS', mode: 'ADMIN' }],
      });
      expect((await send('DELETE', `/api/processes/${process.id}`, await signIn(owner))).status).toBe(204);
    });

    it('answers 404 for a process that does not exist, and 401 without a token', async () => {
      expect((await send('DELETE', `/api/processes/${MISSING_ID}`, suite.admin)).status).toBe(404);
      const process = await buildProcess(knex);
      expect((await send('DELETE', `/api/processes/${process.id}`, undefined)).status).toBe(401);
    });
  });

  describe('PUT /api/processes/:id/process-tags', () => {
    it('replaces the tags of the process and returns it', async () => {
      const [a, b] = [await buildTag(knex), await buildTag(knex)];
      const process = await buildProcess(knex, { tagIds: [production.id, a.id] });
      const res = await send('PUT', `/api/processes/${process.id}/process-tags`, suite.admin, [
        { id: b.id },
        { id: development.id },
      ]);
      expect(res.status).toBe(200);
      expect(res.body.id).toBe(process.id);
      expect(res.body.processTags.map((t: { id: number }) => t.id)).toEqual([development.id, b.id]);
      const stored = await knex('process_process_tags')
        .where({ process_id: process.id })
        .pluck('process_tag_id');
      expect(stored.sort()).toEqual([development.id, b.id].sort());
    });

    it('requires exactly one predefined tag and known tags', async () => {
      const process = await buildProcess(knex);
      const path = `/api/processes/${process.id}/process-tags`;
      const none = await send('PUT', path, suite.admin, [{ id: (await buildTag(knex)).id }]);
      expect(none.status).toBe(400);
      expect(fieldKeys(none)).toEqual([['processTags', 'soaApp.process.predefinedTagRequired']]);
      const two = await send('PUT', path, suite.admin, [{ id: production.id }, { id: development.id }]);
      expect(fieldKeys(two)).toEqual([['processTags', 'soaApp.process.predefinedTagRequired']]);
      const unknown = await send('PUT', path, suite.admin, [{ id: production.id }, { id: MISSING_ID }]);
      expect(unknown.headers.get('x-soaapp-error')).toBe('error.idnotfound');
      expect(
        await knex('process_process_tags').where({ process_id: process.id }).pluck('process_tag_id'),
      ).toEqual([production.id]);
    });

    it('refuses a user below ADMIN on the process (403) and lets a process ADMIN through', async () => {
      const process = await buildProcess(knex);
      const path = `/api/processes/${process.id}/process-tags`;
      const writer = await buildUser(knex, {
        authorities: [{ componentId: process.id, type: 'PROCESS', mode: 'WRITE' }],
      });
      expect((await send('PUT', path, await signIn(writer), [{ id: development.id }])).status).toBe(403);
      const owner = await buildUser(knex, {
        authorities: [{ componentId: process.id, type: 'PROCESS', mode: 'ADMIN' }],
      });
      const res = await send('PUT', path, await signIn(owner), [{ id: development.id }]);
      expect(res.status).toBe(200);
      expect(res.body.accessMode).toBe('ADMIN');
    });

    it('answers 404 for a process that does not exist, and 401 without a token', async () => {
      expect(
        (await send('PUT', `/api/processes/${MISSING_ID}/process-tags`, suite.admin, [{ id: production.id }]))
          .status,
      ).toBe(404);
      const process = await buildProcess(knex);
      expect((await send('PUT', `/api/processes/${process.id}/process-tags`, undefined, [])).status).toBe(
        401,
      );
    });
  });

  describe('POST and PUT /api/process/:id/process-actors/', () => {
    const actorsPath = (id: number) => `/api/process/${id}/process-actors/`;

    it('adds actors with POST and replaces them all with PUT', async () => {
      const created = await createProcess(suite.admin, {
        name: unique('Actors'),
        processTags: [{ id: production.id }],
      });
      const id = created.body.id;
      const added = await send('POST', actorsPath(id), suite.admin, [
        { processId: id, actor: 'AGENT', name: 'Agent' },
      ]);
      expect(added.status).toBe(201);
      expect(added.body.map((a: { actor: string }) => a.actor)).toEqual(['SPEAKER1', 'SPEAKER2', 'AGENT']);

      const replaced = await send('PUT', actorsPath(id), suite.admin, [
        { processId: id, actor: 'CLIENT', name: 'Client' },
        { processId: id, actor: 'ADVISOR', name: 'Advisor' },
      ]);
      expect(replaced.status).toBe(200);
      expect(replaced.body).toEqual([
        expect.objectContaining({ processId: id, actor: 'CLIENT', name: 'Client' }),
        expect.objectContaining({ processId: id, actor: 'ADVISOR', name: 'Advisor' }),
      ]);
      const process = await get(`/api/processes/${id}`, suite.admin);
      expect(process.body.actors).toEqual(replaced.body);
    });

    it('answers on the path without the trailing slash as well', async () => {
      const process = await buildProcess(knex);
      const res = await send('PUT', `/api/process/${process.id}/process-actors`, suite.admin, []);
      expect(res.status).toBe(200);
      expect(res.body).toEqual([]);
    });

    it('requires an actor code of at most 100 and a name of at most 255 characters', async () => {
      const process = await buildProcess(knex);
      const res = await send('PUT', actorsPath(process.id), suite.admin, [
        { processId: process.id, actor: '', name: 'Nameless code' },
        { processId: process.id, actor: 'A'.repeat(101), name: ' ' },
        { processId: process.id, actor: 'OK', name: 'n'.repeat(256) },
        { processId: process.id, actor: 'A'.repeat(100), name: 'n'.repeat(255) },
      ]);
      expect(res.status).toBe(400);
      expect(fieldKeys(res)).toEqual([
        ['0.actor', 'entity.validation.required'],
        ['1.actor', 'entity.validation.maxlength'],
        ['1.name', 'entity.validation.required'],
        ['2.name', 'entity.validation.maxlength'],
      ]);
      expect(await knex('process_actors').where({ process_id: process.id })).toEqual([]);
    });

    it('rejects actors whose processId names another process', async () => {
      const process = await buildProcess(knex);
      const res = await send('POST', actorsPath(process.id), suite.admin, [
        { processId: process.id + 1, actor: 'X', name: 'X' },
      ]);
      expect(res.status).toBe(400);
      expect(res.headers.get('x-soaapp-error')).toBe('error.idinvalid');
    });

    it('refuses a user below ADMIN on the process (403), 404 for a missing process, 401 without a token', async () => {
      const process = await buildProcess(knex);
      const writer = await buildUser(knex, {
        authorities: [{ componentId: process.id, type: 'PROCESS', mode: 'WRITE' }],
      });
      const body = [{ processId: process.id, actor: 'X', name: 'X' }];
      expect((await send('POST', actorsPath(process.id), await signIn(writer), body)).status).toBe(403);
      expect((await send('PUT', actorsPath(MISSING_ID), suite.admin, [])).status).toBe(404);
      expect((await send('PUT', actorsPath(process.id), undefined, body)).status).toBe(401);
    });
  });

  describe('GET /api/external-document-splitter', () => {
    it('lists the splitters sorted by name', async () => {
      const prefix = unique('split');
      await knex('external_document_splitters').insert([
        { name: `${prefix}-b`, description: 'second' },
        { name: `${prefix}-a`, description: null },
      ]);
      const res = await get('/api/external-document-splitter', await signIn(await buildUser(knex)));
      expect(res.status).toBe(200);
      const mine = res.body.filter((s: { name: string }) => s.name.startsWith(prefix));
      expect(mine).toEqual([
        { id: expect.any(Number), name: `${prefix}-a`, description: null },
        { id: expect.any(Number), name: `${prefix}-b`, description: 'second' },
      ]);
      const names = res.body.map((s: { name: string }) => s.name);
      expect(names.indexOf(`${prefix}-a`)).toBeLessThan(names.indexOf(`${prefix}-b`));
    });

    it('rejects a caller without a token (401)', async () => {
      expect((await get('/api/external-document-splitter')).status).toBe(401);
    });
  });
});
