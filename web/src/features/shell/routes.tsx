/** Shell routes: home redirect, changelog, the administration area and the not-found page. */
import { Navigate, type RouteObject } from 'react-router-dom';
import { PrivateRoute } from './components/PrivateRoute';
import { NotBuiltYetPage, NotFoundPage } from './components/StatusPages';
import { ADMIN_PAGES } from './components/Navbar';
import { ADMIN_WATCH_PAGES } from '../admin/watch/routes';

export const shellRoutes: RouteObject[] = [
  { index: true, element: <Navigate to="/lp" replace /> },
  {
    path: 'home',
    element: (
      <PrivateRoute>
        <Navigate to="/entity/process" replace />
      </PrivateRoute>
    ),
  },
  {
    path: 'changelog',
    element: (
      <PrivateRoute>
        <NotBuiltYetPage page="changelog" />
      </PrivateRoute>
    ),
  },
  {
    path: 'admin',
    element: <PrivateRoute roles={['ADMIN']} />,
    children: [
      { index: true, element: <Navigate to="user-management" replace /> },
      ...[...ADMIN_PAGES, 'docs'].map((page) => ({
        path: page,
        element: ADMIN_WATCH_PAGES[page] ?? <NotBuiltYetPage page={`admin.${page}`} />,
      })),
    ],
  },
];

export const notFoundRoute: RouteObject = { path: '*', element: <NotFoundPage /> };
