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

/** The seeded admin's bearer token, for setting up through the API. */
export async function apiToken(): Promise<string> {
  const res = await fetch(`${BASE_URL}/api/authenticate`, {
    method: 'POST',
    headers: { 'Content-Type': 'application/json' },
    body: JSON.stringify({ username: 'admin', password: 'admin' }),
  });
  return res.headers.get('authorization') ?? '';
}

/** A JSON call to the app's API; throws unless it succeeded. */
export async function api<T>(token: string, path: string, init: RequestInit = {}): Promise<T> {
  const res = await fetch(`${BASE_URL}${path}`, {
    ...init,
    headers: { 'Content-Type': 'application/json', Authorization: token, ...(init.headers ?? {}) },
  });
  if (!res.ok) throw new Error(`${path}: ${res.status} ${await res.text()}`);
  return (await res.json()) as T;
}

/** A new process with the first predefined tag, created through the API; its id. */
export async function createProcess(token: string, name: string): Promise<number> {
  const tags = await api<{ id: number; predefined: boolean }[]>(token, '/api/process-tags');
  const created = await api<{ id: number }>(token, '/api/processes', {
    method: 'POST',
    body: JSON.stringify({
      name,
      isRagEnabled: false,
      processTags: [{ id: tags.find((t) => t.predefined)!.id }],
      ragTextSplitter: null,
    }),
  });
  return created.id;
}
