/** The administrators' watching pages (issue 15 section 2), by their admin menu entry. */
import type { ReactElement } from 'react';
import { ConfigurationPage } from './components/ConfigurationPage';
import { HealthPage } from './components/HealthPage';
import { HttpLogsPage } from './components/HttpLogsPage';
import { LogsPage } from './components/LogsPage';
import { MetricsPage } from './components/MetricsPage';
import { TrackerPage } from './components/TrackerPage';

export const ADMIN_WATCH_PAGES: Record<string, ReactElement> = {
  tracker: <TrackerPage />,
  metrics: <MetricsPage />,
  health: <HealthPage />,
  configuration: <ConfigurationPage />,
  logs: <LogsPage />,
  'http-logs': <HttpLogsPage />,
};
