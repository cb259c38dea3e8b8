/**
 * Process tags API: list order, create / edit / delete with the split between user tags (global WRITE)
 * and predefined system tags (ROLE_ADMIN), the name and colour rules, and deletion from every process.
 * Other suites share the database: names are unique() and predefined tags made here are deleted again.
 */
import type { ProcessTagDTO } from '../../domain/api-types';
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

describe('process tags API', () => {
  const suite = setupSuite();
  const { knex, send, signIn } = suite;
  let writer: string;
  let plain: string;
  let production: { id: number };

  const createTag = (token: string | undefined, json: Record<string, unknown>) =>
    send('POST', '/api/process-tags', token, { color: '#AABBCC', predefined: false, ...json });
  const updateTag = (token: string | undefined, json: Record<string, unknown>) =>
    send('PUT', '/api/process-tags', token, json);
  const deleteTag = (token: string | undefined, id: number) =>
    send('DELETE', `/api/process-tags/${id}`, token);

  beforeAll(async () => {
    writer = await signIn(await buildUser(knex, { authorities: [GLOBAL_WRITE] }));
    plain = await signIn(
      await buildUser(knex, { authorities: [{ componentId: -1, type: 'PROCESS', mode: 'READ' }] }),
    );
    production = await knex('process_tags').where({ predefined: true }).orderBy('id').first();
  });

  describe('GET /api/process-tags', () => {
    it('lists predefined tags first, then by name, to any signed-in user', async () => {
      const prefix = unique('order');
      const b = await buildTag(knex, { name: `${prefix}-B` });
      const a = await buildTag(knex, { name: `${prefix}-a` });
      const res = await send('GET', '/api/process-tags', plain);
      expect(res.status).toBe(200);
      const flags = res.body.map((t: ProcessTagDTO) => t.predefined);
      expect(flags).toEqual([...flags].sort((x: boolean, y: boolean) => Number(y) - Number(x)));
      expect(res.body.find((t: ProcessTagDTO) => t.id === production.id)).toMatchObject({ predefined: true });
      const mine = res.body.filter((t: ProcessTagDTO) => t.name.startsWith(prefix));
      expect(mine).toEqual([
        { id: a.id, name: a.name, color: '#123456', predefined: false },
        { id: b.id, name: b.name, color: '#123456', predefined: false },
      ]);
    });

    it('rejects a caller without a token (401)', async () => {
      expect((await send('GET', '/api/process-tags', undefined)).status).toBe(401);
    });
  });

  describe('POST /api/process-tags', () => {
    it('creates a user tag for a user with the global WRITE permission (201 and a success alert)', async () => {
      const name = unique('Invoices');
      const res = await createTag(writer, { name, color: '#12ab34' });
      expect(res.status).toBe(201);
      expect(res.body).toEqual({ id: expect.any(Number), name, color: '#12ab34', predefined: false });
      expect(res.headers.get('x-soaapp-alert')).toBe('soaApp.processTag.created');
      expect(decodeURIComponent(res.headers.get('x-soaapp-params') ?? '')).toBe(name);
    });

    it('refuses a user tag to a user without the global WRITE permission (403)', async () => {
      const name = unique('NoWrite');
      expect((await createTag(plain, { name })).status).toBe(403);
      expect(await knex('process_tags').where({ name })).toEqual([]);
    });

    it('creates a predefined tag only for an admin (403 for others)', async () => {
      const name = unique('System');
      const refused = await createTag(writer, { name, predefined: true });
      expect(refused.status).toBe(403);
      const created = await createTag(suite.admin, { name, predefined: true });
      expect(created.status).toBe(201);
      expect(created.body.predefined).toBe(true);
      expect((await deleteTag(suite.admin, created.body.id)).status).toBe(204);
    });

    it('rejects a caller without a token (401)', async () => {
      expect((await createTag(undefined, { name: unique('Anon') })).status).toBe(401);
    });

    it('requires a name of at most 50 characters', async () => {
      for (const name of [undefined, '', '  ']) {
        const res = await createTag(writer, { name });
        expect(res.status).toBe(400);
        expect(fieldKeys(res)).toEqual([['name', 'entity.validation.required']]);
      }
      const tooLong = await createTag(writer, { name: 't'.repeat(51) });
      expect(fieldKeys(tooLong)).toEqual([['name', 'entity.validation.maxlength']]);
      expect((await createTag(writer, { name: unique('x').padEnd(50, 'x') })).status).toBe(201);
    });

    it('rejects a tag name that is already taken, ignoring case', async () => {
      const existing = await buildTag(knex);
      const res = await createTag(writer, { name: ` ${existing.name.toUpperCase()}` });
      expect(res.status).toBe(400);
      expect(res.body.fieldErrors).toEqual([
        {
          objectName: 'processTag',
          field: 'name',
          message: 'NotUnique',
          key: 'soaApp.processTag.createEditModal.body.error.nameNotUnique',
        },
      ]);
    });

    it('reports a name taken by a concurrent request with the same field error', async () => {
      const name = unique('TagRace');
      const results = await Promise.all([0, 1, 2].map(() => createTag(writer, { name })));
      expect(results.map((r) => r.status).sort()).toEqual([201, 400, 400]);
      for (const r of results.filter((x) => x.status === 400)) {
        expect(fieldKeys(r)).toEqual([
          ['name', 'soaApp.processTag.createEditModal.body.error.nameNotUnique'],
        ]);
      }
    });

    it('requires a #RRGGBB colour', async () => {
      for (const color of [undefined, 'red', '#abc', '#12345G', '123456']) {
        const res = await createTag(writer, { name: unique('Colour'), color });
        expect(res.status).toBe(400);
        expect(fieldKeys(res)).toEqual([['color', 'soaApp.processTag.colorInvalid']]);
      }
    });
  });

  describe('PUT /api/process-tags', () => {
    it('renames and recolours a user tag (200 and a success alert)', async () => {
      const tag = await buildTag(knex);
      const name = unique('Renamed');
      const res = await updateTag(writer, { id: tag.id, name, color: '#000000' });
      expect(res.status).toBe(200);
      expect(res.body).toEqual({ id: tag.id, name, color: '#000000', predefined: false });
      expect(res.headers.get('x-soaapp-alert')).toBe('soaApp.processTag.updated');
    });

    it('accepts the tag keeping its own name in another case', async () => {
      const tag = await buildTag(knex);
      const res = await updateTag(writer, { id: tag.id, name: tag.name.toUpperCase(), color: tag.color });
      expect(res.status).toBe(200);
      expect(res.body.name).toBe(tag.name.toUpperCase());
    });

    it("rejects another tag's name and an invalid colour", async () => {
      const [tag, other] = [await buildTag(knex), await buildTag(knex)];
      const res = await updateTag(writer, { id: tag.id, name: other.name.toUpperCase(), color: 'blue' });
      expect(res.status).toBe(400);
      expect(fieldKeys(res)).toEqual([
        ['name', 'soaApp.processTag.createEditModal.body.error.nameNotUnique'],
        ['color', 'soaApp.processTag.colorInvalid'],
      ]);
      const tooLong = await updateTag(writer, { id: tag.id, name: 'y'.repeat(51), color: tag.color });
      expect(fieldKeys(tooLong)).toEqual([['name', 'entity.validation.maxlength']]);
    });

    it('lets only an admin edit a predefined tag, and never changes predefined', async () => {
      const system = await buildTag(knex, { predefined: true });
      try {
        const name = unique('SystemRenamed');
        expect((await updateTag(writer, { id: system.id, name, color: '#111111' })).status).toBe(403);
        const res = await updateTag(suite.admin, {
          id: system.id,
          name,
          color: '#111111',
          predefined: false,
        });
        expect(res.status).toBe(200);
        expect(res.body).toEqual({ id: system.id, name, color: '#111111', predefined: true });

        const userTag = await buildTag(knex);
        const promoted = await updateTag(suite.admin, {
          id: userTag.id,
          name: userTag.name,
          color: '#222222',
          predefined: true,
        });
        expect(promoted.body.predefined).toBe(false);
      } finally {
        await knex('process_tags').where({ id: system.id }).del();
      }
    });

    it('refuses a user without the global WRITE permission (403), 404 for a missing tag, 401 without a token', async () => {
      const tag = await buildTag(knex);
      const body = { id: tag.id, name: unique('Nope'), color: '#333333' };
      expect((await updateTag(plain, body)).status).toBe(403);
      expect((await updateTag(suite.admin, { ...body, id: MISSING_ID })).status).toBe(404);
      expect((await updateTag(undefined, body)).status).toBe(401);
      expect((await knex('process_tags').where({ id: tag.id }).first()).name).toBe(tag.name);
    });

    it('requires the id', async () => {
      const res = await updateTag(writer, { name: unique('NoId'), color: '#333333' });
      expect(res.status).toBe(400);
      expect(fieldKeys(res)).toEqual([['id', 'entity.validation.required']]);
    });
  });

  describe('DELETE /api/process-tags/:id', () => {
    it('removes a user tag from every process (204 and a success alert)', async () => {
      const tag = await buildTag(knex);
      const first = await buildProcess(knex, { tagIds: [production.id, tag.id] });
      const second = await buildProcess(knex, { tagIds: [production.id, tag.id] });
      const res = await deleteTag(writer, tag.id);
      expect(res.status).toBe(204);
      expect(res.headers.get('x-soaapp-alert')).toBe('soaApp.processTag.deleted');
      for (const p of [first, second]) {
        const process = await send('GET', `/api/processes/${p.id}`, suite.admin);
        expect(process.body.processTags.map((t: ProcessTagDTO) => t.id)).toEqual([production.id]);
      }
      const list = await send('GET', '/api/process-tags', writer);
      expect(list.body.map((t: ProcessTagDTO) => t.id)).not.toContain(tag.id);
    });

    it('refuses to delete the only predefined tag of a process', async () => {
      const system = await buildTag(knex, { predefined: true });
      const process = await buildProcess(knex, { tagIds: [system.id] });
      try {
        const res = await deleteTag(suite.admin, system.id);
        expect(res.status).toBe(400);
        expect(res.headers.get('x-soaapp-error')).toBe('soaApp.processTag.inUseAsOnlySystemTag');
        expect(res.body.message).toBe('soaApp.processTag.inUseAsOnlySystemTag');
        expect(
          await knex('process_process_tags').where({ process_id: process.id }).pluck('process_tag_id'),
        ).toEqual([system.id]);
      } finally {
        await knex('processes').where({ id: process.id }).del();
        await knex('process_tags').where({ id: system.id }).del();
      }
    });

    it('lets only an admin delete an unused predefined tag', async () => {
      const system = await buildTag(knex, { predefined: true });
      try {
        expect((await deleteTag(writer, system.id)).status).toBe(403);
        expect((await deleteTag(suite.admin, system.id)).status).toBe(204);
        expect(await knex('process_tags').where({ id: system.id })).toEqual([]);
      } finally {
        await knex('process_tags').where({ id: system.id }).del();
      }
    });

    it('refuses a user without the global WRITE permission (403), 404 for a missing tag, 401 without a token', async () => {
      const tag = await buildTag(knex);
      expect((await deleteTag(plain, tag.id)).status).toBe(403);
      expect((await deleteTag(suite.admin, MISSING_ID)).status).toBe(404);
      expect((await deleteTag(undefined, tag.id)).status).toBe(401);
      expect(await knex('process_tags').where({ id: tag.id })).toHaveLength(1);
    });
  });
});
