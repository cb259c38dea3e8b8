/**
 * API documentation (issue 15 section 3) in Chromium: with the api-docs profile (the e2e app runs with it)
 * the admin menu's API entry opens Swagger UI over `/v3/api-docs`, under the app's Content-Security-Policy;
 * "Try it out" on GET /api/account answers as the signed-in administrator. A plain user has no admin menu.
 * Screenshot in tests/artifacts/.
 */
import knexFactory, { type Knex } from 'knex';
import type { Browser, BrowserContext } from 'playwright-core';
import { buildUser } from '../support/harness';
import { BASE_URL, launch, shot, signedInPage } from './support';

describe('API documentation in Chromium', () => {
  let knex: Knex;
  let browser: Browser;
  const contexts: BrowserContext[] = [];

  beforeAll(async () => {
    knex = knexFactory({ client: 'pg', connection: process.env.DATABASE_URL, pool: { min: 0, max: 2 } });
    browser = await launch();
  });

  afterAll(async () => {
    for (const c of contexts) await c.close().catch(() => undefined);
    await browser?.close();
    await knex?.destroy();
  });

  it('opens Swagger UI from the admin menu and tries a route as the signed-in admin', async () => {
    const admin = await buildUser(knex, { roles: ['ROLE_ADMIN', 'ROLE_USER'] });
    const page = await signedInPage(browser, contexts, admin);
    const violations: string[] = [];
    page.on('console', (m) => {
      if (/Content Security Policy|Refused to/.test(m.text())) violations.push(m.text());
    });
    await page.getByTestId('admin-menu').click();
    await page.getByTestId('menu-admin-docs').click();
    await page.waitForURL(`${BASE_URL}/admin/docs`);
    const swagger = page.getByTestId('api-docs-swagger');
    await swagger.locator('.swagger-ui .info .title').waitFor({ timeout: 30000 });
    expect(await swagger.locator('.opblock-tag-section').count()).toBeGreaterThan(20);

    const tag = swagger.locator('.opblock-tag-section').filter({ has: page.locator('[data-tag="account"]') });
    await tag.locator('.opblock-tag').click();
    const op = tag.locator('.opblock-get').filter({ hasText: '/api/account' }).first();
    await op.locator('.opblock-summary').click();
    await op.getByRole('button', { name: 'Try it out' }).click();
    await op.getByRole('button', { name: 'Execute' }).click();
    // the live response: status 200 and the admin's account in its body
    const live = op.locator('.live-responses-table');
    await live.filter({ hasText: admin.login }).waitFor({ timeout: 30000 });
    expect(await live.locator('tbody .response-col_status').first().textContent()).toContain('200');
    await shot(page, '94-api-docs');
    expect(violations).toEqual([]);

    const user = await signedInPage(browser, contexts, await buildUser(knex));
    expect(await user.getByTestId('admin-menu').count()).toBe(0);
  });
});
