/**
 * What the browser parts of `npm run bench` share (scripts/bench-workspace.ts, bench-graph.ts,
 * bench-speech.ts): the Chromium to drive and a built web app, or the reason the part is skipped; the
 * machine a figure was measured on; the sign-in of a page.
 */
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import type { Browser, BrowserContext, Page } from 'playwright-core';
import { buildWebIfStale, ROOT } from './prepare';
import { locateTool } from './system-deps';

export interface BenchMachine {
  cpus: number;
  model: string;
  loadavg: number[];
  memoryGb: number;
  chromium: string;
}

/** Chromium's path with dist/web built (when stale), or why the browser part cannot run. */
export function prepareBrowserBench(): { executablePath: string } | { skipped: string } {
  const executablePath = locateTool('chromium', process.env);
  if (!executablePath)
    return { skipped: 'Chromium not found (bash scripts/install-system-deps.sh chromium, or CHROMIUM_PATH)' };
  try {
    buildWebIfStale();
  } catch (e) {
    if (!fs.existsSync(path.join(ROOT, 'dist', 'web', 'index.html')))
      return { skipped: `dist/web is missing and the web build failed: ${(e as Error).message}` };
    console.log('[bench] the web build failed: measuring the dist/web already there');
  }
  return { executablePath };
}

const round2 = (x: number) => Math.round(x * 100) / 100;

export function benchMachine(browser: Browser): BenchMachine {
  return {
    cpus: os.cpus().length,
    model: os.cpus()[0]?.model ?? '',
    loadavg: os.loadavg().map(round2),
    memoryGb: Math.round((os.totalmem() / 1024 ** 3) * 10) / 10,
    chromium: browser.version(),
  };
}

/** Signs a user in through the login page, until the process list shows. */
export async function signInPage(
  page: Page,
  base: string,
  username: string,
  password: string,
): Promise<void> {
  await page.goto(`${base}/lp/login`);
  await page.getByTestId('login-username').fill(username);
  await page.getByTestId('login-password').fill(password);
  await page.getByTestId('login-submit').click();
  await page.waitForURL(/\/entity\/process$/);
}

/**
 * A fresh browser context (nothing cached) with a page signed in as the user, 1440x900. tsx compiles the
 * bench keeping function names (`__name(fn, "name")`), also inside page.evaluate's functions: the page gets
 * the helper. Close the context when done.
 */
export async function signedInContext(
  browser: Browser,
  base: string,
  username: string,
  password: string,
): Promise<{ context: BrowserContext; page: Page }> {
  const context = await browser.newContext({ viewport: { width: 1440, height: 900 } });
  await context.addInitScript({ content: 'globalThis.__name = (f) => f;' });
  const page = await context.newPage();
  page.setDefaultTimeout(60_000);
  await signInPage(page, base, username, password);
  return { context, page };
}
