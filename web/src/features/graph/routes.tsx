/**
 * The flow graph route (/entity/process/{processId}/graph, ADMIN mode on the process). The page and React
 * Flow load as their own chunk.
 */
import { lazy, Suspense } from 'react';
import type { RouteObject } from 'react-router-dom';
import type { AccessMode } from '@domain';
import { PrivateRoute } from '../shell/components/PrivateRoute';

const GraphPage = lazy(() => import('./components/GraphPage').then((m) => ({ default: m.GraphPage })));

const ADMIN: AccessMode[] = ['ADMIN'];

/** A child route of /entity. */
export const graphRoute: RouteObject = {
  path: 'process/:processId/graph',
  element: (
    <PrivateRoute modes={ADMIN}>
      <Suspense fallback={null}>
        <GraphPage />
      </Suspense>
    </PrivateRoute>
  ),
};
