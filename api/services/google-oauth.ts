/**
 * The OAuth authorization-code exchange of cloud-drive connections: the web app obtains a code in the
 * provider's sign-in pop-up, the API trades it at the configured token endpoint (form POST with the client
 * secret, which never leaves the API) and checks that the granted scope includes the configured one.
 */
import type { GoogleOAuthConfig } from '../../server/config';
import type { DriveConfigDTO } from '../../domain/integration-types';
import { scopeGranted } from '../../domain/integrations';
import type { GrantedTokens } from '../../domain/integration-types';

export const TOKEN_TIMEOUT_MS = 10_000;

export type { GrantedTokens };

export type ExchangeOutcome =
  { ok: true; tokens: GrantedTokens } | { ok: false; reason: 'rejected' | 'scope'; detail: string };

export function driveClientConfig(config: GoogleOAuthConfig): DriveConfigDTO {
  return {
    clientId: config.clientId,
    scope: config.scope,
    redirectUri: config.redirectUri,
    authUrl: config.authUrl,
  };
}

export async function exchangeAuthorizationCode(
  config: GoogleOAuthConfig,
  code: string,
): Promise<ExchangeOutcome> {
  let res: Response;
  try {
    res = await fetch(config.tokenUrl, {
      method: 'POST',
      headers: { 'Content-Type': 'application/x-www-form-urlencoded', Accept: 'application/json' },
      body: new URLSearchParams({
        grant_type: 'authorization_code',
        code,
        client_id: config.clientId,
        client_secret: config.clientSecret,
        redirect_uri: config.redirectUri,
      }),
      signal: AbortSignal.timeout(TOKEN_TIMEOUT_MS),
    });
  } catch (err) {
    return { ok: false, reason: 'rejected', detail: `Token endpoint unreachable: ${(err as Error).message}` };
  }
  const body = (await res.json().catch(() => ({}))) as Record<string, unknown>;
  if (!res.ok || typeof body.access_token !== 'string') {
    const why = typeof body.error === 'string' ? body.error : `HTTP ${res.status}`;
    return { ok: false, reason: 'rejected', detail: `Authorization failed (${why}).` };
  }
  const scope = typeof body.scope === 'string' ? body.scope : '';
  if (!scopeGranted(scope, config.scope)) {
    return { ok: false, reason: 'scope', detail: `The granted scope does not include ${config.scope}.` };
  }
  const expiresIn = Number(body.expires_in);
  return {
    ok: true,
    tokens: {
      accessToken: body.access_token,
      refreshToken: typeof body.refresh_token === 'string' ? body.refresh_token : null,
      expiresAt: Number.isFinite(expiresIn) ? new Date(Date.now() + expiresIn * 1000) : null,
      scope,
    },
  };
}
