/** Shell routes: home redirect, changelog, the administration area and the not-found page. */
import { Navigate, type RouteObject } from 'react-router-dom';
import { ChangelogPage } from '../changelog/ChangelogPage';
import { PrivateRoute } from './components/PrivateRoute';
import { NotBuiltYetPage, NotFoundPage } from './components/StatusPages';
import { ADMIN_PAGES } from './components/Navbar';
import { adminRoutes, BUILT_ADMIN_PAGES } from '../admin/routes';
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
  // 'any' in the route table (spec 1 section 2): signed in or not
  { path: 'changelog', element: <ChangelogPage /> },
  {
    path: 'admin',
    element: <PrivateRoute roles={['ADMIN']} />,
    children: [
      { index: true, element: <Navigate to="user-management" replace /> },
      ...adminRoutes,
      ...ADMIN_PAGES.filter((page) => !BUILT_ADMIN_PAGES.includes(page)).map((page) => ({
        path: page,
        element: ADMIN_WATCH_PAGES[page] ?? <NotBuiltYetPage page={`admin.${page}`} />,
      })),
      {
        path: 'docs',
        lazy: async () => ({ Component: (await import('../api-docs/ApiDocsPage')).ApiDocsPage }),
      },
    ],
  },
];

export const notFoundRoute: RouteObject = { path: '*', element: <NotFoundPage /> };
