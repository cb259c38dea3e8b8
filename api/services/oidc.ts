/**
 * The identity provider's logout URL (issue 15 section 4; spec 1 section 2 "Logout"): the end-session
 * endpoint of the configured OpenID Connect provider with this client's id, so that RP-initiated logout
 * works without an id token of the provider (OpenID Connect RP-Initiated Logout 1.0 allows `client_id` with
 * `post_logout_redirect_uri`, which the web client adds). OIDC_END_SESSION_URL wins; otherwise the issuer's
 * `/.well-known/openid-configuration` is read once (the operator configures it, not a user: no SSRF guard)
 * and again a minute after a failure. Without an end-session endpoint the logout stays local.
 */
import type { OidcConfig } from '../../server/config';

const RETRY_MS = 60_000;

export function oidcLogoutUrl(
  config: OidcConfig | null,
  fetchJson: (url: string) => Promise<unknown> = defaultFetchJson,
): () => Promise<string | null> {
  let cached: string | null | undefined = config ? undefined : null;
  let failedAt = 0;
  const withClient = (endpoint: string) =>
    `${endpoint}${endpoint.includes('?') ? '&' : '?'}client_id=${encodeURIComponent(config!.clientId)}`;
  return async () => {
    if (cached !== undefined) return cached;
    if (config!.endSessionUrl) return (cached = withClient(config!.endSessionUrl));
    if (failedAt && Date.now() - failedAt < RETRY_MS) return null;
    try {
      const doc = (await fetchJson(`${config!.issuerUrl}/.well-known/openid-configuration`)) as {
        end_session_endpoint?: unknown;
      };
      const endpoint = typeof doc?.end_session_endpoint === 'string' ? doc.end_session_endpoint : null;
      return (cached = endpoint ? withClient(endpoint) : null);
    } catch (err) {
      failedAt = Date.now();
      console.warn(`[oidc] discovery at ${config!.issuerUrl} failed: ${(err as Error).message}`);
      return null;
    }
  };
}

async function defaultFetchJson(url: string): Promise<unknown> {
  const res = await fetch(url, {
    signal: AbortSignal.timeout(5000),
    headers: { Accept: 'application/json' },
  });
  if (!res.ok) throw new Error(`HTTP ${res.status}`);
  return res.json();
}
