/**
 * NER relation types API: SPAN nodes only, name and colour required, priority 0..4 (default 2), from/to
 * tag types of the node or Any (null, -1 from the client), merge forcing to = from. Other suites share the
 * database: nodes live in this suite's processes.
 */
import type { RelationTypeDTO } from '../../domain/label-types';
import {
  buildProcess,
  buildUser,
  fieldKeys,
  insertNerTagType,
  insertNode,
  MISSING_ID,
  setupSuite,
  unique,
} from '../support/harness';

const BASE = '/api/ner-tag-relation-types';

describe('relation types API', () => {
  const suite = setupSuite();
  const { knex, get, send, signIn, userWith } = suite;
  let process: { id: number };
  let reader: string;
  let processAdmin: string;

  const buildNode = (activityType = 'SPAN') => insertNode(knex, process.id, activityType);
  const buildTagType = (nodeId: number) => insertNerTagType(knex, nodeId);
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
    const res = await send('POST', BASE, suite.admin, relation(nodeId, overrides));
    expect(res.status).toBe(201);
    return res.body as RelationTypeDTO;
  };

  beforeAll(async () => {
    process = await buildProcess(knex);
    reader = await userWith(process.id, 'READ');
    processAdmin = await userWith(process.id, 'ADMIN');
  });

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
    const res = await send('POST', BASE, suite.admin, {
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
    const res = await send('POST', BASE, suite.admin, {
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
    const negative = await send('POST', BASE, suite.admin, relation(node.id, { priority: -1 }));
    expect(fieldKeys(negative)).toEqual([['priority', 'soaApp.nerRelationType.priorityRange']]);
    const long = await send('POST', BASE, suite.admin, relation(node.id, { name: 'x'.repeat(101) }));
    expect(fieldKeys(long)).toEqual([['name', 'entity.validation.maxlength']]);
  });

  it('refuses relation types on nodes that are not SPAN (400 app error)', async () => {
    for (const type of ['LEXICON', 'CLF']) {
      const node = await buildNode(type);
      const res = await send('POST', BASE, suite.admin, relation(node.id));
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
    expect((await get(`${BASE}?nodeIds=${node.id}`, suite.admin)).body).toEqual([]);
  });

  it('goes when one of its tag types is deleted', async () => {
    const node = await buildNode();
    const a = await buildTagType(node.id);
    await create(node.id, { fromId: a.id });
    expect((await send('DELETE', `/api/ner-tag-type/${a.id}`, suite.admin)).status).toBe(204);
    expect((await get(`${BASE}?nodeIds=${node.id}`, suite.admin)).body).toEqual([]);
  });

  it('answers 404 for unknown relation types and nodes', async () => {
    expect((await send('PUT', BASE, suite.admin, relation(MISSING_ID, { id: MISSING_ID }))).status).toBe(404);
    expect((await send('DELETE', `${BASE}/${MISSING_ID}`, suite.admin)).status).toBe(404);
    expect((await send('POST', BASE, suite.admin, relation(MISSING_ID))).status).toBe(404);
    expect((await get(`${BASE}?nodeIds=${MISSING_ID}`, suite.admin)).status).toBe(404);
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
