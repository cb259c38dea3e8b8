/** The administration pages built so far (issue 15): user management, roles ("Permissions") and audits. */
import type { RouteObject } from 'react-router-dom';
import { AuditsPage } from './components/AuditsPage';
import { RolesPage } from './components/RolesPage';
import { UserEditPage } from './components/UserEditPage';
import { UsersPage } from './components/UsersPage';

/** Admin menu entries these routes serve (the shell shows "not built yet" for the others). */
export const BUILT_ADMIN_PAGES: readonly string[] = ['user-management', 'permissions', 'audits'];

/** Children of the /admin route. */
export const adminRoutes: RouteObject[] = [
  { path: 'user-management', element: <UsersPage /> },
  { path: 'user-management/new', element: <UserEditPage /> },
  { path: 'user-management/:id/edit', element: <UserEditPage /> },
  { path: 'permissions', element: <RolesPage /> },
  { path: 'audits', element: <AuditsPage /> },
];
