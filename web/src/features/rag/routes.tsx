/** The RAG query route: /entity/process/{processId}/rag, for ADMIN, WRITE or READ on the process; its own chunk. */
import type { RouteObject } from 'react-router-dom';
import { PrivateRoute } from '../shell/components/PrivateRoute';

export const ragRoute: RouteObject = {
  path: 'process/:processId/rag',
  lazy: async () => {
    const { RagPage } = await import('./components/RagPage');
    return {
      element: (
        <PrivateRoute modes={['ADMIN', 'WRITE', 'READ']}>
          <RagPage />
        </PrivateRoute>
      ),
    };
  },
};
