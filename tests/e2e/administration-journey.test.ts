/**
 * Issue 15's "done when" as one journey in Chromium: an administrator creates a user with READ on one process
 * and WRITE on one node; that user signs in in a second browser context (after a failed attempt) and appears
 * on the tracker page with the page they open, and sees only what the authorities allow; the administrator
 * changes a logger level, reads the audit of that user's failed and successful sign-ins, reads the metrics
 * page and opens the API docs; the user creates an API key, calls `GET api/processes` with it, deletes it,
 * and the next call is 401; the changelog shows in English and Polish. The parts are tested in depth by
 * admin-users, admin-watch, api-keys, api-docs and changelog; this suite walks them as one story.
 */
import crypto from 'node:crypto';
import type { Page } from 'playwright-core';
import { buildUser } from '../support/harness';
import { createUserWithGrants, signInAfterAFailure } from './admin-pages';
import {
  api,
  apiToken,
  BASE_URL,
  browserSuite,
  chooseLanguage,
  createProcess,
  settledCount,
  shot,
  signedInPage,
  uploadNodeOf,
} from './support';

describe('administration journey in Chromium', () => {
  const suite = browserSuite();
  let admin: Page;
  let user: Page;
  const suffix = crypto.randomBytes(3).toString('hex');
  const login = `journey_${suffix}`;
  const password = 'secret123';
  let readable: { id: number; name: string };
  let nodeProcess: { id: number; name: string };
  let hidden: { id: number; name: string };
  let nodeId: number;

  beforeAll(async () => {
    const token = await apiToken();
    const make = async (label: string) => {
      const name = `${label} ${suffix}`;
      return { id: await createProcess(token, name), name };
    };
    readable = await make('Journey readable');
    nodeProcess = await make('Journey node');
    hidden = await make('Journey hidden');
    nodeId = await uploadNodeOf(token, nodeProcess.id);
    const adminUser = await buildUser(suite.knex, { roles: ['ROLE_ADMIN', 'ROLE_USER'] });
    admin = await signedInPage(suite.browser, suite.contexts, adminUser);
  });

  const adminMenu = async (entry: string) => {
    await admin.getByTestId('admin-menu').click();
    await admin.getByTestId(`menu-admin-${entry}`).click();
  };

  it('walks the administration of issue 15 end to end', async () => {
    // 1. the administrator creates the user, its authorities chosen from the pickers
    await createUserWithGrants(
      admin,
      { login, password, firstName: 'Jan', lastName: 'Journey' },
      { readProcess: readable.name, nodeProcess: nodeProcess.name, nodeId },
    );
    await admin.getByTestId('user-save').click();
    await admin.waitForURL(/\/admin\/user-management$/);

    // 2. the administrator watches the tracker while the user signs in elsewhere (one failed attempt first)
    await adminMenu('tracker');
    await admin.waitForURL(/\/admin\/tracker$/);
    await admin.locator('[data-testid="tracker-status"][data-connected="true"]').waitFor();
    user = await signInAfterAFailure(suite.browser, suite.contexts, login, password);
    const trackerRow = admin.locator(`[data-testid="tracker-row"][data-user="${login}"]`);
    await trackerRow.getByTestId('tracker-page-cell').filter({ hasText: '/entity/process' }).waitFor();

    // 3. the user sees only what the authorities allow, and the tracker follows the page they open
    const rows = user.getByTestId('process-row');
    expect(await settledCount(rows, 1)).toBe(1);
    expect(await rows.first().getAttribute('data-process-id')).toBe(String(readable.id));
    await user.goto(`${BASE_URL}/entity/process/${hidden.id}/documents`);
    await user.getByTestId('not-authorized').waitFor();
    await user.goto(`${BASE_URL}/entity/process/${readable.id}/documents`);
    await trackerRow
      .getByTestId('tracker-page-cell')
      .filter({ hasText: `/entity/process/${readable.id}/documents` })
      .waitFor();
    // the page itself, not only its route: then nothing refused it
    await user.getByTestId('document-list').waitFor();
    expect(await user.getByTestId('not-authorized').count()).toBe(0);
    await shot(admin, '96-journey-tracker');

    // 4. a logger level changed at run time
    await adminMenu('logs');
    await admin.getByTestId('logs-filter').fill('api.http');
    await admin.locator('[data-testid="logger-row"][data-logger="api.http"]').waitFor();
    await admin.getByTestId('logger-api.http-DEBUG').click();
    await admin.locator('[data-testid="logger-row"][data-logger="api.http"][data-level="DEBUG"]').waitFor();
    await admin.getByTestId('logger-api.http-INFO').click();
    await admin.locator('[data-testid="logger-row"][data-logger="api.http"][data-level="INFO"]').waitFor();

    // 5. the audit of the user's failed and successful sign-ins, newest first
    await adminMenu('audits');
    await admin.getByTestId('audits-table').waitFor();
    const audits = admin.locator(`[data-testid="audit-row"][data-principal="${login}"]`);
    expect(await settledCount(audits, 2)).toBe(2);
    expect(await audits.evaluateAll((r) => r.map((x) => x.getAttribute('data-type')))).toEqual([
      'AUTHENTICATION_SUCCESS',
      'AUTHENTICATION_FAILURE',
    ]);

    // 6. the metrics page draws its charts; the API docs open
    await adminMenu('metrics');
    await admin
      .getByTestId('metrics-summary')
      .filter({ hasText: /Workers answering\s*1 \/ 1(?!\d)/ })
      .waitFor();
    await admin.getByTestId('chart-routes').locator('canvas').waitFor();
    await admin.getByTestId('chart-activities').waitFor();
    // the worker's own Temporal metrics, read by the API into its exposition, labelled with the worker
    const exposition = await (
      await fetch(`${BASE_URL}/management/prometheus`, { headers: { Authorization: await apiToken() } })
    ).text();
    expect(exposition).toMatch(/^workbench_worker_up\{worker="127\.0\.0\.1:\d+"\} 1$/m);
    expect(exposition).toMatch(/^temporal_worker_task_slots_available\{worker="127\.0\.0\.1:\d+",/m);
    expect(exposition.match(/^# TYPE temporal_worker_task_slots_available gauge$/gm)).toHaveLength(1);
    await adminMenu('docs');
    await admin
      .getByTestId('api-docs-swagger')
      .locator('.swagger-ui .info .title')
      .waitFor({ timeout: 30000 });

    // 7. the user's access token: created, used, deleted, refused
    await user.getByTestId('account-menu').click();
    await user.getByTestId('menu-api-keys').click();
    await user.waitForURL(`${BASE_URL}/account/api-keys`);
    await user
      .getByTestId('api-key-expiration')
      .fill(new Date(Date.now() + 7 * 86_400_000).toISOString().slice(0, 10));
    await user.getByTestId('api-key-create').click();
    const key = await user.getByTestId('api-key-token').inputValue();
    const withKey = () => fetch(`${BASE_URL}/api/processes`, { headers: { 'X-API-Key': key } });
    const listed = await withKey();
    expect(listed.status).toBe(200);
    expect(((await listed.json()) as { id: number }[]).map((p) => p.id)).toEqual([readable.id]);
    await user.getByTestId('api-key-delete').first().click();
    await user.getByTestId('api-key-delete-modal-confirm').click();
    await user.getByTestId('api-keys-empty').waitFor();
    expect((await withKey()).status).toBe(401);
    const created = await api<{ type: string; data: { prefix: string } }[]>(
      await apiToken(),
      `/management/audits?fromDate=${new Date().toISOString().slice(0, 10)}&toDate=${new Date().toISOString().slice(0, 10)}&size=100&sort=id,desc`,
    );
    expect(created.some((a) => a.type === 'API_KEY_CREATED' && a.data.prefix === key.slice(0, 12))).toBe(
      true,
    );

    // 8. the changelog in English, then in Polish
    await user.getByTestId('version-label').click();
    await user.waitForURL(`${BASE_URL}/changelog`);
    await user.locator('[data-version="v1.11"]').filter({ hasText: 'Bugfixes' }).waitFor();
    await chooseLanguage(user, 'pl');
    await user.locator('[data-version="v1.11"]').filter({ hasText: 'Poprawki błędów' }).waitFor();
    await shot(user, '97-journey-changelog-pl');
  });
});
