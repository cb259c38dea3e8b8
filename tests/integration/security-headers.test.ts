/**
 * Issue 9, finding 8: the security headers are on every kind of answer (API JSON, error answers, the web
 * app's index.html and assets, translation files), and HSTS only on HTTPS requests.
 */
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { setupSuite, type Res } from '../support/harness';

// A tiny web app of its own, so the suite does not depend on dist/web being built.
const webDir = fs.mkdtempSync(path.join(os.tmpdir(), 'security-headers-web-'));
fs.mkdirSync(path.join(webDir, 'assets'));
fs.writeFileSync(path.join(webDir, 'index.html'), '<!doctype html><title>t</title><div id="root"></div>');
fs.writeFileSync(path.join(webDir, 'assets', 'app.js'), 'console.log(1);');

function expectSecurityHeaders(res: Res): void {
  const csp = res.headers.get('content-security-policy') ?? '';
  const directives = new Map(
    csp.split(';').map((d) => {
      const [name, ...sources] = d.trim().split(/\s+/);
      return [name, sources.join(' ')] as const;
    }),
  );
  expect(directives.get('default-src')).toBe("'self'");
  expect(directives.get('script-src')).toBe("'self'");
  expect(directives.get('style-src')).toBe("'self'");
  expect(directives.get('object-src')).toBe("'none'");
  expect(directives.get('base-uri')).toBe("'self'");
  expect(directives.get('form-action')).toBe("'self'");
  expect(directives.get('frame-ancestors')).toBe("'none'");
  expect(directives.get('img-src')).toBe("'self' data: blob:");
  expect(directives.get('media-src')).toBe("'self' blob:");
  expect(directives.get('font-src')).toBe("'self' data:");
  expect(directives.get('connect-src')).toMatch(/^'self' ws:\/\/127\.0\.0\.1:\d+ wss:\/\/127\.0\.0\.1:\d+$/);
  expect(csp).not.toContain('unsafe');
  expect(res.headers.get('x-frame-options')).toBe('DENY');
  expect(res.headers.get('x-content-type-options')).toBe('nosniff');
  expect(res.headers.get('referrer-policy')).toBe('no-referrer');
  expect(res.headers.get('cross-origin-opener-policy')).toBe('same-origin');
  expect(res.headers.get('cross-origin-resource-policy')).toBe('same-origin');
  expect(res.headers.get('permissions-policy')).toBe('camera=(), microphone=(), geolocation=()');
  // Plain HTTP: a development or test install must not pin itself to HTTPS.
  expect(res.headers.get('strict-transport-security')).toBeNull();
}

describe('security headers', () => {
  // Behind one trusted proxy (TRUST_PROXY=1), so X-Forwarded-Proto tells that the request came over HTTPS.
  const suite = setupSuite({ config: { webDir, trustProxy: 1 } });

  afterAll(() => fs.rmSync(webDir, { recursive: true, force: true }));

  it('are on an API JSON answer', async () => {
    const res = await suite.get('/api/account', suite.admin);
    expect(res.status).toBe(200);
    expectSecurityHeaders(res);
  });

  it('are on a 401 answer', async () => {
    const res = await suite.get('/api/account');
    expect(res.status).toBe(401);
    expectSecurityHeaders(res);
  });

  it('are on a 404 answer of an unknown API path', async () => {
    const res = await suite.get('/api/does-not-exist', suite.admin);
    expect(res.status).toBe(404);
    expect(res.body.message).toBe('error.url.not.found');
    expectSecurityHeaders(res);
  });

  it('are on a 400 answer for a malformed JSON body', async () => {
    const raw = await fetch(`${suite.api.baseUrl}/api/authenticate`, {
      method: 'POST',
      headers: { 'Content-Type': 'application/json' },
      body: '{"username":',
    });
    const res: Res = { status: raw.status, headers: raw.headers, body: await raw.text() };
    expect(res.status).toBe(400);
    expectSecurityHeaders(res);
  });

  it('are on index.html, a client-side route and a static asset of the web app', async () => {
    for (const p of ['/', '/entity/process/1/graph']) {
      const res = await suite.get(p);
      expect(res.status).toBe(200);
      expect(res.headers.get('content-type')).toContain('text/html');
      expectSecurityHeaders(res);
    }
    const asset = await suite.get('/assets/app.js');
    expect(asset.status).toBe(200);
    expect(asset.headers.get('content-type')).toContain('javascript');
    expectSecurityHeaders(asset);
  });

  it('are on the translation files', async () => {
    const res = await suite.get('/i18n/en.json');
    expect(res.status).toBe(200);
    expectSecurityHeaders(res);
  });

  it('keep API answers out of caches (no-store), and not the translation files', async () => {
    for (const path of ['/api/account', '/api/nope', '/management/health'])
      expect([path, (await suite.get(path, suite.admin)).headers.get('cache-control')]).toEqual([
        path,
        'no-store',
      ]);
    expect((await suite.get('/i18n/en.json')).headers.get('cache-control')).not.toBe('no-store');
  });

  it('add Strict-Transport-Security only when the request came over HTTPS', async () => {
    const res = await suite.call('/api/account', { headers: { 'X-Forwarded-Proto': 'https' } });
    expect(res.status).toBe(401);
    expect(res.headers.get('strict-transport-security')).toBe('max-age=31536000; includeSubDomains');
  });
});
