/**
 * The document workspace route (/entity/process/{processId}/document/{documentId?}, ADMIN, WRITE or READ on
 * the process; non-numeric ids show the not-found page), and the document preview in a window of its own
 * (.../document/{documentId}/preview) and its relation graph in a window of its own
 * (.../document/{documentId}/relations). Each loads as its own chunk.
 */
import { lazy, Suspense } from 'react';
import type { RouteObject } from 'react-router-dom';
import type { AccessMode } from '@domain';
import { PrivateRoute } from '../shell/components/PrivateRoute';

const WorkspacePage = lazy(() =>
  import('./components/WorkspacePage').then((m) => ({ default: m.WorkspacePage })),
);

const PreviewWindowPage = lazy(() =>
  import('./components/PreviewWindowPage').then((m) => ({ default: m.PreviewWindowPage })),
);

const RelationsWindowPage = lazy(() =>
  import('./components/RelationsWindowPage').then((m) => ({ default: m.RelationsWindowPage })),
);

const READ: AccessMode[] = ['ADMIN', 'WRITE', 'READ'];

/** A child route of /entity. */
export const workspaceRoute: RouteObject = {
  path: 'process/:processId/document/:documentId?',
  element: (
    <PrivateRoute modes={READ} numericParams={['documentId']}>
      <Suspense fallback={null}>
        <WorkspacePage />
      </Suspense>
    </PrivateRoute>
  ),
};

/** A child route of /entity: the preview window. */
export const previewWindowRoute: RouteObject = {
  path: 'process/:processId/document/:documentId/preview',
  element: (
    <PrivateRoute modes={READ} numericParams={['documentId']}>
      <Suspense fallback={null}>
        <PreviewWindowPage />
      </Suspense>
    </PrivateRoute>
  ),
};

/** A child route of /entity: the relation graph window. */
export const relationsWindowRoute: RouteObject = {
  path: 'process/:processId/document/:documentId/relations',
  element: (
    <PrivateRoute modes={READ} numericParams={['documentId']}>
      <Suspense fallback={null}>
        <RelationsWindowPage />
      </Suspense>
    </PrivateRoute>
  ),
};
