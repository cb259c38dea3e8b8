/**
 * NER relation types API: SPAN nodes only, name and colour required, priority 0..4 (default 2), from/to
 * tag types of the node or Any (null, -1 from the client), merge forcing to = from. Other suites share the
 * database: nodes live in this suite's processes.
 */
import type { Knex } from 'knex';
import type { RelationTypeDTO } from '../../domain/label-types';
import {
  buildProcess,
  buildUser,
  call,
  login,
  unique,
  type BuiltUser,
  type Res,
  type TestApi,
  startTestApi,
} from '../support/harness';

const MISSING_ID = 987654321;
const BASE = '/api/ner-tag-relation-types';

const fieldKeys = (res: Res) =>
  (res.body.fieldErrors ?? []).map((f: { field: string; key: string }) => [f.field, f.key]);

describe('relation types API', () => {
  let api: TestApi;
  let knex: Knex;
  let admin: string;
  let process: { id: number };
  let reader: string;
  let processAdmin: string;

  const signIn = (u: BuiltUser) => login(api.baseUrl, u.login, u.password);
  const get = (path: string, token?: string) => call(api.baseUrl, path, { token });
  const send = (method: string, path: string, token: string | undefined, json?: unknown) =>
    call(api.baseUrl, path, { method, token, json });

  const buildNode = async (activityType = 'SPAN') => {
    const [node] = await knex('nodes')
      .insert({ process_id: process.id, name: unique('node'), activity_type: activityType })
      .returning('*');
    return node as { id: number };
  };
  const buildTagType = async (nodeId: number) => {
    const name = unique('Tag');
    const [t] = await knex('ner_tag_types')
      .insert({ node_id: nodeId, name, background_color: '#111111', text_color: '#ffffff', path: name })
      .returning('*');
    return t as { id: number };
  };
  const relation = (nodeId: number, overrides: Record<string, unknown> = {}) => ({
    nodeId,
    name: unique('works for'),
    color: '#abcdef',
    priority: 3,
    fromId: -1,
    toId: -1,
    strict: false,
    merge: false,
    ...overrides,
  });
  const create = async (nodeId: number, overrides: Record<string, unknown> = {}) => {
    const res = await send('POST', BASE, admin, relation(nodeId, overrides));
    expect(res.status).toBe(201);
    return res.body as RelationTypeDTO;
  };

  beforeAll(async () => {
    api = await startTestApi();
    knex = api.knex;
    admin = await login(api.baseUrl, 'admin', 'admin');
    process = await buildProcess(knex);
    reader = await signIn(
      await buildUser(knex, { authorities: [{ componentId: process.id, type: 'PROCESS', mode: 'READ' }] }),
    );
    processAdmin = await signIn(
      await buildUser(knex, { authorities: [{ componentId: process.id, type: 'PROCESS', mode: 'ADMIN' }] }),
    );
  });
  afterAll(() => api.close());

  it('creates a relation type between tag types of the node (201, alert)', async () => {
    const node = await buildNode();
    const [a, b] = [await buildTagType(node.id), await buildTagType(node.id)];
    const res = await send(
      'POST',
      BASE,
      processAdmin,
      relation(node.id, { name: 'employs', fromId: a.id, toId: b.id, strict: true }),
    );
    expect(res.status).toBe(201);
    expect(res.headers.get('x-soaapp-alert')).toBe('soaApp.nerRelationType.created');
    expect(res.body).toEqual({
      id: expect.any(Number),
      nodeId: node.id,
      name: 'employs',
      color: '#abcdef',
      priority: 3,
      fromId: a.id,
      toId: b.id,
      strict: true,
      merge: false,
    });
  });

  it('stores Any (-1 or absent) as null and defaults the priority to 2', async () => {
    const node = await buildNode();
    const res = await send('POST', BASE, admin, {
      nodeId: node.id,
      name: 'any',
      color: '#000000',
      fromId: -1,
    });
    expect(res.status).toBe(201);
    expect(res.body).toMatchObject({ fromId: null, toId: null, priority: 2, strict: false, merge: false });
  });

  it('makes a merge relation point to its from label', async () => {
    const node = await buildNode();
    const [a, b] = [await buildTagType(node.id), await buildTagType(node.id)];
    const merged = await create(node.id, { fromId: a.id, toId: b.id, merge: true, strict: true });
    expect(merged).toMatchObject({ fromId: a.id, toId: a.id, merge: true, strict: false });
  });

  it('lists the relation types of the given nodes', async () => {
    const one = await buildNode();
    const two = await buildNode();
    const r1 = await create(one.id);
    const r2 = await create(two.id);
    await create((await buildNode()).id);
    const res = await get(`${BASE}?nodeIds=${one.id},${two.id}`, reader);
    expect(res.status).toBe(200);
    expect(res.body.map((r: RelationTypeDTO) => r.id)).toEqual([r1.id, r2.id]);
    expect((await get(`${BASE}?nodeIds=${one.id}&nodeIds=${two.id}`, reader)).body).toHaveLength(2);
    expect((await get(BASE, reader)).body).toEqual([]);
  });

  it('reports each field rule', async () => {
    const node = await buildNode();
    const foreign = await buildTagType((await buildNode()).id);
    const res = await send('POST', BASE, admin, {
      nodeId: node.id,
      name: ' ',
      color: '',
      priority: 5,
      fromId: foreign.id,
      toId: MISSING_ID,
    });
    expect(res.status).toBe(400);
    expect(fieldKeys(res)).toEqual([
      ['name', 'entity.validation.required'],
      ['color', 'entity.validation.required'],
      ['priority', 'soaApp.nerRelationType.priorityRange'],
      ['fromId', 'soaApp.nerRelationType.labelInvalid'],
      ['toId', 'soaApp.nerRelationType.labelInvalid'],
    ]);
    const negative = await send('POST', BASE, admin, relation(node.id, { priority: -1 }));
    expect(fieldKeys(negative)).toEqual([['priority', 'soaApp.nerRelationType.priorityRange']]);
    const long = await send('POST', BASE, admin, relation(node.id, { name: 'x'.repeat(101) }));
    expect(fieldKeys(long)).toEqual([['name', 'entity.validation.maxlength']]);
  });

  it('refuses relation types on nodes that are not SPAN (400 app error)', async () => {
    for (const type of ['LEXICON', 'CLF']) {
      const node = await buildNode(type);
      const res = await send('POST', BASE, admin, relation(node.id));
      expect(res.status).toBe(400);
      expect(res.body.message).toBe('error.dataValidationUnexpectedError');
    }
  });

  it('updates (alert) and deletes (204) a relation type', async () => {
    const node = await buildNode();
    const a = await buildTagType(node.id);
    const created = await create(node.id);
    const updated = await send('PUT', BASE, processAdmin, {
      ...created,
      name: 'renamed',
      toId: a.id,
      priority: 0,
    });
    expect(updated.status).toBe(200);
    expect(updated.headers.get('x-soaapp-alert')).toBe('soaApp.nerRelationType.updated');
    expect(updated.body).toMatchObject({
      id: created.id,
      name: 'renamed',
      fromId: null,
      toId: a.id,
      priority: 0,
    });
    const deleted = await send('DELETE', `${BASE}/${created.id}`, processAdmin);
    expect(deleted.status).toBe(204);
    expect(deleted.headers.get('x-soaapp-alert')).toBe('soaApp.nerRelationType.deleted');
    expect((await get(`${BASE}?nodeIds=${node.id}`, admin)).body).toEqual([]);
  });

  it('goes when one of its tag types is deleted', async () => {
    const node = await buildNode();
    const a = await buildTagType(node.id);
    await create(node.id, { fromId: a.id });
    expect((await send('DELETE', `/api/ner-tag-type/${a.id}`, admin)).status).toBe(204);
    expect((await get(`${BASE}?nodeIds=${node.id}`, admin)).body).toEqual([]);
  });

  it('answers 404 for unknown relation types and nodes', async () => {
    expect((await send('PUT', BASE, admin, relation(MISSING_ID, { id: MISSING_ID }))).status).toBe(404);
    expect((await send('DELETE', `${BASE}/${MISSING_ID}`, admin)).status).toBe(404);
    expect((await send('POST', BASE, admin, relation(MISSING_ID))).status).toBe(404);
    expect((await get(`${BASE}?nodeIds=${MISSING_ID}`, admin)).status).toBe(404);
  });

  it('needs a token (401), READ to read and ADMIN on the process to change (403)', async () => {
    const node = await buildNode();
    const created = await create(node.id);
    expect((await get(`${BASE}?nodeIds=${node.id}`)).status).toBe(401);
    expect((await send('POST', BASE, undefined, relation(node.id))).status).toBe(401);
    const stranger = await signIn(await buildUser(knex));
    expect((await get(`${BASE}?nodeIds=${node.id}`, stranger)).status).toBe(403);
    expect((await send('POST', BASE, reader, relation(node.id))).status).toBe(403);
    expect((await send('PUT', BASE, reader, created)).status).toBe(403);
    expect((await send('DELETE', `${BASE}/${created.id}`, reader)).status).toBe(403);
    const nodeWriter = await signIn(
      await buildUser(knex, { authorities: [{ componentId: node.id, type: 'NODE', mode: 'ADMIN' }] }),
    );
    expect((await get(`${BASE}?nodeIds=${node.id}`, nodeWriter)).status).toBe(200);
    expect((await send('PUT', BASE, nodeWriter, created)).status).toBe(403);
  });
});
