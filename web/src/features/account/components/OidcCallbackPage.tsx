/**
 * Where the identity provider sends the browser back after a single sign-on (`/lp/oidc/callback?code&state`):
 * the query string goes to the API once (it checks state, nonce and PKCE, and answers with this product's
 * token), then on to where the person was going; a refusal is shown with the way back to the sign-in page.
 */
import { useEffect, useRef, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { Link, useLocation, useNavigate } from 'react-router-dom';
import { useSession } from '../session';
import { LandingCard } from './LandingLayout';
import { ssoErrorText } from './SsoSignIn';

export function OidcCallbackPage() {
  const { t } = useTranslation();
  const { loginWithProvider } = useSession();
  const { search } = useLocation();
  const navigate = useNavigate();
  const [error, setError] = useState<string | null>(null);
  // One attempt per page: the API takes the sign-in's state at the first, a second would be refused.
  const sent = useRef(false);

  useEffect(() => {
    if (sent.current) return;
    sent.current = true;
    loginWithProvider(search)
      .then((returnTo) => navigate(returnTo ?? '/entity/process', { replace: true }))
      .catch((err) => setError(ssoErrorText(t, err)));
  }, [loginWithProvider, navigate, search, t]);

  return (
    <LandingCard title={t('login.title')}>
      {error ? (
        <>
          <div className="alert alert-danger" role="alert">
            {error}
          </div>
          <Link to="/lp/login">{t('login.sso.back')}</Link>
        </>
      ) : (
        <div className="text-center text-body-secondary py-3" role="status">
          {t('login.sso.finishing')}
        </div>
      )}
    </LandingCard>
  );
}
