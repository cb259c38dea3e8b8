/**
 * The private-route guard (spec 1 section 2): an empty view while the session loads; unauthenticated users go
 * to /lp/login keeping their location; a missing role, failed check or missing access mode on a
 * process-scoped route shows 'You are not authorized to access this page.'.
 */
import type { ReactNode } from 'react';
import { Navigate, Outlet, useLocation, useParams } from 'react-router-dom';
import { hasAnyRole, type AccessMode, type Principal } from '@domain';
import { useSession } from '../../account/session';
import { modesAllow, useProcessAccessMode } from '../../processes/api';
import { NotAuthorizedPage, NotFoundPage } from './StatusPages';

export interface PrivateRouteProps {
  /** Any one of these roles ('ADMIN', 'USER' or ROLE_ names); empty = any role, but at least one. */
  roles?: readonly string[];
  /** Process-scoped routes: the access modes that open the route (any one of them). */
  modes?: readonly AccessMode[];
  /** The route parameter holding the process id (default 'processId'). */
  processParam?: string;
  /** Route parameters that must be numeric when present (else the not-found page). */
  numericParams?: readonly string[];
  /** An extra permission check on the principal (e.g. global process permission). */
  check?: (principal: Principal) => boolean;
  children?: ReactNode;
}

const isNumeric = (v: string | undefined) => v === undefined || /^\d+$/.test(v);

export function PrivateRoute({
  roles = [],
  modes,
  processParam = 'processId',
  numericParams = [],
  check,
  children,
}: PrivateRouteProps) {
  const session = useSession();
  const location = useLocation();
  const params = useParams();

  const scoped = !!modes && modes.length > 0;
  const rawId = scoped ? params[processParam] : undefined;
  const processId = scoped && rawId !== undefined && /^\d+$/.test(rawId) ? Number(rawId) : null;
  const access = useProcessAccessMode(
    session.isAuthenticated ? session.principal : null,
    processId,
    modes ?? [],
  );

  if (session.isLoading) return null;
  if (!session.isAuthenticated || !session.principal) {
    return <Navigate to="/lp/login" replace state={{ from: location }} />;
  }
  const principal = session.principal;
  if (!hasAnyRole(principal.roles, roles)) return <NotAuthorizedPage />;
  if (check && !check(principal)) return <NotAuthorizedPage />;
  if (!numericParams.every((p) => isNumeric(params[p]))) return <NotFoundPage />;
  if (scoped) {
    if (processId === null) return <NotFoundPage />;
    if (access.isLoading) return null;
    if (!modesAllow(access.mode, modes)) return <NotAuthorizedPage />;
  }
  return <>{children ?? <Outlet />}</>;
}
