/**
 * The dashboards of a process (spec 2 section 2): a header with the process name and the Documents / Issues
 * toggle above the dashboard of the route.
 */
import { useQuery } from '@tanstack/react-query';
import { useTranslation } from 'react-i18next';
import { NavLink, Outlet, useParams } from 'react-router-dom';
import { parseId } from '../../workspace/model';
import { processQueries } from '../../processes/api';
import '../dashboard.css';

export function DashboardLayout() {
  const { t } = useTranslation();
  const processId = parseId(useParams().processId);
  const process = useQuery({ ...processQueries.detail(processId ?? 0), enabled: processId !== null });
  const base = `/entity/process/${processId}/dashboard`;
  const toggle = (to: string, label: string, testId: string) => (
    <NavLink
      to={`${base}/${to}`}
      className={({ isActive }) => `btn btn-sm ${isActive ? 'btn-primary' : 'btn-outline-primary'}`}
      data-testid={testId}
    >
      {label}
    </NavLink>
  );
  return (
    <div className="container-xxl py-4 page dashboard" data-testid="dashboard">
      <div className="page-header d-flex flex-wrap align-items-center gap-3 mb-3">
        <div className="me-auto">
          <h1 className="h3 mb-0">{t('dashboard.title')}</h1>
          <p className="text-body-secondary mb-0 small" data-testid="dashboard-process">
            {process.data?.name ?? '\u00a0'}
          </p>
        </div>
        <div className="btn-group" role="group" aria-label={t('dashboard.toggle')}>
          {toggle('documents', t('dashboard.documents'), 'dashboard-toggle-documents')}
          {toggle('issues', t('dashboard.issues'), 'dashboard-toggle-issues')}
        </div>
      </div>
      <Outlet />
    </div>
  );
}
