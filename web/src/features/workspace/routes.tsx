/**
 * The document workspace route (/entity/process/{processId}/document/{documentId?}, ADMIN, WRITE or READ on
 * the process; non-numeric ids show the not-found page), and the document preview in a window of its own
 * (.../document/{documentId}/preview) and its relation graph in a window of its own
 * (.../document/{documentId}/relations). Each loads as its own chunk (the workspace's state, and a
 * recording's transcript and peaks, asked for meanwhile).
 */
import { lazy, Suspense, useEffect, type ReactNode } from 'react';
import { useQueryClient } from '@tanstack/react-query';
import { useParams, type RouteObject } from 'react-router-dom';
import type { AccessMode } from '@domain';
import { PrivateRoute } from '../shell/components/PrivateRoute';
import { FIT_WINDOWS, speechQueries } from '../speech/api';
import { transcriptQueries } from '../speech/transcriptApi';
import { workspaceQueries } from './api';

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

/**
 * The document's state asked for while the workspace's chunk loads (not once it has loaded), and for a
 * recording its transcript and first waveform peaks as soon as the state says so: loading the chunk was the
 * longest wait of an open.
 */
function PrefetchWorkspace({ children }: { children: ReactNode }) {
  const queryClient = useQueryClient();
  const param = useParams().documentId;
  const documentId = param && /^\d+$/.test(param) ? Number(param) : null;
  useEffect(() => {
    if (documentId === null) return;
    queryClient.fetchQuery(workspaceQueries.state(documentId)).then(
      (state) => {
        if (state.document.documentType !== 'AUDIOFILE') return;
        void queryClient.prefetchQuery(transcriptQueries.utterances(documentId));
        void queryClient.prefetchQuery(speechQueries.peaks(documentId, FIT_WINDOWS));
      },
      () => undefined, // the workspace shows the error
    );
  }, [queryClient, documentId]);
  return children;
}

/** A child route of /entity. */
export const workspaceRoute: RouteObject = {
  path: 'process/:processId/document/:documentId?',
  element: (
    <PrivateRoute modes={READ} numericParams={['documentId']}>
      <PrefetchWorkspace>
        <Suspense fallback={null}>
          <WorkspacePage />
        </Suspense>
      </PrefetchWorkspace>
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
