/**
 * The last poll of an e-mail, SFTP or cloud-drive upload node (its schedule's tick or a fetch): when it ran,
 * how many documents it brought, and the last error with its time while the error stands.
 */
import { useTranslation } from 'react-i18next';
import type { PollerStatusDTO } from '@domain/graph-types';

export function PollerStatus({ status }: { status: PollerStatusDTO | null }) {
  const { t, i18n } = useTranslation();
  const when = (iso: string | null) =>
    iso ? new Date(iso).toLocaleString(i18n.language, { dateStyle: 'medium', timeStyle: 'short' }) : '';
  return (
    <div className="small mt-2 border rounded px-2 py-2" data-testid="node-poller-status">
      <div className="fw-semibold text-body-secondary">{t('soaApp.nodePanel.poller.title')}</div>
      {!status?.lastRunDate ? (
        <div className="text-body-secondary">{t('soaApp.nodePanel.poller.never')}</div>
      ) : (
        <div>
          {t('soaApp.nodePanel.poller.ran', { date: when(status.lastRunDate), count: status.lastImported })}
        </div>
      )}
      {status?.lastError && (
        <div className="alert alert-danger py-1 px-2 mt-1 mb-0" data-testid="node-poller-error">
          <div>{t('soaApp.nodePanel.poller.error', { date: when(status.lastErrorDate) })}</div>
          <pre className="mb-0 small text-wrap">{status.lastError}</pre>
        </div>
      )}
    </div>
  );
}
