/**
 * "Sign in with <provider>" (single sign-on, docs/security.md): asks the API to begin a sign-in (it keeps the
 * state, nonce and PKCE verifier, and binds them to this browser by a cookie), then leaves for the provider's
 * login page; the provider sends the browser back to /lp/oidc/callback (OidcCallbackPage).
 */
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import type { TFunction } from 'i18next';
import { HttpError, request } from '../../../api/client';
import { errorMessages } from '../../../api/errors';

/**
 * What a refused single sign-on says: the API's own key (`error.ssoRefused`, `error.ssoAccountTaken`) rather
 * than the catalogue's text for its status ("Unauthorized" for every 401).
 */
export function ssoErrorText(t: TFunction, err: unknown): string {
  const key = err instanceof HttpError ? (err.body as { message?: unknown } | null)?.message : undefined;
  if (typeof key === 'string' && key.startsWith('error.sso')) return t(key);
  return errorMessages(t, err).join(' ') || t('login.sso.failed');
}

export function SsoSignIn({ providerName, returnTo }: { providerName: string; returnTo: string }) {
  const { t } = useTranslation();
  const [pending, setPending] = useState(false);
  const [error, setError] = useState<string | null>(null);

  const begin = async () => {
    setPending(true);
    setError(null);
    try {
      const res = await request<{ authorizationUrl: string }>('api/oidc/authorize', {
        method: 'POST',
        body: { returnTo },
        silent: true,
      });
      window.location.assign(res.data.authorizationUrl);
    } catch (err) {
      setError(ssoErrorText(t, err));
      setPending(false);
    }
  };

  return (
    <div className="mt-3">
      <div className="text-center text-body-secondary small mb-3">{t('login.sso.or')}</div>
      {error && (
        <div className="alert alert-danger" role="alert">
          {error}
        </div>
      )}
      <button type="button" className="btn btn-outline-primary w-100" onClick={begin} disabled={pending}>
        {pending && <span className="spinner-border spinner-border-sm me-2" aria-hidden="true" />}
        {t('login.sso.button', { provider: providerName })}
      </button>
    </div>
  );
}
