/**
 * Roles (the admin menu's "Permissions", issue 15 section 1): each role bundles authorities that its
 * holders get on top of their own. Create and edit in a dialog (name and authorities from the pickers);
 * built-in roles keep their names and cannot be deleted.
 */
import { useState } from 'react';
import { useQuery } from '@tanstack/react-query';
import { useTranslation } from 'react-i18next';
import type { RoleDTO } from '@domain/api-types';
import { roleNameRule, type AuthorityInput } from '@domain/user-admin';
import { Field, inputClass } from '../../../components/FormField';
import { IconPlus } from '../../../components/icons';
import { Modal } from '../../../components/Modal';
import { adminQueries, authorityInput, useDeleteRole, useSaveRole } from '../api';
import { AuthorityEditor, ModeBadge, useAuthorityLabel } from './AuthorityEditor';
import { DeleteConfirm, IconButton, ListCard } from './parts';

function RoleModal({ role, onClose }: { role: RoleDTO | null; onClose: () => void }) {
  const { t } = useTranslation();
  const save = useSaveRole();
  const [name, setName] = useState(role?.name ?? 'ROLE_');
  const [touched, setTouched] = useState(false);
  const [authorities, setAuthorities] = useState<AuthorityInput[]>(
    (role?.authorities ?? []).map(authorityInput),
  );
  const violation = roleNameRule(name);
  const submit = () => {
    setTouched(true);
    if (violation) return;
    save.mutate({ id: role?.id, name: name.trim(), authorities }, { onSuccess: onClose });
  };
  return (
    <Modal
      size="xl"
      title={t(role ? 'userManagement.role.editLabel' : 'userManagement.role.createLabel')}
      onClose={onClose}
      testId="role-modal"
      footer={
        <>
          <button type="button" className="btn btn-outline-secondary" onClick={onClose}>
            {t('global.common.cancel')}
          </button>
          <button
            type="button"
            className="btn btn-primary"
            disabled={save.isPending}
            onClick={submit}
            data-testid="role-save"
          >
            {t('global.common.save')}
          </button>
        </>
      }
    >
      <Field id="role-name" label={t('userManagement.role.name')} violation={violation} show={touched}>
        <input
          id="role-name"
          className={inputClass(violation, touched)}
          value={name}
          disabled={role?.builtIn}
          onChange={(e) => {
            setName(e.target.value.toUpperCase());
            setTouched(true);
          }}
          data-testid="role-name"
        />
      </Field>
      <h2 className="h6">{t('userManagement.field.authorities')}</h2>
      <AuthorityEditor value={authorities} onChange={setAuthorities} testId="role-authorities" />
    </Modal>
  );
}

export function RolesPage() {
  const { t } = useTranslation();
  const roles = useQuery(adminQueries.roles());
  const remove = useDeleteRole();
  const label = useAuthorityLabel();
  const [editing, setEditing] = useState<RoleDTO | 'new' | null>(null);
  const [deleting, setDeleting] = useState<RoleDTO | null>(null);

  return (
    <div className="container-xxl py-4 page" data-testid="roles-page">
      <div className="page-header d-flex flex-wrap align-items-center gap-3 mb-3">
        <div className="me-auto">
          <h1 className="h3 mb-0">{t('userManagement.role.title')}</h1>
          <p className="text-body-secondary small mb-0">{t('userManagement.role.help')}</p>
        </div>
        <button
          type="button"
          className="btn btn-primary"
          onClick={() => setEditing('new')}
          data-testid="roles-create"
        >
          <IconPlus className="me-1" />
          {t('userManagement.role.createLabel')}
        </button>
      </div>
      <ListCard query={roles} loadErrorKey="userManagement.home.loadError">
        {(data) => (
          <table className="table table-hover align-middle mb-0" data-testid="roles-table">
            <thead>
              <tr>
                <th>{t('userManagement.role.name')}</th>
                <th>{t('userManagement.field.authorities')}</th>
                <th />
              </tr>
            </thead>
            <tbody>
              {data.map((r) => (
                <tr key={r.id} data-testid="role-row" data-name={r.name}>
                  <td className="fw-medium">
                    {r.name}
                    {r.builtIn && (
                      <span className="badge text-bg-light border ms-2">
                        {t('userManagement.role.builtIn')}
                      </span>
                    )}
                  </td>
                  <td className="small">
                    {r.authorities.length === 0 && <span className="text-body-secondary">—</span>}
                    {r.authorities.map((a) => (
                      <div key={a.id}>
                        {label(a)} <ModeBadge mode={a.mode} />
                      </div>
                    ))}
                  </td>
                  <td className="text-end text-nowrap">
                    <IconButton
                      kind="edit"
                      className="me-1"
                      onClick={() => setEditing(r)}
                      testId="role-edit"
                    />
                    <IconButton
                      kind="delete"
                      disabled={r.builtIn}
                      onClick={() => setDeleting(r)}
                      testId="role-delete"
                    />
                  </td>
                </tr>
              ))}
            </tbody>
          </table>
        )}
      </ListCard>
      {editing && <RoleModal role={editing === 'new' ? null : editing} onClose={() => setEditing(null)} />}
      {deleting && (
        <DeleteConfirm
          question={t('userManagement.role.deleteQuestion', { name: deleting.name })}
          pending={remove.isPending}
          onClose={() => setDeleting(null)}
          onConfirm={() => remove.mutate(deleting.id, { onSuccess: () => setDeleting(null) })}
          testId="role-delete-modal"
        />
      )}
    </div>
  );
}
