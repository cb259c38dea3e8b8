/**
 * The documents dashboard of a process (spec 2 section 2 "Documents dashboard (per process)", sections 3-6
 * and 9; issue 13 section 1): tabs My documents, Unassigned, Done and All (process admins, their start
 * tab); a tab change goes back to page 0. 'Filters' toggles the panel: the filename (400 ms debounce), a
 * step filter per node of the process (a tri-state node checkbox over the five status checkboxes), an
 * assignee filter with a prefix search (process admins, All tab: the API lets only them name other users)
 * and the show/hide accepted steps button. Columns: filename, steps (a badge per step with its status),
 * assignees (opening the workspace's assignees menu under the spec's rule) and 'go to document' or 'view'
 * (DONE, or locked by another user). Pages of 20 (10 or 50 to choose) with ellipses; an estimated total
 * shows as "about N"; page numbers only inside the result window, Next / Previous by cursor beyond it and
 * Last from the end (components/pagination.ts). The request is built in ../documents.ts.
 */
import { DelayedSpinner } from '../../../components/DelayedSpinner';
import { useQuery } from '@tanstack/react-query';
import { useEffect, useMemo, useRef, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { Link, useParams } from 'react-router-dom';
import type { AccessMode } from '@domain';
import { ALL_STEP_STATUSES, DOCUMENT_INFO_PAGE_SIZE, type DocumentInfoDTO } from '@domain/document-info';
import type { UserRefDTO } from '@domain/document-state-types';
import type { StepStatus } from '@domain/steps';
import { useDebounced } from '../../../components/hooks';
import { IconClose, IconEye, IconFile, IconSearch } from '../../../components/icons';
import { Pagination } from '../../../components/Pagination';
import { DashboardTabs } from './DashboardTabs';
import { FIRST_PAGE, NO_ANSWER, pageCount, type PagePosition } from '../../../components/pagination';
import { useSession } from '../../account/session';
import { nodeQueries } from '../../graph/api';
import { useProcessAccessMode } from '../../processes/api';
import { matchesUserSearch } from '../../workspace/assignees';
import { workspaceQueries } from '../../workspace/api';
import { AssigneesMenu } from '../../workspace/components/AssigneesMenu';
import { parseId } from '../../workspace/model';
import { documentDashboardQueries } from '../api';
import {
  activeFilterCount,
  assigneeCellOpens,
  assigneeFilterApplies,
  documentAction,
  documentFilters,
  documentLink,
  documentStartTab,
  documentTabsFor,
  nodeCheckState,
  PageCursors,
  toggleNode,
  toggleStatus,
  userLabel,
  visibleSteps,
  type DocumentTab,
  type StepSelection,
} from '../documents';
import { useStepErrorText } from '../../../components/stepErrors';
import { WaitingForProofreading } from './WaitingForProofreading';

const ADMIN_ONLY = ['ADMIN'] as const;
/** The filename filter's debounce (spec 2 section 9). */
const NAME_DEBOUNCE_MS = 400;

const STATUS_BADGE: Record<StepStatus, string> = {
  WAITING: 'text-bg-warning',
  PROCESSING: 'text-bg-info',
  DONE: 'text-bg-primary',
  ACCEPTED: 'text-bg-success',
  ERROR: 'text-bg-danger',
};

export function DocumentsDashboardPage() {
  const processId = parseId(useParams().processId);
  const { account, principal } = useSession();
  const access = useProcessAccessMode(principal, processId, ADMIN_ONLY);
  if (processId === null || !account || access.isLoading) return null;
  return <DocumentsDashboard processId={processId} userId={account.id} processMode={access.mode} />;
}

function DocumentsDashboard({
  processId,
  userId,
  processMode,
}: {
  processId: number;
  userId: number;
  processMode: AccessMode | null;
}) {
  const { t } = useTranslation();
  const processAdmin = processMode === 'ADMIN';
  const tabs = documentTabsFor(processAdmin);
  const [tab, setTab] = useState<DocumentTab>(documentStartTab(processAdmin));
  const [filtersOpen, setFiltersOpen] = useState(false);
  const [nameInput, setNameInput] = useState('');
  const name = useDebounced(nameInput, NAME_DEBOUNCE_MS);
  const [steps, setSteps] = useState<StepSelection>({});
  const [assigneeIds, setAssigneeIds] = useState<number[]>([]);
  const [showAccepted, setShowAccepted] = useState(true);
  const [position, setPosition] = useState<PagePosition>(FIRST_PAGE);
  const [size, setSize] = useState(DOCUMENT_INFO_PAGE_SIZE);
  const cursors = useRef(new PageCursors()).current;

  const state = { tab, name, steps, assigneeIds };
  const filters = useMemo(
    () => documentFilters(processId, userId, { tab, name, steps, assigneeIds }),
    [processId, userId, tab, name, steps, assigneeIds],
  );
  const list = useQuery(documentDashboardQueries.page(filters, position, size, cursors));
  const answer = list.data ?? NO_ANSWER;
  const pages = pageCount(answer.total, size);

  // A new tab, filter or page size starts at the first page; so does a page past the end.
  useEffect(() => setPosition(FIRST_PAGE), [filters, size]);
  useEffect(() => {
    if (list.data?.exact && position.kind === 'page' && position.page >= pages) setPosition(FIRST_PAGE);
  }, [list.data, position, pages]);

  const filterCount = activeFilterCount(state);
  const clearFilters = () => {
    setNameInput('');
    setSteps({});
    setAssigneeIds([]);
  };

  return (
    <div className="card shadow-sm border-0" data-testid="documents-dashboard" data-tab={tab}>
      <WaitingForProofreading
        processId={processId}
        onShow={(nodeId) => {
          setTab(tabs.includes('all') ? 'all' : 'unassigned');
          setSteps({ [nodeId]: ['WAITING'] });
        }}
      />
      <div className="card-header bg-body border-bottom-0 pb-0 d-flex flex-wrap align-items-end gap-2">
        <DashboardTabs
          tabs={tabs}
          tab={tab}
          onTab={setTab}
          labelKey="dashboard.documentTabs"
          testIdPrefix="documents-tab"
          className="me-auto documents-tabs"
        />
        <div className="d-flex flex-wrap gap-2 mb-2">
          <button
            type="button"
            className={`btn btn-sm text-nowrap ${showAccepted ? 'btn-outline-secondary' : 'btn-secondary'}`}
            aria-pressed={!showAccepted}
            onClick={() => setShowAccepted((v) => !v)}
            data-testid="documents-toggle-accepted"
          >
            {showAccepted ? t('dashboard.accepted.hide') : t('dashboard.accepted.show')}
          </button>
          <button
            type="button"
            className={`btn btn-sm text-nowrap ${filtersOpen ? 'btn-primary' : 'btn-outline-primary'}`}
            aria-expanded={filtersOpen}
            aria-controls="documents-filters"
            onClick={() => setFiltersOpen((v) => !v)}
            data-testid="documents-filters-toggle"
          >
            <IconSearch size={13} className="me-1" />
            {t('dashboard.filters.toggle')}
            {filterCount > 0 && (
              <span
                className={`badge rounded-pill ms-1 ${filtersOpen ? 'text-bg-light' : 'text-bg-primary'}`}
                data-testid="documents-filters-count"
              >
                {filterCount}
              </span>
            )}
          </button>
        </div>
      </div>
      {filtersOpen && (
        <FiltersPanel
          processId={processId}
          processAdmin={processAdmin}
          tab={tab}
          nameInput={nameInput}
          onName={setNameInput}
          steps={steps}
          onSteps={setSteps}
          assigneeIds={assigneeIds}
          onAssignees={setAssigneeIds}
          onClear={clearFilters}
          canClear={filterCount > 0 || nameInput !== ''}
        />
      )}
      {list.isPending ? (
        <div className="p-5 text-center">
          <DelayedSpinner label={t('global.common.loading')} testId="documents-loading" />
        </div>
      ) : list.isError ? (
        <div className="p-4 text-danger" data-testid="documents-error">
          {t('dashboard.documentsLoadError')}
        </div>
      ) : list.data.rows.length === 0 ? (
        <div className="p-5 text-center text-body-secondary empty-state" data-testid="documents-empty">
          {t('dashboard.noResults')}
        </div>
      ) : (
        <table
          className="table table-hover align-middle mb-0 documents-table"
          data-testid="documents-table"
          aria-busy={list.isPlaceholderData}
        >
          <thead>
            <tr>
              <th>{t('dashboard.columns.filename')}</th>
              <th>{t('dashboard.columns.steps')}</th>
              <th>{t('dashboard.columns.assignees')}</th>
              <th className="text-end">
                <span className="visually-hidden">{t('dashboard.columns.actions')}</span>
              </th>
            </tr>
          </thead>
          <tbody>
            {list.data.rows.map((row) => (
              <DocumentRow
                key={row.id}
                row={row}
                userId={userId}
                processMode={processMode}
                showAccepted={showAccepted}
              />
            ))}
          </tbody>
        </table>
      )}
      <div className="card-footer bg-body">
        <Pagination
          position={position}
          size={size}
          answer={answer}
          onGo={setPosition}
          onSize={setSize}
          testId="documents-pagination"
        />
      </div>
    </div>
  );
}

function DocumentRow({
  row,
  userId,
  processMode,
  showAccepted,
}: {
  row: DocumentInfoDTO;
  userId: number;
  processMode: AccessMode | null;
  showAccepted: boolean;
}) {
  const { t } = useTranslation();
  const errorText = useStepErrorText();
  const action = documentAction(row, userId);
  const shownSteps = visibleSteps(row.steps, showAccepted);
  const names = (
    <span className="documents-assignee-names" data-testid="documents-assignee-names">
      {row.assignees.length === 0 ? (
        <span className="text-body-secondary fst-italic">{t('dashboard.noAssignees')}</span>
      ) : (
        row.assignees.map((a, i) => (
          <span key={a.id} data-user-id={a.id}>
            {i > 0 && ', '}
            {userLabel(a) ?? <span className="fst-italic">{t('dashboard.unknownUser')}</span>}
          </span>
        ))
      )}
    </span>
  );
  return (
    <tr data-testid="documents-row" data-document-id={row.id} data-status={row.status}>
      <td className="text-break" data-label={t('dashboard.columns.filename')}>
        <span className="d-inline-flex align-items-center gap-1" data-testid="documents-filename">
          <IconFile size={14} className="text-body-secondary flex-shrink-0" />
          {row.filename}
        </span>
      </td>
      <td data-label={t('dashboard.columns.steps')}>
        <div className="d-flex flex-wrap gap-1" data-testid="documents-steps">
          {shownSteps.length === 0 && <span className="text-body-secondary small">—</span>}
          {shownSteps.map((s) => {
            const node = s.nodeName || t('dashboard.unknownNode');
            const status = t(`workspace.status.${s.status}`);
            return (
              <span
                key={s.id}
                className={`badge documents-step ${STATUS_BADGE[s.status]}`}
                title={`${node}: ${status}${s.status === 'ERROR' && s.errorMessage ? ` (${errorText(s.errorMessage)})` : ''}`}
                data-testid="documents-step"
                data-node-id={s.nodeId}
                data-status={s.status}
              >
                {node}
                <span className="documents-step-status">{status}</span>
              </span>
            );
          })}
        </div>
      </td>
      <td data-label={t('dashboard.columns.assignees')} data-testid="documents-assignees">
        {assigneeCellOpens(processMode, row) ? (
          <AssigneesMenu
            state={{ document: row, assignees: row.assignees, blockedBy: row.blockedBy }}
            userId={userId}
            processMode={processMode}
            toggle={names}
            toggleClassName="btn btn-sm btn-link text-reset text-start text-decoration-none p-0 documents-assignee-toggle"
          />
        ) : (
          names
        )}
      </td>
      <td className="text-end" data-label="">
        <Link
          className={`btn btn-sm text-nowrap ${action === 'goTo' ? 'btn-primary' : 'btn-outline-secondary'}`}
          to={documentLink(row.processId, row.id)}
          data-testid={action === 'goTo' ? 'documents-go' : 'documents-view'}
        >
          {action === 'view' && <IconEye size={14} className="me-1" />}
          {action === 'goTo' ? t('dashboard.goToDocument') : t('dashboard.view')}
        </Link>
      </td>
    </tr>
  );
}

function FiltersPanel({
  processId,
  processAdmin,
  tab,
  nameInput,
  onName,
  steps,
  onSteps,
  assigneeIds,
  onAssignees,
  onClear,
  canClear,
}: {
  processId: number;
  processAdmin: boolean;
  tab: DocumentTab;
  nameInput: string;
  onName: (v: string) => void;
  steps: StepSelection;
  onSteps: (s: StepSelection) => void;
  assigneeIds: number[];
  onAssignees: (ids: number[]) => void;
  onClear: () => void;
  canClear: boolean;
}) {
  const { t } = useTranslation();
  const nodes = useQuery(nodeQueries.list(processId));
  return (
    <div
      id="documents-filters"
      className="card-body border-bottom documents-filters"
      data-testid="documents-filters"
    >
      <div className="row g-3">
        <div className="col-12 col-lg-4">
          <label className="form-label small fw-semibold" htmlFor="documents-filter-name">
            {t('dashboard.filters.filenameLabel')}
          </label>
          <input
            id="documents-filter-name"
            type="search"
            className="form-control form-control-sm"
            placeholder={t('dashboard.filters.filename')}
            value={nameInput}
            onChange={(e) => onName(e.target.value)}
            data-testid="documents-filter-name"
          />
          {processAdmin && (
            <AssigneeFilter
              processId={processId}
              selected={assigneeIds}
              onChange={onAssignees}
              disabled={!assigneeFilterApplies(tab)}
            />
          )}
          <button
            type="button"
            className="btn btn-sm btn-outline-secondary mt-3"
            onClick={onClear}
            disabled={!canClear}
            data-testid="documents-filters-clear"
          >
            {t('dashboard.filters.clear')}
          </button>
        </div>
        <div className="col-12 col-lg-8">
          <div className="form-label small fw-semibold">{t('dashboard.filters.steps')}</div>
          {nodes.isPending ? (
            <p className="small text-body-secondary">{t('global.common.loading')}</p>
          ) : nodes.isError ? (
            <p className="small text-danger">{t('dashboard.filters.nodesFailed')}</p>
          ) : nodes.data.length === 0 ? (
            <p className="small text-body-secondary">{t('dashboard.filters.noNodes')}</p>
          ) : (
            <div className="documents-node-filters">
              {nodes.data.map((n) => (
                <NodeFilter
                  key={n.id}
                  nodeId={n.id}
                  name={n.name || t('dashboard.unknownNode')}
                  statuses={steps[n.id]}
                  onToggle={() => onSteps(toggleNode(steps, n.id))}
                  onStatus={(s) => onSteps(toggleStatus(steps, n.id, s))}
                />
              ))}
            </div>
          )}
        </div>
      </div>
    </div>
  );
}

function NodeFilter({
  nodeId,
  name,
  statuses,
  onToggle,
  onStatus,
}: {
  nodeId: number;
  name: string;
  statuses: readonly StepStatus[] | undefined;
  onToggle: () => void;
  onStatus: (s: StepStatus) => void;
}) {
  const { t } = useTranslation();
  const check = nodeCheckState(statuses);
  const ref = useRef<HTMLInputElement>(null);
  useEffect(() => {
    if (ref.current) ref.current.indeterminate = check === 'indeterminate';
  }, [check]);
  const id = `documents-node-${nodeId}`;
  return (
    <fieldset
      className="documents-node-filter"
      data-testid="documents-node-filter"
      data-node-id={nodeId}
      data-state={check}
    >
      <div className="form-check mb-1">
        <input
          ref={ref}
          id={id}
          type="checkbox"
          className="form-check-input"
          checked={check === 'checked'}
          aria-checked={check === 'indeterminate' ? 'mixed' : check === 'checked'}
          onChange={onToggle}
          data-testid="documents-node-check"
        />
        <label className="form-check-label small fw-semibold text-break" htmlFor={id}>
          {name}
        </label>
      </div>
      <div className="d-flex flex-wrap ps-4">
        {ALL_STEP_STATUSES.map((s) => {
          const sid = `${id}-${s}`;
          return (
            <div key={s} className="form-check form-check-inline me-2 mb-0">
              <input
                id={sid}
                type="checkbox"
                className="form-check-input"
                checked={!!statuses?.includes(s)}
                onChange={() => onStatus(s)}
                data-testid="documents-status-check"
                data-status={s}
              />
              <label className="form-check-label small" htmlFor={sid}>
                {t(`workspace.status.${s}`)}
              </label>
            </div>
          );
        })}
      </div>
    </fieldset>
  );
}

/** Process admins: documents assigned to any of the chosen users (All tab). */
function AssigneeFilter({
  processId,
  selected,
  onChange,
  disabled,
}: {
  processId: number;
  selected: number[];
  onChange: (ids: number[]) => void;
  disabled: boolean;
}) {
  const { t } = useTranslation();
  const [query, setQuery] = useState('');
  const users = useQuery(workspaceQueries.assignable(processId));
  const all = users.data ?? [];
  const byId = new Map(all.map((u) => [u.id, u]));
  const matches = all.filter((u) => !selected.includes(u.id) && matchesUserSearch(u, query));
  const label = (u: UserRefDTO) => userLabel(u) ?? t('dashboard.unknownUser');
  return (
    <fieldset className="mt-3" disabled={disabled} data-testid="documents-assignee-filter">
      <label className="form-label small fw-semibold mb-1" htmlFor="documents-filter-assignee">
        {t('dashboard.filters.assignees')}
      </label>
      {disabled && (
        <p className="small text-body-secondary mb-1">{t('dashboard.filters.assigneesAllOnly')}</p>
      )}
      {selected.length > 0 && (
        <div className="d-flex flex-wrap gap-1 mb-2">
          {selected.map((id) => {
            const u = byId.get(id);
            return (
              <span
                key={id}
                className="badge rounded-pill text-bg-light border d-inline-flex align-items-center gap-1"
                data-testid="documents-assignee-chip"
                data-user-id={id}
              >
                {u ? label(u) : t('dashboard.unknownUser')}
                <button
                  type="button"
                  className="btn btn-link p-0 text-body-secondary lh-1"
                  onClick={() => onChange(selected.filter((x) => x !== id))}
                  aria-label={t('dashboard.filters.removeAssignee', { name: u ? label(u) : '' })}
                  data-testid="documents-assignee-chip-remove"
                >
                  <IconClose size={11} />
                </button>
              </span>
            );
          })}
        </div>
      )}
      <input
        id="documents-filter-assignee"
        type="search"
        className="form-control form-control-sm"
        placeholder={t('dashboard.filters.assigneeSearch')}
        value={query}
        onChange={(e) => setQuery(e.target.value)}
        data-testid="documents-filter-assignee"
      />
      <div className="documents-assignee-options border rounded mt-1">
        {users.isPending ? (
          <p className="small text-body-secondary m-2">{t('global.common.loading')}</p>
        ) : users.isError ? (
          <p className="small text-danger m-2">{t('dashboard.filters.usersFailed')}</p>
        ) : matches.length === 0 ? (
          <p className="small text-body-secondary m-2">{t('dashboard.filters.noUsers')}</p>
        ) : (
          matches.map((u) => (
            <button
              key={u.id}
              type="button"
              className="dropdown-item small px-2 py-1 text-truncate"
              onClick={() => {
                onChange([...selected, u.id]);
                setQuery('');
              }}
              data-testid="documents-assignee-option"
              data-user-id={u.id}
            >
              {label(u)} <span className="text-body-secondary">{u.email}</span>
            </button>
          ))
        )}
      </div>
    </fieldset>
  );
}
