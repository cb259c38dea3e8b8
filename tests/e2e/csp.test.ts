/**
 * Issue 9, finding 8 in a real browser: the web app is served under its Content-Security-Policy, and the
 * violation watcher of support.ts (which fails every e2e test on a violation) does see what the policy
 * refuses.
 */
import type { Browser, Page } from 'playwright-core';
import { BASE_URL, expectNoCspViolations, launch, shot, signIn } from './support';

describe('Content-Security-Policy in Chromium', () => {
  let browser: Browser;
  let page: Page;

  beforeAll(async () => {
    browser = await launch();
    page = await browser.newPage({ viewport: { width: 1280, height: 800 } });
  });
  afterAll(async () => {
    await browser?.close();
  });

  it('serves the app under a policy without unsafe-inline or unsafe-eval', async () => {
    const res = await page.goto(`${BASE_URL}/lp/login`);
    const csp = (await res!.allHeaders())['content-security-policy'] ?? '';
    expect(csp).toContain("script-src 'self'");
    expect(csp).toContain("style-src 'self'");
    expect(csp).toContain("frame-ancestors 'none'");
    expect(csp).not.toContain('unsafe');
    await page.getByTestId('login-username').waitFor();
  });

  it('reports an inline script and an inline style the policy refuses', async () => {
    await page.evaluate(`{
      const script = document.createElement('script');
      script.textContent = 'window.inlineRan = true;';
      document.body.append(script);
      const style = document.createElement('style');
      style.textContent = 'body { background: red; }';
      document.head.append(style);
    }`);
    expect(await page.evaluate('window.inlineRan')).toBeUndefined();
    await expect(expectNoCspViolations()).rejects.toThrow(
      /script-src-elem refused inline[\s\S]*style-src-elem/,
    );
  });

  it('runs the process list without a violation', async () => {
    await signIn(page, 'admin', 'admin');
    await page.waitForURL(/\/entity\/process$/);
    await page.getByText('Demo Sphere').first().waitFor();
    await shot(page, '30-process-list-under-csp');
  });

  // Pages no other e2e suite opens; the seeded Demo Sphere (id 1) has a graph, secrets and a dashboard.
  it.each([
    '/entity/process/new',
    '/entity/process/1/upload',
    '/entity/process/1/dashboard',
    '/entity/process/1/secrets',
    '/entity/process/1/graph',
    '/account/settings',
    '/account/password',
    '/admin/health',
    '/changelog',
    '/no/such/page',
  ])('runs %s without a violation', async (route) => {
    await page.goto(`${BASE_URL}${route}`);
    await page.waitForLoadState('networkidle');
    await page.getByTestId('navbar').waitFor();
    if (route.endsWith('/graph')) {
      await page.getByTestId('graph-node').first().waitFor();
      await shot(page, '31-demo-graph-under-csp');
    }
  });
});
