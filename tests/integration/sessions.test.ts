/**
 * Sessions against a real API and PostgreSQL (issue 9, findings 2 and 5): tokens signed with the old source
 * constant are refused, tokens are revoked by a password change, POST /api/logout and revokeSessions(), and
 * an `access_token` query parameter is honoured only on the media routes of QUERY_TOKEN_ROUTES.
 */
import jwt from 'jsonwebtoken';
import { loadConfig } from '../../server/config';
import { revokeSessions } from '../../api/services/accounts';
import { MISSING_ID, buildUser, setupSuite } from '../support/harness';

/** The development secret that api/config.ts (now server/config.ts) used to fall back to. */
const OLD_CONSTANT = 'dev-only-secret-change-me-dev-only-secret-change-me-0123456789';

describe('revocable sessions', () => {
  const suite = setupSuite({
    // Trust no proxy (the default); two failures lock a pair, so the X-Forwarded-For test stays small.
    config: { trustProxy: 0, loginThrottle: { ...loadConfig(process.env).loginThrottle, maxFailures: 2 } },
  });
  const { knex, call, signIn } = suite;
  const account = (token: string) => call('/api/account', { token });

  describe('the JWT secret', () => {
    it('refuses an admin token signed with the old development constant', async () => {
      const admin = await knex('users').where({ login: 'admin' }).first();
      const forged = jwt.sign(
        { sub: 'admin', uid: admin.id, auth: 'ROLE_ADMIN,ROLE_USER', ver: admin.token_version },
        OLD_CONSTANT,
        { algorithm: 'HS512', expiresIn: 60 },
      );
      expect(suite.api.config.jwtSecret).not.toBe(OLD_CONSTANT);
      const res = await account(forged);
      expect(res.status).toBe(401);
      expect(res.body.message).toBe('error.http.401');
      expect((await call('/api/processes', { token: forged })).status).toBe(401);
      expect((await account(suite.admin)).status).toBe(200);
    });

    it('refuses a token of the right secret that carries no token version', async () => {
      const u = await buildUser(knex);
      const token = jwt.sign({ sub: u.login, uid: u.id, auth: 'ROLE_USER' }, suite.api.config.jwtSecret, {
        algorithm: 'HS512',
        expiresIn: 60,
      });
      expect((await account(token)).status).toBe(401);
    });
  });

  describe('revocation', () => {
    it('ends a token when its user changes the password; the changing session gets a new token', async () => {
      const u = await buildUser(knex);
      const other = await signIn(u);
      const own = await signIn(u);
      const res = await call('/api/account/change-password', {
        token: own,
        json: { currentPassword: u.password, newPassword: 'changed-pw-1' },
      });
      expect(res.status).toBe(200);
      const renewed = (res.headers.get('authorization') ?? '').replace(/^Bearer /, '');
      expect(renewed).not.toBe('');
      expect((await account(own)).status).toBe(401);
      expect((await account(other)).status).toBe(401);
      expect((await account(renewed)).status).toBe(200);
      // The renewed token keeps the lifetime of the one it replaces.
      const before = jwt.decode(own) as jwt.JwtPayload;
      expect((jwt.decode(renewed) as jwt.JwtPayload).exp).toBeLessThanOrEqual(before.exp! + 1);
      const fresh = await signIn({ ...u, password: 'changed-pw-1' });
      expect((await account(fresh)).status).toBe(200);
    });

    it('ends a token on POST /api/logout (204), and a later sign-in works', async () => {
      const u = await buildUser(knex);
      const token = await signIn(u);
      expect((await account(token)).status).toBe(200);
      const res = await call('/api/logout', { method: 'POST', token });
      expect(res.status).toBe(204);
      expect((await account(token)).status).toBe(401);
      expect((await call('/api/logout', { method: 'POST', token })).status).toBe(401);
      const again = await signIn(u);
      expect((await account(again)).status).toBe(200);
    });

    it('refuses POST /api/logout without a session', async () => {
      const res = await call('/api/logout', { method: 'POST' });
      expect(res.status).toBe(401);
      expect(res.body.message).toBe('error.http.401');
    });

    it('ends every token of a user on revokeSessions(), for administrators', async () => {
      const u = await buildUser(knex);
      const a = await signIn(u);
      const b = await signIn(u);
      const bystander = await buildUser(knex);
      const theirs = await signIn(bystander);
      expect(await revokeSessions(knex, u.id)).toBe(true);
      expect((await account(a)).status).toBe(401);
      expect((await account(b)).status).toBe(401);
      expect((await account(theirs)).status).toBe(200);
      expect((await account(await signIn(u))).status).toBe(200);
      expect(await revokeSessions(knex, MISSING_ID)).toBe(false);
    });
  });

  describe('access_token in the query', () => {
    const withQuery = (path: string, token: string) =>
      call(`${path}${path.includes('?') ? '&' : '?'}access_token=${encodeURIComponent(token)}`);

    it('is ignored on ordinary routes: the caller is anonymous', async () => {
      const token = suite.admin;
      for (const path of [
        '/api/account',
        '/api/processes',
        `/api/documents/${MISSING_ID}/images/length`,
        `/api/asr-documents/${MISSING_ID}/utterances`,
      ]) {
        const res = await withQuery(path, token);
        expect([path, res.status]).toEqual([path, 401]);
      }
      const logout = await call(`/api/logout?access_token=${token}`, { method: 'POST' });
      expect(logout.status).toBe(401);
      expect((await account(token)).status).toBe(200);
    });

    it('is accepted on the media routes a header cannot be sent to (audio, page images)', async () => {
      const token = suite.admin;
      for (const path of [
        `/api/asr-documents/${MISSING_ID}/audio`,
        `/api/documents/${MISSING_ID}/images/1`,
      ]) {
        // Authenticated: the document is looked up (404); anonymous: 401.
        expect([path, (await withQuery(path, token)).status]).toEqual([path, 404]);
        expect([path, (await call(path)).status]).toEqual([path, 401]);
      }
    });

    it('is refused on the media routes once the token was revoked', async () => {
      const u = await buildUser(knex);
      const token = await signIn(u);
      await revokeSessions(knex, u.id);
      expect((await withQuery(`/api/asr-documents/${MISSING_ID}/audio`, token)).status).toBe(401);
    });
  });

  describe('the client address without TRUST_PROXY', () => {
    it('ignores X-Forwarded-For: a caller cannot pick the address its failures count against', async () => {
      const u = await buildUser(knex);
      const attempt = (password: string, address: string) =>
        call('/api/authenticate', {
          json: { username: u.login, password, rememberMe: false },
          headers: { 'X-Forwarded-For': address },
        });
      expect((await attempt('wrong-1', '198.51.100.1')).status).toBe(401);
      expect((await attempt('wrong-2', '198.51.100.2')).status).toBe(401);
      // Both failures counted against the socket's address: that pair is locked whatever the header says.
      expect((await attempt(u.password, '198.51.100.3')).status).toBe(429);
    });
  });
});
