/** The page frame: the top bar for signed-in users and the routed page. */
import { useTranslation } from 'react-i18next';
import { Outlet } from 'react-router-dom';
import { focusContent } from '../../../components/focusContent';
import { useSession } from '../../account/session';
import { DebugPanel } from './DebugPanel';
import { Navbar } from './Navbar';
import { useTrackerSession } from '../../admin/watch/tracker';

export function RootLayout() {
  const { t } = useTranslation();
  const { isAuthenticated } = useSession();
  // The activity tracker's websocket lives as long as the session (spec 1 section 4).
  useTrackerSession();
  return (
    <div className="app-shell">
      <a
        href="#app-main"
        className="visually-hidden-focusable skip-link"
        onClick={(e) => {
          if (focusContent()) e.preventDefault();
        }}
      >
        {t('shell.skipToContent')}
      </a>
      {isAuthenticated && <Navbar />}
      <main className="app-main" id="app-main" tabIndex={-1}>
        <Outlet />
      </main>
      {isAuthenticated && <DebugPanel />}
    </div>
  );
}
