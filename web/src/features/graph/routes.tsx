/**
 * The flow graph route (/entity/process/{processId}/graph, ADMIN mode on the process). The page and React
 * Flow load as their own chunk, through the route's `lazy`: the router fetches the chunk as the navigation
 * starts (beside the session check) and renders the page once it is there, with no Suspense boundary whose
 * reveal React would hold back (it throttles the reveal of a boundary that showed its fallback by 300 ms).
 */
import type { RouteObject } from 'react-router-dom';
import type { AccessMode } from '@domain';
import { PrivateRoute } from '../shell/components/PrivateRoute';

const ADMIN: AccessMode[] = ['ADMIN'];

/** A child route of /entity. */
export const graphRoute: RouteObject = {
  path: 'process/:processId/graph',
  lazy: async () => {
    const { GraphPage } = await import('./components/GraphPage');
    return {
      element: (
        <PrivateRoute modes={ADMIN}>
          <GraphPage />
        </PrivateRoute>
      ),
    };
  },
};
