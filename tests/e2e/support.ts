/** Chromium (Debian) driven by playwright-core against the app started by scripts/test.ts. */
import fs from 'node:fs';
import path from 'node:path';
import { chromium, type Browser, type Locator, type Page } from 'playwright-core';

export const BASE_URL = process.env.E2E_BASE_URL ?? 'http://localhost:8080';
const ARTIFACTS = process.env.ARTIFACTS_DIR ?? path.resolve(__dirname, '..', 'artifacts');

export async function launch(): Promise<Browser> {
  return chromium.launch({
    executablePath: process.env.CHROMIUM_PATH ?? '/usr/bin/chromium',
    args: [
      '--headless',
      '--no-sandbox',
      '--disable-gpu',
      '--disable-quic',
      '--no-first-run',
      '--disable-background-networking',
      '--disable-component-update',
      '--disable-sync',
    ],
  });
}

export async function shot(page: Page, name: string): Promise<void> {
  fs.mkdirSync(ARTIFACTS, { recursive: true });
  await page.screenshot({ path: path.join(ARTIFACTS, `${name}.png`), fullPage: true });
}

export async function signIn(page: Page, username: string, password: string): Promise<void> {
  await page.goto(`${BASE_URL}/lp/login`);
  await page.getByTestId('login-username').fill(username);
  await page.getByTestId('login-password').fill(password);
  await page.getByTestId('login-submit').click();
}

/**
 * The number of elements a locator finds once the page has settled on it: lists load in several queries,
 * so a count taken at once may see a partial page. Returns the last count seen after `timeoutMs`.
 */
export async function settledCount(locator: Locator, expected: number, timeoutMs = 10000): Promise<number> {
  const until = Date.now() + timeoutMs;
  let count = await locator.count();
  while (count !== expected && Date.now() < until) {
    await new Promise((r) => setTimeout(r, 100));
    count = await locator.count();
  }
  return count;
}
