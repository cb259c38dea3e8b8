/**
 * The foundation journey in a real browser: sign in as admin, create a process with a new user tag, find it
 * by tag and by name, switch the UI to Polish, delete the process. Screenshots go to tests/artifacts/.
 */
import crypto from 'node:crypto';
import type { Browser, Page } from 'playwright-core';
import { BASE_URL, launch, settledCount, shot, signIn } from './support';

describe('foundation journey in Chromium', () => {
  let browser: Browser;
  let page: Page;
  const suffix = crypto.randomBytes(3).toString('hex');
  const processName = `E2E Sphere ${suffix}`;
  const tagName = `e2e-${suffix}`;

  beforeAll(async () => {
    browser = await launch();
    page = await browser.newPage({ viewport: { width: 1280, height: 800 } });
  });
  afterAll(async () => {
    await browser?.close();
  });

  it('shows the sign-in page for the root URL', async () => {
    await page.goto(BASE_URL);
    await page.waitForURL(/\/lp\/login/);
    await page.getByTestId('login-username').waitFor();
    await shot(page, '01-sign-in');
  });

  it('refuses wrong credentials with the spec message', async () => {
    await signIn(page, 'admin', 'wrong-password');
    await page.getByText('Failed to sign in! Please check your credentials and try again.').waitFor();
  });

  it('signs in as admin and lands on the process list', async () => {
    await signIn(page, 'admin', 'admin');
    await page.waitForURL(/\/entity\/process$/);
    await page.getByTestId('navbar').waitFor();
    await page.getByText('Demo Sphere').first().waitFor();
    await shot(page, '02-process-list');
  });

  it('creates a process with a system tag and a new user tag, and lands on its graph page', async () => {
    await page.getByTestId('process-create').click();
    await page.waitForURL(/\/entity\/process\/new$/);
    await page.getByTestId('process-name-input').fill(processName);
    await page.getByTestId('process-tags-open').click();
    const modal = page.getByTestId('tag-modal');
    await modal.waitFor();
    await modal.getByTestId('tag-system-radio').first().check();
    await modal.getByTestId('tag-create').click();
    await page.getByTestId('tag-name-input').fill(tagName);
    await page.getByTestId('tag-color').nth(3).click();
    await shot(page, '03-create-tag');
    await page.getByTestId('tag-save').click();
    const newTag = modal.locator('label', { hasText: tagName }).getByTestId('tag-user-checkbox');
    await newTag.waitFor();
    // The modal selects a tag it has just created, asynchronously: wait for that before checking by hand.
    for (let i = 0; i < 30 && !(await newTag.isChecked()); i++) await page.waitForTimeout(100);
    if (!(await newTag.isChecked())) await newTag.check();
    await shot(page, '04-select-tags');
    await modal.getByTestId('tag-modal-close').click();
    await page.getByTestId('process-save').click();
    await page.waitForURL(/\/entity\/process\/\d+\/graph$/);
  });

  it('finds the process by tag and by a lower-case part of its name', async () => {
    await page.goto(`${BASE_URL}/entity/process`);
    await page.getByText('Demo Sphere').first().waitFor();
    await page.getByTestId('process-search-mode').selectOption('tag');
    await page.getByTestId('process-search-input').selectOption({ label: tagName });
    await page.getByTestId('process-row').filter({ hasText: processName }).waitFor();
    expect(await settledCount(page.getByTestId('process-row'), 1)).toBe(1);
    await shot(page, '05-search-by-tag');

    await page.getByTestId('process-search-mode').selectOption('name');
    await page.getByTestId('process-search-input').fill(`sphere ${suffix}`);
    await page.getByTestId('process-row').filter({ hasText: processName }).waitFor();
    expect(await settledCount(page.getByTestId('process-row'), 1)).toBe(1);
    await page.getByTestId('process-search-input').fill(`zz-no-such-${suffix}`);
    await page.getByText('No matching Spheres found.').waitFor();
  });

  it('switches the interface to Polish', async () => {
    await page.getByTestId('process-search-input').fill('');
    await page.getByTestId('language-menu').click();
    await page.getByTestId('language-pl').click();
    // Not waitForFunction("..."): a string predicate is eval()ed in the page, which the CSP refuses.
    await page.locator('html[lang="pl"]').waitFor({ state: 'attached' });
    await page.getByTestId('process-row').first().waitFor();
    expect(await page.evaluate("sessionStorage.getItem('locale')")).toBe('pl');
    await shot(page, '06-polish');
    await page.getByTestId('language-menu').click();
    await page.getByTestId('language-en').click();
    await page.locator('html[lang="en"]').waitFor({ state: 'attached' });
  });

  it('deletes the process only after its exact name is typed', async () => {
    const row = page.getByTestId('process-row').filter({ hasText: processName });
    await row.getByTestId('process-delete').click();
    const input = page.getByTestId('delete-confirm-input');
    await input.waitFor();
    await input.fill(processName.toLowerCase());
    expect(await page.getByTestId('delete-confirm-submit').isDisabled()).toBe(true);
    await input.fill(processName);
    await shot(page, '07-delete-modal');
    await page.getByTestId('delete-confirm-submit').click();
    await page.waitForURL(/\/entity\/process$/);
    await row.waitFor({ state: 'detached' });
  });

  it('keeps a signed-out visitor out of private pages and brings them back after sign-in', async () => {
    const context = await browser.newContext();
    const p = await context.newPage();
    await p.goto(`${BASE_URL}/account/settings`);
    await p.waitForURL(/\/lp\/login/);
    await p.getByTestId('login-username').fill('user');
    await p.getByTestId('login-password').fill('user');
    await p.getByTestId('login-submit').click();
    await p.waitForURL(/\/account\/settings$/);
    await p.goto(`${BASE_URL}/admin/health`);
    await p.getByText('You are not authorized to access this page.').waitFor();
    await p.goto(`${BASE_URL}/no/such/page`);
    await p.getByText('The page does not exist.').waitFor();
    await context.close();
  });
});
