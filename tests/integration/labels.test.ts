/**
 * Labels API: classifier types (CLF nodes), NER tag types (SPAN/LEXICON nodes, a tree with paths) and the
 * label file import/export. Other suites share the database: names are unique() and nodes are inserted
 * directly into processes of this suite.
 */
import type { ClassifierTypeDTO, NerTagTypeDTO } from '../../domain/label-types';
import {
  buildProcess,
  buildUser,
  fieldKeys,
  insertNode,
  MISSING_ID,
  setupSuite,
  unique,
} from '../support/harness';

describe('labels API', () => {
  const suite = setupSuite();
  const { knex, get, send, signIn, userWith } = suite;
  let process: { id: number };
  let reader: string;
  let processAdmin: string;

  const buildNode = (activityType: string, processId = process.id) =>
    insertNode(knex, processId, activityType);
  const clf = (overrides: Record<string, unknown> = {}) => ({
    name: unique('Invoice'),
    description: 'A label',
    backgroundColor: '#112233',
    ...overrides,
  });
  const tag = (overrides: Record<string, unknown> = {}) => ({
    name: unique('Person'),
    backgroundColor: '#112233',
    textColor: '#ffffff',
    mandatory: false,
    selectable: true,
    disabled: false,
    ...overrides,
  });
  const createTag = async (nodeId: number, overrides: Record<string, unknown> = {}) => {
    const res = await send('POST', `/api/node/${nodeId}/ner-tag-type`, suite.admin, tag(overrides));
    expect(res.status).toBe(201);
    return res.body as NerTagTypeDTO;
  };

  beforeAll(async () => {
    process = await buildProcess(knex);
    reader = await userWith(process.id, 'READ');
    processAdmin = await userWith(process.id, 'ADMIN');
  });

  describe('classifier types', () => {
    it('creates one on a CLF node (201, alert), reads it by id, node and process', async () => {
      const node = await buildNode('CLF');
      const res = await send(
        'POST',
        `/api/node/${node.id}/classifier-types`,
        processAdmin,
        clf({ name: 'Invoice', prefixKey: 'a', suffixKey: 'b' }),
      );
      expect(res.status).toBe(201);
      expect(res.headers.get('x-soaapp-alert')).toBe('soaApp.classifierType.created');
      expect(res.body).toEqual({
        id: expect.any(Number),
        name: 'Invoice',
        description: 'A label',
        backgroundColor: '#112233',
        prefixKey: 'a',
        suffixKey: 'b',
        nodeId: node.id,
      });
      const byId = await get(`/api/classifier-types/${res.body.id}`, reader);
      expect(byId.status).toBe(200);
      expect(byId.body).toEqual(res.body);
      const byNode = await get(`/api/node/${node.id}/classifier-types`, reader);
      expect(byNode.body).toEqual([res.body]);
      const other = await buildNode('CLF');
      const second = await send('POST', `/api/node/${other.id}/classifier-types`, suite.admin, clf());
      const byProcess = await get(`/api/process/${process.id}/classifier-types`, reader);
      expect(byProcess.status).toBe(200);
      expect(byProcess.body.map((c: ClassifierTypeDTO) => [c.id, c.nodeId])).toEqual(
        expect.arrayContaining([
          [res.body.id, node.id],
          [second.body.id, other.id],
        ]),
      );
    });

    it('clears the prefix key when the suffix key is empty, and stores an empty description as null', async () => {
      const node = await buildNode('CLF');
      const res = await send(
        'POST',
        `/api/node/${node.id}/classifier-types`,
        suite.admin,
        clf({ prefixKey: 'a', suffixKey: '', description: '' }),
      );
      expect(res.body).toMatchObject({ prefixKey: null, suffixKey: null, description: null });
    });

    it('refuses a classifier type on a node that is not CLF (400 app error)', async () => {
      const node = await buildNode('SPAN');
      const res = await send('POST', `/api/node/${node.id}/classifier-types`, suite.admin, clf());
      expect(res.status).toBe(400);
      expect(res.body.message).toBe('error.dataValidationUnexpectedError');
      expect(res.headers.get('x-soaapp-error')).toBe('error.dataValidationUnexpectedError');
    });

    it('reports each field rule with the spec’s keys', async () => {
      const node = await buildNode('CLF');
      const bad = await send('POST', `/api/node/${node.id}/classifier-types`, suite.admin, {
        name: '',
        description: 'x'.repeat(256),
        backgroundColor: '',
        prefixKey: 'AB',
        suffixKey: '1',
      });
      expect(bad.status).toBe(400);
      expect(bad.body.message).toBe('error.validation');
      expect(fieldKeys(bad)).toEqual([
        ['name', 'entity.validation.required'],
        ['description', 'entity.validation.maxlength'],
        ['backgroundColor', 'entity.validation.required'],
        ['prefixKey', 'soaApp.label.shortcutKeyError'],
        ['suffixKey', 'soaApp.label.shortcutKeyError'],
      ]);
      const pattern = await send(
        'POST',
        `/api/node/${node.id}/classifier-types`,
        suite.admin,
        clf({ name: 'a*b' }),
      );
      expect(fieldKeys(pattern)).toEqual([['name', 'textRegexError']]);
    });

    it('keeps names unique per node ignoring case, on create and update', async () => {
      const node = await buildNode('CLF');
      const first = await send(
        'POST',
        `/api/node/${node.id}/classifier-types`,
        suite.admin,
        clf({ name: 'Receipt' }),
      );
      const clash = await send(
        'POST',
        `/api/node/${node.id}/classifier-types`,
        suite.admin,
        clf({ name: 'RECEIPT' }),
      );
      expect(fieldKeys(clash)).toEqual([['name', 'soaApp.node.nameUniquenessError']]);
      const elsewhere = await buildNode('CLF');
      expect(
        (
          await send(
            'POST',
            `/api/node/${elsewhere.id}/classifier-types`,
            suite.admin,
            clf({ name: 'Receipt' }),
          )
        ).status,
      ).toBe(201);
      const second = await send(
        'POST',
        `/api/node/${node.id}/classifier-types`,
        suite.admin,
        clf({ name: 'Other' }),
      );
      const rename = await send('PUT', '/api/classifier-types', suite.admin, {
        ...second.body,
        name: 'receipt',
      });
      expect(fieldKeys(rename)).toEqual([['name', 'soaApp.node.nameUniquenessError']]);
      const keepOwn = await send('PUT', '/api/classifier-types', suite.admin, {
        ...first.body,
        name: 'RECEIPT',
      });
      expect(keepOwn.status).toBe(200);
      expect(keepOwn.body.name).toBe('RECEIPT');
    });

    it('refuses shortcut keys that clash with another label of the node or start with a workspace key', async () => {
      const node = await buildNode('CLF');
      const first = await send(
        'POST',
        `/api/node/${node.id}/classifier-types`,
        suite.admin,
        clf({ name: 'Invoice', prefixKey: 'c', suffixKey: 'i' }),
      );
      expect(first.status).toBe(201);
      const post = (keys: Record<string, string>) =>
        send('POST', `/api/node/${node.id}/classifier-types`, suite.admin, clf(keys));
      const same = await post({ prefixKey: 'c', suffixKey: 'i' });
      expect(same.status).toBe(400);
      expect(fieldKeys(same)).toEqual([['suffixKey', 'soaApp.label.shortcutConflict']]);
      // `c` alone would be typed before `c i` could be: a clash too.
      expect(fieldKeys(await post({ suffixKey: 'c' }))).toEqual([
        ['suffixKey', 'soaApp.label.shortcutConflict'],
      ]);
      expect(fieldKeys(await post({ prefixKey: 'l', suffixKey: 'x' }))).toEqual([
        ['suffixKey', 'soaApp.label.shortcutReserved'],
      ]);
      expect((await post({ prefixKey: 'c', suffixKey: 'r' })).status).toBe(201);
      // the label keeps its own keys on an update; another node's labels do not count
      const own = await send('PUT', '/api/classifier-types', suite.admin, {
        ...first.body,
        name: 'Invoice 2',
      });
      expect(own.status).toBe(200);
      const elsewhere = await buildNode('CLF');
      expect(
        (
          await send(
            'POST',
            `/api/node/${elsewhere.id}/classifier-types`,
            suite.admin,
            clf({ prefixKey: 'c', suffixKey: 'i' }),
          )
        ).status,
      ).toBe(201);
    });

    it('updates (alert) and deletes (204) a classifier type', async () => {
      const node = await buildNode('CLF');
      const created = await send('POST', `/api/node/${node.id}/classifier-types`, suite.admin, clf());
      const updated = await send('PUT', '/api/classifier-types', processAdmin, {
        ...created.body,
        name: 'Renamed',
        backgroundColor: '#000000',
      });
      expect(updated.status).toBe(200);
      expect(updated.headers.get('x-soaapp-alert')).toBe('soaApp.classifierType.updated');
      expect(updated.body).toMatchObject({
        id: created.body.id,
        name: 'Renamed',
        backgroundColor: '#000000',
      });
      const deleted = await send('DELETE', `/api/classifier-types/${created.body.id}`, processAdmin);
      expect(deleted.status).toBe(204);
      expect((await get(`/api/classifier-types/${created.body.id}`, suite.admin)).status).toBe(404);
    });

    it('answers 404 for unknown ids and nodes', async () => {
      expect((await get(`/api/classifier-types/${MISSING_ID}`, suite.admin)).status).toBe(404);
      expect((await get(`/api/node/${MISSING_ID}/classifier-types`, suite.admin)).status).toBe(404);
      expect((await get(`/api/process/${MISSING_ID}/classifier-types`, suite.admin)).status).toBe(404);
      expect((await send('PUT', '/api/classifier-types', suite.admin, clf({ id: MISSING_ID }))).status).toBe(
        404,
      );
      expect((await send('DELETE', `/api/classifier-types/${MISSING_ID}`, suite.admin)).status).toBe(404);
      expect(
        (await send('POST', `/api/node/${MISSING_ID}/classifier-types`, suite.admin, clf())).status,
      ).toBe(404);
    });

    it('needs a token (401), READ to read and ADMIN on the process to change (403)', async () => {
      const node = await buildNode('CLF');
      const created = await send('POST', `/api/node/${node.id}/classifier-types`, suite.admin, clf());
      expect((await get(`/api/node/${node.id}/classifier-types`)).status).toBe(401);
      expect((await send('POST', `/api/node/${node.id}/classifier-types`, undefined, clf())).status).toBe(
        401,
      );
      const stranger = await signIn(await buildUser(knex));
      expect((await get(`/api/node/${node.id}/classifier-types`, stranger)).status).toBe(403);
      expect((await get(`/api/classifier-types/${created.body.id}`, stranger)).status).toBe(403);
      expect((await get(`/api/process/${process.id}/classifier-types`, stranger)).status).toBe(403);
      expect((await send('POST', `/api/node/${node.id}/classifier-types`, reader, clf())).status).toBe(403);
      expect((await send('PUT', '/api/classifier-types', reader, created.body)).status).toBe(403);
      expect((await send('DELETE', `/api/classifier-types/${created.body.id}`, reader)).status).toBe(403);
      // ADMIN on the node alone lets one read it, but changing labels needs ADMIN on the process.
      const nodeAdmin = await signIn(
        await buildUser(knex, { authorities: [{ componentId: node.id, type: 'NODE', mode: 'ADMIN' }] }),
      );
      expect((await get(`/api/node/${node.id}/classifier-types`, nodeAdmin)).status).toBe(200);
      expect((await send('POST', `/api/node/${node.id}/classifier-types`, nodeAdmin, clf())).status).toBe(
        403,
      );
    });
  });

  describe('NER tag types', () => {
    it('creates tag types on SPAN and LEXICON nodes with a path from the root', async () => {
      const node = await buildNode('LEXICON');
      const root = await createTag(node.id, { name: 'Party' });
      expect(root).toMatchObject({
        nodeId: node.id,
        parentId: null,
        name: 'Party',
        path: 'Party',
        mandatory: false,
        selectable: true,
        disabled: false,
        dataFormat: null,
        prefixKey: null,
        suffixKey: null,
      });
      const child = await createTag(node.id, {
        name: 'Buyer (main)',
        parentId: root.id,
        dataFormat: 'MONEY',
      });
      expect(child).toMatchObject({ parentId: root.id, path: 'Party -> Buyer (main)', dataFormat: 'MONEY' });
      const span = await buildNode('SPAN');
      expect((await send('POST', `/api/node/${span.id}/ner-tag-type`, suite.admin, tag())).status).toBe(201);
      const list = await get(`/api/node/${node.id}/ner-tag-type`, reader);
      expect(list.status).toBe(200);
      expect(list.body.map((t: NerTagTypeDTO) => [t.name, t.parentId, t.path])).toEqual([
        ['Party', null, 'Party'],
        ['Buyer (main)', root.id, 'Party -> Buyer (main)'],
      ]);
    });

    it('refuses tag types on other node types (400 app error)', async () => {
      const node = await buildNode('CLF');
      const res = await send('POST', `/api/node/${node.id}/ner-tag-type`, suite.admin, tag());
      expect(res.status).toBe(400);
      expect(res.body.message).toBe('error.dataValidationUnexpectedError');
    });

    it('reports each field rule with the spec’s keys', async () => {
      const node = await buildNode('SPAN');
      const other = await buildNode('SPAN');
      const foreign = await createTag(other.id);
      const res = await send('POST', `/api/node/${node.id}/ner-tag-type`, suite.admin, {
        name: '',
        backgroundColor: '',
        textColor: '',
        parentId: foreign.id,
        prefixKey: 'x',
        suffixKey: 'Y',
      });
      expect(fieldKeys(res)).toEqual([
        ['name', 'entity.validation.required'],
        ['backgroundColor', 'entity.validation.required'],
        ['textColor', 'entity.validation.required'],
        ['parentId', 'soaApp.nerTagType.parentInvalid'],
        ['suffixKey', 'soaApp.label.shortcutKeyError'],
      ]);
      const long = await send(
        'POST',
        `/api/node/${node.id}/ner-tag-type`,
        suite.admin,
        tag({ name: 'x'.repeat(101) }),
      );
      expect(fieldKeys(long)).toEqual([['name', 'entity.validation.maxlength']]);
      const chars = await send(
        'POST',
        `/api/node/${node.id}/ner-tag-type`,
        suite.admin,
        tag({ name: 'a#b' }),
      );
      expect(fieldKeys(chars)).toEqual([['name', 'soaApp.nerTagType.nameRegexError']]);
      const format = await send(
        'POST',
        `/api/node/${node.id}/ner-tag-type`,
        suite.admin,
        tag({ dataFormat: 'TIME' }),
      );
      expect(format.status).toBe(400);
      expect(fieldKeys(format)[0][0]).toBe('dataFormat');
      await createTag(node.id, { name: 'Amount' });
      const dup = await send(
        'POST',
        `/api/node/${node.id}/ner-tag-type`,
        suite.admin,
        tag({ name: 'AMOUNT' }),
      );
      expect(fieldKeys(dup)).toEqual([['name', 'soaApp.node.nameUniquenessError']]);
    });

    it('refuses to move a tag type under itself or a descendant', async () => {
      const node = await buildNode('SPAN');
      const a = await createTag(node.id, { name: 'A' });
      const b = await createTag(node.id, { name: 'B', parentId: a.id });
      const c = await createTag(node.id, { name: 'C', parentId: b.id });
      for (const parentId of [a.id, c.id]) {
        const res = await send('PUT', '/api/ner-tag-type', suite.admin, { ...a, parentId });
        expect(fieldKeys(res)).toEqual([['parentId', 'soaApp.nerTagType.parentCycle']]);
      }
    });

    it('rewrites the paths of the tag type and its descendants on rename and move', async () => {
      const node = await buildNode('SPAN');
      const a = await createTag(node.id, { name: 'A' });
      const b = await createTag(node.id, { name: 'B', parentId: a.id });
      const c = await createTag(node.id, { name: 'C', parentId: b.id });
      const d = await createTag(node.id, { name: 'D' });
      const renamed = await send('PUT', '/api/ner-tag-type', processAdmin, { ...b, name: 'Bee' });
      expect(renamed.status).toBe(200);
      expect(renamed.headers.get('x-soaapp-alert')).toBe('soaApp.nerTagType.updated');
      expect(renamed.body.path).toBe('A -> Bee');
      const paths = async () =>
        Object.fromEntries(
          (await get(`/api/node/${node.id}/ner-tag-type`, suite.admin)).body.map((t: NerTagTypeDTO) => [
            t.id,
            t.path,
          ]),
        );
      expect((await paths())[c.id]).toBe('A -> Bee -> C');
      await send('PUT', '/api/ner-tag-type', suite.admin, { ...renamed.body, parentId: d.id });
      expect(await paths()).toEqual({
        [a.id]: 'A',
        [b.id]: 'D -> Bee',
        [c.id]: 'D -> Bee -> C',
        [d.id]: 'D',
      });
      await send('PUT', '/api/ner-tag-type', suite.admin, { ...renamed.body, parentId: null });
      expect((await paths())[c.id]).toBe('Bee -> C');
    });

    it('deletes a tag type with its children (204, alert)', async () => {
      const node = await buildNode('SPAN');
      const a = await createTag(node.id, { name: 'A' });
      const b = await createTag(node.id, { name: 'B', parentId: a.id });
      const keep = await createTag(node.id, { name: 'Keep' });
      const res = await send('DELETE', `/api/ner-tag-type/${a.id}`, processAdmin);
      expect(res.status).toBe(204);
      expect(res.headers.get('x-soaapp-alert')).toBe('soaApp.nerTagType.deleted');
      const left = (await get(`/api/node/${node.id}/ner-tag-type`, suite.admin)).body.map(
        (t: NerTagTypeDTO) => t.id,
      );
      expect(left).toEqual([keep.id]);
      expect(left).not.toContain(b.id);
    });

    it('lists the roots of several nodes with nested children', async () => {
      const one = await buildNode('SPAN');
      const two = await buildNode('LEXICON');
      const a = await createTag(one.id, { name: 'A' });
      const b = await createTag(one.id, { name: 'B', parentId: a.id });
      const c = await createTag(one.id, { name: 'C', parentId: b.id });
      const x = await createTag(two.id, { name: 'X' });
      const res = await get(`/api/root-ner-tag-types?nodeIds=${one.id},${two.id}`, reader);
      expect(res.status).toBe(200);
      expect(res.body.map((t: NerTagTypeDTO) => t.id)).toEqual([a.id, x.id]);
      expect(res.body[0].children[0]).toMatchObject({ id: b.id, path: 'A -> B' });
      expect(res.body[0].children[0].children[0]).toMatchObject({ id: c.id, children: [] });
      expect(res.body[1].children).toEqual([]);
      expect((await get('/api/root-ner-tag-types?nodeIds=', suite.admin)).body).toEqual([]);
      expect((await get(`/api/root-ner-tag-types?nodeIds=${one.id},${MISSING_ID}`, suite.admin)).status).toBe(
        404,
      );
      expect((await get(`/api/root-ner-tag-types?nodeIds=abc`, suite.admin)).status).toBe(400);
    });

    it('answers 404 for unknown tag types', async () => {
      expect((await send('PUT', '/api/ner-tag-type', suite.admin, tag({ id: MISSING_ID }))).status).toBe(404);
      expect((await send('DELETE', `/api/ner-tag-type/${MISSING_ID}`, suite.admin)).status).toBe(404);
      expect((await get(`/api/node/${MISSING_ID}/ner-tag-type`, suite.admin)).status).toBe(404);
    });

    it('lets WRITE on the node add and rename tag types (name, colours, parent of a new one only)', async () => {
      const node = await buildNode('SPAN');
      const parent = await createTag(node.id, { prefixKey: 'q', suffixKey: 'w', mandatory: true });
      const writer = await signIn(
        await buildUser(knex, { authorities: [{ componentId: node.id, type: 'NODE', mode: 'WRITE' }] }),
      );
      const added = await send('POST', `/api/node/${node.id}/ner-tag-type`, writer, {
        ...tag({ name: 'Child', parentId: parent.id }),
        selectable: false,
        mandatory: true,
        prefixKey: 'a',
        suffixKey: 'b',
        dataFormat: 'DATE',
      });
      expect(added.status).toBe(201);
      expect(added.body).toMatchObject({
        name: 'Child',
        parentId: parent.id,
        backgroundColor: '#112233',
        selectable: true,
        mandatory: false,
        prefixKey: null,
        dataFormat: null,
      });
      const renamed = await send('PUT', '/api/ner-tag-type', writer, {
        ...parent,
        name: 'Renamed',
        backgroundColor: '#445566',
        textColor: '#000000',
        parentId: added.body.id,
        mandatory: false,
        prefixKey: null,
        suffixKey: null,
        disabled: true,
      });
      expect(renamed.status).toBe(200);
      expect(renamed.body).toMatchObject({
        id: parent.id,
        name: 'Renamed',
        backgroundColor: '#445566',
        textColor: '#000000',
        parentId: null,
        mandatory: true,
        prefixKey: 'q',
        suffixKey: 'w',
        disabled: false,
      });
      const list = (await get(`/api/node/${node.id}/ner-tag-type`, writer)).body as NerTagTypeDTO[];
      expect(list.find((x) => x.id === added.body.id)?.path).toBe('Renamed -> Child');
      // the names are checked as for an admin
      const taken = await send('POST', `/api/node/${node.id}/ner-tag-type`, writer, tag({ name: 'child' }));
      expect(taken.status).toBe(400);
      // deleting stays with the process admin
      expect((await send('DELETE', `/api/ner-tag-type/${added.body.id}`, writer)).status).toBe(403);
      // an admin of the process still sets everything
      const full = await send('PUT', '/api/ner-tag-type', processAdmin, {
        ...renamed.body,
        mandatory: false,
      });
      expect(full.body.mandatory).toBe(false);
    });

    it('refuses adding and renaming tag types to READ on the node and to WRITE on another process (403)', async () => {
      const node = await buildNode('SPAN');
      const t = await createTag(node.id);
      const nodeReader = await signIn(
        await buildUser(knex, { authorities: [{ componentId: node.id, type: 'NODE', mode: 'READ' }] }),
      );
      const other = await buildProcess(knex);
      const otherNode = await buildNode('SPAN', other.id);
      const otherWriter = await signIn(
        await buildUser(knex, {
          authorities: [
            { componentId: other.id, type: 'PROCESS', mode: 'WRITE' },
            { componentId: otherNode.id, type: 'NODE', mode: 'WRITE' },
          ],
        }),
      );
      for (const token of [nodeReader, reader, otherWriter]) {
        expect((await send('POST', `/api/node/${node.id}/ner-tag-type`, token, tag())).status).toBe(403);
        expect((await send('PUT', '/api/ner-tag-type', token, { ...t, name: unique('X') })).status).toBe(403);
      }
      // WRITE on the other process reaches its own node only
      expect((await send('POST', `/api/node/${otherNode.id}/ner-tag-type`, otherWriter, tag())).status).toBe(
        201,
      );
      const after = (await get(`/api/node/${node.id}/ner-tag-type`, suite.admin)).body as NerTagTypeDTO[];
      expect(after.map((x) => x.name)).toEqual([t.name]);
    });

    it('needs a token (401), READ to read, WRITE on the node to add or rename, ADMIN on the process to delete (403)', async () => {
      const node = await buildNode('SPAN');
      const t = await createTag(node.id);
      expect((await get(`/api/node/${node.id}/ner-tag-type`)).status).toBe(401);
      expect((await get(`/api/root-ner-tag-types?nodeIds=${node.id}`)).status).toBe(401);
      const stranger = await signIn(await buildUser(knex));
      expect((await get(`/api/node/${node.id}/ner-tag-type`, stranger)).status).toBe(403);
      expect((await get(`/api/root-ner-tag-types?nodeIds=${node.id}`, stranger)).status).toBe(403);
      expect((await send('POST', `/api/node/${node.id}/ner-tag-type`, reader, tag())).status).toBe(403);
      expect((await send('PUT', '/api/ner-tag-type', reader, t)).status).toBe(403);
      expect((await send('DELETE', `/api/ner-tag-type/${t.id}`, reader)).status).toBe(403);
      expect((await get(`/api/node/${node.id}/ner-tag-type/export`, stranger)).status).toBe(403);
      expect(
        (await send('POST', `/api/node/${node.id}/ner-tag-type/import`, reader, { data: [] })).status,
      ).toBe(403);
    });
  });

  describe('import and export', () => {
    const file = {
      data: [
        {
          nerTagType: { name: 'Party', backgroundColor: '#111111', textColor: '#ffffff', mandatory: true },
          matchingRules: [
            { expression: 'ACME', matchingType: 'EXACT', tolerance: null },
            { expression: 'Acme Corp', matchingType: 'FUZZY', tolerance: 2 },
          ],
          children: [
            {
              nerTagType: {
                name: 'Buyer',
                backgroundColor: '#222222',
                textColor: '#000000',
                prefixKey: 'b',
                suffixKey: 'y',
                dataFormat: 'MONEY',
              },
              matchingRules: [{ expression: '\\d+ PLN', matchingType: 'REGEX', tolerance: 3 }],
              children: [],
            },
          ],
        },
        { nerTagType: { name: 'Date', backgroundColor: '#333333', textColor: '#fff' } },
      ],
    };

    it('imports a tree with its rules and reports what it saved', async () => {
      const node = await buildNode('LEXICON');
      const res = await send(
        'POST',
        `/api/node/${node.id}/ner-tag-type/import?cacheBuster=1`,
        processAdmin,
        file,
      );
      expect(res.status).toBe(200);
      expect(res.body.savedTagTypes.map((t: NerTagTypeDTO) => t.path)).toEqual([
        'Party',
        'Party -> Buyer',
        'Date',
      ]);
      expect(
        res.body.savedRules.map((r: { expression: string; tolerance: number | null }) => [
          r.expression,
          r.tolerance,
        ]),
      ).toEqual([
        ['ACME', null],
        ['Acme Corp', 2],
        ['\\d+ PLN', null],
      ]);
      expect(res.body.duplicatedTagTypes).toEqual([]);
      expect(res.body.duplicatedRules).toEqual([]);
      const tagTypes = (await get(`/api/node/${node.id}/ner-tag-type`, suite.admin)).body as NerTagTypeDTO[];
      expect(tagTypes.find((t) => t.name === 'Buyer')).toMatchObject({
        prefixKey: 'b',
        suffixKey: 'y',
        dataFormat: 'MONEY',
        parentId: tagTypes.find((t) => t.name === 'Party')!.id,
      });
      expect(tagTypes.find((t) => t.name === 'Party')!.mandatory).toBe(true);
    });

    it('counts existing tag types and rules as duplicates and still imports the children under them', async () => {
      const node = await buildNode('LEXICON');
      const party = await createTag(node.id, { name: 'PARTY' });
      await knex('matching_rules').insert({
        ner_tag_type_id: party.id,
        expression: 'ACME',
        matching_type: 'EXACT',
      });
      const res = await send('POST', `/api/node/${node.id}/ner-tag-type/import`, suite.admin, file);
      expect(res.status).toBe(200);
      expect(res.body.duplicatedTagTypes.map((t: NerTagTypeDTO) => t.id)).toEqual([party.id]);
      expect(res.body.duplicatedRules.map((r: { expression: string }) => r.expression)).toEqual(['ACME']);
      expect(res.body.savedTagTypes.map((t: NerTagTypeDTO) => [t.path, t.parentId])).toEqual([
        ['PARTY -> Buyer', party.id],
        ['Date', null],
      ]);
      expect(res.body.savedRules).toHaveLength(2);

      const again = await send('POST', `/api/node/${node.id}/ner-tag-type/import`, suite.admin, file);
      expect(again.body.savedTagTypes).toEqual([]);
      expect(again.body.savedRules).toEqual([]);
      expect(again.body.duplicatedTagTypes).toHaveLength(3);
      expect(again.body.duplicatedRules).toHaveLength(3);
    });

    it('rejects a file nested 2,000 levels deep with a 400 naming the depth, and imports nothing', async () => {
      const node = await buildNode('SPAN');
      let entry: Record<string, unknown> = {
        nerTagType: { name: 'Leaf', backgroundColor: '#111111', textColor: '#ffffff' },
      };
      for (let i = 0; i < 2000; i++)
        entry = {
          nerTagType: { name: `L${i}`, backgroundColor: '#111111', textColor: '#ffffff' },
          children: [entry],
        };
      const res = await send('POST', `/api/node/${node.id}/ner-tag-type/import`, suite.admin, {
        data: [entry],
      });
      expect(res.status).toBe(400);
      expect(res.body.message).toBe('Validation Failed');
      expect(
        res.body.errors.map((e: { schema: unknown; argument: unknown }) => [e.schema, e.argument]),
      ).toEqual([['maxDepth', 10]]);
      expect(await knex('ner_tag_types').where('node_id', node.id)).toEqual([]);
    });

    it('rejects a file that breaks the schema with the list of errors and imports nothing', async () => {
      const node = await buildNode('SPAN');
      const res = await send('POST', `/api/node/${node.id}/ner-tag-type/import`, suite.admin, {
        data: [
          {
            nerTagType: { name: 'Fine', backgroundColor: '#111', textColor: '#222' },
            matchingRules: [{ expression: '[a-', matchingType: 'REGEX' }],
          },
          { nerTagType: { name: 'Bad*', backgroundColor: '#111' } },
        ],
      });
      expect(res.status).toBe(400);
      expect(res.body.message).toBe('Validation Failed');
      expect(res.body.errors).toEqual(
        expect.arrayContaining([
          {
            message: 'must match format "regex"',
            property: 'expression',
            path: '/data/0/matchingRules/0/expression',
            argument: { format: 'regex' },
            schema: { type: 'string', format: 'regex' },
          },
          expect.objectContaining({
            property: 'nerTagType',
            path: '/data/1/nerTagType',
            argument: { missingProperty: 'textColor' },
            schema: expect.objectContaining({ required: ['name', 'backgroundColor', 'textColor'] }),
          }),
          expect.objectContaining({ property: 'name', path: '/data/1/nerTagType/name' }),
        ]),
      );
      expect((await get(`/api/node/${node.id}/ner-tag-type`, suite.admin)).body).toEqual([]);
      const notAFile = await send('POST', `/api/node/${node.id}/ner-tag-type/import`, suite.admin, {
        labels: [],
      });
      expect(notAFile.body.errors).toEqual([
        expect.objectContaining({ property: 'instance', path: '', argument: { missingProperty: 'data' } }),
      ]);
    });

    it('exports the tree as an attachment that imports back into another node unchanged', async () => {
      const source = await buildNode('LEXICON');
      await send('POST', `/api/node/${source.id}/ner-tag-type/import`, suite.admin, file);
      const exported = await get(`/api/node/${source.id}/ner-tag-type/export`, reader);
      expect(exported.status).toBe(200);
      expect(exported.headers.get('content-disposition')).toBe(
        `attachment; filename="labels-node-${source.id}.json"`,
      );
      expect(exported.body.data.map((e: { nerTagType: { name: string } }) => e.nerTagType.name)).toEqual([
        'Party',
        'Date',
      ]);
      expect(exported.body.data[0].children[0].matchingRules).toEqual([
        { expression: '\\d+ PLN', matchingType: 'REGEX', tolerance: null },
      ]);
      const target = await buildNode('SPAN');
      const imported = await send(
        'POST',
        `/api/node/${target.id}/ner-tag-type/import`,
        suite.admin,
        exported.body,
      );
      expect(imported.status).toBe(200);
      expect(imported.body.savedTagTypes).toHaveLength(3);
      expect(imported.body.savedRules).toHaveLength(3);
      expect((await get(`/api/node/${target.id}/ner-tag-type/export`, suite.admin)).body).toEqual(
        exported.body,
      );
    });

    it('refuses an import into a node without tag types (400 app error)', async () => {
      const node = await buildNode('CLF');
      const res = await send('POST', `/api/node/${node.id}/ner-tag-type/import`, suite.admin, { data: [] });
      expect(res.status).toBe(400);
      expect(res.body.message).toBe('error.dataValidationUnexpectedError');
    });

    it('needs a token (401) and ADMIN on the process to import (403)', async () => {
      const node = await buildNode('SPAN');
      expect((await get(`/api/node/${node.id}/ner-tag-type/export`)).status).toBe(401);
      expect((await send('POST', `/api/node/${node.id}/ner-tag-type/import`, undefined, file)).status).toBe(
        401,
      );
      expect((await send('POST', `/api/node/${node.id}/ner-tag-type/import`, reader, file)).status).toBe(403);
      expect((await get(`/api/node/${MISSING_ID}/ner-tag-type/export`, suite.admin)).status).toBe(404);
    });
  });
});
