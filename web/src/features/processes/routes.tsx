/** Entity area routes (/entity/...): the Spheres list, create and delete, and the guarded process-scoped pages. */
import { Navigate, type RouteObject } from 'react-router-dom';
import { hasGlobalProcessPermission, type AccessMode, type Principal } from '@domain';
import { PrivateRoute } from '../shell/components/PrivateRoute';
import { asrDocumentRoutes } from '../asr-documents/routes';
import { dashboardRoute } from '../dashboard/routes';
import { documentDetailRoutes } from '../document-detail/routes';
import { documentListRoute } from '../document-list/routes';
import { graphRoute } from '../graph/routes';
import { ragRoute } from '../rag/routes';
import { secretsRoute } from '../secrets/routes';
import { webhooksRoute } from '../webhooks/routes';
import { statisticsRoute } from '../statistics/routes';
import { uploadRoute } from '../upload/routes';
import { previewWindowRoute, relationsWindowRoute, workspaceRoute } from '../workspace/routes';
import { ProcessCreatePage } from './components/ProcessCreatePage';
import { ProcessDeleteModal } from './components/ProcessDeleteModal';
import { ProcessListPage } from './components/ProcessListPage';

const ADMIN: AccessMode[] = ['ADMIN'];

/** Creating a Sphere needs the global process permission at WRITE (what the API checks). */
const canCreateProcess = (p: Principal) => hasGlobalProcessPermission(p, 'WRITE');

export const processRoutes: RouteObject[] = [
  {
    path: 'entity',
    element: <PrivateRoute roles={['USER']} />,
    children: [
      { index: true, element: <Navigate to="process" replace /> },
      {
        path: 'process',
        element: <ProcessListPage />,
        children: [
          {
            path: ':id/delete',
            element: (
              <PrivateRoute modes={ADMIN} processParam="id">
                <ProcessDeleteModal />
              </PrivateRoute>
            ),
          },
        ],
      },
      {
        path: 'process/new',
        element: (
          <PrivateRoute check={canCreateProcess}>
            <ProcessCreatePage />
          </PrivateRoute>
        ),
      },
      uploadRoute,
      statisticsRoute,
      secretsRoute,
      webhooksRoute,
      graphRoute,
      dashboardRoute,
      documentListRoute,
      ...documentDetailRoutes,
      ragRoute,
      workspaceRoute,
      previewWindowRoute,
      relationsWindowRoute,
      {
        path: 'node',
        lazy: async () => {
          const { NodeListPage } = await import('../nodes/components/NodeListPage');
          return { element: <NodeListPage /> };
        },
      },
      {
        path: 'llm-model',
        lazy: async () => {
          const { LlmModelsPage } = await import('../llm-models/LlmModelsPage');
          return {
            element: (
              <PrivateRoute roles={['ADMIN']}>
                <LlmModelsPage />
              </PrivateRoute>
            ),
          };
        },
      },
      ...asrDocumentRoutes,
    ],
  },
];
