/**
 * Sign-in, session and own-account calls against a real API and PostgreSQL: POST /api/authenticate (tokens,
 * remember-me, throttling), GET and POST /api/account, POST /api/account/change-password.
 * Registration, activation and password reset (which need an SMTP peer) are in account-registration.test.ts.
 */
import crypto from 'node:crypto';
import jwt from 'jsonwebtoken';
import type { LoginThrottleConfig } from '../../server/config';
import { addressKey } from '../../api/services/login-throttle';
import { buildUser, fieldKeyMap, setupSuite, unique } from '../support/harness';

const THROTTLE: LoginThrottleConfig = {
  maxFailures: 3,
  lockSeconds: 60,
  addressMaxFailures: 8,
  addressWindowSeconds: 600,
  accountMaxFailures: 50,
  accountWindowSeconds: 3600,
  knownAddressDays: 30,
};

/**
 * A client address of its own (its own /64) for each test: the suite trusts one proxy, so the last entry of
 * X-Forwarded-For is the client's address.
 */
const randomAddress = () =>
  `2001:db8:${crypto.randomBytes(2).toString('hex')}:${crypto.randomBytes(2).toString('hex')}::1`;

const b64url = (o: object) => Buffer.from(JSON.stringify(o)).toString('base64url');

describe('account and session API', () => {
  const suite = setupSuite({ config: { loginThrottle: THROTTLE, trustProxy: 1 } });
  const { knex, call, signIn } = suite;
  let address = randomAddress();
  beforeEach(() => {
    address = randomAddress();
  });
  const authenticate = (username: unknown, password: unknown, rememberMe = false, from = address) =>
    call('/api/authenticate', {
      json: { username, password, rememberMe },
      headers: { 'X-Forwarded-For': `203.0.113.99, ${from}` },
    });

  describe('POST /api/authenticate', () => {
    it('signs in: id_token in the body, the same token as a Bearer Authorization header', async () => {
      const u = await buildUser(knex);
      const res = await authenticate(u.login, u.password);
      expect(res.status).toBe(200);
      expect(res.headers.get('authorization')).toBe(`Bearer ${res.body.id_token}`);
      const decoded = jwt.decode(res.body.id_token, { complete: true })!;
      expect(decoded.header.alg).toBe('HS512');
      const payload = decoded.payload as jwt.JwtPayload;
      expect(payload.sub).toBe(u.login);
      expect(payload.uid).toBe(u.id);
      expect(payload.exp! - payload.iat!).toBe(suite.api.config.jwtValidity);
      expect(() =>
        jwt.verify(res.body.id_token, suite.api.config.jwtSecret, { algorithms: ['HS512'] }),
      ).not.toThrow();
    });

    it('gives a longer-lived token with remember-me', async () => {
      const u = await buildUser(knex);
      const normal = jwt.decode(
        (await authenticate(u.login, u.password, false)).body.id_token,
      ) as jwt.JwtPayload;
      const remembered = jwt.decode(
        (await authenticate(u.login, u.password, true)).body.id_token,
      ) as jwt.JwtPayload;
      expect(remembered.exp! - remembered.iat!).toBe(suite.api.config.jwtValidityRememberMe);
      expect(remembered.exp!).toBeGreaterThan(normal.exp!);
    });

    it('treats the login case-insensitively', async () => {
      const u = await buildUser(knex);
      const res = await authenticate(u.login.toUpperCase(), u.password);
      expect(res.status).toBe(200);
      expect((jwt.decode(res.body.id_token) as jwt.JwtPayload).sub).toBe(u.login);
    });

    it('refuses a wrong password and an unknown user with the same bare 401', async () => {
      const u = await buildUser(knex);
      const wrong = await authenticate(u.login, 'not-the-password');
      const unknown = await authenticate(unique('nobody'), 'whatever');
      expect(wrong.status).toBe(401);
      expect(unknown.status).toBe(401);
      expect(wrong.body.message).toBe('error.http.401');
      expect(wrong.body.detail).toBeUndefined();
      expect(unknown.body).toEqual(wrong.body);
      expect(wrong.headers.get('authorization')).toBeNull();
    });

    it('refuses a not-activated user with a detail, but only once the password is right', async () => {
      const u = await buildUser(knex, { activated: false });
      const res = await authenticate(u.login, u.password);
      expect(res.status).toBe(401);
      expect(res.body.message).toBe('error.http.401');
      expect(res.body.detail).toBe(`User ${u.login} was not activated`);
      const wrong = await authenticate(u.login, 'not-the-password');
      expect(wrong.status).toBe(401);
      expect(wrong.body.detail).toBeUndefined();
    });

    it('reports a missing username and password as field errors', async () => {
      const res = await call('/api/authenticate', { json: { rememberMe: false } });
      expect(res.status).toBe(400);
      expect(res.body.message).toBe('error.validation');
      expect(res.body.fieldErrors).toEqual(
        expect.arrayContaining([
          {
            objectName: 'loginVM',
            field: 'username',
            message: 'NotBlank',
            key: 'entity.validation.required',
          },
          {
            objectName: 'loginVM',
            field: 'password',
            message: 'NotBlank',
            key: 'entity.validation.required',
          },
        ]),
      );
      const blank = await authenticate('  ', '');
      expect(fieldKeyMap(blank.body)).toEqual({
        username: 'entity.validation.required',
        password: 'entity.validation.required',
      });
    });

    it('reports a body of the wrong shape as field errors', async () => {
      const res = await authenticate(42, ['x']);
      expect(res.status).toBe(400);
      expect(res.body.fieldErrors.map((fe: { field: string }) => fe.field).sort()).toEqual([
        'password',
        'username',
      ]);
    });
  });

  describe('sign-in throttling', () => {
    const failTimes = async (loginName: string, n: number, from = address) => {
      for (let i = 0; i < n; i++)
        expect((await authenticate(loginName, `wrong-${i}`, false, from)).status).toBe(401);
    };
    const expectLocked = (
      res: { status: number; body: { message: string; detail: string } },
      max: number,
    ) => {
      expect(res.status).toBe(429);
      expect(res.body.message).toBe('error.http.429');
      const match =
        /^Too many failed sign-in attempts( from this address)?\. Try again in (\d+) seconds\.$/.exec(
          res.body.detail,
        );
      expect(match).not.toBeNull();
      expect(Number(match![2])).toBeGreaterThanOrEqual(1);
      expect(Number(match![2])).toBeLessThanOrEqual(max);
      return match![1] ? 'address' : 'pair';
    };

    it('locks the account for that address after 3 failures: 429 even with the right password', async () => {
      const u = await buildUser(knex);
      await failTimes(u.login, THROTTLE.maxFailures);
      for (const password of [u.password, 'still-wrong']) {
        const res = await authenticate(u.login, password);
        expect(expectLocked(res, THROTTLE.lockSeconds)).toBe('pair');
        expect(res.headers.get('retry-after')).toMatch(/^\d+$/);
      }
    });

    it('counts attempts refused while locked instead of writing an audit row for each (issue 25 finding 9)', async () => {
      const u = await buildUser(knex);
      const from = randomAddress();
      await failTimes(u.login, THROTTLE.maxFailures, from);
      const audits = () => knex('audits').where({ principal: u.login }).count({ n: '*' }).first();
      const before = Number((await audits())!.n);
      expect(before).toBe(THROTTLE.maxFailures);
      for (let i = 0; i < 7; i++)
        expect((await authenticate(u.login, 'guess', false, from)).status).toBe(429);
      expect(Number((await audits())!.n)).toBe(before);
      const row = await knex('login_attempts')
        .where({ login: u.login, address: addressKey(from) })
        .first('refused');
      expect(row.refused).toBe(7);
      // An address over its own limit counts its refusals on its address row the same way.
      const crowd = randomAddress();
      for (let i = 0; i < THROTTLE.addressMaxFailures; i++)
        expect((await authenticate(unique('nobody'), 'x', false, crowd)).status).toBe(401);
      for (let i = 0; i < 3; i++)
        expect((await authenticate(u.login, 'guess', false, crowd)).status).toBe(429);
      expect(Number((await audits())!.n)).toBe(before);
      expect(
        (
          await knex('login_attempts')
            .where({ login: '', address: addressKey(crowd) })
            .first('refused')
        ).refused,
      ).toBe(3);
    });

    it('lets the same account sign in from another address while one address is locked out', async () => {
      const u = await buildUser(knex);
      const attacker = randomAddress();
      await failTimes(u.login, THROTTLE.maxFailures, attacker);
      expect((await authenticate(u.login, u.password, false, attacker)).status).toBe(429);
      expect((await authenticate(u.login, u.password, false, randomAddress())).status).toBe(200);
      expect((await authenticate(u.login, u.password)).status).toBe(200);
      // The attacker's address stays locked.
      expect((await authenticate(u.login, u.password, false, attacker)).status).toBe(429);
    });

    it('takes the client address from the nearest trusted proxy, not from what the client prepends', async () => {
      const u = await buildUser(knex);
      const spoofed = (password: string, fake: string) =>
        call('/api/authenticate', {
          json: { username: u.login, password, rememberMe: false },
          headers: { 'X-Forwarded-For': `${fake}, ${address}` },
        });
      for (let i = 0; i < THROTTLE.maxFailures; i++)
        expect((await spoofed('wrong', randomAddress())).status).toBe(401);
      expect((await spoofed(u.password, randomAddress())).status).toBe(429);
    });

    it('does not affect another account while one is locked', async () => {
      const a = await buildUser(knex);
      const b = await buildUser(knex);
      await failTimes(a.login, THROTTLE.maxFailures);
      expect((await authenticate(a.login, a.password)).status).toBe(429);
      expect((await authenticate(b.login, b.password)).status).toBe(200);
      await failTimes(b.login, THROTTLE.maxFailures - 1);
      expect((await authenticate(b.login, b.password)).status).toBe(200);
    });

    it('resets the failure count on a successful sign-in', async () => {
      const u = await buildUser(knex);
      await failTimes(u.login, THROTTLE.maxFailures - 1);
      expect((await authenticate(u.login, u.password)).status).toBe(200);
      await failTimes(u.login, THROTTLE.maxFailures - 1);
      expect((await authenticate(u.login, u.password)).status).toBe(200);
      expect(
        (
          await knex('login_attempts')
            .where({ login: u.login, address: addressKey(address) })
            .first()
        ).failures,
      ).toBe(0);
    });

    it('lets the user in again once the lock has expired', async () => {
      const u = await buildUser(knex);
      await failTimes(u.login, THROTTLE.maxFailures);
      expect((await authenticate(u.login, u.password)).status).toBe(429);
      await knex('login_attempts')
        .where({ login: u.login, address: addressKey(address) })
        .update({ locked_until: knex.raw("now() - interval '1 second'") });
      expect((await authenticate(u.login, u.password)).status).toBe(200);
    });

    it('counts failures of an upper-case login against the same account', async () => {
      const u = await buildUser(knex);
      await failTimes(u.login.toUpperCase(), THROTTLE.maxFailures);
      expect((await authenticate(u.login, u.password)).status).toBe(429);
    });

    it('answers an unknown name like a known one, lock included (no account enumeration)', async () => {
      const name = unique('nobody').toLowerCase();
      await failTimes(name, THROTTLE.maxFailures);
      expect(expectLocked(await authenticate(name, 'whatever'), THROTTLE.lockSeconds)).toBe('pair');
    });

    it('refuses one address trying many accounts with 429 after the limit, and only that address', async () => {
      const users = await Promise.all(
        Array.from({ length: THROTTLE.addressMaxFailures + 1 }, () => buildUser(knex)),
      );
      for (const u of users.slice(0, THROTTLE.addressMaxFailures)) await failTimes(u.login, 1);
      const last = users[THROTTLE.addressMaxFailures];
      // Even the right password of an account this address never tried is refused now.
      const res = await authenticate(last.login, last.password);
      expect(expectLocked(res, THROTTLE.addressWindowSeconds)).toBe('address');
      expect((await authenticate(unique('nobody'), 'x')).status).toBe(429);
      // Everyone else, those accounts included, signs in from elsewhere.
      expect((await authenticate(last.login, last.password, false, randomAddress())).status).toBe(200);
      expect((await authenticate(users[0].login, users[0].password, false, randomAddress())).status).toBe(
        200,
      );
    });

    it('does not reset the address limit on a successful sign-in of an own account', async () => {
      const own = await buildUser(knex);
      for (let i = 0; i < THROTTLE.addressMaxFailures; i++) {
        await failTimes(unique('victim').toLowerCase(), 1);
        if (i % 2 === 0) expect((await authenticate(own.login, own.password)).status).toBe(200);
      }
      expect((await authenticate(own.login, own.password)).status).toBe(429);
    });

    it('purges rows whose time has passed', async () => {
      const stale = unique('stale').toLowerCase();
      await knex('login_attempts').insert({
        login: stale,
        address: '192.0.2.1',
        failures: 2,
        expires_at: knex.raw("now() - interval '1 second'"),
      });
      await failTimes(unique('someone').toLowerCase(), 1);
      expect(await knex('login_attempts').where({ login: stale }).first()).toBeUndefined();
    });
  });

  describe('sign-in throttling of one account guessed from many addresses', () => {
    const attacked = setupSuite({
      config: { loginThrottle: { ...THROTTLE, accountMaxFailures: 4 }, trustProxy: 1 },
    });
    const from = (username: string, password: string, ip: string) =>
      attacked.call('/api/authenticate', {
        json: { username, password, rememberMe: false },
        headers: { 'X-Forwarded-For': ip },
      });

    it('slows the guessers to one try per address, and never refuses the real user', async () => {
      const u = await buildUser(attacked.knex);
      const home = randomAddress();
      expect((await from(u.login, u.password, home)).status).toBe(200);
      // A distributed guess: one failure from each of five addresses (over the account's limit of 4).
      for (let i = 0; i < 5; i++)
        expect((await from(u.login, `guess-${i}`, randomAddress())).status).toBe(401);
      // A new address now gets one try: its first failure locks it.
      const guesser = randomAddress();
      expect((await from(u.login, 'guess-again', guesser)).status).toBe(401);
      expect((await from(u.login, u.password, guesser)).status).toBe(429);
      // The real user, from a new address, gets in with the right password at the first try.
      expect((await from(u.login, u.password, randomAddress())).status).toBe(200);
      // From an address that signed in before, typos are allowed as usual.
      for (let i = 0; i < THROTTLE.maxFailures - 1; i++)
        expect((await from(u.login, `typo-${i}`, home)).status).toBe(401);
      expect((await from(u.login, u.password, home)).status).toBe(200);
    });
  });

  describe('GET /api/account', () => {
    it('returns the account with role names and authorities merged without duplicates', async () => {
      const roleName = unique('ROLE_TEST').toUpperCase();
      const componentId = 900_000_000 + Math.floor(Math.random() * 1_000_000);
      const [role] = await knex('roles').insert({ name: roleName }).returning('*');
      try {
        const u = await buildUser(knex, {
          roles: ['ROLE_USER', roleName],
          authorities: [
            { componentId, type: 'PROCESS', mode: 'READ' },
            { componentId, type: 'NODE', mode: 'WRITE' },
          ],
        });
        const shared = await knex('authorities')
          .where({ component_id: componentId, type: 'PROCESS' })
          .first();
        await knex('role_authorities').insert({ role_id: role.id, authority_id: shared.id });

        const res = await call('/api/account', {
          token: await signIn(u),
        });
        expect(res.status).toBe(200);
        expect(res.body).toMatchObject({
          id: u.id,
          login: u.login,
          email: u.email,
          activated: true,
          langKey: 'en',
          firstName: null,
          lastName: null,
          createdBy: 'test',
        });
        expect(new Date(res.body.createdDate).toString()).not.toBe('Invalid Date');
        expect(res.body.roles.sort()).toEqual([roleName, 'ROLE_USER'].sort());
        expect(res.body.authorities).toHaveLength(2);
        expect(res.body.authorities).toEqual(
          expect.arrayContaining([
            { id: shared.id, componentId, type: 'PROCESS', mode: 'READ' },
            expect.objectContaining({ componentId, type: 'NODE', mode: 'WRITE' }),
          ]),
        );
        expect(res.body.password_hash).toBeUndefined();
        expect(res.body.password).toBeUndefined();
      } finally {
        await knex('roles').where({ id: role.id }).del();
      }
    });
  });

  describe('access to the own account', () => {
    const routes = [
      { name: 'GET /api/account', path: '/api/account' },
      {
        name: 'POST /api/account',
        path: '/api/account',
        json: { firstName: 'A', lastName: 'B', email: 'x@example.test', langKey: 'en' },
      },
      {
        name: 'POST /api/account/change-password',
        path: '/api/account/change-password',
        json: { currentPassword: 'a', newPassword: 'abcdef' },
      },
    ];
    const badTokens: Record<string, () => Promise<string>> = {
      'no token': async () => '',
      'a garbage token': async () => 'not.a.jwt',
      'a token signed with another secret': async () =>
        jwt.sign({ sub: 'admin', uid: 1, auth: 'ROLE_ADMIN', ver: 0 }, 'another-secret', {
          algorithm: 'HS512',
          expiresIn: 60,
        }),
      "a token with algorithm 'none'": async () =>
        `${b64url({ alg: 'none', typ: 'JWT' })}.${b64url({ sub: 'admin', uid: 1, auth: 'ROLE_ADMIN', ver: 0, exp: Math.floor(Date.now() / 1000) + 60 })}.`,
      'a token signed with HS256 instead of HS512': async () =>
        jwt.sign({ sub: 'admin', uid: 1, auth: 'ROLE_ADMIN', ver: 0 }, suite.api.config.jwtSecret, {
          algorithm: 'HS256',
          expiresIn: 60,
        }),
      'an expired token': async () =>
        jwt.sign(
          { sub: 'admin', uid: 1, auth: 'ROLE_ADMIN', ver: 0, exp: Math.floor(Date.now() / 1000) - 10 },
          suite.api.config.jwtSecret,
          { algorithm: 'HS512' },
        ),
      'a token of a not-activated user': async () => {
        const u = await buildUser(knex, { activated: false });
        return jwt.sign({ sub: u.login, uid: u.id, auth: 'ROLE_USER', ver: 0 }, suite.api.config.jwtSecret, {
          algorithm: 'HS512',
          expiresIn: 60,
        });
      },
    };

    for (const route of routes) {
      for (const [what, token] of Object.entries(badTokens)) {
        it(`refuses ${route.name} with ${what} (401)`, async () => {
          const res = await call(route.path, { token: await token(), json: route.json });
          expect(res.status).toBe(401);
          expect(res.body.message).toBe('error.http.401');
        });
      }
    }
  });

  describe('POST /api/account', () => {
    it('updates the names, e-mail and language and records who changed them', async () => {
      const u = await buildUser(knex);
      const token = await signIn(u);
      const email = `${unique('New')}@Example.TEST`;
      const res = await call('/api/account', {
        token,
        json: { firstName: 'Ada', lastName: 'Lovelace', email, langKey: 'pl', currentPassword: u.password },
      });
      expect(res.status).toBe(200);
      const account = (await call('/api/account', { token })).body;
      expect(account).toMatchObject({
        firstName: 'Ada',
        lastName: 'Lovelace',
        email: email.toLowerCase(),
        langKey: 'pl',
      });
      expect(account.lastModifiedBy).toBe(u.login);
      expect(Date.now() - new Date(account.lastModifiedDate).getTime()).toBeLessThan(60_000);
    });

    it('keeps the own e-mail (in any case) without calling it taken', async () => {
      const u = await buildUser(knex);
      const token = await signIn(u);
      const res = await call('/api/account', {
        token,
        json: { firstName: null, lastName: '', email: u.email.toUpperCase(), langKey: 'en' },
      });
      expect(res.status).toBe(200);
      expect((await call('/api/account', { token })).body).toMatchObject({
        email: u.email,
        firstName: null,
        lastName: null,
      });
    });

    it('refuses an e-mail used by another user (error.emailexists)', async () => {
      const u = await buildUser(knex);
      const other = await buildUser(knex);
      const token = await signIn(u);
      const res = await call('/api/account', {
        token,
        json: {
          firstName: 'A',
          lastName: 'B',
          email: other.email.toUpperCase(),
          langKey: 'en',
          currentPassword: u.password,
        },
      });
      expect(res.status).toBe(400);
      expect(res.body.message).toBe('error.emailexists');
      expect(res.body.errorKey).toBe('emailexists');
      expect(res.headers.get('x-soaapp-error')).toBe('error.emailexists');
      expect((await knex('users').where({ id: u.id }).first()).email).toBe(u.email);
    });

    it('reports each invalid field with its rule key', async () => {
      const u = await buildUser(knex);
      const token = await signIn(u);
      const post = (json: object) => call('/api/account', { token, json });
      const ok = { firstName: 'A', lastName: 'B', email: u.email, langKey: 'en' };

      const cases: [object, Record<string, string>][] = [
        [{ ...ok, email: 'not-an-email' }, { email: 'global.messages.validate.email.invalid' }],
        [{ ...ok, email: 'a@b' }, { email: 'global.messages.validate.email.minlength' }],
        [{ ...ok, email: `${'a'.repeat(250)}@b.pl` }, { email: 'global.messages.validate.email.maxlength' }],
        [{ ...ok, email: undefined }, { email: 'global.messages.validate.email.required' }],
        [{ ...ok, langKey: 'de' }, { langKey: 'entity.validation.pattern' }],
        [{ ...ok, langKey: undefined }, { langKey: 'entity.validation.required' }],
        [
          { ...ok, firstName: 'x'.repeat(51), lastName: 'y'.repeat(51) },
          { firstName: 'entity.validation.maxlength', lastName: 'entity.validation.maxlength' },
        ],
      ];
      for (const [json, expected] of cases) {
        const res = await post(json);
        expect(res.status).toBe(400);
        expect(res.body.message).toBe('error.validation');
        expect(fieldKeyMap(res.body)).toEqual(expected);
      }
      expect((await post(ok)).status).toBe(200);
    });
  });

  describe('POST /api/account/change-password', () => {
    it('changes the password: the old one is refused, the new one works', async () => {
      const u = await buildUser(knex);
      const token = await signIn(u);
      const res = await call('/api/account/change-password', {
        token,
        json: { currentPassword: u.password, newPassword: 'brand-new-pw' },
      });
      expect(res.status).toBe(200);
      expect((await authenticate(u.login, u.password)).status).toBe(401);
      expect((await authenticate(u.login, 'brand-new-pw')).status).toBe(200);
      const row = await knex('users').where({ id: u.id }).first();
      expect(row.password_hash).toMatch(/^\$2[aby]\$10\$/);
      expect(row.last_modified_by).toBe(u.login);
    });

    it('refuses a wrong current password (error.invalidpassword) and keeps the old one', async () => {
      const u = await buildUser(knex);
      const token = await signIn(u);
      const res = await call('/api/account/change-password', {
        token,
        json: { currentPassword: 'wrong-current', newPassword: 'brand-new-pw' },
      });
      expect(res.status).toBe(400);
      expect(res.body.message).toBe('error.invalidpassword');
      expect(res.body.errorKey).toBe('invalidpassword');
      expect(res.headers.get('x-soaapp-error')).toBe('error.invalidpassword');
      expect(res.headers.get('x-soaapp-params')).toBe('userManagement');
      expect((await authenticate(u.login, u.password)).status).toBe(200);
    });

    it('checks the new password with the password rule and requires the current one', async () => {
      const u = await buildUser(knex);
      const token = await signIn(u);
      const cases: [object, Record<string, string>][] = [
        [
          { currentPassword: u.password, newPassword: 'abc' },
          { newPassword: 'global.messages.validate.newpassword.minlength' },
        ],
        [
          { currentPassword: u.password, newPassword: 'x'.repeat(51) },
          { newPassword: 'global.messages.validate.newpassword.maxlength' },
        ],
        [{ currentPassword: u.password }, { newPassword: 'global.messages.validate.newpassword.required' }],
        [{ newPassword: 'abcdef' }, { currentPassword: 'entity.validation.required' }],
      ];
      for (const [json, expected] of cases) {
        const res = await call('/api/account/change-password', { token, json });
        expect(res.status).toBe(400);
        expect(fieldKeyMap(res.body)).toEqual(expected);
      }
      expect((await authenticate(u.login, u.password)).status).toBe(200);
    });
  });
});
