/**
 * The secrets of a process (spec 3 "Secrets page"): the list with an active toggle and delete (after a
 * confirmation), a modal to create one, and a back button to the Spheres list. Values are never shown.
 */
import { useState } from 'react';
import { useQuery } from '@tanstack/react-query';
import { useTranslation } from 'react-i18next';
import { Link, useParams } from 'react-router-dom';
import type { SecretDTO } from '@domain/integration-types';
import { IconArrowLeft, IconKey, IconPlus, IconTrash } from '../../../components/icons';
import { Modal } from '../../../components/Modal';
import { processQueries } from '../../processes/api';
import { secretQueries, useDeleteSecret, useToggleSecret } from '../api';
import { SecretCreateModal } from './SecretCreateModal';
import '../secrets.css';

export function SecretsPage() {
  const { t } = useTranslation();
  const processId = Number(useParams().processId);
  const process = useQuery(processQueries.detail(processId));
  const secrets = useQuery(secretQueries.list(processId));
  const toggle = useToggleSecret(processId);
  const remove = useDeleteSecret(processId);
  const [creating, setCreating] = useState(false);
  const [deleting, setDeleting] = useState<SecretDTO | null>(null);
  const rows = [...(secrets.data ?? [])].sort((a, b) => a.name.localeCompare(b.name));

  return (
    <div className="container-xxl py-4 page" data-testid="secrets-page">
      <div className="page-header d-flex flex-wrap align-items-center gap-3 mb-3">
        <Link to="/entity/process" className="btn btn-outline-secondary btn-sm" data-testid="secrets-back">
          <IconArrowLeft className="me-1" />
          {t('global.common.back')}
        </Link>
        <div className="me-auto">
          <h1 className="h3 mb-0">{t('soaApp.secret.home.title')}</h1>
          <p className="text-body-secondary mb-0 small">{process.data ? process.data.name : '\u00a0'}</p>
        </div>
        <button
          type="button"
          className="btn btn-primary"
          onClick={() => setCreating(true)}
          data-testid="secrets-create"
        >
          <IconPlus className="me-1" />
          {t('soaApp.secret.home.createLabel')}
        </button>
      </div>

      <div className="card shadow-sm border-0">
        {secrets.isPending ? (
          <div className="p-5 text-center">
            <div
              className="spinner-border text-primary"
              role="status"
              aria-label={t('global.common.loading')}
            />
          </div>
        ) : secrets.isError ? (
          <div className="p-4 text-danger">{t('soaApp.secret.home.loadError')}</div>
        ) : rows.length === 0 ? (
          <div className="p-5 text-center text-body-secondary empty-state" data-testid="secrets-empty">
            <IconKey size={28} className="d-block mx-auto mb-2 opacity-50" />
            {t('soaApp.secret.home.notFound')}
          </div>
        ) : (
          <table className="table table-hover align-middle mb-0 secret-table" data-testid="secrets-table">
            <thead>
              <tr>
                <th>{t('soaApp.secret.field.name')}</th>
                <th className="col-active">{t('soaApp.secret.field.active')}</th>
                <th className="text-end">
                  <span className="visually-hidden">{t('soaApp.secret.home.actions')}</span>
                </th>
              </tr>
            </thead>
            <tbody>
              {rows.map((s) => (
                <tr key={s.id} data-testid="secret-row" data-secret-id={s.id}>
                  <td className="fw-medium" data-testid="secret-row-name">
                    {s.name}
                  </td>
                  <td>
                    <div className="form-check form-switch mb-0">
                      <input
                        type="checkbox"
                        role="switch"
                        className="form-check-input"
                        id={`secret-active-${s.id}`}
                        checked={s.active}
                        disabled={toggle.isPending && toggle.variables?.id === s.id}
                        onChange={(e) => toggle.mutate({ id: s.id, active: e.target.checked })}
                        aria-label={t('soaApp.secret.field.active')}
                        data-testid="secret-active"
                      />
                    </div>
                  </td>
                  <td className="text-end">
                    <button
                      type="button"
                      className="btn btn-sm btn-outline-danger"
                      onClick={() => setDeleting(s)}
                      data-testid="secret-delete"
                      title={t('global.common.delete')}
                    >
                      <IconTrash />
                      <span className="visually-hidden">{t('global.common.delete')}</span>
                    </button>
                  </td>
                </tr>
              ))}
            </tbody>
          </table>
        )}
      </div>

      {creating && (
        <SecretCreateModal
          processId={processId}
          existingNames={rows.map((s) => s.name)}
          onClose={() => setCreating(false)}
        />
      )}
      {deleting && (
        <Modal
          title={t('entity.delete.title')}
          headerClassName="text-danger"
          onClose={() => setDeleting(null)}
          testId="secret-delete-modal"
          footer={
            <>
              <button type="button" className="btn btn-outline-secondary" onClick={() => setDeleting(null)}>
                {t('global.common.cancel')}
              </button>
              <button
                type="button"
                className="btn btn-danger"
                disabled={remove.isPending}
                onClick={() => remove.mutate(deleting.id, { onSuccess: () => setDeleting(null) })}
                data-testid="secret-delete-confirm"
              >
                {t('global.common.delete')}
              </button>
            </>
          }
        >
          {t('soaApp.secret.delete.question', { name: deleting.name })}
        </Modal>
      )}
    </div>
  );
}
