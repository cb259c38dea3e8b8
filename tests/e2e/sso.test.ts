/**
 * Single sign-on in Chromium against a real OpenID Connect provider (Dex, tests/support/dex.ts), with an API
 * of this suite's own configured for it: a person clicks "Sign in with Dex", signs in on Dex's own login
 * page, lands in the product with the role the provider's groups map to (Kate: wb-admins, so ROLE_ADMIN and
 * the Administration menu; Jo: no mapped group, a plain user), and signs out of both: the product's token
 * stops working and Dex (v2.45 keeps no login session) asks for the password again at the next sign-in.
 * Screenshots go to tests/artifacts/.
 */
import type { BrowserContext, Page } from 'playwright-core';
import type { RunningDex } from '../../scripts/lib/dex';
import { freePort } from '../../scripts/lib/ports';
import { DEX_USERS, dexSettings, startTestDex } from '../support/dex';
import { call, startTestApi, type TestApi } from '../support/harness';
import { chooseLanguage, launch, shot } from './support';

describe('single sign-on through Dex in Chromium', () => {
  let dex: RunningDex;
  let api: TestApi;
  let browser: Awaited<ReturnType<typeof launch>>;
  const contexts: BrowserContext[] = [];

  beforeAll(async () => {
    const port = await freePort();
    const origin = `http://127.0.0.1:${port}`;
    dex = await startTestDex(origin);
    api = await startTestApi({ port, baseUrl: origin, oidc: dexSettings(dex.issuer) });
    browser = await launch();
  }, 120_000);

  afterAll(async () => {
    for (const c of contexts) await c.close().catch(() => undefined);
    await browser?.close();
    await api?.close();
    await dex?.stop();
  });

  async function newPage(): Promise<Page> {
    const context = await browser.newContext({ viewport: { width: 1280, height: 860 } });
    contexts.push(context);
    const page = await context.newPage();
    page.setDefaultTimeout(20000);
    return page;
  }

  /** From the product's sign-in page through Dex's login page; back on the product's page after. */
  async function signInWithDex(page: Page, user: { email: string; password: string }, shotName?: string) {
    await page.getByRole('button', { name: 'Sign in with Dex' }).click();
    await page.waitForURL((url) => url.href.startsWith(dex.issuer));
    await page.getByLabel('Email Address').fill(user.email);
    await page.getByLabel('Password').fill(user.password);
    if (shotName) await shot(page, shotName);
    await page.getByRole('button', { name: 'Login' }).click();
  }

  const sessionToken = (page: Page) => page.evaluate(() => sessionStorage.getItem('jhi-authenticationToken'));

  it('signs Kate in through Dex as an administrator, back where she was going, and out of both', async () => {
    const page = await newPage();
    await page.goto(`${api.baseUrl}/account/settings`);
    await page.waitForURL(/\/lp\/login$/);
    await page.getByRole('button', { name: 'Sign in with Dex' }).waitFor();
    await shot(page, 'sso-sign-in-page');

    await signInWithDex(page, DEX_USERS.kate, 'sso-dex-login-page');
    await page.waitForURL(/\/account\/settings$/);
    await page.getByRole('button', { name: DEX_USERS.kate.preferredUsername }).waitFor();
    await page.getByRole('button', { name: 'Administration' }).waitFor();
    await shot(page, 'sso-signed-in-admin');
    const token = await sessionToken(page);
    // The provider's ID token is kept for the logout's id_token_hint, also across a reload.
    await page.reload();
    await page.getByRole('button', { name: DEX_USERS.kate.preferredUsername }).waitFor();
    expect(await page.evaluate(() => sessionStorage.getItem('wb-idp-id-token'))).toMatch(
      /^[\w-]+\.[\w-]+\.[\w-]+$/,
    );
    const account = await call(api.baseUrl, '/api/account', { token: token ?? undefined });
    expect(account.body).toMatchObject({
      login: DEX_USERS.kate.preferredUsername,
      roles: ['ROLE_ADMIN', 'ROLE_USER'],
    });

    await page.getByRole('button', { name: DEX_USERS.kate.preferredUsername }).click();
    // The server-side sign-out is sent without waiting for it: wait for its answer here.
    const loggedOut = page.waitForResponse((r) => r.url().endsWith('/api/logout'));
    await page.getByRole('link', { name: 'Sign out' }).click();
    expect((await loggedOut).status()).toBe(204);
    await page.waitForURL(/\/lp\/login$/);
    expect((await call(api.baseUrl, '/api/account', { token: token ?? undefined })).status).toBe(401);
    expect(await page.evaluate(() => sessionStorage.getItem('wb-idp-id-token'))).toBeNull();
    // Signed out at the provider too: no session there signs her in again without her password.
    await page.getByRole('button', { name: 'Sign in with Dex' }).click();
    await page.waitForURL((url) => url.href.startsWith(dex.issuer));
    await page.getByLabel('Password').waitFor();
    expect(await page.getByLabel('Password').inputValue()).toBe('');
    await shot(page, 'sso-dex-asks-again');
  });

  it('signs Jo in as a plain user: no administration menu', async () => {
    const page = await newPage();
    await page.goto(`${api.baseUrl}/lp/login`);
    await signInWithDex(page, DEX_USERS.jo);
    await page.waitForURL(/\/entity\/process$/);
    await page.getByRole('button', { name: DEX_USERS.jo.preferredUsername }).waitFor();
    expect(await page.getByRole('button', { name: 'Administration' }).count()).toBe(0);
  });

  it('says so in Polish when a callback is refused, with the way back to the sign-in page', async () => {
    const page = await newPage();
    await page.goto(`${api.baseUrl}/lp/login`);
    await chooseLanguage(page, 'pl');
    await page.goto(`${api.baseUrl}/lp/oidc/callback?code=forged&state=not-begun-here`);
    await page
      .getByRole('alert')
      .filter({ hasText: 'Logowanie przez dostawcę tożsamości zostało odrzucone' })
      .waitFor();
    await page.getByRole('link', { name: 'Wróć do strony logowania' }).waitFor();
    await shot(page, 'sso-refused-pl');
  });
});
