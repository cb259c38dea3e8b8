/** Account activation: reads the key from the URL (/lp/verify/:key or ?key=) and shows success or failure. */
import { useQuery } from '@tanstack/react-query';
import { useTranslation } from 'react-i18next';
import { Link, useParams, useSearchParams } from 'react-router-dom';
import { accountQueries } from '../api';
import { LandingCard } from './LandingLayout';

export function useKeyParam(): string | null {
  const params = useParams();
  const [search] = useSearchParams();
  return params.key || search.get('key') || null;
}

export function VerifyPage() {
  const { t } = useTranslation();
  const key = useKeyParam();
  const verify = useQuery({ ...accountQueries.verify(key ?? ''), enabled: !!key });
  const failed = !key || verify.isError;

  return (
    <LandingCard title={t('activate.title')}>
      {key && verify.isPending && (
        <div className="spinner-border text-primary" role="status" aria-label={t('global.common.loading')} />
      )}
      {verify.isSuccess && (
        <div className="alert alert-success" role="status" data-testid="verify-success">
          {t('activate.messages.success')}{' '}
          <Link to="/lp/login" className="alert-link">
            {t('global.messages.info.authenticated.link')}
          </Link>
        </div>
      )}
      {failed && (
        <div className="alert alert-danger" role="alert" data-testid="verify-error">
          {t('activate.messages.error')}{' '}
          <Link to="/lp/register" className="alert-link">
            {t('global.messages.info.register.link')}
          </Link>
        </div>
      )}
    </LandingCard>
  );
}
