/** The statistics route: /entity/process/{processId}/statistics, ADMIN on the process only (spec 1 routes). */
import type { RouteObject } from 'react-router-dom';
import { PrivateRoute } from '../shell/components/PrivateRoute';

export const statisticsRoute: RouteObject = {
  path: 'process/:processId/statistics',
  // Loaded on demand: the charts library stays out of the other pages' bundle.
  lazy: async () => {
    const { StatisticsPage } = await import('./components/StatisticsPage');
    return {
      element: (
        <PrivateRoute modes={['ADMIN']}>
          <StatisticsPage />
        </PrivateRoute>
      ),
    };
  },
};
