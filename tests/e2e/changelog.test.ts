/**
 * Changelog (issue 15 section 4) in Chromium: reachable signed out and from the header's version label, the
 * spec's versions v1.11 to v0.10 with Features and Bugfixes after this product's releases, in English and
 * in Polish. Screenshot in tests/artifacts/.
 */
import knexFactory, { type Knex } from 'knex';
import type { Browser, BrowserContext } from 'playwright-core';
import { buildUser } from '../support/harness';
import { BASE_URL, chooseLanguage, launch, shot, signedInPage } from './support';

describe('changelog in Chromium', () => {
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

  it('shows the releases and the spec history signed out, and from the version label in English and Polish', async () => {
    const context = await browser.newContext({ viewport: { width: 1280, height: 900 } });
    contexts.push(context);
    const anonymous = await context.newPage();
    await anonymous.goto(`${BASE_URL}/changelog`);
    await anonymous.getByTestId('changelog-page').waitFor();
    const versions = await anonymous
      .getByTestId('changelog-release')
      .evaluateAll((els) => els.map((e) => e.getAttribute('data-version')));
    const history = versions.filter((v) => v?.startsWith('v'));
    expect(history[0]).toBe('v1.11');
    expect(history[history.length - 1]).toBe('v0.10');
    expect(versions.indexOf('v1.11')).toBeGreaterThan(0); // own releases first
    const v111 = anonymous.locator('[data-version="v1.11"]');
    expect(await v111.textContent()).toContain('Bugfixes');
    expect(await v111.textContent()).toContain('A completed step stays completed');
    await shot(anonymous, '92-changelog-en');

    const page = await signedInPage(browser, contexts, await buildUser(knex));
    await page.getByTestId('version-label').click();
    await page.waitForURL(`${BASE_URL}/changelog`);
    await chooseLanguage(page, 'pl');
    await page.getByRole('heading', { name: 'Historia zmian' }).waitFor();
    const pl = page.locator('[data-version="v1.11"]');
    expect(await pl.textContent()).toContain('Poprawki błędów');
    expect(await pl.textContent()).toContain('Zakończony krok pozostaje zakończony');
    await shot(page, '93-changelog-pl');
  });
});
