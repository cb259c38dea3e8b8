/**
 * The identity-provider logout redirect (spec 1 section 2): a URL ending in '/protocol' gets a redirect_uri of
 * the page origin; any other gets id_token_hint and post_logout_redirect_uri. The id_token_hint is the
 * provider's id token, so it is added only when the sign-in brought one (a single sign-on through the
 * provider: api/services/oidc-sign-in.ts); a password sign-in has none, and the end-session URL carries the
 * API's `client_id` instead (api/services/oidc.ts), which OpenID Connect RP-Initiated Logout accepts with
 * post_logout_redirect_uri. The workbench's own session token never goes to the provider.
 */
export function identityProviderLogoutUrl(logoutUrl: string, idToken: string | null, origin: string): string {
  const sep = logoutUrl.includes('?') ? '&' : '?';
  if (logoutUrl.endsWith('/protocol')) return `${logoutUrl}${sep}redirect_uri=${encodeURIComponent(origin)}`;
  const hint = idToken ? `id_token_hint=${encodeURIComponent(idToken)}&` : '';
  return `${logoutUrl}${sep}${hint}post_logout_redirect_uri=${encodeURIComponent(origin)}`;
}
