/** Registration: username, email, password with strength meter, repeated password; terms and privacy placeholders. */
import { useState, type FormEvent } from 'react';
import { Trans, useTranslation } from 'react-i18next';
import { Link } from 'react-router-dom';
import { confirmPasswordRule, emailRule, loginRule, passwordRule } from '@domain';
import { errorKeyOf } from '../../../api/errors';
import { Modal } from '../../../components/Modal';
import { useForm } from '../../../components/useForm';
import { currentLocale } from '../../../i18n';
import { useRegister } from '../api';
import { FormInput, PasswordPair } from './FormInput';
import { LandingCard } from './LandingLayout';

const REGISTER_ERRORS: Record<string, string> = {
  userexists: 'register.messages.error.userexists',
  emailexists: 'register.messages.error.emailexists',
};

export function RegisterPage() {
  const { t } = useTranslation();
  const register = useRegister();
  const form = useForm({ login: '', email: '', password: '', confirmPassword: '' });
  const [doc, setDoc] = useState<'terms' | 'privacy' | null>(null);
  const { values } = form;

  const violations = {
    login: loginRule(values.login),
    email: emailRule(values.email),
    password: passwordRule(values.password),
    confirmPassword: confirmPasswordRule(values.password, values.confirmPassword),
  };
  const invalid = Object.values(violations).some(Boolean);

  const onSubmit = (e: FormEvent) => {
    e.preventDefault();
    form.setSubmitted(true);
    if (invalid) return;
    register.mutate({
      login: values.login,
      email: values.email,
      password: values.password,
      langKey: currentLocale(),
    });
  };

  const errorKey = register.isError
    ? (REGISTER_ERRORS[errorKeyOf(register.error) ?? ''] ?? 'register.messages.error.fail')
    : null;

  return (
    <LandingCard title={t('register.title')} wide>
      {register.isSuccess ? (
        <div className="alert alert-success" role="status" data-testid="register-success">
          {t('register.messages.success')}
        </div>
      ) : (
        <form onSubmit={onSubmit} noValidate>
          {errorKey && (
            <div className="alert alert-danger" role="alert" data-testid="register-error">
              {t(errorKey)}
            </div>
          )}
          <FormInput
            form={form}
            name="login"
            label={t('global.form.username.label')}
            violation={violations.login}
            autoComplete="username"
            placeholder={t('global.form.username.placeholder')}
            testId="register-username"
          />
          <FormInput
            form={form}
            name="email"
            label={t('global.form.email.label')}
            violation={violations.email}
            type="email"
            autoComplete="email"
            placeholder={t('global.form.email.placeholder')}
            testId="register-email"
          />
          <PasswordPair
            form={form}
            name="password"
            violation={violations.password}
            testId="register-password"
            confirmViolation={violations.confirmPassword}
            confirmTestId="register-confirm"
          />
          <p className="small text-body-secondary">
            <Trans
              i18nKey="register.legal.accept"
              components={{
                terms: (
                  <button
                    type="button"
                    className="btn-inline-link"
                    onClick={() => setDoc('terms')}
                    data-testid="register-terms"
                  />
                ),
                privacy: (
                  <button
                    type="button"
                    className="btn-inline-link"
                    onClick={() => setDoc('privacy')}
                    data-testid="register-privacy"
                  />
                ),
              }}
            />
          </p>
          <button
            type="submit"
            className="btn btn-primary w-100"
            disabled={invalid || register.isPending}
            data-testid="register-submit"
          >
            {register.isPending && (
              <span className="spinner-border spinner-border-sm me-2" aria-hidden="true" />
            )}
            {t('register.form.button')}
          </button>
        </form>
      )}
      <p className="mt-4 mb-0 text-center text-body-secondary">
        {t('global.messages.info.authenticated.prefix')}{' '}
        <Link to="/lp/login">{t('global.messages.info.authenticated.link')}</Link>
      </p>
      {doc && (
        <Modal
          title={t(`register.legal.${doc}.title`)}
          onClose={() => setDoc(null)}
          fullscreen
          testId={`register-${doc}-modal`}
          footer={
            <button type="button" className="btn btn-primary" onClick={() => setDoc(null)}>
              {t('global.common.close')}
            </button>
          }
        >
          <div className="legal-text">
            <p className="lead">{t(`register.legal.${doc}.intro`)}</p>
            <p>{t(`register.legal.${doc}.body`)}</p>
          </div>
        </Modal>
      )}
    </LandingCard>
  );
}
