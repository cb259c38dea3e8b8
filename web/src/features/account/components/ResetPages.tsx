/** Password reset: the request (e-mail) and the finish (new password for a key from the e-mail). */
import type { FormEvent } from 'react';
import { useTranslation } from 'react-i18next';
import { Link } from 'react-router-dom';
import { confirmPasswordRule, emailRule, passwordRule } from '@domain';
import { errorKeyOf, errorMessages } from '../../../api/errors';
import { isHttpError } from '../../../api/client';
import { useForm } from '../../../components/useForm';
import { useResetPasswordFinish, useResetPasswordInit } from '../api';
import { FormInput, PasswordPair } from './FormInput';
import { LandingCard } from './LandingLayout';
import { useKeyParam } from './VerifyPage';

export function ResetRequestPage() {
  const { t } = useTranslation();
  const init = useResetPasswordInit();
  const form = useForm({ email: '' });
  const violation = emailRule(form.values.email);

  const onSubmit = (e: FormEvent) => {
    e.preventDefault();
    form.setSubmitted(true);
    if (!violation) init.mutate(form.values.email);
  };
  const notFound =
    init.isError &&
    (errorKeyOf(init.error) === 'emailnotfound' ||
      (isHttpError(init.error) && [400, 404].includes(init.error.status)));

  return (
    <LandingCard title={t('reset.request.title')}>
      {init.isSuccess ? (
        <div className="alert alert-success" role="status" data-testid="reset-request-success">
          {t('reset.request.messages.success')}
        </div>
      ) : (
        <>
          <p className="text-body-secondary">{t('reset.request.messages.info')}</p>
          {notFound && (
            <div className="alert alert-danger" role="alert" data-testid="reset-request-notfound">
              {t('reset.request.messages.notfound')}
            </div>
          )}
          {init.isError && !notFound && (
            <div className="alert alert-danger" role="alert" data-testid="reset-request-error">
              {errorMessages(t, init.error).join(' ')}
            </div>
          )}
          <form onSubmit={onSubmit} noValidate>
            <FormInput
              form={form}
              name="email"
              label={t('global.form.email.label')}
              violation={violation}
              type="email"
              autoComplete="email"
              placeholder={t('global.form.email.placeholder')}
              testId="reset-email"
            />
            <button
              type="submit"
              className="btn btn-primary w-100"
              disabled={!!violation || init.isPending}
              data-testid="reset-request-submit"
            >
              {t('reset.request.form.button')}
            </button>
          </form>
        </>
      )}
      <p className="mt-4 mb-0 text-center">
        <Link to="/lp/login">{t('global.common.backToLogin')}</Link>
      </p>
    </LandingCard>
  );
}

export function ResetFinishPage() {
  const { t } = useTranslation();
  const key = useKeyParam();
  const finish = useResetPasswordFinish();
  const form = useForm({ newPassword: '', confirmPassword: '' });
  const { values } = form;
  const violations = {
    newPassword: passwordRule(values.newPassword),
    confirmPassword: confirmPasswordRule(values.newPassword, values.confirmPassword),
  };
  const invalid = !!violations.newPassword || !!violations.confirmPassword;

  const onSubmit = (e: FormEvent) => {
    e.preventDefault();
    form.setSubmitted(true);
    if (!invalid && key) finish.mutate({ key, newPassword: values.newPassword });
  };

  return (
    <LandingCard title={t('reset.finish.title')}>
      {!key && (
        <div className="alert alert-danger" role="alert" data-testid="reset-finish-nokey">
          {t('reset.finish.messages.keymissing')}
        </div>
      )}
      {key && finish.isSuccess && (
        <div className="alert alert-success" role="status" data-testid="reset-finish-success">
          {t('reset.finish.messages.success')}{' '}
          <Link to="/lp/login" className="alert-link">
            {t('global.messages.info.authenticated.link')}
          </Link>
        </div>
      )}
      {key && !finish.isSuccess && (
        <>
          <p className="text-body-secondary">{t('reset.finish.messages.info')}</p>
          {finish.isError && (
            <div className="alert alert-danger" role="alert" data-testid="reset-finish-error">
              {t('reset.finish.messages.error')}
            </div>
          )}
          <form onSubmit={onSubmit} noValidate>
            <PasswordPair
              form={form}
              name="newPassword"
              violation={violations.newPassword}
              testId="reset-new-password"
              confirmViolation={violations.confirmPassword}
              confirmTestId="reset-confirm-password"
            />
            <button
              type="submit"
              className="btn btn-primary w-100"
              disabled={invalid || finish.isPending}
              data-testid="reset-finish-submit"
            >
              {t('reset.finish.form.button')}
            </button>
          </form>
        </>
      )}
    </LandingCard>
  );
}
