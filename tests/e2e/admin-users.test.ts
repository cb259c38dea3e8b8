/**
 * Issue 15 "done when", the user-administration part, in Chromium: an administrator creates a user with
 * READ on one process and WRITE on one node (chosen from the pickers), the user signs in in a second
 * browser context (after one failed attempt) and sees only what those authorities allow, and the
 * administrator reads the audit of that user's failed and successful sign-ins. Also the roles page.
 */
import crypto from 'node:crypto';
import knexFactory from 'knex';
import type { Browser, BrowserContext, Page } from 'playwright-core';
import { buildUser } from '../support/harness';
import { createUserWithGrants, signInAfterAFailure } from './admin-pages';
import {
  BASE_URL,
  apiToken,
  createProcess,
  launch,
  settledCount,
  shot,
  signedInPage,
  uploadNodeOf,
} from './support';

describe('user administration in Chromium', () => {
  let browser: Browser;
  const contexts: BrowserContext[] = [];
  let admin: Page;
  const suffix = crypto.randomBytes(3).toString('hex');
  const login = `annotator_${suffix}`;
  const password = 'secret123';
  let readable: { id: number; name: string };
  let nodeProcess: { id: number; name: string };
  let hidden: { id: number; name: string };
  let nodeId: number;
  let hiddenNodeId: number;

  beforeAll(async () => {
    const token = await apiToken();
    const make = async (label: string) => {
      const name = `${label} ${suffix}`;
      return { id: await createProcess(token, name), name };
    };
    readable = await make('Readable');
    nodeProcess = await make('Node only');
    hidden = await make('Hidden');
    nodeId = await uploadNodeOf(token, nodeProcess.id);
    hiddenNodeId = await uploadNodeOf(token, hidden.id);
    // An administrator of this suite (suites running beside it hold sessions of the seeded one).
    const knex = knexFactory({
      client: 'pg',
      connection: process.env.DATABASE_URL,
      pool: { min: 0, max: 1 },
    });
    const adminUser = await buildUser(knex, { roles: ['ROLE_ADMIN', 'ROLE_USER'] }).finally(() =>
      knex.destroy(),
    );
    browser = await launch();
    admin = await signedInPage(browser, contexts, adminUser);
  });

  afterAll(async () => {
    for (const c of contexts) await c.close().catch(() => undefined);
    await browser?.close();
  });

  it('creates a user with READ on a process and WRITE on a node, chosen from pickers', async () => {
    await createUserWithGrants(
      admin,
      { login, password, firstName: 'Anna', lastName: 'Notator', langKey: 'pl' },
      { readProcess: readable.name, nodeProcess: nodeProcess.name, nodeId },
    );
    await shot(admin, 'admin-user-create');
    await admin.getByTestId('user-save').click();

    await admin.waitForURL(/\/admin\/user-management$/);
    await admin.getByTestId('users-search').fill(login);
    const row = admin.locator(`[data-testid="user-row"][data-login="${login}"]`);
    await row.waitFor();
    expect(await settledCount(admin.getByTestId('user-row'), 1)).toBe(1);
    const granted = await row.getByTestId('user-row-authorities').textContent();
    expect(granted).toContain(readable.name);
    expect(granted).toContain('READ');
    expect(granted).toContain('WRITE');
    await shot(admin, 'admin-users');
  });

  it('the new user, in a second browser context, sees only what the authorities allow', async () => {
    const page = await signInAfterAFailure(browser, contexts, login, password);

    // the process list holds the process granted READ, not the others
    const processRows = page.getByTestId('process-row');
    expect(await settledCount(processRows, 1)).toBe(1);
    expect(await processRows.first().getAttribute('data-process-id')).toBe(String(readable.id));
    // the node granted WRITE is reachable; a node of another process is not
    const status = (path: string) =>
      page.evaluate(async (p) => {
        const token =
          sessionStorage.getItem('jhi-authenticationToken') ??
          localStorage.getItem('jhi-authenticationToken');
        const res = await fetch(p, { headers: { Authorization: `Bearer ${token ?? ''}` } });
        return res.status;
      }, path);
    expect(await status(`/api/nodes/${nodeId}`)).toBe(200);
    expect(await status(`/api/nodes/${hiddenNodeId}`)).toBe(403);
    expect(await status(`/api/processes/${readable.id}`)).toBe(200);
    expect(await status(`/api/processes/${hidden.id}`)).toBe(403);
    // and the pages of a process without authority say so
    await page.goto(`${BASE_URL}/entity/process/${hidden.id}/documents`);
    await page.getByTestId('not-authorized').waitFor();
    await page.goto(`${BASE_URL}/entity/process/${readable.id}/documents`);
    await page.waitForURL(new RegExp(`/entity/process/${readable.id}/documents$`));
    expect(await page.getByTestId('not-authorized').count()).toBe(0);
  });

  it("the administrator reads the audit of that user's failed and successful sign-ins", async () => {
    await admin.getByTestId('admin-menu').click();
    await admin.getByTestId('menu-admin-audits').click();
    await admin.getByTestId('audits-table').waitFor();
    const mine = admin.locator(`[data-testid="audit-row"][data-principal="${login}"]`);
    expect(await settledCount(mine, 2)).toBe(2);
    // newest first
    expect(await mine.evaluateAll((rows) => rows.map((r) => r.getAttribute('data-type')))).toEqual([
      'AUTHENTICATION_SUCCESS',
      'AUTHENTICATION_FAILURE',
    ]);
    await shot(admin, 'admin-audits');
    // a range before today holds none of them
    await admin.getByTestId('audits-from').fill('2001-01-01');
    await admin.getByTestId('audits-to').fill('2001-01-31');
    await admin.getByTestId('audits-empty').waitFor();
  });

  it('lists the roles with their authorities and edits a custom one', async () => {
    await admin.getByTestId('admin-menu').click();
    await admin.getByTestId('menu-admin-permissions').click();
    await admin.getByTestId('roles-table').waitFor();
    const builtIn = admin.locator('[data-testid="role-row"][data-name="ROLE_ADMIN"]');
    expect(await builtIn.getByTestId('role-delete').isDisabled()).toBe(true);
    const name = `ROLE_E2E_${suffix.toUpperCase()}`;
    await admin.getByTestId('roles-create').click();
    await admin.getByTestId('role-name').fill(name);
    await admin.getByTestId('role-authorities-scope').selectOption('PROCESS');
    await admin.getByTestId('role-authorities-process').selectOption({ label: readable.name });
    await admin.getByTestId('role-authorities-mode').selectOption('ADMIN');
    await admin.getByTestId('role-authorities-add').click();
    await shot(admin, 'admin-role-edit');
    await admin.getByTestId('role-save').click();
    const row = admin.locator(`[data-testid="role-row"][data-name="${name}"]`);
    await row.waitFor();
    expect(await row.textContent()).toContain(readable.name);
    await shot(admin, 'admin-roles');
    await row.getByTestId('role-delete').click();
    await admin.getByTestId('role-delete-modal-confirm').click();
    await row.waitFor({ state: 'detached' });
  });

  it('shows the administration pages in Polish', async () => {
    // (support.ts chooseLanguage waits with a string function, which the app's CSP refuses as eval)
    const language = async (locale: 'en' | 'pl', heading: string) => {
      await admin.getByTestId('language-menu').click();
      await admin.getByTestId(`language-${locale}`).click();
      await admin.getByRole('heading', { name: heading }).waitFor();
    };
    await admin.goto(`${BASE_URL}/admin/user-management`);
    await admin.getByTestId('users-table').waitFor();
    await language('pl', 'Użytkownicy');
    await shot(admin, 'admin-users-pl');
    await admin.getByTestId('admin-menu').click();
    await admin.getByTestId('menu-admin-audits').click();
    await admin.getByRole('heading', { name: 'Audyty' }).waitFor();
    await admin.getByTestId('audits-table').waitFor();
    await language('en', 'Audits');
  });
});
