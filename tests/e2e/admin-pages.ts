/** Steps on the administration pages that several browser suites take (issue 15). */
import type { Browser, BrowserContext, Page } from 'playwright-core';
import { BASE_URL, settledCount } from './support';

/**
 * Creates a user on the user-management page, with READ on one process and WRITE on one node of another,
 * both chosen from the pickers; waits until the list shows the admin back on user management.
 */
export async function createUserWithGrants(
  admin: Page,
  user: { login: string; password: string; firstName: string; lastName: string; langKey?: string },
  grants: { readProcess: string; nodeProcess: string; nodeId: number },
): Promise<void> {
  await admin.getByTestId('admin-menu').click();
  await admin.getByTestId('menu-admin-user-management').click();
  await admin.getByTestId('users-create').click();
  await admin.getByTestId('user-login').fill(user.login);
  await admin.getByTestId('user-email').fill(`${user.login}@example.test`);
  await admin.getByTestId('user-firstName').fill(user.firstName);
  await admin.getByTestId('user-lastName').fill(user.lastName);
  await admin.getByTestId('user-password').fill(user.password);
  if (user.langKey) await admin.getByTestId('user-langKey').selectOption(user.langKey);
  await admin.getByTestId('user-authorities-scope').selectOption('PROCESS');
  await admin.getByTestId('user-authorities-process').selectOption({ label: grants.readProcess });
  await admin.getByTestId('user-authorities-mode').selectOption('READ');
  await admin.getByTestId('user-authorities-add').click();
  await admin.getByTestId('user-authorities-scope').selectOption('NODE');
  await admin.getByTestId('user-authorities-process').selectOption({ label: grants.nodeProcess });
  await admin.getByTestId('user-authorities-node').selectOption(String(grants.nodeId));
  await admin.getByTestId('user-authorities-mode').selectOption('WRITE');
  await admin.getByTestId('user-authorities-add').click();
  const rows = admin.getByTestId('user-authorities-row-name');
  expect(await settledCount(rows, 2)).toBe(2);
  expect(await rows.allTextContents()).toEqual([
    grants.readProcess,
    expect.stringContaining(grants.nodeProcess),
  ]);
}

/** Signs a user in, in a new browser context, after one attempt with a wrong password (for the audits). */
export async function signInAfterAFailure(
  browser: Browser,
  contexts: BrowserContext[],
  login: string,
  password: string,
): Promise<Page> {
  const context = await browser.newContext({ viewport: { width: 1440, height: 900 } });
  contexts.push(context);
  const page = await context.newPage();
  page.setDefaultTimeout(15000);
  await page.goto(`${BASE_URL}/lp/login`);
  await page.getByTestId('login-username').fill(login);
  await page.getByTestId('login-password').fill('not-the-password');
  await page.getByTestId('login-submit').click();
  await page.getByTestId('login-error').waitFor();
  await page.getByTestId('login-password').fill(password);
  await page.getByTestId('login-submit').click();
  await page.waitForURL(/\/entity\/process$/);
  return page;
}
