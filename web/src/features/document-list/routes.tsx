/** The document list route (/entity/process/{processId}/documents, ADMIN, WRITE or READ), its own chunk. */
import { lazy, Suspense } from 'react';
import type { RouteObject } from 'react-router-dom';
import type { AccessMode } from '@domain';
import { PrivateRoute } from '../shell/components/PrivateRoute';

const DocumentListPage = lazy(() =>
  import('./components/DocumentListPage').then((m) => ({ default: m.DocumentListPage })),
);

const READ: AccessMode[] = ['ADMIN', 'WRITE', 'READ'];

/** A child route of /entity. */
export const documentListRoute: RouteObject = {
  path: 'process/:processId/documents',
  element: (
    <PrivateRoute modes={READ}>
      <Suspense fallback={null}>
        <DocumentListPage />
      </Suspense>
    </PrivateRoute>
  ),
};
