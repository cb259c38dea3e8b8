/**
 * Document detail (READ on the process) and edit (WRITE) routes:
 * /entity/process/{processId}/documents/{id} and .../{id}/edit (spec 1 route table).
 */
import type { RouteObject } from 'react-router-dom';
import type { AccessMode } from '@domain';
import { PrivateRoute } from '../shell/components/PrivateRoute';
import { DocumentDetailPage } from './components/DocumentDetailPage';
import { DocumentEditPage } from './components/DocumentEditPage';

const READ: AccessMode[] = ['ADMIN', 'WRITE', 'READ'];
const WRITE: AccessMode[] = ['ADMIN', 'WRITE'];

export const documentDetailRoutes: RouteObject[] = [
  {
    path: 'process/:processId/documents/:id',
    element: (
      <PrivateRoute modes={READ} numericParams={['processId', 'id']}>
        <DocumentDetailPage />
      </PrivateRoute>
    ),
  },
  {
    path: 'process/:processId/documents/:id/edit',
    element: (
      <PrivateRoute modes={WRITE} numericParams={['processId', 'id']}>
        <DocumentEditPage />
      </PrivateRoute>
    ),
  },
];
