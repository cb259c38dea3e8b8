/** The upload page route: /entity/process/{id}/upload (the page itself disables the drop zone without a writable upload node). */
import type { RouteObject } from 'react-router-dom';
import { PrivateRoute } from '../shell/components/PrivateRoute';
import { UploadPage } from './components/UploadPage';

export const uploadRoute: RouteObject = {
  path: 'process/:id/upload',
  element: (
    <PrivateRoute numericParams={['id']}>
      <UploadPage />
    </PrivateRoute>
  ),
};
