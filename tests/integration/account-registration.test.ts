/**
 * Registration, activation, password reset and the change of the own e-mail against a real API, PostgreSQL
 * and a real SMTP peer (tests/support/smtp-sink.ts): the links and notices are read out of the mails the API
 * actually sent.
 */
import { loadConfig } from '../../server/config';
import { buildUser, fieldKeyMap, setupSuite, unique } from '../support/harness';
import { linkKey as keyInLink, startSmtpSink, type ReceivedMail, type SmtpSink } from '../support/smtp-sink';

describe('registration, activation and password reset', () => {
  let smtp: SmtpSink;
  const suite = setupSuite({
    async config() {
      smtp = await startSmtpSink();
      return {
        smtp: { host: '127.0.0.1', port: smtp.port, secure: false, from: 'workbench@localhost' },
        loginThrottle: { ...loadConfig(process.env).loginThrottle, maxFailures: 3, lockSeconds: 60 },
      };
    },
  });
  const { knex, call } = suite;
  afterAll(() => smtp?.close());

  const mailTo = (address: string) => smtp.mailTo(address);
  const mailsTo = (address: string) => smtp.mailsTo(address);
  const linkKey = (mail: ReceivedMail, path: string) => keyInLink(mail, suite.api.config.baseUrl, path);

  const register = (json: object) => call('/api/register', { json });
  const init = (email: string) => call('/api/account/reset-password/init', { method: 'POST', text: email });
  const authenticate = (username: string, password: string) =>
    call('/api/authenticate', { json: { username, password, rememberMe: false } });
  const newAccount = () => {
    const login = unique('reg').toLowerCase();
    return { login, email: `${login}@example.test`, password: 'reg-password', langKey: 'en' };
  };

  describe('POST /api/register and GET /api/verify', () => {
    it('registers, mails the activation link, refuses sign-in until activated, then signs in', async () => {
      const acc = newAccount();
      const res = await register(acc);
      expect(res.status).toBe(201);

      const mail = await mailTo(acc.email);
      expect(mail.subject).toBe(`${suite.api.config.appName} account activation`);
      expect(mail.text).toContain(`Dear ${acc.login},`);
      const key = linkKey(mail, '/lp/verify');
      expect(key).toMatch(/^[A-Za-z0-9]{20}$/);

      const row = await knex('users').where({ login: acc.login }).first();
      expect(row).toMatchObject({ activated: false, activation_key: key, email: acc.email, lang_key: 'en' });
      expect(row.password_hash).toMatch(/^\$2[aby]\$10\$/);

      const refused = await authenticate(acc.login, acc.password);
      expect(refused.status).toBe(401);
      expect(refused.body.detail).toBe(`User ${acc.login} was not activated`);

      expect((await call(`/api/verify?key=${key}`)).status).toBe(200);
      expect((await knex('users').where({ login: acc.login }).first()).activation_key).toBeNull();

      const signedIn = await authenticate(acc.login, acc.password);
      expect(signedIn.status).toBe(200);
      const account = await call('/api/account', { token: signedIn.body.id_token });
      expect(account.status).toBe(200);
      expect(account.body).toMatchObject({
        login: acc.login,
        email: acc.email,
        activated: true,
        langKey: 'en',
        roles: ['ROLE_USER'],
      });
    });

    it('refuses the same activation key a second time and unknown or missing keys (activationKeyInvalid)', async () => {
      const acc = newAccount();
      await register(acc);
      const key = linkKey(await mailTo(acc.email), '/lp/verify');
      expect((await call(`/api/verify?key=${key}`)).status).toBe(200);
      for (const path of [
        `/api/verify?key=${key}`,
        '/api/verify?key=NoSuchKey0000000000',
        '/api/verify',
        '/api/verify?key=',
      ]) {
        const res = await call(path);
        expect(res.status).toBe(400);
        expect(res.body.errorKey).toBe('activationKeyInvalid');
        expect(res.headers.get('x-soaapp-error')).toBe('error.activationKeyInvalid');
      }
    });

    it('writes the activation mail in Polish for langKey pl', async () => {
      const acc = { ...newAccount(), langKey: 'pl' };
      expect((await register(acc)).status).toBe(201);
      const mail = await mailTo(acc.email);
      expect(mail.subject).toBe(`Aktywacja konta ${suite.api.config.appName}`);
      expect(mail.text).toContain('zostało utworzone');
      linkKey(mail, '/lp/verify');
      expect((await knex('users').where({ login: acc.login }).first()).lang_key).toBe('pl');
    });

    it('stores login and e-mail lower-case and signs in whatever the case', async () => {
      const acc = newAccount();
      const mixed = { ...acc, login: acc.login.toUpperCase(), email: acc.email.toUpperCase() };
      expect((await register(mixed)).status).toBe(201);
      const key = linkKey(await mailTo(acc.email), '/lp/verify');
      await call(`/api/verify?key=${key}`);
      const row = await knex('users').where({ login: acc.login }).first();
      expect(row.email).toBe(acc.email);
      expect((await authenticate(mixed.login, acc.password)).status).toBe(200);
    });

    it('refuses a login that is taken, whatever its case (userexists)', async () => {
      const existing = await buildUser(knex);
      const res = await register({ ...newAccount(), login: existing.login.toUpperCase() });
      expect(res.status).toBe(400);
      expect(res.body.message).toBe('error.userexists');
      expect(res.body.errorKey).toBe('userexists');
      expect(res.headers.get('x-soaapp-error')).toBe('error.userexists');
    });

    it('refuses an e-mail that is taken, whatever its case (emailexists)', async () => {
      const existing = await buildUser(knex);
      const acc = newAccount();
      const res = await register({ ...acc, email: existing.email.toUpperCase() });
      expect(res.status).toBe(400);
      expect(res.body.message).toBe('error.emailexists');
      expect(res.body.errorKey).toBe('emailexists');
      expect(await knex('users').where({ login: acc.login }).first()).toBeUndefined();
    });

    it('replaces a pending registration that is submitted again', async () => {
      const acc = newAccount();
      await register(acc);
      const firstKey = linkKey(await mailTo(acc.email), '/lp/verify');
      expect((await register({ ...acc, password: 'second-password' })).status).toBe(201);
      expect(mailsTo(acc.email)).toHaveLength(2);
      const secondKey = linkKey(await mailTo(acc.email), '/lp/verify');
      expect(secondKey).not.toBe(firstKey);
      expect((await call(`/api/verify?key=${firstKey}`)).status).toBe(400);
      expect((await call(`/api/verify?key=${secondKey}`)).status).toBe(200);
      expect((await authenticate(acc.login, 'second-password')).status).toBe(200);
      expect((await register(acc)).body.errorKey).toBe('userexists');
    });

    it('does not replace a deactivated account that was once active', async () => {
      const existing = await buildUser(knex, { activated: false });
      const res = await register({ ...newAccount(), login: existing.login });
      expect(res.body.errorKey).toBe('userexists');
      expect(await knex('users').where({ id: existing.id }).first()).toBeDefined();
    });

    it('reports each invalid field with its rule key and creates nothing', async () => {
      const ok = newAccount();
      const cases: [object, Record<string, string>][] = [
        [
          {},
          {
            login: 'register.messages.validate.login.required',
            email: 'global.messages.validate.email.required',
            password: 'global.messages.validate.newpassword.required',
          },
        ],
        [{ ...ok, login: 'bad login!' }, { login: 'register.messages.validate.login.pattern' }],
        [{ ...ok, login: 'x'.repeat(51) }, { login: 'register.messages.validate.login.maxlength' }],
        [{ ...ok, email: 'not-an-email' }, { email: 'global.messages.validate.email.invalid' }],
        [{ ...ok, email: 'a@b' }, { email: 'global.messages.validate.email.minlength' }],
        [{ ...ok, email: `${'a'.repeat(250)}@b.pl` }, { email: 'global.messages.validate.email.maxlength' }],
        [{ ...ok, password: 'abc' }, { password: 'global.messages.validate.newpassword.minlength' }],
        [{ ...ok, password: 'x'.repeat(51) }, { password: 'global.messages.validate.newpassword.maxlength' }],
        [{ ...ok, langKey: 'de' }, { langKey: 'entity.validation.pattern' }],
      ];
      for (const [json, expected] of cases) {
        const res = await register(json);
        expect(res.status).toBe(400);
        expect(res.body.message).toBe('error.validation');
        expect(fieldKeyMap(res.body)).toEqual(expected);
      }
      const pattern = (await register({ ...ok, login: 'bad login!' })).body.fieldErrors[0];
      expect(pattern).toEqual({
        objectName: 'managedUserVM',
        field: 'login',
        message: 'Pattern',
        key: 'register.messages.validate.login.pattern',
      });
      expect(await knex('users').where({ login: ok.login }).first()).toBeUndefined();
      expect(mailsTo(ok.email)).toHaveLength(0);
    });
  });

  describe('password reset', () => {
    const finish = (json: object) => call('/api/account/reset-password/finish', { json });

    it('mails a reset link; finishing it replaces the password once', async () => {
      const u = await buildUser(knex);
      expect((await init(u.email.toUpperCase())).status).toBe(200);
      const mail = await mailTo(u.email);
      expect(mail.subject).toBe(`${suite.api.config.appName} password reset`);
      const key = linkKey(mail, '/lp/reset/finish');
      expect(key).toMatch(/^[A-Za-z0-9]{20}$/);

      expect((await finish({ key, newPassword: 'after-reset' })).status).toBe(200);
      expect((await authenticate(u.login, u.password)).status).toBe(401);
      expect((await authenticate(u.login, 'after-reset')).status).toBe(200);
      const row = await knex('users').where({ id: u.id }).first();
      expect(row).toMatchObject({ reset_key: null, reset_date: null });
      expect(row.password_hash).toMatch(/^\$2[aby]\$10\$/);

      const again = await finish({ key, newPassword: 'third-password' });
      expect(again.status).toBe(400);
      expect(again.body.errorKey).toBe('resetKeyInvalid');
    });

    it("writes the reset mail in the user's language", async () => {
      const u = await buildUser(knex);
      await knex('users').where({ id: u.id }).update({ lang_key: 'pl' });
      expect((await init(u.email)).status).toBe(200);
      const mail = await mailTo(u.email);
      expect(mail.subject).toBe(`Resetowanie hasła ${suite.api.config.appName}`);
      expect(mail.text).toContain('Link jest ważny przez 24 godziny');
      linkKey(mail, '/lp/reset/finish');
    });

    it('refuses an unknown e-mail and a not-activated account (emailnotfound) and sends nothing', async () => {
      const pending = await buildUser(knex, { activated: false });
      for (const email of [`${unique('nobody')}@example.test`, pending.email]) {
        const res = await init(email);
        expect(res.status).toBe(400);
        expect(res.body.message).toBe('error.emailnotfound');
        expect(res.body.errorKey).toBe('emailnotfound');
        expect(mailsTo(email)).toHaveLength(0);
      }
    });

    it('checks the e-mail of the request with the e-mail rule', async () => {
      const cases: [string, string][] = [
        ['', 'global.messages.validate.email.required'],
        ['not-an-email', 'global.messages.validate.email.invalid'],
        ['a@b', 'global.messages.validate.email.minlength'],
      ];
      for (const [email, key] of cases) {
        const res = await init(email);
        expect(res.status).toBe(400);
        expect(fieldKeyMap(res.body)).toEqual({ email: key });
      }
    });

    it('refuses an unknown, missing or expired key (resetKeyInvalid)', async () => {
      const u = await buildUser(knex);
      await init(u.email);
      const key = linkKey(await mailTo(u.email), '/lp/reset/finish');
      await knex('users')
        .where({ id: u.id })
        .update({ reset_date: knex.raw("now() - interval '25 hours'") });
      for (const json of [
        { key, newPassword: 'after-reset' },
        { key: 'NoSuchKey0000000000', newPassword: 'after-reset' },
        { newPassword: 'after-reset' },
      ]) {
        const res = await finish(json);
        expect(res.status).toBe(400);
        expect(res.body.message).toBe('error.resetKeyInvalid');
        expect(res.body.errorKey).toBe('resetKeyInvalid');
      }
      expect((await authenticate(u.login, u.password)).status).toBe(200);
    });

    it('checks the new password with the password rule and keeps the key usable', async () => {
      const u = await buildUser(knex);
      await init(u.email);
      const key = linkKey(await mailTo(u.email), '/lp/reset/finish');
      const cases: [object, string][] = [
        [{ key, newPassword: 'abc' }, 'global.messages.validate.newpassword.minlength'],
        [{ key, newPassword: 'x'.repeat(51) }, 'global.messages.validate.newpassword.maxlength'],
        [{ key }, 'global.messages.validate.newpassword.required'],
      ];
      for (const [json, expected] of cases) {
        const res = await finish(json);
        expect(res.status).toBe(400);
        expect(fieldKeyMap(res.body)).toEqual({ newPassword: expected });
      }
      expect((await finish({ key, newPassword: 'valid-one' })).status).toBe(200);
    });

    it('lifts a sign-in lock once the password has been reset', async () => {
      const u = await buildUser(knex);
      for (let i = 0; i < 3; i++) await authenticate(u.login, 'wrong');
      expect((await authenticate(u.login, u.password)).status).toBe(429);
      await init(u.email);
      const key = linkKey(await mailTo(u.email), '/lp/reset/finish');
      expect((await finish({ key, newPassword: 'after-reset' })).status).toBe(200);
      expect((await authenticate(u.login, 'after-reset')).status).toBe(200);
    });

    it('ends the sessions of the account once the password has been reset', async () => {
      const u = await buildUser(knex);
      const before = await suite.signIn(u);
      expect((await call('/api/account', { token: before })).status).toBe(200);
      await init(u.email);
      const key = linkKey(await mailTo(u.email), '/lp/reset/finish');
      expect((await finish({ key, newPassword: 'after-reset' })).status).toBe(200);
      expect((await call('/api/account', { token: before })).status).toBe(401);
      const after = await suite.signIn({ ...u, password: 'after-reset' });
      expect((await call('/api/account', { token: after })).status).toBe(200);
    });
  });

  describe('POST /api/account with a new e-mail (issue 25)', () => {
    const update = (token: string, json: object) => call('/api/account', { token, json });
    const moved = () => `${unique('moved').toLowerCase()}@example.test`;

    it('needs the current password, then tells the old address, and resets go to the new one', async () => {
      const u = await buildUser(knex);
      const token = await suite.signIn(u);
      const email = moved();
      const json = { firstName: 'A', lastName: 'B', email, langKey: 'en' };

      const missing = await update(token, json);
      expect(missing.status).toBe(400);
      expect(fieldKeyMap(missing.body)).toEqual({
        currentPassword: 'global.messages.validate.currentpassword.required',
      });
      const wrong = await update(token, { ...json, currentPassword: 'not-the-password' });
      expect(wrong.status).toBe(400);
      expect(fieldKeyMap(wrong.body)).toEqual({
        currentPassword: 'global.messages.validate.currentpassword.invalid',
      });
      expect((await knex('users').where({ id: u.id }).first()).email).toBe(u.email);

      expect((await update(token, { ...json, currentPassword: u.password })).status).toBe(200);
      expect((await knex('users').where({ id: u.id }).first()).email).toBe(email);
      const notice = await mailTo(u.email);
      expect(notice.subject).toBe(`${suite.api.config.appName} e-mail address changed`);
      expect(notice.text).toContain(`Dear ${u.login},`);
      expect(notice.text).toContain(email);
      // the refused attempts sent nothing, and nothing went to the new address
      expect(mailsTo(u.email)).toHaveLength(1);
      expect(mailsTo(email)).toHaveLength(0);

      expect((await init(u.email)).status).toBe(400);
      expect((await init(email)).status).toBe(200);
      linkKey(await mailTo(email), '/lp/reset/finish');
    });

    it('saves the other fields without the password while the e-mail stays (in any case)', async () => {
      const u = await buildUser(knex);
      const token = await suite.signIn(u);
      const res = await update(token, { firstName: 'Ada', email: u.email.toUpperCase(), langKey: 'pl' });
      expect(res.status).toBe(200);
      expect(await knex('users').where({ id: u.id }).first()).toMatchObject({
        first_name: 'Ada',
        email: u.email,
        lang_key: 'pl',
      });
      // no notice: the reset mail asked for now (waited for) is the only mail to the address
      await init(u.email);
      expect((await mailTo(u.email)).subject).toBe(`Resetowanie hasła ${suite.api.config.appName}`);
      expect(mailsTo(u.email)).toHaveLength(1);
    });

    it('writes the notice in the language chosen with the change', async () => {
      const u = await buildUser(knex);
      const token = await suite.signIn(u);
      const email = moved();
      const res = await update(token, { email, langKey: 'pl', currentPassword: u.password });
      expect(res.status).toBe(200);
      const notice = await mailTo(u.email);
      expect(notice.subject).toBe(`Zmieniono adres e-mail konta ${suite.api.config.appName}`);
      expect(notice.text).toContain(email);
    });
  });
});
