/**
 * The dashboards of a process (/entity/process/{processId}/dashboard/..., ADMIN, WRITE or READ on the
 * process; spec 2 section 2): documents and issues under one header with the toggle; other paths go to the
 * documents dashboard. The dashboards load as their own chunk.
 */
import { lazy, Suspense, type ReactNode } from 'react';
import { Navigate, useParams, type RouteObject } from 'react-router-dom';
import type { AccessMode } from '@domain';
import { PrivateRoute } from '../shell/components/PrivateRoute';

const DashboardLayout = lazy(() =>
  import('./components/DashboardLayout').then((m) => ({ default: m.DashboardLayout })),
);
const DocumentsDashboardPage = lazy(() =>
  import('./components/DocumentsDashboardPage').then((m) => ({ default: m.DocumentsDashboardPage })),
);
const IssuesDashboardPage = lazy(() =>
  import('./components/IssuesDashboardPage').then((m) => ({ default: m.IssuesDashboardPage })),
);

const READ: AccessMode[] = ['ADMIN', 'WRITE', 'READ'];

function DashboardRedirect() {
  const { processId } = useParams();
  return <Navigate to={`/entity/process/${processId}/dashboard/documents`} replace />;
}

const lazyPage = (page: ReactNode) => <Suspense fallback={null}>{page}</Suspense>;

/** A child route of /entity. */
export const dashboardRoute: RouteObject = {
  path: 'process/:processId/dashboard',
  element: <PrivateRoute modes={READ}>{lazyPage(<DashboardLayout />)}</PrivateRoute>,
  children: [
    { index: true, element: <DashboardRedirect /> },
    { path: 'documents', element: lazyPage(<DocumentsDashboardPage />) },
    { path: 'issues', element: lazyPage(<IssuesDashboardPage />) },
    { path: '*', element: <DashboardRedirect /> },
  ],
};
