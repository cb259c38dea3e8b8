/**
 * The webhooks of a process (issue 32 section 1), in the process's ADMIN pages beside its secrets: the
 * subscriptions with an active switch, edit and delete; a new one's secret shown once after creation; the
 * delivery log of the selected subscription with "send again" and "send test event".
 */
import { useState } from 'react';
import { useQuery } from '@tanstack/react-query';
import { useTranslation } from 'react-i18next';
import { Link, useParams } from 'react-router-dom';
import { IconArrowLeft, IconGlobe, IconPencil, IconPlus, IconTrash } from '../../../components/icons';
import { ConfirmModal } from '../../../components/ConfirmModal';
import { Modal } from '../../../components/Modal';
import { processQueries } from '../../processes/api';
import { webhookQueries, useDeleteWebhook, useSaveWebhook, type WebhookDTO } from '../api';
import { DeliveryLog } from './DeliveryLog';
import { WebhookEditModal } from './WebhookEditModal';

export function WebhooksPage() {
  const { t } = useTranslation();
  const processId = Number(useParams().processId);
  const process = useQuery(processQueries.detail(processId));
  const list = useQuery(webhookQueries.list(processId));
  const save = useSaveWebhook(processId);
  const remove = useDeleteWebhook(processId);
  const [editing, setEditing] = useState<WebhookDTO | 'new' | null>(null);
  const [deleting, setDeleting] = useState<WebhookDTO | null>(null);
  const [secret, setSecret] = useState<string | null>(null);
  const [selectedId, setSelectedId] = useState<number | null>(null);
  const rows = list.data?.content ?? [];
  const selected = rows.find((w) => w.id === selectedId) ?? null;

  return (
    <div className="container-xxl py-4 page" data-testid="webhooks-page">
      <div className="page-header d-flex flex-wrap align-items-center gap-3 mb-3">
        <Link to="/entity/process" className="btn btn-outline-secondary btn-sm">
          <IconArrowLeft className="me-1" />
          {t('global.common.back')}
        </Link>
        <div className="me-auto">
          <h1 className="h3 mb-0">{t('webhooks.home.title')}</h1>
          <p className="text-body-secondary mb-0 small">{process.data ? process.data.name : '\u00a0'}</p>
        </div>
        <button
          type="button"
          className="btn btn-primary"
          onClick={() => setEditing('new')}
          data-testid="webhook-create"
        >
          <IconPlus className="me-1" />
          {t('webhooks.home.createLabel')}
        </button>
      </div>

      <div className="card shadow-sm border-0">
        {list.isPending ? (
          <div className="p-5 text-center">
            <div
              className="spinner-border text-primary"
              role="status"
              aria-label={t('global.common.loading')}
            />
          </div>
        ) : list.isError ? (
          <div className="p-4 text-danger">{t('webhooks.home.loadError')}</div>
        ) : rows.length === 0 ? (
          <div className="p-5 text-center text-body-secondary" data-testid="webhooks-empty">
            <IconGlobe size={28} className="d-block mx-auto mb-2 opacity-50" />
            {t('webhooks.home.notFound')}
          </div>
        ) : (
          <table className="table table-hover align-middle mb-0" data-testid="webhooks-table">
            <thead>
              <tr>
                <th>{t('webhooks.field.url')}</th>
                <th>{t('webhooks.field.events')}</th>
                <th>{t('webhooks.field.active')}</th>
                <th className="text-end">
                  <span className="visually-hidden">{t('webhooks.home.actions')}</span>
                </th>
              </tr>
            </thead>
            <tbody>
              {rows.map((w) => (
                <tr
                  key={w.id}
                  className={w.id === selectedId ? 'table-active' : undefined}
                  data-testid="webhook-row"
                  data-webhook-id={w.id}
                >
                  <td className="text-break">
                    <button
                      type="button"
                      className="btn btn-link p-0 text-start"
                      onClick={() => setSelectedId(w.id)}
                      data-testid="webhook-open-log"
                    >
                      {w.url}
                    </button>
                  </td>
                  <td className="small">
                    {w.events.map((e) => (
                      <code key={e} className="me-2">
                        {e}
                      </code>
                    ))}
                  </td>
                  <td>
                    <div className="form-check form-switch mb-0">
                      <input
                        type="checkbox"
                        role="switch"
                        className="form-check-input"
                        checked={w.active}
                        disabled={save.isPending}
                        onChange={(e) =>
                          save.mutate({
                            id: w.id,
                            body: { url: w.url, events: w.events, active: e.target.checked },
                          })
                        }
                        aria-label={t('webhooks.field.active')}
                        data-testid="webhook-active-toggle"
                      />
                    </div>
                  </td>
                  <td className="text-end text-nowrap">
                    <button
                      type="button"
                      className="btn btn-sm btn-outline-secondary me-2"
                      onClick={() => setEditing(w)}
                      title={t('global.common.edit')}
                      data-testid="webhook-edit"
                    >
                      <IconPencil />
                      <span className="visually-hidden">{t('global.common.edit')}</span>
                    </button>
                    <button
                      type="button"
                      className="btn btn-sm btn-outline-danger"
                      onClick={() => setDeleting(w)}
                      title={t('global.common.delete')}
                      data-testid="webhook-delete"
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

      {selected ? (
        <DeliveryLog webhook={selected} />
      ) : (
        rows.length > 0 && <p className="text-body-secondary small mt-3">{t('webhooks.deliveries.pick')}</p>
      )}

      {editing && (
        <WebhookEditModal
          processId={processId}
          webhook={editing === 'new' ? null : editing}
          onClose={() => setEditing(null)}
          onSaved={(saved) => {
            setEditing(null);
            setSelectedId(saved.id);
            if (saved.secret) setSecret(saved.secret);
          }}
        />
      )}
      {secret && (
        <Modal
          title={t('webhooks.secret.title')}
          onClose={() => setSecret(null)}
          testId="webhook-secret-modal"
          footer={
            <button
              type="button"
              className="btn btn-primary"
              onClick={() => setSecret(null)}
              data-testid="webhook-secret-done"
            >
              {t('webhooks.secret.done')}
            </button>
          }
        >
          <p>{t('webhooks.secret.help')}</p>
          <input
            className="form-control font-monospace"
            readOnly
            value={secret}
            onFocus={(e) => e.target.select()}
            data-testid="webhook-secret"
          />
        </Modal>
      )}
      {deleting && (
        <ConfirmModal
          title={t('entity.delete.title')}
          danger
          pending={remove.isPending}
          onClose={() => setDeleting(null)}
          onConfirm={() =>
            remove.mutate(deleting.id, {
              onSuccess: () => {
                if (selectedId === deleting.id) setSelectedId(null);
                setDeleting(null);
              },
            })
          }
          testId="webhook-delete-modal"
        >
          {t('webhooks.delete.question', { url: deleting.url })}
        </ConfirmModal>
      )}
    </div>
  );
}
