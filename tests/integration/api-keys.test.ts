/**
 * API keys (issue 15 section 3, domain/api-keys.ts): created with an expiration date, listed in pages of 15
 * in the spec's page shape, the token shown once and stored only as a hash; a key authenticates as its
 * owner with the owner's access (X-API-Key or Authorization: Bearer), stops at expiry, deletion and
 * deactivation, never appears in what the API logs, and acts on its owner's data only: nothing of the
 * account (issue 25: the e-mail, the password and its reset, the logout, keys, users), so a leaked key
 * cannot take the account over (the attack itself below, with a real SMTP peer).
 */
import crypto from 'node:crypto';
import { buildProcess, buildUser, fieldKeyMap, setupSuite, unique } from '../support/harness';
import { startSmtpSink, type SmtpSink } from '../support/smtp-sink';

const inDays = (days: number) => new Date(Date.now() + days * 86_400_000).toISOString().slice(0, 10);

describe('API keys', () => {
  const logged: string[] = [];
  const spies: jest.SpyInstance[] = [];
  let smtp: SmtpSink;
  const suite = setupSuite({
    async config() {
      smtp = await startSmtpSink();
      return { smtp: { host: '127.0.0.1', port: smtp.port, secure: false, from: 'workbench@localhost' } };
    },
  });
  const { knex, send, call } = suite;
  afterAll(() => smtp?.close());
  const newKey = async (sessionToken: string): Promise<string> =>
    (await send('POST', '/api/api-keys', sessionToken, { expirationDate: inDays(5) })).body.token;

  beforeAll(() => {
    for (const method of ['log', 'info', 'warn', 'error', 'debug'] as const) {
      const original = console[method];
      spies.push(
        jest.spyOn(console, method).mockImplementation((...args: unknown[]) => {
          logged.push(args.map((a) => (a instanceof Error ? a.stack : String(a))).join(' '));
          original(...args);
        }),
      );
    }
    for (const stream of [process.stdout, process.stderr]) {
      const write = stream.write.bind(stream);
      spies.push(
        jest.spyOn(stream, 'write').mockImplementation(((chunk: unknown, ...rest: unknown[]) => {
          logged.push(String(chunk));
          return (write as (...a: unknown[]) => boolean)(chunk, ...rest);
        }) as typeof stream.write),
      );
    }
  });
  afterAll(() => spies.forEach((s) => s.mockRestore()));

  it('creates a key shown once, stores only its hash, and authenticates as its owner with their access', async () => {
    const process1 = await buildProcess(knex, { name: unique('keys') });
    const process2 = await buildProcess(knex, { name: unique('other') });
    const owner = await buildUser(knex, {
      authorities: [{ componentId: process1.id, type: 'PROCESS', mode: 'READ' }],
    });
    const ownerToken = await suite.signIn(owner);

    const created = await send('POST', '/api/api-keys', ownerToken, { expirationDate: inDays(30) });
    expect(created.status).toBe(201);
    const token: string = created.body.token;
    expect(token).toMatch(/^wbk_[A-Za-z0-9_-]{43}$/);
    expect(created.body).toMatchObject({ id: expect.any(Number), prefix: token.slice(0, 12) });
    expect(created.headers.get('cache-control')).toBe('no-store');

    const audit = await knex('audits').where({ principal: owner.login, type: 'API_KEY_CREATED' }).first();
    expect(audit.data).toMatchObject({ id: created.body.id, prefix: token.slice(0, 12) });
    expect(JSON.stringify(audit.data)).not.toContain(token);

    const stored = await knex('api_keys').where('id', created.body.id).first();
    expect(stored.token_hash).toBe(crypto.createHash('sha256').update(token).digest('hex'));
    expect(JSON.stringify(stored)).not.toContain(token);

    const listed = await send('GET', '/api/api-keys', ownerToken);
    expect(listed.status).toBe(200);
    expect(listed.body.content).toHaveLength(1);
    expect(listed.body.content[0]).not.toHaveProperty('token');
    expect(listed.body.page).toEqual({ size: 15, totalElements: 1, totalPages: 1, number: 0 });

    // the owner's access: process1 readable, process2 not, admin routes refused
    const ways: Record<string, string>[] = [{ 'X-API-Key': token }, { Authorization: `Bearer ${token}` }];
    for (const headers of ways) {
      const processes = await call('/api/processes', { headers });
      expect(processes.status).toBe(200);
      const ids = processes.body.map((p: { id: number }) => p.id);
      expect(ids).toContain(process1.id);
      expect(ids).not.toContain(process2.id);
      expect((await call(`/api/processes/${process2.id}`, { headers })).status).toBe(403);
      expect((await call('/api/account', { headers })).body.login).toBe(owner.login);
    }
    expect((await knex('api_keys').where('id', created.body.id).first()).last_used_date).not.toBeNull();

    // a key can neither manage keys nor change the password
    const headers = { 'X-API-Key': token };
    expect((await call('/api/api-keys', { headers })).status).toBe(403);
    expect(
      (await call('/api/api-keys', { method: 'POST', headers, json: { expirationDate: inDays(3) } })).status,
    ).toBe(403);
    expect((await call(`/api/api-keys/${created.body.id}`, { method: 'DELETE', headers })).status).toBe(403);
    const change = await call('/api/account/change-password', {
      method: 'POST',
      headers,
      json: { currentPassword: owner.password, newPassword: 'another-secret-1' },
    });
    expect(change.status).toBe(403);

    // deleted: the next call is 401
    expect((await send('DELETE', `/api/api-keys/${created.body.id}`, ownerToken)).status).toBe(204);
    expect((await call('/api/processes', { headers })).status).toBe(401);
    expect(logged.join('\n')).not.toContain(token);
  });

  it('stops working at expiry and when the owner is deactivated; a malformed or unknown key is anonymous', async () => {
    const owner = await buildUser(knex);
    const ownerToken = await suite.signIn(owner);
    const a = await send('POST', '/api/api-keys', ownerToken, { expirationDate: inDays(2) });
    const b = await send('POST', '/api/api-keys', ownerToken, { expirationDate: inDays(2) });
    expect((await call('/api/account', { headers: { 'X-API-Key': a.body.token } })).status).toBe(200);

    await knex('api_keys')
      .where('id', a.body.id)
      .update({ expiration_date: new Date(Date.now() - 1000) });
    expect((await call('/api/account', { headers: { 'X-API-Key': a.body.token } })).status).toBe(401);

    expect((await call('/api/account', { headers: { 'X-API-Key': b.body.token } })).status).toBe(200);
    await knex('users').where('id', owner.id).update({ activated: false });
    expect((await call('/api/account', { headers: { 'X-API-Key': b.body.token } })).status).toBe(401);

    expect((await call('/api/account', { headers: { 'X-API-Key': 'wbk_short' } })).status).toBe(401);
    const unknown = `wbk_${crypto.randomBytes(32).toString('base64url')}`;
    expect((await call('/api/account', { headers: { 'X-API-Key': unknown } })).status).toBe(401);
  });

  it('validates the expiration date with field errors', async () => {
    const token = await suite.signIn(await buildUser(knex));
    const cases: [unknown, string][] = [
      [{}, 'entity.validation.required'],
      [{ expirationDate: '' }, 'entity.validation.required'],
      [{ expirationDate: 'tomorrow' }, 'apiKeys.validation.date'],
      [{ expirationDate: '2026-02-30' }, 'apiKeys.validation.date'],
      [{ expirationDate: '2001-01-01' }, 'apiKeys.validation.future'],
      [{ expirationDate: inDays(400) }, 'apiKeys.validation.tooFar'],
    ];
    for (const [json, key] of cases) {
      const res = await send('POST', '/api/api-keys', token, json);
      expect(res.status).toBe(400);
      expect(fieldKeyMap(res.body)).toEqual({ expirationDate: key });
    }
    expect((await send('GET', '/api/api-keys', token)).body.page.totalElements).toBe(0);
    expect((await send('POST', '/api/api-keys', undefined, { expirationDate: inDays(1) })).status).toBe(401);
  });

  it("pages a user's own keys, newest first, and never shows or deletes another user's", async () => {
    const token = await suite.signIn(await buildUser(knex));
    const other = await suite.signIn(await buildUser(knex));
    const ids: number[] = [];
    for (let i = 0; i < 17; i++)
      ids.push((await send('POST', '/api/api-keys', token, { expirationDate: inDays(10) })).body.id);
    const first = await send('GET', '/api/api-keys', token);
    expect(first.body.content.map((k: { id: number }) => k.id)).toEqual([...ids].reverse().slice(0, 15));
    expect(first.body.page).toEqual({ size: 15, totalElements: 17, totalPages: 2, number: 0 });
    expect(first.headers.get('x-total-count')).toBe('17');
    const second = await send('GET', '/api/api-keys?page=1', token);
    expect(second.body.content.map((k: { id: number }) => k.id)).toEqual([ids[1], ids[0]]);
    expect((await send('GET', '/api/api-keys?size=0', token)).status).toBe(400);

    expect((await send('GET', '/api/api-keys', other)).body.content).toEqual([]);
    expect((await send('DELETE', `/api/api-keys/${ids[0]}`, other)).status).toBe(404);
    expect((await send('DELETE', `/api/api-keys/${ids[0]}`, token)).status).toBe(204);
  });

  it("cannot take its owner's account over: no e-mail change, no reset, no logout (issue 25)", async () => {
    const owner = await buildUser(knex);
    const ownerToken = await suite.signIn(owner);
    const headers = { 'X-API-Key': await newKey(ownerToken) };
    const attacker = `${unique('attacker').toLowerCase()}@example.test`;

    // the e-mail change is refused to the key, even with the password
    for (const json of [
      { email: attacker, langKey: 'en' },
      { email: attacker, langKey: 'en', currentPassword: owner.password },
    ]) {
      const res = await call('/api/account', { method: 'POST', headers, json });
      expect(res.status).toBe(403);
    }
    expect((await knex('users').where({ id: owner.id }).first()).email).toBe(owner.email);

    // the reset: refused to the key; anonymously the attacker's address is unknown, the owner's gets the mail
    for (const text of [attacker, owner.email]) {
      const res = await call('/api/account/reset-password/init', { method: 'POST', headers, text });
      expect(res.status).toBe(403);
    }
    const reset = (text: string) => call('/api/account/reset-password/init', { method: 'POST', text });
    expect((await reset(attacker)).status).toBe(400);
    expect((await reset(owner.email)).status).toBe(200);
    expect((await smtp.mailTo(owner.email)).subject).toContain('password reset');
    expect(smtp.mailsTo(attacker)).toHaveLength(0);

    // no logout of every session
    expect((await call('/api/logout', { method: 'POST', headers })).status).toBe(403);
    expect((await call('/api/account', { token: ownerToken })).status).toBe(200);

    // the key still works on the owner's data, and the owner's password still signs in
    expect((await call('/api/processes', { headers })).status).toBe(200);
    const signIn = await call('/api/authenticate', {
      json: { username: owner.login, password: owner.password, rememberMe: false },
    });
    expect(signIn.status).toBe(200);
  });

  it("an administrator's key cannot create users nor change roles or authorities (issue 25)", async () => {
    const admin = await buildUser(knex, { roles: ['ROLE_ADMIN', 'ROLE_USER'] });
    const adminToken = await suite.signIn(admin);
    const headers = { 'X-API-Key': await newKey(adminToken) };
    const login = unique('minted').toLowerCase();
    const user = { login, email: `${login}@example.test`, password: 'secret123', roles: ['ROLE_ADMIN'] };
    const process1 = await buildProcess(knex);

    const refused: [string, string, unknown][] = [
      ['POST', '/api/users', user],
      ['PUT', '/api/users', { id: admin.id, login: admin.login, email: admin.email, activated: false }],
      ['POST', '/api/roles', { name: `ROLE_${unique('KEY').toUpperCase()}`, authorities: [] }],
      ['POST', '/api/authorities', { componentId: process1.id, type: 'PROCESS', mode: 'ADMIN' }],
      ['GET', '/api/users', undefined],
    ];
    for (const [method, path, json] of refused) {
      const res = await call(path, { method, headers, json });
      expect([method, path, res.status]).toEqual([method, path, 403]);
    }
    expect(await knex('users').where({ login }).first()).toBeUndefined();

    // the key does act on data: it reaches every process, as its owner does
    expect((await call(`/api/processes/${process1.id}`, { headers })).status).toBe(200);
    // the same call with the administrator's session creates the user: the key was refused, not the body
    expect((await send('POST', '/api/users', adminToken, user)).status).toBe(201);
  });
});
