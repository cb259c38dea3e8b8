/**
 * Single sign-on against a real OpenID Connect provider (Dex, scripts/lib/dex.ts) with its own login page:
 * just-in-time accounts with the mapped roles, roles updated at each sign-in, the product's own token, and
 * the refusals: a callback of another browser (state), a replayed callback or code, a wrong nonce, an ID
 * token altered or signed by another key. Dex sits behind a proxy at the issuer's address so that a test can
 * forge what its token endpoint answers.
 */
import { freePort } from '../../scripts/lib/ports';
import type { RunningDex } from '../../scripts/lib/dex';
import { buildUser, call, setupSuite, type Res } from '../support/harness';
import {
  DEX_USERS,
  dexSettings,
  loginAtDex,
  resignedIdToken,
  startIssuerProxy,
  startTestDex,
  tamperedIdToken,
} from '../support/dex';

let dex: RunningDex | undefined;
let proxy: Awaited<ReturnType<typeof startIssuerProxy>> | undefined;

const suite = setupSuite({
  config: async () => {
    proxy = await startIssuerProxy();
    const port = await freePort();
    const origin = `http://127.0.0.1:${port}`;
    dex = await startTestDex(origin, { issuerPort: proxy.port });
    proxy.target.origin = dex.origin;
    return { port, baseUrl: origin, oidc: dexSettings(dex.issuer) };
  },
});
afterAll(async () => {
  await dex?.stop();
  await proxy?.close();
});

/** Begins a sign-in as a browser would: the authorization URL and the state cookie the API set. */
async function begin(returnTo?: string): Promise<{ authorizationUrl: string; cookie: string }> {
  const res = await suite.call('/api/oidc/authorize', { json: { returnTo } });
  expect(res.status).toBe(200);
  const cookie = (res.headers.get('set-cookie') ?? '').split(';')[0];
  expect(cookie).toMatch(/^wb_oidc_state=/);
  return { authorizationUrl: res.body.authorizationUrl, cookie };
}

const finish = (query: string, cookie?: string): Promise<Res> =>
  call(suite.api.baseUrl, '/api/oidc/callback', {
    json: { query },
    headers: cookie ? { Cookie: cookie } : {},
  });

/** A whole sign-in through Dex's login page. */
async function signInThroughDex(user: { email: string; password: string }, returnTo?: string) {
  const { authorizationUrl, cookie } = await begin(returnTo);
  const query = await loginAtDex(authorizationUrl, user);
  return { res: await finish(query, cookie), query, cookie };
}

const auditsOf = (principal: string) => suite.knex('audits').where({ principal }).orderBy('id').pluck('type');

describe('sign-in through the identity provider', () => {
  it('offers the provider by name on the sign-in page', async () => {
    expect((await suite.get('/management/info')).body.sso).toEqual({ providerName: 'Dex' });
  });

  it('asks for the code with PKCE S256, a state and a nonce, for this client and callback page', async () => {
    const url = new URL((await begin()).authorizationUrl);
    expect(url.origin + url.pathname).toBe(`${dex!.issuer}/auth`);
    const p = url.searchParams;
    expect([p.get('response_type'), p.get('client_id'), p.get('code_challenge_method')]).toEqual([
      'code',
      'workbench',
      'S256',
    ]);
    expect(p.get('redirect_uri')).toBe(`${suite.api.baseUrl}/lp/oidc/callback`);
    expect(p.get('code_challenge')).toMatch(/^[\w-]{43}$/);
    expect(p.get('state')).toMatch(/^[\w-]{20,}$/);
    expect(p.get('nonce')).toMatch(/^[\w-]{20,}$/);
    expect(p.get('scope')).toBe('openid profile email groups');
  });

  it('creates the account on first sign-in with the mapped role, and answers with the product token', async () => {
    const { res } = await signInThroughDex(DEX_USERS.kate, '/entity/process/7/documents');
    expect(res.status).toBe(200);
    expect(res.body.returnTo).toBe('/entity/process/7/documents');
    expect(res.body.idpIdToken.split('.')).toHaveLength(3);
    expect(res.headers.get('authorization')).toBe(`Bearer ${res.body.id_token}`);
    const account = await suite.get('/api/account', res.body.id_token);
    expect(account.status).toBe(200);
    expect(account.body).toMatchObject({
      login: DEX_USERS.kate.preferredUsername,
      email: DEX_USERS.kate.email,
      firstName: 'Kate',
      lastName: 'Sso',
      activated: true,
      roles: ['ROLE_ADMIN', 'ROLE_USER'],
    });
    const identity = await suite.knex('user_identities').where({ user_id: account.body.id }).first();
    const sub = JSON.parse(Buffer.from(res.body.idpIdToken.split('.')[1], 'base64url').toString()).sub;
    expect([identity.issuer, identity.subject]).toEqual([dex!.issuer, sub]);
    expect(await auditsOf(DEX_USERS.kate.preferredUsername)).toEqual(['AUTHENTICATION_SUCCESS']);
    // The token is the product's own: it ends with a logout like a password sign-in's.
    expect((await suite.send('POST', '/api/logout', res.body.id_token)).status).toBe(204);
    expect((await suite.get('/api/account', res.body.id_token)).status).toBe(401);
  });

  it('sets the mapped roles again at each sign-in, ending the sessions of the old roles', async () => {
    const first = await signInThroughDex(DEX_USERS.jo);
    expect(first.res.status).toBe(200);
    const jo = (await suite.get('/api/account', first.res.body.id_token)).body;
    expect(jo.roles).toEqual(['ROLE_USER']);
    // An administrator gave Jo the admin role (one the mapping manages) and a role of their own.
    const [custom] = await suite.knex('roles').insert({ name: 'ROLE_SSO_AUDITOR' }).returning('id');
    const admin = await suite.knex('roles').where({ name: 'ROLE_ADMIN' }).first('id');
    await suite.knex('user_roles').insert([
      { user_id: jo.id, role_id: admin.id },
      { user_id: jo.id, role_id: custom.id },
    ]);
    const second = await signInThroughDex(DEX_USERS.jo);
    expect(second.res.status).toBe(200);
    expect((await suite.get('/api/account', second.res.body.id_token)).body.roles).toEqual([
      'ROLE_SSO_AUDITOR',
      'ROLE_USER',
    ]);
    expect((await suite.get('/api/account', first.res.body.id_token)).status).toBe(401);
    expect(await auditsOf('sso')).toContain('USER_ACCESS_CHANGED');
    // The same account again: no second one for the same subject.
    expect(await suite.knex('users').where({ login: DEX_USERS.jo.preferredUsername }).pluck('id')).toEqual([
      jo.id,
    ]);
  });

  it('refuses an account an administrator deactivated', async () => {
    await suite.knex('users').where({ login: DEX_USERS.jo.preferredUsername }).update({ activated: false });
    try {
      const { res } = await signInThroughDex(DEX_USERS.jo);
      expect(res.status).toBe(401);
      expect(res.body.detail).toMatch(/not activated/);
    } finally {
      await suite.knex('users').where({ login: DEX_USERS.jo.preferredUsername }).update({ activated: true });
    }
  });

  it('does not take over a local account of the same login', async () => {
    await buildUser(suite.knex, { login: DEX_USERS.taken.preferredUsername });
    const { res } = await signInThroughDex(DEX_USERS.taken);
    expect(res.status).toBe(409);
    expect(res.body.message).toBe('error.ssoAccountTaken');
    expect(await suite.knex('user_identities').where({ subject: DEX_USERS.taken.userID })).toEqual([]);
  });
});

describe('a flood of sign-ins begun', () => {
  it('is refused with 429 once 10,000 wait for their callback', async () => {
    await suite.knex.raw(
      `insert into oidc_sign_ins (state, nonce, code_verifier)
       select 'flood-' || i, 'n', 'v' from generate_series(1, 10000) i`,
    );
    try {
      const res = await suite.call('/api/oidc/authorize', { json: {} });
      expect(res.status).toBe(429);
    } finally {
      await suite.knex('oidc_sign_ins').where('state', 'like', 'flood-%').del();
    }
    expect((await suite.call('/api/oidc/authorize', { json: {} })).status).toBe(200);
  });
});

describe('refused callbacks', () => {
  const refused = (res: Res) => {
    expect(res.status).toBe(401);
    expect(res.body.message).toBe('error.ssoRefused');
  };

  it('refuses a callback without the state cookie of the browser that began the sign-in', async () => {
    const { authorizationUrl } = await begin();
    const query = await loginAtDex(authorizationUrl, DEX_USERS.jo);
    refused(await finish(query));
    refused(await finish(query, 'wb_oidc_state=another-browsers-state'));
  });

  it('refuses a replayed callback, and a replayed code under a new sign-in', async () => {
    const first = await signInThroughDex(DEX_USERS.jo);
    expect(first.res.status).toBe(200);
    refused(await finish(first.query, first.cookie));
    // A new sign-in of the same browser, answered with the first sign-in's code: the provider refuses it.
    const second = await begin();
    const state = new URL(second.authorizationUrl).searchParams.get('state')!;
    const code = new URLSearchParams(first.query).get('code')!;
    const res = await finish(`?code=${code}&state=${state}`, second.cookie);
    refused(res);
    expect(res.body.detail).toMatch(/refused/);
  });

  it("refuses an ID token whose nonce is not the sign-in's", async () => {
    const { authorizationUrl, cookie } = await begin();
    const state = new URL(authorizationUrl).searchParams.get('state');
    await suite.knex('oidc_sign_ins').where({ state }).update({ nonce: 'not-the-nonce-sent' });
    const res = await finish(await loginAtDex(authorizationUrl, DEX_USERS.jo), cookie);
    refused(res);
    expect(res.body.detail).toMatch(/nonce/);
  });

  it('refuses a forged ID token: claims altered, or signed with another key', async () => {
    for (const forge of [tamperedIdToken, resignedIdToken]) {
      proxy!.forge = forge;
      try {
        const { res } = await signInThroughDex(DEX_USERS.jo);
        refused(res);
        expect(res.body.detail).toMatch(/JWT signature verification failed/);
      } finally {
        proxy!.forge = null;
      }
    }
    expect(await suite.knex('user_identities').where({ subject: 'someone-else' })).toEqual([]);
    expect(await auditsOf('sso')).toContain('AUTHENTICATION_FAILURE');
  });
});

describe('a public client (no OIDC_CLIENT_SECRET)', () => {
  let publicDex: RunningDex | undefined;
  const publicSuite = setupSuite({
    config: async () => {
      const port = await freePort();
      const origin = `http://127.0.0.1:${port}`;
      publicDex = await startTestDex(origin, { publicClient: true });
      return { port, baseUrl: origin, oidc: dexSettings(publicDex.issuer, { publicClient: true }) };
    },
  });
  afterAll(() => publicDex?.stop());

  it('signs in with PKCE alone', async () => {
    const begun = await publicSuite.call('/api/oidc/authorize', { json: {} });
    const cookie = (begun.headers.get('set-cookie') ?? '').split(';')[0];
    const query = await loginAtDex(begun.body.authorizationUrl, DEX_USERS.lee);
    const res = await call(publicSuite.api.baseUrl, '/api/oidc/callback', {
      json: { query },
      headers: { Cookie: cookie },
    });
    expect([res.status, res.body.detail]).toEqual([200, undefined]);
    expect((await publicSuite.get('/api/account', res.body.id_token)).body.login).toBe(
      DEX_USERS.lee.preferredUsername,
    );
  });
});
