/** The asr-document entity screens (spec 2 section 2): /entity/asr-document, /new, /{id}, /{id}/edit, /{id}/delete. */
import type { RouteObject } from 'react-router-dom';
import { AsrDocumentDeleteModal } from './components/AsrDocumentDeleteModal';
import { AsrDocumentDetailPage } from './components/AsrDocumentDetailPage';
import { AsrDocumentFormPage } from './components/AsrDocumentFormPage';
import { AsrDocumentListPage } from './components/AsrDocumentListPage';

/** Access is checked by the API per process; the list offers edit and delete by the caller's mode. */
export const asrDocumentRoutes: RouteObject[] = [
  {
    path: 'asr-document',
    element: <AsrDocumentListPage />,
    children: [{ path: ':id/delete', element: <AsrDocumentDeleteModal /> }],
  },
  { path: 'asr-document/new', element: <AsrDocumentFormPage /> },
  { path: 'asr-document/:id/edit', element: <AsrDocumentFormPage /> },
  { path: 'asr-document/:id', element: <AsrDocumentDetailPage /> },
];
