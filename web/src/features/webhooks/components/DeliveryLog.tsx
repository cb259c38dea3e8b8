/** The delivery log of one subscription: each event's attempts, last answer and next retry, "send again". */
import { useQuery } from '@tanstack/react-query';
import { useTranslation } from 'react-i18next';
import { webhookQueries, useResend, useSendTest, type WebhookDTO } from '../api';

const STATUS_CLASS = { PENDING: 'text-bg-warning', DELIVERED: 'text-bg-success', FAILED: 'text-bg-danger' };

const time = (iso: string | null) => (iso ? new Date(iso).toLocaleString() : '—');

export function DeliveryLog({ webhook }: { webhook: WebhookDTO }) {
  const { t } = useTranslation();
  const log = useQuery(webhookQueries.deliveries(webhook.id));
  const test = useSendTest(webhook.id);
  const resend = useResend(webhook.id);
  const rows = log.data?.content ?? [];
  return (
    <div className="card shadow-sm border-0 mt-4" data-testid="webhook-deliveries">
      <div className="card-header d-flex align-items-center gap-2">
        <h2 className="h6 mb-0 me-auto text-truncate">
          {t('webhooks.deliveries.title')} <span className="text-body-secondary">{webhook.url}</span>
        </h2>
        <button
          type="button"
          className="btn btn-sm btn-outline-primary"
          disabled={test.isPending}
          onClick={() => test.mutate()}
          data-testid="webhook-send-test"
        >
          {t('webhooks.deliveries.sendTest')}
        </button>
      </div>
      {log.isError ? (
        <div className="p-4 text-danger">{t('webhooks.deliveries.loadError')}</div>
      ) : rows.length === 0 ? (
        <div className="p-4 text-center text-body-secondary" data-testid="webhook-deliveries-empty">
          {log.isPending ? t('global.common.loading') : t('webhooks.deliveries.empty')}
        </div>
      ) : (
        <div className="table-responsive">
          <table className="table table-sm align-middle mb-0">
            <thead>
              <tr>
                <th>{t('webhooks.deliveries.event')}</th>
                <th>{t('webhooks.deliveries.document')}</th>
                <th>{t('webhooks.deliveries.status')}</th>
                <th className="text-end">{t('webhooks.deliveries.attempts')}</th>
                <th>{t('webhooks.deliveries.response')}</th>
                <th>{t('webhooks.deliveries.lastAttempt')}</th>
                <th>{t('webhooks.deliveries.nextRetry')}</th>
                <th />
              </tr>
            </thead>
            <tbody>
              {rows.map((d) => (
                <tr key={d.id} data-testid="webhook-delivery-row" data-status={d.status}>
                  <td>
                    <code>{d.type}</code>
                    <div className="small text-body-secondary font-monospace">{d.eventId}</div>
                  </td>
                  <td>{d.documentId ?? '—'}</td>
                  <td>
                    <span className={`badge ${STATUS_CLASS[d.status]}`}>
                      {t(`webhooks.status.${d.status}`)}
                    </span>
                  </td>
                  <td className="text-end">{d.attempts}</td>
                  <td className="small">
                    {d.responseStatus ?? '—'}
                    {d.responseMs !== null && (
                      <span className="text-body-secondary"> · {d.responseMs} ms</span>
                    )}
                    {d.lastError && <div className="text-danger text-break">{d.lastError}</div>}
                  </td>
                  <td className="small">{time(d.lastAttemptDate)}</td>
                  <td className="small">{time(d.nextRetryDate)}</td>
                  <td className="text-end">
                    <button
                      type="button"
                      className="btn btn-sm btn-outline-secondary text-nowrap"
                      disabled={resend.isPending && resend.variables === d.id}
                      onClick={() => resend.mutate(d.id)}
                      data-testid="webhook-delivery-resend"
                    >
                      {t('webhooks.deliveries.resend')}
                    </button>
                  </td>
                </tr>
              ))}
            </tbody>
          </table>
        </div>
      )}
    </div>
  );
}
