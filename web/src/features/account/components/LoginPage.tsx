/** Sign-in: username, password, remember me; authenticated users go on to the Spheres (or back where they came from). */
import { useState, type FormEvent } from 'react';
import { useQuery } from '@tanstack/react-query';
import { useTranslation } from 'react-i18next';
import { Link, Navigate, useLocation, type Location } from 'react-router-dom';
import { requiredRule } from '@domain';
import { errorDetailOf } from '../../../api/errors';
import { useForm } from '../../../components/useForm';
import { useSession } from '../session';
import { managementQueries } from '../../shell/api';
import { SsoSignIn } from './SsoSignIn';
import { FormInput } from './FormInput';
import { LandingCard } from './LandingLayout';

const required = requiredRule();

function returnPath(state: unknown): string {
  const from = (state as { from?: Location } | null)?.from;
  if (!from || from.pathname.startsWith('/lp')) return '/entity/process';
  return `${from.pathname}${from.search ?? ''}${from.hash ?? ''}`;
}

export function LoginPage() {
  const { t } = useTranslation();
  const session = useSession();
  const location = useLocation();
  const form = useForm<{ username: string; password: string; rememberMe: boolean }>({
    username: '',
    password: '',
    rememberMe: false,
  });
  const [pending, setPending] = useState(false);
  const [error, setError] = useState<string | null>(null);
  const { data: info } = useQuery(managementQueries.info());

  if (session.isAuthenticated) return <Navigate to={returnPath(location.state)} replace />;

  const violations = { username: required(form.values.username), password: required(form.values.password) };
  const invalid = !!violations.username || !!violations.password;

  const onSubmit = async (e: FormEvent) => {
    e.preventDefault();
    form.setSubmitted(true);
    if (invalid) return;
    setPending(true);
    setError(null);
    try {
      await session.login({ ...form.values });
    } catch (err) {
      const detail = errorDetailOf(err);
      setError(
        detail ? `${t('login.messages.error.failed')} ${detail}` : t('login.messages.error.authentication'),
      );
    } finally {
      setPending(false);
    }
  };

  return (
    <LandingCard title={t('login.title')}>
      {error && (
        <div className="alert alert-danger" role="alert" data-testid="login-error">
          {error}
        </div>
      )}
      <form onSubmit={onSubmit} noValidate>
        <FormInput
          form={form}
          name="username"
          label={t('global.form.username.label')}
          violation={violations.username}
          autoComplete="username"
          autoFocus
          placeholder={t('global.form.username.placeholder')}
          testId="login-username"
        />
        <FormInput
          form={form}
          name="password"
          label={t('global.form.password.label')}
          violation={violations.password}
          type="password"
          autoComplete="current-password"
          placeholder={t('global.form.password.placeholder')}
          testId="login-password"
        />
        <div className="d-flex justify-content-between align-items-center mb-4">
          <div className="form-check">
            <input
              id="rememberMe"
              type="checkbox"
              className="form-check-input"
              checked={form.values.rememberMe}
              onChange={(e) => form.set('rememberMe', e.target.checked)}
              data-testid="login-remember"
            />
            <label htmlFor="rememberMe" className="form-check-label">
              {t('login.form.rememberme')}
            </label>
          </div>
          <Link to="/lp/reset/request" data-testid="login-forgot">
            {t('login.password.forgot')}
          </Link>
        </div>
        <button
          type="submit"
          className="btn btn-primary w-100"
          disabled={invalid || pending}
          data-testid="login-submit"
        >
          {pending && <span className="spinner-border spinner-border-sm me-2" aria-hidden="true" />}
          {t('login.form.button')}
        </button>
      </form>
      {info?.sso && <SsoSignIn providerName={info.sso.providerName} returnTo={returnPath(location.state)} />}
      <p className="mt-4 mb-0 text-center text-body-secondary">
        {t('global.messages.info.register.noaccount')}{' '}
        <Link to="/lp/register" data-testid="login-register">
          {t('global.messages.info.register.link')}
        </Link>
      </p>
    </LandingCard>
  );
}
