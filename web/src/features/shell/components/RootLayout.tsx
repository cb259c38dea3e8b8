/** The page frame: the top bar for signed-in users and the routed page. */
import { Outlet } from 'react-router-dom';
import { useSession } from '../../account/session';
import { Navbar } from './Navbar';

export function RootLayout() {
  const { isAuthenticated } = useSession();
  return (
    <div className="app-shell">
      {isAuthenticated && <Navbar />}
      <main className="app-main">
        <Outlet />
      </main>
    </div>
  );
}
