/**
 * Changelog (issue 15 section 4) in Chromium: reachable signed out and from the header's version label, the
 * spec's versions v1.11 to v0.10 with Features and Bugfixes, then this product's releases, in English and
 * in Polish. Screenshot in tests/artifacts/.
 */
import { buildUser } from '../support/harness';
import { BASE_URL, browserSuite, chooseLanguage, shot, signedInPage } from './support';

describe('changelog in Chromium', () => {
  const suite = browserSuite();

  it('shows the releases and the spec history signed out, and from the version label in English and Polish', async () => {
    const context = await suite.browser.newContext({ viewport: { width: 1280, height: 900 } });
    suite.contexts.push(context);
    const anonymous = await context.newPage();
    await anonymous.goto(`${BASE_URL}/changelog`);
    await anonymous.getByTestId('changelog-page').waitFor();
    const versions = await anonymous
      .getByTestId('changelog-release')
      .evaluateAll((els) => els.map((e) => e.getAttribute('data-version')));
    const history = versions.filter((v) => v?.startsWith('v'));
    expect(history[0]).toBe('v1.11');
    expect(history[history.length - 1]).toBe('v0.10');
    expect(versions[0]).toBe('v1.11'); // the spec's versions first, then this product's releases
    expect(versions.indexOf('2026.11.24')).toBeGreaterThan(versions.indexOf('v0.10'));
    const v111 = anonymous.locator('[data-version="v1.11"]');
    expect(await v111.textContent()).toContain('Bugfixes');
    expect(await v111.textContent()).toContain('A completed step stays completed');
    await shot(anonymous, '92-changelog-en');

    const page = await signedInPage(suite.browser, suite.contexts, await buildUser(suite.knex));
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
