/**
 * Account settings: first name, last name, e-mail and language. A new e-mail asks for the current password
 * (the address password resets go to). Saving refetches the session and resets the session locale.
 */
import { useState, type FormEvent } from 'react';
import { useTranslation } from 'react-i18next';
import { currentPasswordForEmailRule, emailChanges, emailRule, type AccountDTO } from '@domain';
import { Field } from '../../../components/FormField';
import { useForm } from '../../../components/useForm';
import { LOCALES, clearSessionLocale, isLocale, setLocale } from '../../../i18n';
import { serverViolation, useUpdateAccount } from '../api';
import { useSession } from '../session';
import { FormInput } from './FormInput';

const NAME_MAX = 50;

function SettingsForm({ account }: { account: AccountDTO }) {
  const { t } = useTranslation();
  const update = useUpdateAccount();
  const [saved, setSaved] = useState(false);
  /** The password the API refused (its message shows until the field changes). */
  const [refused, setRefused] = useState<string | null>(null);
  const form = useForm({
    firstName: account.firstName ?? '',
    lastName: account.lastName ?? '',
    email: account.email ?? '',
    langKey: isLocale(account.langKey) ? account.langKey : 'en',
    currentPassword: '',
  });
  const { values } = form;
  const emailViolation = emailRule(values.email);
  const changesEmail = emailChanges(account.email ?? '', values.email);
  const passwordViolation =
    currentPasswordForEmailRule(account.email ?? '', values.email)(values.currentPassword) ??
    (refused !== null && refused === values.currentPassword
      ? serverViolation(update.error, 'currentPassword')
      : null);
  const invalid = !!emailViolation || (changesEmail && !!passwordViolation);

  const onSubmit = async (e: FormEvent) => {
    e.preventDefault();
    form.setSubmitted(true);
    if (invalid) return;
    setSaved(false);
    const { currentPassword, ...fields } = values;
    try {
      await update.mutateAsync(changesEmail ? { ...fields, currentPassword } : fields);
      form.setValues((v) => ({ ...v, currentPassword: '' }));
      setRefused(null);
      setSaved(true);
      clearSessionLocale();
      if (isLocale(values.langKey)) await setLocale(values.langKey, false);
    } catch {
      /* the error toast says why; a refused password also under its field */
      setRefused(currentPassword);
    }
  };

  return (
    <form onSubmit={onSubmit} noValidate className="card-body p-4">
      {saved && (
        <div className="alert alert-success" role="status" data-testid="settings-success">
          {t('settings.messages.success')}
        </div>
      )}
      {update.isError && (
        <div className="alert alert-danger" role="alert" data-testid="settings-error">
          {t('settings.messages.error.fail')}
        </div>
      )}
      <div className="row">
        <Field
          id="firstName"
          label={t('settings.form.firstname')}
          violation={null}
          show={false}
          className="col-md-6 mb-3"
        >
          <input
            {...form.text('firstName')}
            className="form-control"
            maxLength={NAME_MAX}
            autoComplete="given-name"
            data-testid="settings-firstname"
          />
        </Field>
        <Field
          id="lastName"
          label={t('settings.form.lastname')}
          violation={null}
          show={false}
          className="col-md-6 mb-3"
        >
          <input
            {...form.text('lastName')}
            className="form-control"
            maxLength={NAME_MAX}
            autoComplete="family-name"
            data-testid="settings-lastname"
          />
        </Field>
      </div>
      <FormInput
        form={form}
        name="email"
        label={t('global.form.email.label')}
        violation={emailViolation}
        type="email"
        autoComplete="email"
        testId="settings-email"
      />
      {changesEmail && (
        <FormInput
          form={form}
          name="currentPassword"
          label={t('global.form.currentpassword.label')}
          violation={passwordViolation}
          type="password"
          autoComplete="current-password"
          placeholder={t('global.form.currentpassword.placeholder')}
          testId="settings-current-password"
        >
          <div className="form-text">{t('settings.form.currentPasswordHint')}</div>
        </FormInput>
      )}
      <Field id="langKey" label={t('settings.form.language')} violation={null} show={false}>
        <select {...form.text('langKey')} className="form-select" data-testid="settings-langkey">
          {LOCALES.map((locale) => (
            <option key={locale} value={locale}>
              {t(`shell.languages.${locale}`)}
            </option>
          ))}
        </select>
      </Field>
      <button
        type="submit"
        className="btn btn-primary"
        disabled={invalid || update.isPending}
        data-testid="settings-submit"
      >
        {t('settings.form.button')}
      </button>
    </form>
  );
}

export function SettingsPage() {
  const { t } = useTranslation();
  const { account } = useSession();
  if (!account) return null;
  return (
    <div className="container page-narrow py-4">
      <h1 className="h3 mb-3">{t('settings.title', { username: account.login })}</h1>
      <div className="card shadow-sm border-0">
        <SettingsForm account={account} />
      </div>
    </div>
  );
}
