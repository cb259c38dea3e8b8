/** Sign-out: clears the session, then goes to the identity provider's logout page when one is set, else to sign-in. */
import { useEffect } from 'react';
import { useTranslation } from 'react-i18next';
import { useNavigate } from 'react-router-dom';
import { useSession } from '../session';

export function LogoutPage() {
  const { t } = useTranslation();
  const { logout } = useSession();
  const navigate = useNavigate();

  useEffect(() => {
    const external = logout();
    if (!external) navigate('/lp/login', { replace: true });
  }, [logout, navigate]);

  return (
    <div className="text-center text-body-secondary py-5" data-testid="logout">
      {t('logout.title')}
    </div>
  );
}
