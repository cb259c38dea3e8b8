/**
 * User management (issue 15 section 1): the users in pages of 10 sorted by id, a search from 2 characters
 * (login, e-mail, names), who created and last changed each one and when, edit, and delete after a
 * confirmation (not one's own account).
 */
import { useState } from 'react';
import { useQuery } from '@tanstack/react-query';
import { useTranslation } from 'react-i18next';
import { Link } from 'react-router-dom';
import type { AdminUserDTO } from '@domain/api-types';
import { LIMITS } from '@domain/validation';
import { USERS_PAGE_SIZE } from '@domain/user-admin';
import { IconPencil, IconPlus, IconSearch } from '../../../components/icons';
import { formatDate } from '../../../components/format';
import { useSession } from '../../account/session';
import { adminQueries, useDeleteUser } from '../api';
import { ModeBadge, useAuthorityLabel } from './AuthorityEditor';
import { DeleteConfirm, IconButton, ListCard, usePaging } from './parts';

export function UsersPage() {
  const { t } = useTranslation();
  const { account } = useSession();
  const [filter, setFilter] = useState('');
  const { page, size, restart, footer } = usePaging(USERS_PAGE_SIZE);
  const [deleting, setDeleting] = useState<AdminUserDTO | null>(null);
  const users = useQuery(
    adminQueries.userPage({ page, size, filter: filter.length >= LIMITS.textFilterMin ? filter : '' }),
  );
  const remove = useDeleteUser();
  const label = useAuthorityLabel();

  return (
    <div className="container-xxl py-4 page" data-testid="users-page">
      <div className="page-header d-flex flex-wrap align-items-center gap-3 mb-3">
        <h1 className="h3 mb-0 me-auto">{t('userManagement.home.title')}</h1>
        <div className="input-group" style={{ maxWidth: 320 }}>
          <span className="input-group-text">
            <IconSearch />
          </span>
          <input
            type="search"
            className="form-control"
            placeholder={t('userManagement.home.search')}
            aria-label={t('userManagement.home.search')}
            value={filter}
            onChange={(e) => {
              setFilter(e.target.value);
              restart();
            }}
            data-testid="users-search"
          />
        </div>
        <Link to="new" className="btn btn-primary" data-testid="users-create">
          <IconPlus className="me-1" />
          {t('userManagement.home.createLabel')}
        </Link>
      </div>

      <ListCard
        query={users}
        loadErrorKey="userManagement.home.loadError"
        emptyKey="userManagement.home.notFound"
        emptyTestId="users-empty"
        isEmpty={(d) => d.rows.length === 0}
      >
        {(data) => (
          <div className="table-responsive">
            <table className="table table-hover align-middle mb-0" data-testid="users-table">
              <thead>
                <tr>
                  <th>{t('userManagement.field.id')}</th>
                  <th>
                    {t('userManagement.field.login')} / {t('userManagement.field.email')}
                  </th>
                  <th>{t('userManagement.field.status')}</th>
                  <th>{t('userManagement.field.langKey')}</th>
                  <th>{t('userManagement.field.roles')}</th>
                  <th>{t('userManagement.field.authorities')}</th>
                  <th>{t('userManagement.field.createdBy')}</th>
                  <th>{t('userManagement.field.lastModifiedBy')}</th>
                  <th />
                </tr>
              </thead>
              <tbody>
                {data.rows.map((u) => (
                  <tr key={u.id} data-testid="user-row" data-login={u.login}>
                    <td className="text-body-secondary">{u.id}</td>
                    <td className="fw-medium">
                      {u.login}
                      <div className="small text-body-secondary">
                        {[u.firstName, u.lastName].filter(Boolean).join(' ')}
                      </div>
                      <div className="small text-body-secondary text-break">{u.email}</div>
                    </td>
                    <td>
                      <span className={`badge ${u.activated ? 'text-bg-success' : 'text-bg-secondary'}`}>
                        {t(u.activated ? 'userManagement.activated' : 'userManagement.deactivated')}
                      </span>
                    </td>
                    <td>{u.langKey}</td>
                    <td>
                      {u.roles.map((r) => (
                        <span key={r} className="badge text-bg-primary me-1">
                          {r}
                        </span>
                      ))}
                    </td>
                    <td className="small" data-testid="user-row-authorities">
                      {u.authorities.map((a) => (
                        <div key={a.id} className="text-nowrap">
                          {label(a)} <ModeBadge mode={a.mode} />
                        </div>
                      ))}
                    </td>
                    <td className="small text-nowrap">
                      {u.createdBy}
                      <div className="text-body-secondary">{formatDate(u.createdDate)}</div>
                    </td>
                    <td className="small text-nowrap">
                      {u.lastModifiedBy}
                      <div className="text-body-secondary">{formatDate(u.lastModifiedDate)}</div>
                    </td>
                    <td className="text-end text-nowrap">
                      <Link
                        to={`${u.id}/edit`}
                        className="btn btn-sm btn-outline-primary me-1"
                        title={t('global.common.edit')}
                        data-testid="user-edit"
                      >
                        <IconPencil />
                        <span className="visually-hidden">{t('global.common.edit')}</span>
                      </Link>
                      <IconButton
                        kind="delete"
                        disabled={account?.id === u.id}
                        onClick={() => setDeleting(u)}
                        testId="user-delete"
                      />
                    </td>
                  </tr>
                ))}
              </tbody>
            </table>
          </div>
        )}
      </ListCard>
      {footer(users.data?.total, 'users-pagination')}
      {deleting && (
        <DeleteConfirm
          question={t('userManagement.delete.question', { login: deleting.login })}
          pending={remove.isPending}
          onClose={() => setDeleting(null)}
          onConfirm={() => remove.mutate(deleting.id, { onSuccess: () => setDeleting(null) })}
          testId="user-delete-modal"
        />
      )}
    </div>
  );
}
