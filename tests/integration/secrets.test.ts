/**
 * LLM models (any signed-in user reads, ROLE_ADMIN manages) and process secrets (ADMIN on the process for
 * everything; values never returned). Other suites share the database: names are unique() and no test
 * assumes an empty table.
 */
import { isSealed, openValue } from '../../db/crypto';
import type { LlmModelDTO, SecretDTO } from '../../domain/integration-types';
import {
  buildProcess,
  buildUser,
  fieldKeys,
  MISSING_ID,
  setupSuite,
  unique,
  type Res,
} from '../support/harness';

describe('integrations: LLM models and secrets', () => {
  const suite = setupSuite();
  const { knex, send, signIn, userWith } = suite;
  let plainUser: string;

  beforeAll(async () => {
    plainUser = await signIn(await buildUser(knex));
  });

  describe('LLM models', () => {
    it('lists the seeded models with their modalities to any signed-in user, and nobody else', async () => {
      expect((await send('GET', '/api/llm-models', undefined)).status).toBe(401);
      const res = await send('GET', '/api/llm-models', plainUser);
      expect(res.status).toBe(200);
      const byName = new Map(res.body.map((m: LlmModelDTO) => [m.name, m]));
      expect(byName.get('gpt-4o-mini')).toMatchObject({ modalities: ['text', 'image'] });
      expect(byName.get('llama-3.1-8b-instruct')).toMatchObject({ modalities: [] });
    });

    it('lets a system admin create, rename and delete a model, with success alerts', async () => {
      const name = unique('model');
      const created = await send('POST', '/api/llm-models', suite.admin, { name, modalities: ['text'] });
      expect(created.status).toBe(201);
      expect(created.body).toEqual({ id: expect.any(Number), name, modalities: ['text'] });
      expect(created.headers.get('x-soaapp-alert')).toBe('soaApp.llmModel.created');

      const renamed = unique('renamed');
      const updated = await send('PUT', '/api/llm-models', suite.admin, {
        id: created.body.id,
        name: renamed,
        modalities: ['text', 'image'],
      });
      expect(updated.status).toBe(200);
      expect(updated.body).toEqual({ id: created.body.id, name: renamed, modalities: ['text', 'image'] });
      expect(updated.headers.get('x-soaapp-alert')).toBe('soaApp.llmModel.updated');
      // keeping its own name is no collision
      expect((await send('PUT', '/api/llm-models', suite.admin, { ...updated.body })).status).toBe(200);

      const deleted = await send('DELETE', `/api/llm-models/${created.body.id}`, suite.admin);
      expect(deleted.status).toBe(204);
      expect(deleted.headers.get('x-soaapp-alert')).toBe('soaApp.llmModel.deleted');
      expect((await send('GET', `/api/llm-models/${created.body.id}`, suite.admin)).status).toBe(404);
      expect((await send('DELETE', `/api/llm-models/${created.body.id}`, suite.admin)).status).toBe(404);
    });

    it('requires a unique name and a list of string modalities', async () => {
      const blank = await send('POST', '/api/llm-models', suite.admin, { name: ' ', modalities: [] });
      expect(blank.status).toBe(400);
      expect(blank.body.message).toBe('error.validation');
      expect(fieldKeys(blank)).toEqual([['name', 'entity.validation.required']]);

      const taken = await send('POST', '/api/llm-models', suite.admin, { name: 'GPT-4O', modalities: [''] });
      expect(fieldKeys(taken)).toEqual([
        ['name', 'soaApp.llmModel.nameNotUnique'],
        ['modalities', 'entity.validation.pattern'],
      ]);
      const long = await send('POST', '/api/llm-models', suite.admin, {
        name: 'm'.repeat(101),
        modalities: [],
      });
      expect(fieldKeys(long)).toEqual([['name', 'entity.validation.maxlength']]);
    });

    it('refuses changes to users without ROLE_ADMIN (403) and unknown ids (404)', async () => {
      const [seeded] = (await send('GET', '/api/llm-models', suite.admin)).body;
      expect(
        (await send('POST', '/api/llm-models', plainUser, { name: unique('m'), modalities: [] })).status,
      ).toBe(403);
      expect((await send('PUT', '/api/llm-models', plainUser, { ...seeded, name: unique('m') })).status).toBe(
        403,
      );
      expect((await send('DELETE', `/api/llm-models/${seeded.id}`, plainUser)).status).toBe(403);
      expect((await send('POST', '/api/llm-models', undefined, { name: 'x', modalities: [] })).status).toBe(
        401,
      );
      expect(
        (
          await send('PUT', '/api/llm-models', suite.admin, {
            id: MISSING_ID,
            name: unique('m'),
            modalities: [],
          })
        ).status,
      ).toBe(404);
    });
  });

  describe('secrets', () => {
    let proc: { id: number; name: string };
    let processAdmin: string;
    let writer: string;
    let reader: string;
    const VALUE = `sk-${unique('value')}-do-not-leak`;
    const responses: Res[] = [];
    const track = async (p: Promise<Res>) => {
      const res = await p;
      responses.push(res);
      return res;
    };

    beforeAll(async () => {
      proc = await buildProcess(knex);
      [processAdmin, writer, reader] = await Promise.all(
        (['ADMIN', 'WRITE', 'READ'] as const).map((mode) => userWith(proc.id, mode)),
      );
    });

    afterAll(() => {
      // No response of this block, body or header, ever carried a secret value.
      for (const res of responses) {
        expect(JSON.stringify(res.body)).not.toContain(VALUE);
        expect(JSON.stringify([...res.headers.entries()])).not.toContain(VALUE);
        expect(JSON.stringify(res.body)).not.toContain('enc:v1:'); // nor its ciphertext
      }
    });

    it('creates a secret for a process admin (active by default) without returning its value', async () => {
      const name = unique('OPENAI_KEY').slice(0, 30);
      const res = await track(
        send('POST', '/api/secrets', processAdmin, { name, value: VALUE, processId: proc.id }),
      );
      expect(res.status).toBe(201);
      expect(res.body).toEqual({ id: expect.any(Number), name, active: true, processId: proc.id });
      expect(res.headers.get('x-soaapp-alert')).toBe('soaApp.secret.created');
      const stored = await knex('secrets').where({ id: res.body.id }).first();
      // stored sealed (AES-256-GCM), never in clear
      expect(stored.value).not.toContain(VALUE);
      expect(isSealed(stored.value)).toBe(true);
      expect(openValue('secrets', 'value', stored.value)).toBe(VALUE);

      const list = await track(send('GET', `/api/secrets?processId=${proc.id}`, processAdmin));
      expect(list.status).toBe(200);
      expect(list.body).toContainEqual(res.body);
      for (const s of list.body as SecretDTO[])
        expect(Object.keys(s).sort()).toEqual(['active', 'id', 'name', 'processId']);
    });

    it('stores an inactive secret when asked', async () => {
      const res = await track(
        send('POST', '/api/secrets', suite.admin, {
          name: unique('off'),
          value: VALUE,
          active: false,
          processId: proc.id,
        }),
      );
      expect(res.status).toBe(201);
      expect(res.body.active).toBe(false);
    });

    it('toggles a secret with ?active= and deletes it', async () => {
      const created = await track(
        send('POST', '/api/secrets', processAdmin, {
          name: unique('toggle'),
          value: VALUE,
          processId: proc.id,
        }),
      );
      const off = await track(send('PUT', `/api/secrets/${created.body.id}?active=false`, processAdmin));
      expect(off.status).toBe(200);
      expect(off.body).toEqual({ ...created.body, active: false });
      expect(off.headers.get('x-soaapp-alert')).toBe('soaApp.secret.updated');
      const on = await track(send('PUT', `/api/secrets/${created.body.id}?active=true`, processAdmin));
      expect(on.body.active).toBe(true);
      expect(
        (await track(send('PUT', `/api/secrets/${created.body.id}?active=maybe`, processAdmin))).status,
      ).toBe(400);
      expect((await track(send('PUT', `/api/secrets/${created.body.id}`, processAdmin))).status).toBe(400);

      const del = await track(send('DELETE', `/api/secrets/${created.body.id}`, processAdmin));
      expect(del.status).toBe(204);
      expect(del.headers.get('x-soaapp-alert')).toBe('soaApp.secret.deleted');
      expect(await knex('secrets').where({ id: created.body.id }).first()).toBeUndefined();
      // A gone id answers like an id of another process (issue 9: no existence leak): 403 but to an admin.
      expect((await track(send('DELETE', `/api/secrets/${created.body.id}`, processAdmin))).status).toBe(403);
      expect(
        (await track(send('PUT', `/api/secrets/${created.body.id}?active=true`, processAdmin))).status,
      ).toBe(403);
    });

    it('requires a name of at most 50 characters, unique in the process, and a value', async () => {
      const empty = await track(
        send('POST', '/api/secrets', processAdmin, { name: '', value: '', processId: proc.id }),
      );
      expect(empty.status).toBe(400);
      expect(fieldKeys(empty)).toEqual([
        ['name', 'entity.validation.required'],
        ['value', 'entity.validation.required'],
      ]);
      const long = await track(
        send('POST', '/api/secrets', processAdmin, {
          name: 'n'.repeat(51),
          value: VALUE,
          processId: proc.id,
        }),
      );
      expect(fieldKeys(long)).toEqual([['name', 'entity.validation.maxlength']]);
      const fifty = await track(
        send('POST', '/api/secrets', processAdmin, {
          name: unique('n').padEnd(50, 'x'),
          value: VALUE,
          processId: proc.id,
        }),
      );
      expect(fifty.status).toBe(201);

      const name = unique('dup');
      await track(send('POST', '/api/secrets', processAdmin, { name, value: VALUE, processId: proc.id }));
      const dup = await track(
        send('POST', '/api/secrets', processAdmin, {
          name: ` ${name.toUpperCase()} `,
          value: VALUE,
          processId: proc.id,
        }),
      );
      expect(fieldKeys(dup)).toEqual([['name', 'soaApp.secret.nameNotUnique']]);
      // the same name in another process is fine
      const other = await buildProcess(knex);
      expect(
        (await track(send('POST', '/api/secrets', suite.admin, { name, value: VALUE, processId: other.id })))
          .status,
      ).toBe(201);

      const noProcess = await track(
        send('POST', '/api/secrets', processAdmin, { name: unique('x'), value: VALUE }),
      );
      expect(fieldKeys(noProcess)).toEqual([['processId', 'entity.validation.required']]);
    });

    it('lists names and active flags to readers of the process, never the values', async () => {
      const created = await track(
        send('POST', '/api/secrets', processAdmin, {
          name: unique('listed'),
          value: VALUE,
          processId: proc.id,
        }),
      );
      for (const token of [writer, reader]) {
        const res = await send('GET', `/api/secrets?processId=${proc.id}`, token);
        expect(res.status).toBe(200);
        const listed = (res.body as SecretDTO[]).find((s) => s.id === created.body.id);
        expect(listed).toMatchObject({ name: created.body.name, active: true });
        expect(JSON.stringify(res.body)).not.toContain(VALUE);
      }
    });

    it('needs ADMIN on the process for every change (WRITE and READ get 403) and READ to list', async () => {
      const created = await track(
        send('POST', '/api/secrets', processAdmin, {
          name: unique('guarded'),
          value: VALUE,
          processId: proc.id,
        }),
      );
      const stranger = await buildUser(knex);
      const strangerToken = await signIn(stranger);
      for (const token of [strangerToken, plainUser])
        expect((await track(send('GET', `/api/secrets?processId=${proc.id}`, token))).status).toBe(403);
      for (const token of [writer, reader, strangerToken, plainUser]) {
        expect(
          (
            await track(
              send('POST', '/api/secrets', token, { name: unique('x'), value: VALUE, processId: proc.id }),
            )
          ).status,
        ).toBe(403);
        expect((await track(send('PUT', `/api/secrets/${created.body.id}?active=false`, token))).status).toBe(
          403,
        );
        expect((await track(send('DELETE', `/api/secrets/${created.body.id}`, token))).status).toBe(403);
      }
      expect((await track(send('GET', `/api/secrets?processId=${proc.id}`, undefined))).status).toBe(401);
      expect((await knex('secrets').where({ id: created.body.id }).first()).active).toBe(true);
    });

    it('answers 404 for a missing process (admin) and 400 for a malformed one', async () => {
      expect((await track(send('GET', `/api/secrets?processId=${MISSING_ID}`, suite.admin))).status).toBe(
        404,
      );
      expect(
        (
          await track(
            send('POST', '/api/secrets', suite.admin, {
              name: unique('x'),
              value: VALUE,
              processId: MISSING_ID,
            }),
          )
        ).status,
      ).toBe(404);
      expect((await track(send('GET', '/api/secrets?processId=abc', suite.admin))).status).toBe(400);
      expect((await track(send('GET', '/api/secrets', suite.admin))).status).toBe(400);
    });
  });
});
