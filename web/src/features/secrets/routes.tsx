/** The secrets page route: /entity/process/{processId}/secrets, for ADMIN mode on the process only. */
import type { RouteObject } from 'react-router-dom';
import { PrivateRoute } from '../shell/components/PrivateRoute';
import { SecretsPage } from './components/SecretsPage';

export const secretsRoute: RouteObject = {
  path: 'process/:processId/secrets',
  element: (
    <PrivateRoute modes={['ADMIN']}>
      <SecretsPage />
    </PrivateRoute>
  ),
};
