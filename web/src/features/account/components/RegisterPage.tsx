/** Registration: username, email, password with strength meter, repeated password; terms and privacy placeholders. */
import { useState, type FormEvent } from 'react';
import { Trans, useTranslation } from 'react-i18next';
import { Link } from 'react-router-dom';
import { confirmPasswordRule, emailRule, loginRule, passwordRule } from '@domain';
import { errorKeyOf } from '../../../api/errors';
import { Field, inputClass } from '../../../components/FormField';
import { Modal } from '../../../components/Modal';
import { PasswordStrengthBar } from '../../../components/PasswordStrengthBar';
import { useForm } from '../../../components/useForm';
import { currentLocale } from '../../../i18n';
import { useRegister } from '../api';
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
          <Field
            id="login"
            label={t('global.form.username.label')}
            violation={violations.login}
            show={form.show('login')}
          >
            <input
              {...form.text('login')}
              className={inputClass(violations.login, form.show('login'))}
              autoComplete="username"
              placeholder={t('global.form.username.placeholder')}
              data-testid="register-username"
            />
          </Field>
          <Field
            id="email"
            label={t('global.form.email.label')}
            violation={violations.email}
            show={form.show('email')}
          >
            <input
              {...form.text('email')}
              type="email"
              className={inputClass(violations.email, form.show('email'))}
              autoComplete="email"
              placeholder={t('global.form.email.placeholder')}
              data-testid="register-email"
            />
          </Field>
          <Field
            id="password"
            label={t('global.form.newpassword.label')}
            violation={violations.password}
            show={form.show('password')}
          >
            <input
              {...form.text('password')}
              type="password"
              className={inputClass(violations.password, form.show('password'))}
              autoComplete="new-password"
              placeholder={t('global.form.newpassword.placeholder')}
              data-testid="register-password"
            />
            <PasswordStrengthBar password={values.password} />
          </Field>
          <Field
            id="confirmPassword"
            label={t('global.form.confirmpassword.label')}
            violation={violations.confirmPassword}
            show={form.show('confirmPassword')}
          >
            <input
              {...form.text('confirmPassword')}
              type="password"
              className={inputClass(violations.confirmPassword, form.show('confirmPassword'))}
              autoComplete="new-password"
              placeholder={t('global.form.confirmpassword.placeholder')}
              data-testid="register-confirm"
            />
          </Field>
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
