/** The frame of the landing pages (/lp/...): a light header with the brand and the language menu. */
import type { ReactNode } from 'react';
import { Link, Outlet } from 'react-router-dom';
import { useSession } from '../session';
import { BrandMark, useAppName } from '../../shell/components/Brand';
import { LanguageMenu } from '../../shell/components/LanguageMenu';
import { AccountMenu } from '../../shell/components/Navbar';

export function LandingLayout() {
  const { isAuthenticated } = useSession();
  const appName = useAppName();
  return (
    <div className="landing">
      {!isAuthenticated && (
        <header className="landing-header">
          <Link to="/lp/login" className="landing-brand">
            <BrandMark size={30} />
            <span>{appName}</span>
          </Link>
          <ul className="nav landing-nav">
            <LanguageMenu toggleClassName="nav-link dropdown-toggle btn btn-link" />
            <AccountMenu />
          </ul>
        </header>
      )}
      <div className="landing-body">
        <Outlet />
      </div>
    </div>
  );
}

/** The card every landing page sits in. */
export function LandingCard({
  title,
  children,
  wide,
}: {
  title: string;
  children: ReactNode;
  wide?: boolean;
}) {
  return (
    <div className={`card landing-card shadow-sm border-0 ${wide ? 'landing-card-wide' : ''}`}>
      <div className="card-body p-4 p-md-5">
        <h1 className="h3 mb-4">{title}</h1>
        {children}
      </div>
    </div>
  );
}
