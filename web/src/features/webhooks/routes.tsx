/** The webhooks page route: /entity/process/{processId}/webhooks, for ADMIN mode on the process only. */
import type { RouteObject } from 'react-router-dom';
import { PrivateRoute } from '../shell/components/PrivateRoute';
import { WebhooksPage } from './components/WebhooksPage';

export const webhooksRoute: RouteObject = {
  path: 'process/:processId/webhooks',
  element: (
    <PrivateRoute modes={['ADMIN']}>
      <WebhooksPage />
    </PrivateRoute>
  ),
};
