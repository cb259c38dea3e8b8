/** Administration > User tracker: the signed-in sessions (user, address, page, time), live. */
import { useTranslation } from 'react-i18next';
import { HeadRow, WatchHeader } from './common';
import { useTrackedSessions } from '../tracker';
import { formatDateTime } from './format';

export function TrackerPage() {
  const { t } = useTranslation();
  const { sessions, connected } = useTrackedSessions();
  return (
    <div className="container-fluid py-3" data-testid="tracker-page">
      <WatchHeader title={t('adminWatch.tracker.title')}>
        <span
          className={`badge ${connected ? 'text-bg-success' : 'text-bg-secondary'}`}
          data-testid="tracker-status"
          data-connected={connected}
        >
          {connected ? t('adminWatch.tracker.connected') : t('adminWatch.tracker.disconnected')}
        </span>
      </WatchHeader>
      <table className="table table-sm table-striped" data-testid="tracker-table">
        <HeadRow keys={['user', 'ip', 'page', 'time'].map((k) => `adminWatch.tracker.${k}`)} />
        <tbody>
          {sessions.map((s) => (
            <tr key={s.sessionId} data-testid="tracker-row" data-user={s.userLogin}>
              <td>{s.userLogin}</td>
              <td>{s.ipAddress}</td>
              <td data-testid="tracker-page-cell">{s.page}</td>
              <td>{formatDateTime(s.time)}</td>
            </tr>
          ))}
          {sessions.length === 0 && (
            <tr>
              <td colSpan={4} className="text-body-secondary">
                {t('adminWatch.tracker.none')}
              </td>
            </tr>
          )}
        </tbody>
      </table>
    </div>
  );
}
