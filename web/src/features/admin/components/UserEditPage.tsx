/**
 * Create or edit a user (issue 15 section 1): login, first and last name, e-mail, activated, language,
 * roles, and authorities per process and node with their modes (AuthorityEditor's pickers). A new user
 * gets the password typed here, or (left empty) a mail with a link to choose it. Created and last-modified
 * by and when are shown for an existing user. Rules are the domain's (domain/validation.ts,
 * domain/user-admin.ts), the same the API applies.
 */
import { useState, type FormEvent } from 'react';
import { useQuery } from '@tanstack/react-query';
import { useTranslation } from 'react-i18next';
import { Link, useNavigate, useParams } from 'react-router-dom';
import type { AdminUserDTO } from '@domain/api-types';
import { emailRule, loginRule, passwordRule } from '@domain/validation';
import { personNameRule, USER_LANG_KEYS, type AuthorityInput } from '@domain/user-admin';
import { DelayedSpinner } from '../../../components/DelayedSpinner';
import { Field, inputClass } from '../../../components/FormField';
import { IconArrowLeft } from '../../../components/icons';
import { useForm } from '../../../components/useForm';
import { formatDate } from '../../../components/format';
import { useSession } from '../../account/session';
import { adminQueries, authorityInput, useSaveUser } from '../api';
import { AuthorityEditor } from './AuthorityEditor';

function UserForm({ user }: { user: AdminUserDTO | null }) {
  const { t } = useTranslation();
  const navigate = useNavigate();
  const { account } = useSession();
  const save = useSaveUser();
  const roles = useQuery(adminQueries.roles());
  const form = useForm({
    login: user?.login ?? '',
    firstName: user?.firstName ?? '',
    lastName: user?.lastName ?? '',
    email: user?.email ?? '',
    activated: user?.activated ?? true,
    langKey: user?.langKey ?? 'en',
    password: '',
  });
  const [userRoles, setUserRoles] = useState<string[]>(user?.roles ?? ['ROLE_USER']);
  const [authorities, setAuthorities] = useState<AuthorityInput[]>(
    (user?.authorities ?? []).map(authorityInput),
  );
  const { values } = form;
  const own = !!user && account?.id === user.id;
  const violations = {
    login: loginRule(values.login),
    email: emailRule(values.email),
    firstName: personNameRule(values.firstName),
    lastName: personNameRule(values.lastName),
    password: !user && values.password ? passwordRule(values.password) : null,
  };
  const invalid = Object.values(violations).some(Boolean);

  const onSubmit = async (e: FormEvent) => {
    e.preventDefault();
    form.setSubmitted(true);
    if (invalid) return;
    try {
      await save.mutateAsync({
        id: user?.id,
        login: values.login.trim(),
        firstName: values.firstName.trim() || null,
        lastName: values.lastName.trim() || null,
        email: values.email.trim(),
        activated: values.activated,
        langKey: values.langKey,
        roles: userRoles,
        authorities,
        ...(user || !values.password ? {} : { password: values.password }),
      });
      navigate('/admin/user-management');
    } catch {
      /* the error toast says why (e.g. login already used, own admin role) */
    }
  };

  const textField = (name: 'login' | 'firstName' | 'lastName' | 'email' | 'password', type = 'text') => (
    <Field
      id={`user-${name}`}
      label={t(`userManagement.field.${name}`)}
      violation={violations[name]}
      show={form.show(name)}
      className="col-md-6 mb-3"
      help={name === 'password' ? t('userManagement.passwordHelp') : undefined}
    >
      <input
        {...form.text(name)}
        id={`user-${name}`}
        type={type}
        autoComplete={name === 'password' ? 'new-password' : 'off'}
        className={inputClass(violations[name], form.show(name))}
        data-testid={`user-${name}`}
      />
    </Field>
  );

  return (
    <form onSubmit={onSubmit} noValidate className="card-body p-4" data-testid="user-form">
      <div className="row">
        {textField('login')}
        {textField('email', 'email')}
        {textField('firstName')}
        {textField('lastName')}
        {!user && textField('password', 'password')}
        <div className="col-md-3 mb-3">
          <label htmlFor="user-langKey" className="form-label">
            {t('userManagement.field.langKey')}
          </label>
          <select
            {...form.text('langKey')}
            id="user-langKey"
            className="form-select"
            data-testid="user-langKey"
          >
            {USER_LANG_KEYS.map((l) => (
              <option key={l} value={l}>
                {t(`shell.languages.${l}`)}
              </option>
            ))}
          </select>
        </div>
        <div className="col-md-3 mb-3 d-flex align-items-end">
          <div className="form-check form-switch mb-2">
            <input
              id="user-activated"
              type="checkbox"
              role="switch"
              className="form-check-input"
              checked={values.activated}
              disabled={own}
              onChange={(e) => form.set('activated', e.target.checked)}
              data-testid="user-activated"
            />
            <label className="form-check-label" htmlFor="user-activated">
              {t('userManagement.activated')}
            </label>
          </div>
        </div>
      </div>

      <fieldset className="mb-3">
        <legend className="h6">{t('userManagement.field.roles')}</legend>
        <div className="d-flex flex-wrap gap-3" data-testid="user-roles">
          {(roles.data ?? []).map((r) => (
            <div key={r.id} className="form-check">
              <input
                id={`user-role-${r.id}`}
                type="checkbox"
                className="form-check-input"
                checked={userRoles.includes(r.name)}
                disabled={own && r.name === 'ROLE_ADMIN'}
                onChange={(e) =>
                  setUserRoles((list) =>
                    e.target.checked ? [...list, r.name] : list.filter((n) => n !== r.name),
                  )
                }
                data-testid={`user-role-${r.name}`}
              />
              <label className="form-check-label" htmlFor={`user-role-${r.id}`}>
                {r.name}
              </label>
            </div>
          ))}
        </div>
      </fieldset>

      <fieldset className="mb-4">
        <legend className="h6">{t('userManagement.field.authorities')}</legend>
        <p className="small text-body-secondary">{t('userManagement.authority.help')}</p>
        <AuthorityEditor value={authorities} onChange={setAuthorities} testId="user-authorities" />
      </fieldset>

      {user && (
        <dl className="row small text-body-secondary mb-4" data-testid="user-audit-fields">
          <dt className="col-sm-3">{t('userManagement.field.createdBy')}</dt>
          <dd className="col-sm-9">
            {user.createdBy} {formatDate(user.createdDate)}
          </dd>
          <dt className="col-sm-3">{t('userManagement.field.lastModifiedBy')}</dt>
          <dd className="col-sm-9">
            {user.lastModifiedBy} {formatDate(user.lastModifiedDate)}
          </dd>
        </dl>
      )}

      <div className="d-flex gap-2">
        <Link to="/admin/user-management" className="btn btn-outline-secondary">
          {t('global.common.cancel')}
        </Link>
        <button type="submit" className="btn btn-primary" disabled={save.isPending} data-testid="user-save">
          {t('global.common.save')}
        </button>
      </div>
    </form>
  );
}

export function UserEditPage() {
  const { t } = useTranslation();
  const id = useParams().id;
  const user = useQuery({ ...adminQueries.user(Number(id)), enabled: id !== undefined });
  const creating = id === undefined;
  return (
    <div className="container-xxl py-4 page" data-testid="user-edit-page">
      <div className="page-header d-flex align-items-center gap-3 mb-3">
        <Link to="/admin/user-management" className="btn btn-outline-secondary btn-sm">
          <IconArrowLeft className="me-1" />
          {t('global.common.back')}
        </Link>
        <h1 className="h3 mb-0">
          {t(creating ? 'userManagement.home.createLabel' : 'userManagement.home.editLabel')}
        </h1>
      </div>
      <div className="card shadow-sm border-0">
        {creating ? (
          <UserForm user={null} />
        ) : user.isPending ? (
          <DelayedSpinner label={t('global.common.loading')} />
        ) : user.isError ? (
          <div className="p-4 text-danger">{t('userManagement.home.loadError')}</div>
        ) : (
          <UserForm key={user.data.id} user={user.data} />
        )}
      </div>
    </div>
  );
}
