/** Password change: current password, new password with strength meter, confirmation. */
import { type FormEvent } from 'react';
import { useTranslation } from 'react-i18next';
import { confirmPasswordRule, passwordRule, requiredRule } from '@domain';
import { useForm } from '../../../components/useForm';
import { useChangePassword } from '../api';
import { useSession } from '../session';
import { FormInput, PasswordPair } from './FormInput';

const currentRequired = requiredRule('global.messages.validate.newpassword.required');

export function PasswordPage() {
  const { t } = useTranslation();
  const { account } = useSession();
  const change = useChangePassword();
  const form = useForm({ currentPassword: '', newPassword: '', confirmPassword: '' });
  const { values } = form;
  const violations = {
    currentPassword: currentRequired(values.currentPassword),
    newPassword: passwordRule(values.newPassword),
    confirmPassword: confirmPasswordRule(values.newPassword, values.confirmPassword),
  };
  const invalid = Object.values(violations).some(Boolean);

  const onSubmit = (e: FormEvent) => {
    e.preventDefault();
    form.setSubmitted(true);
    if (invalid) return;
    change.mutate(
      { currentPassword: values.currentPassword, newPassword: values.newPassword },
      // The fields empty again, and not marked as missing.
      { onSuccess: () => form.reset({ currentPassword: '', newPassword: '', confirmPassword: '' }) },
    );
  };

  return (
    <div className="container page-narrow py-4">
      <h1 className="h3 mb-3">{t('password.title', { username: account?.login ?? '' })}</h1>
      <div className="card shadow-sm border-0">
        <form onSubmit={onSubmit} noValidate className="card-body p-4">
          {change.isSuccess && (
            <div className="alert alert-success" role="status" data-testid="password-success">
              {t('password.messages.success')}
            </div>
          )}
          {change.isError && (
            <div className="alert alert-danger" role="alert" data-testid="password-error">
              {t('password.messages.error')}
            </div>
          )}
          <FormInput
            form={form}
            name="currentPassword"
            label={t('global.form.currentpassword.label')}
            violation={violations.currentPassword}
            type="password"
            autoComplete="current-password"
            placeholder={t('global.form.currentpassword.placeholder')}
            testId="password-current"
          />
          <PasswordPair
            form={form}
            name="newPassword"
            violation={violations.newPassword}
            testId="password-new"
            confirmViolation={violations.confirmPassword}
            confirmTestId="password-confirm"
          />
          <button
            type="submit"
            className="btn btn-primary"
            disabled={invalid || change.isPending}
            data-testid="password-submit"
          >
            {t('password.form.button')}
          </button>
        </form>
      </div>
    </div>
  );
}
