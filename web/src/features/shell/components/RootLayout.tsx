/** The page frame: the top bar for signed-in users and the routed page. */
import { Outlet } from 'react-router-dom';
import { useSession } from '../../account/session';
import { DebugPanel } from './DebugPanel';
import { Navbar } from './Navbar';
import { useTrackerSession } from '../../admin/watch/tracker';

export function RootLayout() {
  const { isAuthenticated } = useSession();
  // The activity tracker's websocket lives as long as the session (spec 1 section 4).
  useTrackerSession();
  return (
    <div className="app-shell">
      {isAuthenticated && <Navbar />}
      <main className="app-main">
        <Outlet />
      </main>
      {isAuthenticated && <DebugPanel />}
    </div>
  );
}
