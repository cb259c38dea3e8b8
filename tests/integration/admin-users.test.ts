/**
 * User administration and audits (issue 15 sections 1 and 2) against a real API and PostgreSQL: users,
 * roles and authorities (api/routes/users.ts), the own-admin and last-admin rules, validation, sessions
 * ended by access changes, and the audit trail (`GET management/audits`, api/services/audits.ts).
 */
import crypto from 'node:crypto';
import { createUserAdmin } from '../../api/services/user-admin';
import { purgeExpiredAudits } from '../../api/services/audits';
import { loadAuthUser } from '../../api/auth';
import type { AdminUserDTO, AuthorityViewDTO, RoleDTO } from '../../domain/api-types';
import {
  buildProcess,
  buildUser,
  fieldKeyMap,
  insertNode,
  MISSING_ID,
  setupSuite,
  unique,
  type BuiltUser,
} from '../support/harness';

const ROUTES: [string, string][] = [
  ['GET', '/api/users'],
  ['GET', '/api/_search/users?filteredValue=adm'],
  ['GET', '/api/users/1'],
  ['POST', '/api/users'],
  ['PUT', '/api/users'],
  ['DELETE', `/api/users/${MISSING_ID}`],
  ['GET', '/api/authorities'],
  ['POST', '/api/authorities'],
  ['DELETE', `/api/authorities/${MISSING_ID}`],
  ['GET', '/api/roles'],
  ['POST', '/api/roles'],
  ['PUT', '/api/roles'],
  ['DELETE', `/api/roles/${MISSING_ID}`],
  ['GET', '/management/audits'],
];

const today = () => new Date().toISOString().slice(0, 10);

describe('user administration and audits API', () => {
  // Sign-ins in this suite come from addresses of their own (X-Forwarded-For behind one trusted proxy), so
  // that the failures it makes on purpose never add up with other suites' in the per-address throttling.
  const suite = setupSuite({ config: { trustProxy: 1 } });
  const { knex } = suite;
  const authenticate = (username: string, password: string) =>
    suite.call('/api/authenticate', {
      json: { username, password, rememberMe: false },
      headers: { 'X-Forwarded-For': `2001:db8:${crypto.randomBytes(2).toString('hex')}::1` },
    });
  /** An administrator of this suite (the seeded one is shared with the suites running beside this one). */
  let adminUser: BuiltUser;
  let admin: string;
  let processId: number;
  let nodeId: number;

  beforeAll(async () => {
    adminUser = await buildUser(knex, { roles: ['ROLE_ADMIN', 'ROLE_USER'] });
    admin = await suite.signIn(adminUser);
    processId = (await buildProcess(knex)).id;
    nodeId = (await insertNode(knex, processId, 'SPAN')).id;
  });

  const newUser = (extra: Record<string, unknown> = {}) => {
    const login = unique('adm').toLowerCase();
    return {
      login,
      firstName: 'Ada',
      lastName: 'Lovelace',
      email: `${login}@example.test`,
      activated: true,
      langKey: 'pl',
      roles: ['ROLE_USER'],
      authorities: [] as unknown[],
      password: 'secret123',
      ...extra,
    };
  };
  const create = async (extra: Record<string, unknown> = {}) => {
    const res = await suite.send<AdminUserDTO>('POST', '/api/users', admin, newUser(extra));
    if (res.status !== 201) throw new Error(`create: ${res.status} ${JSON.stringify(res.body)}`);
    return res.body;
  };
  const update = (user: AdminUserDTO, changes: Record<string, unknown>, token = admin) =>
    suite.send<AdminUserDTO>('PUT', '/api/users', token, { ...user, ...changes });
  const signInAs = (login: string, password = 'secret123') =>
    suite.signIn({ id: 0, login, password, email: '' });

  it('refuses every route to anonymous callers (401) and to ROLE_USER (403), before reading the body', async () => {
    const user = await suite.signIn(await buildUser(knex));
    for (const [method, path] of ROUTES) {
      const json = method === 'POST' || method === 'PUT' ? newUser() : undefined;
      expect([method, path, (await suite.send(method, path, undefined, json)).status]).toEqual([
        method,
        path,
        401,
      ]);
      expect([method, path, (await suite.send(method, path, user, json)).status]).toEqual([
        method,
        path,
        403,
      ]);
    }
    // a malformed body changes nothing: the role is checked first
    const res = await suite.call('/api/users', {
      method: 'POST',
      token: user,
      text: '{not json',
    });
    expect(res.status).toBe(403);
  });

  describe('users', () => {
    it('creates a user with roles and authorities on a process and a node, with who and when', async () => {
      const res = await suite.send<AdminUserDTO>(
        'POST',
        '/api/users',
        admin,
        newUser({
          login: unique('Mixed').replace('m', 'M'),
          authorities: [
            { componentId: processId, type: 'PROCESS', mode: 'READ' },
            { componentId: nodeId, type: 'NODE', mode: 'WRITE' },
          ],
        }),
      );
      expect(res.status).toBe(201);
      expect(res.headers.get('x-soaapp-alert')).toBe('userManagement.created');
      const u = res.body;
      expect(u.login).toBe(u.login.toLowerCase());
      expect(u).toMatchObject({ firstName: 'Ada', lastName: 'Lovelace', activated: true, langKey: 'pl' });
      expect(u.roles).toEqual(['ROLE_USER']);
      expect(u.authorities.map((a) => [a.type, a.componentId, a.mode])).toEqual(
        expect.arrayContaining([
          ['PROCESS', processId, 'READ'],
          ['NODE', nodeId, 'WRITE'],
        ]),
      );
      expect(u.authorities).toHaveLength(2);
      expect(u.createdBy).toBe(adminUser.login);
      expect(u.lastModifiedBy).toBe(adminUser.login);
      expect(Date.parse(u.createdDate!)).not.toBeNaN();
      expect((await suite.get(`/api/users/${u.id}`, admin)).body).toEqual(u);
      // the user signs in with the password the administrator set, and holds what was granted
      const token = await signInAs(u.login);
      expect((await suite.get(`/api/processes/${processId}`, token)).status).toBe(200);
      expect((await suite.get(`/api/nodes/${nodeId}`, token)).status).toBe(200);
      expect((await suite.send('DELETE', `/api/processes/${processId}`, token)).status).toBe(403);
    });

    it('creates a user without a password: the user chooses it through the mailed reset link', async () => {
      const body = newUser();
      delete (body as Partial<typeof body>).password;
      const res = await suite.send<AdminUserDTO>('POST', '/api/users', admin, body);
      expect(res.status).toBe(201);
      const { reset_key: key } = await knex('users').where({ id: res.body.id }).first('reset_key');
      expect(key).toMatch(/^[A-Za-z0-9]{20}$/);
      const finish = await suite.send('POST', '/api/account/reset-password/finish', undefined, {
        key,
        newPassword: 'chosen123',
      });
      expect(finish.status).toBe(200);
      expect(await signInAs(body.login, 'chosen123')).toBeTruthy();
    });

    it('lists users by page of 10 sorted by id, with the total; paged=false lists all; sorts by other fields', async () => {
      // at least two pages of 10
      const count = async () => Number((await knex('users').count({ c: '*' }))[0].c);
      for (let missing = 12 - (await count()); missing > 0; missing--) await create();
      const total = await count();
      const page = await suite.get<AdminUserDTO[]>('/api/users', admin);
      expect(page.status).toBe(200);
      expect(Number(page.headers.get('x-total-count'))).toBeGreaterThanOrEqual(total);
      expect(page.body).toHaveLength(10);
      const ids = page.body.map((u) => u.id);
      expect(ids).toEqual([...ids].sort((a, b) => a - b));
      const second = await suite.get<AdminUserDTO[]>('/api/users?page=1&size=10&sort=id,asc', admin);
      expect(second.body[0].id).toBeGreaterThan(ids[9]);
      const all = await suite.get<AdminUserDTO[]>('/api/users?paged=false', admin);
      expect(all.body.length).toBe(Number(all.headers.get('x-total-count')));
      expect(all.body.length).toBeGreaterThan(10);
      const byLogin = await suite.get<AdminUserDTO[]>('/api/users?size=50&sort=login,desc', admin);
      const logins = byLogin.body.map((u) => u.login);
      expect(logins).toEqual([...logins].sort().reverse());
      expect((await suite.get('/api/users?sort=password_hash,asc', admin)).status).toBe(400);
      expect((await suite.get('/api/users?size=0', admin)).status).toBe(400);
    });

    it('searches users by login, e-mail or name (case-insensitive), wildcards taken literally', async () => {
      const marker = unique('zq').toLowerCase();
      const a = await create({ lastName: `Mc${marker.toUpperCase()}` });
      const b = await create({ login: `${marker}_x`, email: `${marker}@example.test` });
      await create();
      const res = await suite.get<AdminUserDTO[]>(`/api/_search/users?filteredValue=${marker}`, admin);
      expect(res.status).toBe(200);
      expect(res.body.map((u) => u.id)).toEqual([a.id, b.id]);
      expect(res.headers.get('x-total-count')).toBe('2');
      const none = await suite.get<AdminUserDTO[]>('/api/_search/users?filteredValue=%25_%25', admin);
      expect([none.status, none.body]).toEqual([200, []]);
    });

    it('updates fields, roles and authorities; records who changed it', async () => {
      const u = await create();
      const res = await update(u, {
        firstName: 'Grace',
        langKey: 'en',
        roles: ['ROLE_USER', 'ROLE_SUPER_ANNOTATOR'],
        authorities: [{ componentId: -1, type: 'PROCESS', mode: 'WRITE' }],
      });
      expect(res.status).toBe(200);
      expect(res.headers.get('x-soaapp-alert')).toBe('userManagement.updated');
      expect(res.body).toMatchObject({ firstName: 'Grace', langKey: 'en', lastModifiedBy: adminUser.login });
      expect(res.body.roles).toEqual(['ROLE_SUPER_ANNOTATOR', 'ROLE_USER']);
      expect(res.body.authorities.map((a) => [a.type, a.componentId, a.mode])).toEqual([
        ['PROCESS', -1, 'WRITE'],
      ]);
      expect((await update({ ...u, id: MISSING_ID }, {})).status).toBe(404);
    });

    it('deletes a user (204), who then is gone and whose sessions end', async () => {
      const u = await create();
      const token = await signInAs(u.login);
      const res = await suite.send('DELETE', `/api/users/${u.id}`, admin);
      expect(res.status).toBe(204);
      expect(res.headers.get('x-soaapp-alert')).toBe('userManagement.deleted');
      expect((await suite.get(`/api/users/${u.id}`, admin)).status).toBe(404);
      expect((await suite.get('/api/account', token)).status).toBe(401);
      expect((await suite.send('DELETE', `/api/users/${u.id}`, admin)).status).toBe(404);
    });

    it('validates with the spec messages; login and e-mail are unique', async () => {
      const bad = await suite.send('POST', '/api/users', admin, {
        ...newUser(),
        login: 'bad login!',
        email: 'not-an-email',
        langKey: 'xx',
        firstName: 'x'.repeat(51),
        password: 'abc',
        roles: ['ROLE_USER', 'ROLE_NOPE'],
        authorities: [
          { componentId: processId, type: 'PROCESS', mode: 'OWNER' },
          { componentId: -1, type: 'NODE', mode: 'READ' },
        ],
      });
      expect(bad.status).toBe(400);
      expect(fieldKeyMap(bad.body)).toEqual({
        login: 'register.messages.validate.login.pattern',
        email: 'global.messages.validate.email.invalid',
        langKey: 'entity.validation.pattern',
        firstName: 'entity.validation.maxlength',
        password: 'global.messages.validate.newpassword.minlength',
        'roles[1]': 'userManagement.validation.roleUnknown',
        'authorities[0]': 'userManagement.validation.authority',
        'authorities[1]': 'userManagement.validation.authority',
      });
      const missing = await suite.send('POST', '/api/users', admin, {
        ...newUser(),
        authorities: [{ componentId: MISSING_ID, type: 'NODE', mode: 'READ' }],
      });
      expect(fieldKeyMap(missing.body)).toEqual({
        'authorities[0]': 'userManagement.validation.componentNotFound',
      });
      const empty = await suite.send('POST', '/api/users', admin, {});
      expect(fieldKeyMap(empty.body)).toMatchObject({
        login: 'register.messages.validate.login.required',
        email: 'global.messages.validate.email.required',
      });
      const withId = await suite.send('POST', '/api/users', admin, { ...newUser(), id: 5 });
      expect([withId.status, withId.body.errorKey]).toEqual([400, 'idexists']);

      const u = await create();
      const sameLogin = await suite.send(
        'POST',
        '/api/users',
        admin,
        newUser({ login: u.login.toUpperCase() }),
      );
      expect([sameLogin.status, sameLogin.headers.get('x-soaapp-error')]).toEqual([400, 'error.userexists']);
      const sameEmail = await suite.send(
        'POST',
        '/api/users',
        admin,
        newUser({ email: u.email.toUpperCase() }),
      );
      expect([sameEmail.status, sameEmail.headers.get('x-soaapp-error')]).toEqual([400, 'error.emailexists']);
      const other = await create();
      const taken = await update(other, { email: u.email });
      expect(taken.headers.get('x-soaapp-error')).toBe('error.emailexists');
    });
  });

  describe('administrators', () => {
    it('cannot remove their own admin role, deactivate or delete themselves', async () => {
      const me = (await suite.get<AdminUserDTO>(`/api/users/${adminUser.id}`, admin)).body;
      const drop = await update(me, { roles: ['ROLE_USER'] });
      expect([drop.status, drop.headers.get('x-soaapp-error')]).toEqual([400, 'error.ownadminrole']);
      const off = await update(me, { activated: false });
      expect([off.status, off.headers.get('x-soaapp-error')]).toEqual([400, 'error.ownaccount']);
      const del = await suite.send('DELETE', `/api/users/${adminUser.id}`, admin);
      expect([del.status, del.headers.get('x-soaapp-error')]).toEqual([400, 'error.ownaccount']);
      expect((await suite.get<AdminUserDTO>(`/api/users/${adminUser.id}`, admin)).body.roles).toContain(
        'ROLE_ADMIN',
      );
      // another administrator may take the role away
      const other = await create({ roles: ['ROLE_ADMIN', 'ROLE_USER'] });
      const demoted = await update(other, { roles: ['ROLE_USER'] });
      expect([demoted.status, demoted.body.roles]).toEqual([200, ['ROLE_USER']]);
    });

    it('refuse to delete, deactivate or demote the last activated administrator', async () => {
      // In a rolled-back transaction where this suite's administrator and one other are the only active
      // admins (other suites share the database: their admins must stay untouched outside it).
      const other = await create({ roles: ['ROLE_ADMIN', 'ROLE_USER'] });
      const rollback = new Error('rollback');
      const outcomes: string[] = [];
      await knex
        .transaction(async (trx) => {
          await trx('users')
            .whereIn(
              'id',
              trx('user_roles as ur')
                .join('roles as r', 'r.id', 'ur.role_id')
                .where('r.name', 'ROLE_ADMIN')
                .select('ur.user_id'),
            )
            .whereNotIn('id', [adminUser.id, other.id])
            .update({ activated: false });
          const service = createUserAdmin({
            knex: trx,
            config: suite.api.config,
            mailer: { send: async () => {} },
          });
          const actor = (await loadAuthUser(trx, { id: adminUser.id }))!;
          const attempt = (p: Promise<unknown>) =>
            p.then(
              () => 'done',
              (e: { body?: { message?: string } }) => e.body?.message ?? String(e),
            );
          const input = { ...other, authorities: [], roles: ['ROLE_ADMIN', 'ROLE_USER'] };
          outcomes.push(await attempt(service.updateUser(actor, other.id, { ...input, activated: false })));
          // now the suite's admin is the last one: nobody may remove it
          const otherActor = (await loadAuthUser(trx, { id: other.id }))!;
          const me = (await trx('users').where({ id: adminUser.id }).first())!;
          const mine = {
            login: me.login,
            email: me.email,
            firstName: null,
            lastName: null,
            langKey: 'en',
            authorities: [],
          };
          outcomes.push(await attempt(service.deleteUser(otherActor, adminUser.id)));
          outcomes.push(
            await attempt(
              service.updateUser(otherActor, adminUser.id, {
                ...mine,
                activated: false,
                roles: ['ROLE_ADMIN'],
              }),
            ),
          );
          outcomes.push(
            await attempt(
              service.updateUser(otherActor, adminUser.id, {
                ...mine,
                activated: true,
                roles: ['ROLE_USER'],
              }),
            ),
          );
          throw rollback;
        })
        .catch((e) => {
          if (e !== rollback) throw e;
        });
      expect(outcomes).toEqual(['done', 'error.lastadmin', 'error.lastadmin', 'error.lastadmin']);
    });
  });

  describe('sessions', () => {
    it("end when a user's roles, authorities or activation change, not when only names do", async () => {
      const u = await create();
      let token = await signInAs(u.login);
      expect((await update(u, { firstName: 'Renamed' })).status).toBe(200);
      expect((await suite.get('/api/account', token)).status).toBe(200);
      expect(
        (await update(u, { authorities: [{ componentId: processId, type: 'PROCESS', mode: 'READ' }] }))
          .status,
      ).toBe(200);
      expect((await suite.get('/api/account', token)).status).toBe(401);
      token = await signInAs(u.login);
      expect((await suite.get(`/api/processes/${processId}`, token)).status).toBe(200);
      const current = (await suite.get<AdminUserDTO>(`/api/users/${u.id}`, admin)).body;
      expect((await update(current, { activated: false })).status).toBe(200);
      expect((await suite.get('/api/account', token)).status).toBe(401);
      expect((await authenticate(u.login, 'secret123')).status).toBe(401);
    });
  });

  describe('roles and authorities', () => {
    it('lists roles with their authorities; built-in roles cannot be renamed or deleted', async () => {
      const res = await suite.get<RoleDTO[]>('/api/roles', admin);
      expect(res.status).toBe(200);
      const names = res.body.map((r) => r.name);
      expect(names).toEqual(expect.arrayContaining(['ROLE_ADMIN', 'ROLE_USER', 'ROLE_SUPER_ANNOTATOR']));
      const adminRole = res.body.find((r) => r.name === 'ROLE_ADMIN')!;
      expect(adminRole.builtIn).toBe(true);
      const del = await suite.send('DELETE', `/api/roles/${adminRole.id}`, admin);
      expect([del.status, del.headers.get('x-soaapp-error')]).toEqual([400, 'error.rolebuiltin']);
      const rename = await suite.send('PUT', '/api/roles', admin, { ...adminRole, name: 'ROLE_BOSS' });
      expect(rename.headers.get('x-soaapp-error')).toBe('error.rolebuiltin');
    });

    it('a custom role bundles authorities: its holders get them, and lose them (and their sessions) when it changes', async () => {
      const name = `ROLE_${unique('TEAM').toUpperCase()}`;
      const created = await suite.send<RoleDTO>('POST', '/api/roles', admin, {
        name,
        authorities: [{ componentId: processId, type: 'PROCESS', mode: 'READ' }],
      });
      expect(created.status).toBe(201);
      expect(created.body).toMatchObject({ name, builtIn: false });
      const dup = await suite.send('POST', '/api/roles', admin, { name, authorities: [] });
      expect(dup.headers.get('x-soaapp-error')).toBe('error.roleexists');
      const badName = await suite.send('POST', '/api/roles', admin, { name: 'team leads', authorities: [] });
      expect(fieldKeyMap(badName.body)).toEqual({ name: 'userManagement.validation.roleName' });

      const u = await create({ roles: ['ROLE_USER', name] });
      let token = await signInAs(u.login);
      expect((await suite.get(`/api/processes/${processId}`, token)).status).toBe(200);
      const updated = await suite.send<RoleDTO>('PUT', '/api/roles', admin, {
        ...created.body,
        authorities: [],
      });
      expect([updated.status, updated.body.authorities]).toEqual([200, []]);
      expect((await suite.get('/api/account', token)).status).toBe(401);
      token = await signInAs(u.login);
      expect((await suite.get(`/api/processes/${processId}`, token)).status).toBe(403);
      expect((await suite.send('DELETE', `/api/roles/${created.body.id}`, admin)).status).toBe(204);
      expect((await suite.get('/api/account', token)).status).toBe(401);
      expect((await suite.get<AdminUserDTO>(`/api/users/${u.id}`, admin)).body.roles).toEqual(['ROLE_USER']);
    });

    it('lists authorities with what they name; creates one once; deleting one takes it from its holders', async () => {
      const node = await insertNode(knex, processId, 'SPAN', unique('Named'));
      const first = await suite.send('POST', '/api/authorities', admin, {
        componentId: node.id,
        type: 'NODE',
        mode: 'ADMIN',
      });
      expect(first.status).toBe(201);
      const again = await suite.send('POST', '/api/authorities', admin, {
        componentId: node.id,
        type: 'NODE',
        mode: 'ADMIN',
      });
      expect([again.status, again.body.id]).toEqual([200, first.body.id]);
      const bad = await suite.send('POST', '/api/authorities', admin, {
        componentId: MISSING_ID,
        type: 'PROCESS',
        mode: 'READ',
      });
      expect(bad.status).toBe(400);
      const list = await suite.get<AuthorityViewDTO[]>('/api/authorities', admin);
      expect(list.body.find((a) => a.id === first.body.id)).toMatchObject({
        componentName: node.name,
        processId,
        type: 'NODE',
        mode: 'ADMIN',
      });
      const u = await create({ authorities: [{ id: first.body.id }] });
      expect(u.authorities.map((a) => a.id)).toEqual([first.body.id]);
      const token = await signInAs(u.login);
      expect((await suite.send('DELETE', `/api/authorities/${first.body.id}`, admin)).status).toBe(204);
      expect((await suite.get('/api/account', token)).status).toBe(401);
      expect((await suite.get<AdminUserDTO>(`/api/users/${u.id}`, admin)).body.authorities).toEqual([]);
      expect((await suite.send('DELETE', `/api/authorities/${first.body.id}`, admin)).status).toBe(404);
    });
  });

  describe('audits', () => {
    type Audit = {
      id: number;
      principal: string;
      type: string;
      timestamp: string;
      data: Record<string, unknown>;
    };
    const auditsOf = async (principal: string, query = `fromDate=${today()}&toDate=${today()}`) => {
      const res = await suite.get<Audit[]>(`/management/audits?${query}&size=1000&sort=id,asc`, admin);
      expect(res.status).toBe(200);
      return res.body.filter((a) => a.principal === principal);
    };

    it('records sign-in failures and successes, password changes, access changes and deletions', async () => {
      const u = await create();
      const failed = await authenticate(u.login, 'wrong');
      expect(failed.status).toBe(401);
      const token = await signInAs(u.login);
      expect(
        (
          await suite.send('POST', '/api/account/change-password', token, {
            currentPassword: 'secret123',
            newPassword: 'secret456',
          })
        ).status,
      ).toBe(200);
      expect((await update(u, { roles: ['ROLE_USER', 'ROLE_SUPER_ANNOTATOR'] })).status).toBe(200);
      expect((await suite.send('DELETE', `/api/users/${u.id}`, admin)).status).toBe(204);

      const own = await auditsOf(u.login);
      expect(own.map((a) => a.type)).toEqual([
        'AUTHENTICATION_FAILURE',
        'AUTHENTICATION_SUCCESS',
        'PASSWORD_CHANGED',
      ]);
      expect(own[0].data).toMatchObject({ remoteAddress: expect.any(String) });
      const byAdmin = (await auditsOf(adminUser.login)).filter((a) => a.data.login === u.login);
      expect(byAdmin.map((a) => a.type)).toEqual(['USER_CREATED', 'USER_ACCESS_CHANGED', 'USER_DELETED']);
      expect(byAdmin[1].data).toMatchObject({
        before: { roles: ['ROLE_USER'] },
        after: { roles: ['ROLE_SUPER_ANNOTATOR', 'ROLE_USER'] },
      });
    });

    it('lists by inclusive date range, newest first by default, in pages with x-total-count', async () => {
      const u = await create();
      for (let i = 0; i < 3; i++) expect((await authenticate(u.login, `wrong${i}`)).status).toBe(401);
      expect(await auditsOf(u.login)).toHaveLength(3);
      expect(await auditsOf(u.login, 'fromDate=2001-01-01&toDate=2001-12-31')).toEqual([]);
      const yesterday = new Date(Date.now() - 86_400_000).toISOString().slice(0, 10);
      expect(await auditsOf(u.login, `fromDate=${yesterday}`)).toHaveLength(3);
      expect(await auditsOf(u.login, `toDate=${yesterday}`)).toEqual([]);

      // newest first by default; pages by id ascending are disjoint and in order (other suites write too)
      const q = `fromDate=${today()}&toDate=${today()}`;
      const newest = await suite.get<Audit[]>(`/management/audits?${q}&page=0&size=2`, admin);
      expect(newest.body).toHaveLength(2);
      expect(Date.parse(newest.body[0].timestamp)).toBeGreaterThanOrEqual(
        Date.parse(newest.body[1].timestamp),
      );
      expect(Number(newest.headers.get('x-total-count'))).toBeGreaterThanOrEqual(3);
      const first = await suite.get<Audit[]>(`/management/audits?${q}&page=0&size=2&sort=id,asc`, admin);
      const second = await suite.get<Audit[]>(`/management/audits?${q}&page=1&size=2&sort=id,asc`, admin);
      const ids = [...first.body, ...second.body].map((a) => a.id);
      expect(ids).toHaveLength(4);
      expect(ids).toEqual([...ids].sort((a, b) => a - b));
      expect(new Set(ids).size).toBe(4);
      expect((await suite.get('/management/audits?fromDate=yesterday', admin)).status).toBe(400);
      expect((await suite.get('/management/audits?sort=data,asc', admin)).status).toBe(400);
    });

    it('purges the events older than the retention', async () => {
      const principal = unique('retention');
      await knex('audits').insert([
        { principal, type: 'OLD', date: knex.raw(`now() - interval '40 days'`) },
        { principal, type: 'RECENT', date: knex.raw(`now() - interval '10 days'`) },
      ]);
      expect(await purgeExpiredAudits(knex, 30)).toBeGreaterThanOrEqual(1);
      expect(await knex('audits').where({ principal }).pluck('type')).toEqual(['RECENT']);
    });
  });
});
