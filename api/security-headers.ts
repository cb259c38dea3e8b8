/**
 * Security headers on every response: API JSON, error answers, the web app's files and the translation
 * files. Mounted first in the chain (before errorMiddleware), so the headers are set before any handler
 * runs and stay on whatever answer comes back, errors and 404s included.
 *
 * Decisions:
 * - The Content-Security-Policy is the one the built web app runs under; the end-to-end suite fails on any
 *   violation it reports. No 'unsafe-inline' and no 'unsafe-eval': the built index.html has no inline
 *   script or style, React sets style props through the CSSOM (not covered by style-src), and no library
 *   of the app injects <style> elements or style attributes.
 * - connect-src names ws:/wss: of the request's own host for the websocket (/websocket/...): 'self' covers
 *   them in CSP level 3 browsers only. A Host header that is not a plain host[:port] gets 'self' alone, so
 *   a forged header can never add a source or a directive.
 * - Referrer-Policy no-referrer: nothing on the server reads Referer, and page addresses carry process and
 *   document ids that links out of a document (a URL in an annotated text) must not reveal, nor should the
 *   address of the install itself. The SPA's own requests are fetches (mode cors), so they still send
 *   Origin.
 * - Strict-Transport-Security only when the request came over HTTPS (ctx.secure, which honours
 *   X-Forwarded-Proto as app.proxy is on): a plain-HTTP install (development, tests) must not pin itself.
 * - Cross-Origin-Resource-Policy same-origin: no other site can load an answer of the install as an image,
 *   script or media element (no-cors), which keeps documents and images out of cross-site side channels.
 * - Cache-Control no-store on the answers of /api and /management (accounts, documents, annotations): they
 *   stay in no browser or proxy cache. The web app's files and the translations keep their caching.
 */
import type { Context, Next } from 'koa';

const PLAIN_HOST = /^[a-z0-9.-]+(:\d{1,5})?$|^\[[0-9a-f:.]+\](:\d{1,5})?$/i;

/** The Content-Security-Policy for a request to `host` (the Host header, or '' when it is unusable). */
export function contentSecurityPolicy(host: string): string {
  const sockets = PLAIN_HOST.test(host) ? ` ws://${host} wss://${host}` : '';
  return [
    "default-src 'self'",
    "script-src 'self'",
    "style-src 'self'",
    "img-src 'self' data: blob:",
    "media-src 'self' blob:",
    "font-src 'self' data:",
    `connect-src 'self'${sockets}`,
    "object-src 'none'",
    "base-uri 'self'",
    "form-action 'self'",
    "frame-ancestors 'none'",
  ].join('; ');
}

export const STATIC_SECURITY_HEADERS: Readonly<Record<string, string>> = {
  'X-Frame-Options': 'DENY',
  'X-Content-Type-Options': 'nosniff',
  'Referrer-Policy': 'no-referrer',
  'Cross-Origin-Opener-Policy': 'same-origin',
  'Cross-Origin-Resource-Policy': 'same-origin',
  'Permissions-Policy': 'camera=(), microphone=(), geolocation=()',
};

export const HSTS = 'max-age=31536000; includeSubDomains';

function headersFor(ctx: Context): Record<string, string> {
  const headers: Record<string, string> = {
    'Content-Security-Policy': contentSecurityPolicy(ctx.host),
    ...STATIC_SECURITY_HEADERS,
  };
  if (ctx.secure) headers['Strict-Transport-Security'] = HSTS;
  return headers;
}

export async function securityHeaders(ctx: Context, next: Next): Promise<void> {
  const headers = headersFor(ctx);
  if (/^\/(api|management)(\/|$)/.test(ctx.path)) headers['Cache-Control'] = 'no-store';
  ctx.set(headers);
  try {
    await next();
  } catch (err) {
    // Koa's own error handler clears the response headers and then sets err.headers: keep ours on it.
    if (err && typeof err === 'object') {
      const e = err as { headers?: Record<string, string> };
      e.headers = { ...headers, ...(e.headers ?? {}) };
    }
    throw err;
  }
}
