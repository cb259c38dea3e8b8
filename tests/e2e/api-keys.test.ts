/**
 * Access tokens (issue 15 section 3) in Chromium: a user opens Access tokens from the account menu, creates a
 * token with an expiration date, sees it once, calls `GET api/processes` with it, finds it gone after a
 * reload (only its prefix is listed), deletes it with a confirmation, and the next call is 401. The page
 * in Polish. Screenshot in tests/artifacts/.
 */
import knexFactory, { type Knex } from 'knex';
import type { Browser, BrowserContext } from 'playwright-core';
import { buildProcess, buildUser, type BuiltUser } from '../support/harness';
import { BASE_URL, chooseLanguage, launch, shot, signedInPage } from './support';

describe('access tokens in Chromium', () => {
  let knex: Knex;
  let browser: Browser;
  let user: BuiltUser;
  let processId: number;
  const contexts: BrowserContext[] = [];

  beforeAll(async () => {
    knex = knexFactory({ client: 'pg', connection: process.env.DATABASE_URL, pool: { min: 0, max: 2 } });
    processId = (await buildProcess(knex)).id;
    user = await buildUser(knex, {
      authorities: [{ componentId: processId, type: 'PROCESS', mode: 'READ' }],
    });
    browser = await launch();
  });

  afterAll(async () => {
    for (const c of contexts) await c.close().catch(() => undefined);
    await browser?.close();
    await knex?.destroy();
  });

  const processesWith = (token: string) =>
    fetch(`${BASE_URL}/api/processes`, { headers: { 'X-API-Key': token } });

  it('creates a token shown once, calls the API with it, deletes it, and the next call is 401', async () => {
    const page = await signedInPage(browser, contexts, user);
    await page.getByTestId('account-menu').click();
    await page.getByTestId('menu-api-keys').click();
    await page.waitForURL(`${BASE_URL}/account/api-keys`);
    await page.getByTestId('api-keys-empty').waitFor();

    // a past date is refused in the form
    await page.getByTestId('api-key-expiration').fill('2020-01-01');
    await page.getByTestId('api-key-create').click();
    await page.getByTestId('api-key-expiration-error').waitFor();

    const day = new Date(Date.now() + 30 * 86_400_000).toISOString().slice(0, 10);
    await page.getByTestId('api-key-expiration').fill(day);
    await page.getByTestId('api-key-create').click();
    const token = await page.getByTestId('api-key-token').inputValue();
    expect(token).toMatch(/^wbk_/);
    await page.getByTestId('api-key-row').first().waitFor();
    expect(await page.getByTestId('api-key-row').count()).toBe(1);
    expect(await page.getByTestId('api-key-row').first().textContent()).toContain(token.slice(0, 12));
    await shot(page, '90-api-keys-created');

    const listed = await processesWith(token);
    expect(listed.status).toBe(200);
    expect(((await listed.json()) as { id: number }[]).map((p) => p.id)).toContain(processId);

    await page.reload();
    await page.getByTestId('api-key-row').first().waitFor();
    expect(await page.getByTestId('api-key-created').count()).toBe(0);
    expect(await page.locator('body').textContent()).not.toContain(token);
    // used just now
    expect(await page.getByTestId('api-key-row').first().textContent()).not.toContain('never');

    await page.getByTestId('api-key-delete').first().click();
    await page.getByTestId('api-key-delete-modal-confirm').click();
    await page.getByTestId('api-keys-empty').waitFor();
    expect((await processesWith(token)).status).toBe(401);

    await chooseLanguage(page, 'pl');
    await page.getByRole('heading', { name: 'Tokeny dostępu' }).waitFor();
    expect(await page.getByTestId('api-key-create').textContent()).toBe('Utwórz token');
    await shot(page, '91-api-keys-pl');
  });
});
