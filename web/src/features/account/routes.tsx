/** Landing (/lp/...) and account (/account/...) routes. */
import { Navigate, type RouteObject } from 'react-router-dom';
import { PrivateRoute } from '../shell/components/PrivateRoute';
import { ApiKeysPage } from '../api-keys/components/ApiKeysPage';
import { LandingLayout } from './components/LandingLayout';
import { LoginPage } from './components/LoginPage';
import { LogoutPage } from './components/LogoutPage';
import { OidcCallbackPage } from './components/OidcCallbackPage';
import { PasswordPage } from './components/PasswordPage';
import { RegisterPage } from './components/RegisterPage';
import { ResetFinishPage, ResetRequestPage } from './components/ResetPages';
import { SettingsPage } from './components/SettingsPage';
import { VerifyPage } from './components/VerifyPage';

export const landingRoutes: RouteObject[] = [
  {
    path: 'lp',
    element: <LandingLayout />,
    children: [
      { index: true, element: <Navigate to="login" replace /> },
      { path: 'login', element: <LoginPage /> },
      { path: 'register', element: <RegisterPage /> },
      { path: 'logout', element: <LogoutPage /> },
      { path: 'oidc/callback', element: <OidcCallbackPage /> },
      { path: 'verify/:key?', element: <VerifyPage /> },
      { path: 'reset/request', element: <ResetRequestPage /> },
      { path: 'reset/finish/:key?', element: <ResetFinishPage /> },
    ],
  },
];

export const accountRoutes: RouteObject[] = [
  {
    path: 'account',
    element: <PrivateRoute roles={['ADMIN', 'USER']} />,
    children: [
      { index: true, element: <Navigate to="settings" replace /> },
      { path: 'settings', element: <SettingsPage /> },
      { path: 'password', element: <PasswordPage /> },
      { path: 'api-keys', element: <ApiKeysPage /> },
    ],
  },
];
