/**
 * The identity-provider logout redirect (spec 1 section 2): a URL ending in '/protocol' gets a redirect_uri of
 * the page origin; any other gets id_token_hint and post_logout_redirect_uri.
 */
export function identityProviderLogoutUrl(logoutUrl: string, idToken: string | null, origin: string): string {
  const sep = logoutUrl.includes('?') ? '&' : '?';
  if (logoutUrl.endsWith('/protocol')) return `${logoutUrl}${sep}redirect_uri=${encodeURIComponent(origin)}`;
  return (
    `${logoutUrl}${sep}id_token_hint=${encodeURIComponent(idToken ?? '')}` +
    `&post_logout_redirect_uri=${encodeURIComponent(origin)}`
  );
}
