/**
 * Watching the system in Chromium (issue 15 section 2): a user signed in in a second browser context
 * appears on the admin's tracker page with the page they open, live, and leaves it when they sign out; the
 * admin changes a logger level; the metrics page draws its charts; health, configuration and HTTP logs show.
 */
import knexFactory, { type Knex } from 'knex';
import type { Browser, BrowserContext, Page } from 'playwright-core';
import { buildUser, type BuiltUser } from '../support/harness';
import { BASE_URL, api, apiToken, launch, shot, signedInPage } from './support';

describe('administration: tracker, logs, metrics in Chromium', () => {
  let browser: Browser;
  let knex: Knex;
  const contexts: BrowserContext[] = [];
  let admin: Page;
  let user: BuiltUser;
  let token: string;

  beforeAll(async () => {
    knex = knexFactory({ client: 'pg', connection: process.env.DATABASE_URL, pool: { min: 0, max: 2 } });
    user = await buildUser(knex);
    token = await apiToken();
    browser = await launch();
    admin = await signedInPage(browser, contexts, { login: 'admin', password: 'admin' });
  });

  afterAll(async () => {
    for (const c of contexts) await c.close();
    await browser?.close();
    await knex?.destroy();
  });

  it('lists a user signed in elsewhere with the page they open, live, and drops them at sign-out', async () => {
    await admin.getByTestId('admin-menu').click();
    await admin.getByTestId('menu-admin-tracker').click();
    await admin.waitForURL(/\/admin\/tracker$/);
    await admin.locator('[data-testid="tracker-status"][data-connected="true"]').waitFor();

    const other = await signedInPage(browser, contexts, user);
    const row = admin.locator(`[data-testid="tracker-row"][data-user="${user.login}"]`);
    await row.getByTestId('tracker-page-cell').filter({ hasText: '/entity/process' }).waitFor();
    await other.getByTestId('account-menu').click();
    await other.getByTestId('menu-settings').click();
    await other.waitForURL(/\/account\/settings$/);
    await row.getByTestId('tracker-page-cell').filter({ hasText: '/account/settings' }).waitFor();
    // The admin's own session is listed too, on the tracker page.
    await admin
      .locator('[data-testid="tracker-row"][data-user="admin"]')
      .getByTestId('tracker-page-cell')
      .filter({ hasText: '/admin/tracker' })
      .first()
      .waitFor();
    await shot(admin, 'admin-tracker');

    await other.goto(`${BASE_URL}/lp/logout`);
    await other.waitForURL(/\/lp\/login$/);
    await row.waitFor({ state: 'detached' });
  });

  it('links the admin menu to the Temporal UI', async () => {
    await admin.getByTestId('admin-menu').click();
    expect(await admin.getByTestId('menu-admin-temporal').getAttribute('href')).toBe(
      'http://127.0.0.1:8233/namespaces/default/workflows',
    );
    await admin.keyboard.press('Escape');
  });

  it('changes a logger level at run time', async () => {
    await admin.getByTestId('admin-menu').click();
    await admin.getByTestId('menu-admin-logs').click();
    await admin.getByTestId('logs-filter').fill('api.http');
    const row = admin.locator('[data-testid="logger-row"][data-logger="api.http"]');
    await row.waitFor();
    await admin.getByTestId('logger-api.http-DEBUG').click();
    await admin.locator('[data-testid="logger-row"][data-logger="api.http"][data-level="DEBUG"]').waitFor();
    const loggers = await api<{ loggers: Record<string, { configuredLevel: string }> }>(
      token,
      '/management/loggers',
    );
    expect(loggers.loggers['api.http'].configuredLevel).toBe('DEBUG');
    await shot(admin, 'admin-logs');
    await api(token, '/management/loggers/api.http', {
      method: 'POST',
      body: JSON.stringify({ configuredLevel: null }),
    }).catch(() => undefined); // 204 has no JSON body
  });

  it('reads the metrics page: charts drawn, thread dump shown', async () => {
    await admin.getByTestId('admin-menu').click();
    await admin.getByTestId('menu-admin-metrics').click();
    await admin.getByTestId('metrics-summary').waitFor();
    for (const chart of ['chart-memory', 'chart-routes', 'chart-workflows']) {
      const canvas = admin.getByTestId(chart).locator('canvas');
      await canvas.waitFor();
      // Chart.js has sized and painted the canvas: some pixel is not transparent.
      const painted = await canvas.evaluate((node) => {
        const el = node as unknown as {
          width: number;
          height: number;
          getContext(
            kind: '2d',
          ): { getImageData(x: number, y: number, w: number, h: number): { data: ArrayLike<number> } } | null;
        };
        const ctx = el.getContext('2d');
        if (!ctx || el.width === 0 || el.height === 0) return false;
        const data = ctx.getImageData(0, 0, el.width, el.height).data;
        for (let i = 3; i < data.length; i += 4) if (data[i] !== 0) return true;
        return false;
      });
      expect([chart, painted]).toEqual([chart, true]);
    }
    await admin.getByTestId('thread-dump').waitFor();
    await shot(admin, 'admin-metrics');
  });

  it('shows health, configuration (masked) and HTTP logs', async () => {
    await admin.goto(`${BASE_URL}/admin/health`);
    await admin.getByTestId('health-db').filter({ hasText: 'UP' }).waitFor();
    await admin.getByTestId('health-diskSpace').waitFor();
    await shot(admin, 'admin-health');

    await admin.goto(`${BASE_URL}/admin/configuration`);
    const dbUrl = admin.locator('[data-testid="env-row"][data-key="DATABASE_URL"]');
    await dbUrl.waitFor();
    // postgres://user:******@host/db
    expect(await dbUrl.textContent()).toMatch(/:\/\/[^:/]*:\*{6}@/);
    await shot(admin, 'admin-configuration');

    await admin.goto(`${BASE_URL}/admin/http-logs`);
    await admin.getByTestId('http-log-row').first().waitFor();
    expect(await admin.getByTestId('http-log-row').count()).toBe(25);
    await shot(admin, 'admin-http-logs');
  });
});
