/**
 * The issues dashboard of a process (spec 2 section 2 "Issues dashboard", issue 12 section 2): tabs Without
 * replies (process admins, their start tab), My issues and All; a filename filter (400 ms debounce) and a
 * status filter (Active / Resolved); one row per document with its issue, resolved and comment counts,
 * sortable by filename and comment count, and a link opening the document's workspace with the issues
 * panel; pages of 10, 20 or 50. The request is built in ../issues.ts.
 */
import { DelayedSpinner } from '../../../components/DelayedSpinner';
import { useQuery } from '@tanstack/react-query';
import { useEffect, useMemo, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { Link, useParams } from 'react-router-dom';
import { DOCUMENT_INFO_PAGE_SIZE, IssueStatuses, type IssueStatus } from '@domain/document-info';
import { useDebounced } from '../../../components/hooks';
import { IconComment } from '../../../components/icons';
import { Pagination } from '../../../components/Pagination';
import { DashboardTabs } from './DashboardTabs';
import { FIRST_PAGE, NO_ANSWER, pageCount, type PagePosition } from '../../../components/pagination';
import { useSession } from '../../account/session';
import { useProcessAccessMode } from '../../processes/api';
import { parseId } from '../../workspace/model';
import { issueDashboardQueries } from '../api';
import {
  DEFAULT_ISSUE_SORT,
  effectiveStatus,
  issueFilters,
  issuesLink,
  sortParam,
  startTab,
  tabsFor,
  toggleSort,
  type IssueSort,
  type IssueSortField,
  type IssueTab,
} from '../issues';

const ADMIN_ONLY = ['ADMIN'] as const;
/** The filename filter's debounce (spec 2 section 9). */
const NAME_DEBOUNCE_MS = 400;

export function IssuesDashboardPage() {
  const processId = parseId(useParams().processId);
  const { account, principal } = useSession();
  const access = useProcessAccessMode(principal, processId, ADMIN_ONLY);
  if (processId === null || !account || access.isLoading) return null;
  return <IssuesDashboard processId={processId} userId={account.id} processAdmin={access.mode === 'ADMIN'} />;
}

function IssuesDashboard({
  processId,
  userId,
  processAdmin,
}: {
  processId: number;
  userId: number;
  processAdmin: boolean;
}) {
  const { t } = useTranslation();
  const tabs = tabsFor(processAdmin);
  const [tab, setTab] = useState<IssueTab>(startTab(processAdmin));
  const [nameInput, setNameInput] = useState('');
  const name = useDebounced(nameInput, NAME_DEBOUNCE_MS);
  const [status, setStatus] = useState<IssueStatus | ''>('');
  const [sort, setSort] = useState<IssueSort>(DEFAULT_ISSUE_SORT);
  const [position, setPosition] = useState<PagePosition>(FIRST_PAGE);
  const [size, setSize] = useState(DOCUMENT_INFO_PAGE_SIZE);

  const state = { tab, name, status };
  const filters = useMemo(
    () => issueFilters(processId, userId, { tab, name, status }),
    [processId, userId, tab, name, status],
  );
  const list = useQuery(issueDashboardQueries.page(filters, sortParam(sort), position, size));
  const pages = pageCount(list.data?.total ?? 0, size);

  // A new filter or sort starts at the first page; so does a page past the end (spec 2 section 4).
  useEffect(() => setPosition(FIRST_PAGE), [filters, sort, size]);
  useEffect(() => {
    if (list.data && position.kind === 'page' && position.page >= pages) setPosition(FIRST_PAGE);
  }, [list.data, position, pages]);

  const sortHeader = (field: IssueSortField, label: string) => {
    const active = sort.field === field;
    return (
      <button
        type="button"
        className="btn btn-link btn-sm p-0 text-reset fw-semibold text-decoration-none"
        onClick={() => setSort(toggleSort(sort, field))}
        aria-sort={active ? (sort.dir === 'asc' ? 'ascending' : 'descending') : undefined}
        data-testid={`issues-sort-${field}`}
        data-sort={active ? sort.dir : undefined}
      >
        {label}
        <span className="ms-1 text-body-secondary" aria-hidden>
          {active ? (sort.dir === 'asc' ? '▲' : '▼') : '↕'}
        </span>
      </button>
    );
  };

  return (
    <div className="card shadow-sm border-0" data-testid="issues-dashboard" data-tab={tab}>
      <div className="card-header bg-body border-bottom-0 pb-0">
        <DashboardTabs
          tabs={tabs}
          tab={tab}
          onTab={setTab}
          labelKey="dashboard.issueTabs"
          testIdPrefix="issues-tab"
        />
      </div>
      <div className="card-body border-bottom d-flex flex-wrap gap-2 align-items-center">
        <input
          type="search"
          className="form-control form-control-sm dashboard-filter"
          placeholder={t('dashboard.filters.filename')}
          aria-label={t('dashboard.filters.filename')}
          value={nameInput}
          onChange={(e) => setNameInput(e.target.value)}
          data-testid="issues-filter-name"
        />
        <select
          className="form-select form-select-sm w-auto"
          aria-label={t('dashboard.filters.status')}
          value={effectiveStatus(state)}
          disabled={tab === 'withoutReplies'}
          title={tab === 'withoutReplies' ? t('dashboard.filters.activeOnly') : undefined}
          onChange={(e) => setStatus(e.target.value as IssueStatus | '')}
          data-testid="issues-filter-status"
        >
          <option value="">{t('dashboard.filters.anyStatus')}</option>
          {IssueStatuses.map((s) => (
            <option key={s} value={s}>
              {t(`dashboard.issueStatus.${s}`)}
            </option>
          ))}
        </select>
      </div>
      {list.isPending ? (
        <div className="p-5 text-center">
          <DelayedSpinner label={t('global.common.loading')} testId="issues-loading" />
        </div>
      ) : list.isError ? (
        <div className="p-4 text-danger" data-testid="issues-error">
          {t('dashboard.loadError')}
        </div>
      ) : list.data.rows.length === 0 ? (
        <div className="p-5 text-center text-body-secondary empty-state" data-testid="issues-empty">
          {t('dashboard.noResults')}
        </div>
      ) : (
        <div className="table-responsive position-relative">
          <table className="table table-hover align-middle mb-0" data-testid="issues-table">
            <thead>
              <tr>
                <th>{sortHeader('filename', t('dashboard.columns.filename'))}</th>
                <th className="text-end">{t('dashboard.columns.issueCount')}</th>
                <th className="text-end">{t('dashboard.columns.resolvedCount')}</th>
                <th className="text-end">
                  {sortHeader('commentCount', t('dashboard.columns.commentCount'))}
                </th>
                <th className="text-end">
                  <span className="visually-hidden">{t('dashboard.columns.actions')}</span>
                </th>
              </tr>
            </thead>
            <tbody>
              {list.data.rows.map((row) => (
                <tr key={row.id} data-testid="issues-row" data-document-id={row.id}>
                  <td className="text-break" data-testid="issues-filename">
                    {row.filename}
                  </td>
                  <td className="text-end" data-testid="issues-count">
                    {row.issueCount}
                  </td>
                  <td className="text-end" data-testid="issues-resolved">
                    {row.resolvedCount}
                  </td>
                  <td className="text-end" data-testid="issues-comments">
                    {row.commentCount}
                  </td>
                  <td className="text-end">
                    <Link
                      className="btn btn-sm btn-outline-primary text-nowrap"
                      to={issuesLink(processId, row.id)}
                      data-testid="issues-open"
                    >
                      <IconComment className="me-1" />
                      {t('dashboard.openIssues')}
                    </Link>
                  </td>
                </tr>
              ))}
            </tbody>
          </table>
        </div>
      )}
      <div className="card-footer bg-body">
        <Pagination
          position={position}
          size={size}
          answer={list.data ?? NO_ANSWER}
          onGo={setPosition}
          onSize={setSize}
          testId="issues-pagination"
        />
      </div>
    </div>
  );
}
