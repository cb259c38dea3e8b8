/**
 * The documents panel (spec 2 sections 2, 6, 9; issue 11 section 4): Previous / Next through the list
 * (wrapping), the tabs My documents (id 1: the caller's documents, waiting ones first, a rule, then the
 * others) and All documents (id 2, process admins only, their start tab) with a step filter and an assignee
 * filter and Clear filters, pages of 20 from POST api/v2/document-info loaded as the list scrolls, 'No
 * results', and per document its file name and a status badge per step. Clicking a document opens it.
 */
import { useInfiniteQuery, useQuery } from '@tanstack/react-query';
import { useEffect, useMemo, useRef, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { useNavigate } from 'react-router-dom';
import type { AccessMode } from '@domain';
import type { DocumentStateDTO, UserRefDTO } from '@domain/document-state-types';
import { ALL_STEP_STATUSES, type DocumentInfoDTO, type DocumentInfoFilter } from '@domain/document-info';
import type { StepStatus } from '@domain/steps';
import { documentInfoQueries } from '../../documents/api';
import { nodeQueries } from '../../graph/api';
import { nextTarget, previousTarget, type NavTarget } from '../documentsNavigation';
import { useSessionState } from '../hooks/useSessionState';
import { userName } from '../model';

type Tab = 'my' | 'all';
/** The panel's filters on the All tab: a node with a status ('' any), an assignee ('none': unassigned). */
interface Filters {
  nodeId: string;
  status: StepStatus | '';
  assignee: string;
}
const NO_FILTERS: Filters = { nodeId: '', status: '', assignee: '' };

export interface DocumentsPanelProps {
  state: DocumentStateDTO;
  userId: number | null;
  processMode: AccessMode | null;
}

export function DocumentsPanel({ state, userId, processMode }: DocumentsPanelProps) {
  const { t } = useTranslation();
  const navigate = useNavigate();
  const doc = state.document;
  const processId = doc.processId;
  const isProcessAdmin = processMode === 'ADMIN';
  const [tab, setTab] = useSessionState<Tab>(
    `workspace.documents.${processId}.tab`,
    isProcessAdmin ? 'all' : 'my',
  );
  const [filters, setFilters] = useSessionState<Filters>(
    `workspace.documents.${processId}.filters`,
    NO_FILTERS,
  );
  const activeTab: Tab = isProcessAdmin ? tab : 'my';

  const process: DocumentInfoFilter = { type: 'PROCESS', value: processId };
  // My documents: assigned to the user or uploaded by them, as on the documents dashboard.
  const me: DocumentInfoFilter[] = userId === null ? [] : [{ type: 'MINE', value: userId }];
  const allFilters = useMemo(() => {
    const list: DocumentInfoFilter[] = [{ type: 'PROCESS', value: processId }];
    if (filters.nodeId)
      list.push({
        type: 'STEP',
        value: {
          nodeId: Number(filters.nodeId),
          statuses: filters.status ? [filters.status] : [...ALL_STEP_STATUSES],
        },
      });
    if (filters.assignee === 'none') list.push({ type: 'UNASSIGNED', value: true });
    else if (filters.assignee) list.push({ type: 'ASSIGNEE', value: [Number(filters.assignee)] });
    return list;
  }, [processId, filters]);

  const waiting = useInfiniteQuery({
    ...documentInfoQueries.infinite([process, ...me, { type: 'STATUS', value: 'WAITING' }]),
    enabled: activeTab === 'my' && userId !== null,
  });
  const done = useInfiniteQuery({
    ...documentInfoQueries.infinite([process, ...me, { type: 'STATUS', value: 'DONE' }]),
    enabled: activeTab === 'my' && userId !== null && waiting.isSuccess && !waiting.hasNextPage,
  });
  const all = useInfiniteQuery({ ...documentInfoQueries.infinite(allFilters), enabled: activeTab === 'all' });
  const nodes = useQuery({ ...nodeQueries.list(processId), enabled: activeTab === 'all' });

  const rows = (q: typeof all) => q.data?.pages.flatMap((p) => p.rows) ?? [];
  const segments: DocumentInfoDTO[][] = activeTab === 'my' ? [rows(waiting), rows(done)] : [rows(all)];
  const ids = segments.flat().map((d) => d.id);
  const hasMore =
    activeTab === 'my' ? waiting.hasNextPage || !done.isSuccess || done.hasNextPage : all.hasNextPage;
  const pending =
    activeTab === 'my'
      ? waiting.isPending || (waiting.isSuccess && !waiting.hasNextPage && done.isPending)
      : all.isPending;
  const fetching =
    waiting.isFetchingNextPage ||
    done.isFetchingNextPage ||
    all.isFetchingNextPage ||
    (done.isFetching && !done.data);
  const failed = activeTab === 'my' ? waiting.isError || done.isError : all.isError;

  const loadMore = () => {
    if (fetching) return;
    if (activeTab === 'all') {
      if (all.hasNextPage) void all.fetchNextPage();
    } else if (waiting.hasNextPage) void waiting.fetchNextPage();
    else if (done.hasNextPage) void done.fetchNextPage();
  };

  // Assignees seen in the list stay offered by the filter while it narrows the list.
  const seen = useRef(new Map<number, UserRefDTO>());
  for (const d of segments.flat()) for (const u of d.assignees) seen.current.set(u.id, u);
  const assigneeOptions = [...seen.current.values()].sort((a, b) => userName(a).localeCompare(userName(b)));

  const open = (id: number) => navigate(`/entity/process/${processId}/document/${id}`);

  // Previous / Next, loading more of the list first when the neighbour is not loaded yet.
  const [wanted, setWanted] = useState<'next' | 'previous' | null>(null);
  const act = (target: NavTarget, direction: 'next' | 'previous') => {
    if (target.kind === 'go') {
      setWanted(null);
      open(target.id);
    } else if (target.kind === 'none') setWanted(null);
    else {
      setWanted(direction);
      loadMore();
    }
  };
  const step = (direction: 'next' | 'previous') =>
    act(
      direction === 'next' ? nextTarget(ids, doc.id, hasMore) : previousTarget(ids, doc.id, hasMore),
      direction,
    );
  useEffect(() => {
    if (wanted && !fetching && !pending) step(wanted);
    // eslint-disable-next-line react-hooks/exhaustive-deps
  }, [wanted, fetching, pending, ids.length]);

  // Infinite scroll: the sentinel below the list loads the next page when it comes into view.
  const sentinel = useRef<HTMLDivElement>(null);
  useEffect(() => {
    const el = sentinel.current;
    if (!el || !hasMore) return;
    const observer = new IntersectionObserver((entries) => {
      if (entries.some((e) => e.isIntersecting)) loadMore();
    });
    observer.observe(el);
    return () => observer.disconnect();
  });

  const filtered = filters.nodeId !== '' || filters.assignee !== '';
  const tabButton = (id: Tab, n: number) => (
    <li className="nav-item" role="presentation">
      <button
        type="button"
        role="tab"
        className={`nav-link py-1 px-2 ${activeTab === id ? 'active' : ''}`}
        aria-selected={activeTab === id}
        onClick={() => setTab(id)}
        data-testid={`documents-tab-${n}`}
      >
        {t(`workspace.tools.documentsPanel.${id === 'my' ? 'myDocuments' : 'allDocuments'}`)}
      </button>
    </li>
  );

  const item = (d: DocumentInfoDTO) => (
    <li key={d.id}>
      <button
        type="button"
        className={`ws-doc-item ${d.id === doc.id ? 'current' : ''}`}
        onClick={() => open(d.id)}
        aria-current={d.id === doc.id ? 'page' : undefined}
        data-testid="documents-item"
        data-document-id={d.id}
      >
        <span className="ws-doc-name text-truncate" title={d.filename}>
          {d.filename}
        </span>
        <span className="ws-doc-steps">
          {d.steps.map((s) => (
            <span
              key={s.id}
              className={`badge ws-status ws-status-${s.status.toLowerCase()}`}
              title={`${s.nodeName}: ${t(`workspace.status.${s.status}`)}`}
              aria-label={`${s.nodeName}: ${t(`workspace.status.${s.status}`)}`}
              data-status={s.status}
              data-testid="documents-item-step"
            >
              {s.nodeName}
            </span>
          ))}
        </span>
      </button>
    </li>
  );

  return (
    <div className="ws-docs" data-testid="documents-panel" data-tab={activeTab}>
      <div className="d-flex gap-1 mb-2">
        <button
          type="button"
          className="btn btn-sm btn-outline-secondary flex-fill"
          onClick={() => step('previous')}
          data-testid="documents-previous"
        >
          ‹ {t('workspace.tools.documentsPanel.previous')}
        </button>
        <button
          type="button"
          className="btn btn-sm btn-outline-secondary flex-fill"
          onClick={() => step('next')}
          data-testid="documents-next"
        >
          {t('workspace.tools.documentsPanel.next')} ›
        </button>
      </div>
      <ul className="nav nav-tabs small mb-2" role="tablist">
        {tabButton('my', 1)}
        {isProcessAdmin && tabButton('all', 2)}
      </ul>
      {activeTab === 'all' && (
        <div className="ws-doc-filters" data-testid="documents-filters">
          <label className="form-label small mb-0" htmlFor="docs-step">
            {t('workspace.tools.documentsPanel.step')}
          </label>
          <div className="d-flex gap-1 mb-1">
            <select
              id="docs-step"
              className="form-select form-select-sm"
              value={filters.nodeId}
              onChange={(e) => setFilters((f) => ({ ...f, nodeId: e.target.value }))}
              data-testid="documents-filter-node"
            >
              <option value="">{t('workspace.tools.documentsPanel.anyStep')}</option>
              {(nodes.data ?? []).map((n) => (
                <option key={n.id} value={String(n.id)}>
                  {n.name}
                </option>
              ))}
            </select>
            <select
              className="form-select form-select-sm"
              value={filters.status}
              disabled={!filters.nodeId}
              aria-label={t('workspace.tools.documentsPanel.stepStatus')}
              onChange={(e) => setFilters((f) => ({ ...f, status: e.target.value as StepStatus | '' }))}
              data-testid="documents-filter-status"
            >
              <option value="">{t('workspace.tools.documentsPanel.anyStatus')}</option>
              {ALL_STEP_STATUSES.map((s) => (
                <option key={s} value={s}>
                  {t(`workspace.status.${s}`)}
                </option>
              ))}
            </select>
          </div>
          <label className="form-label small mb-0" htmlFor="docs-assignee">
            {t('workspace.tools.documentsPanel.assignee')}
          </label>
          <select
            id="docs-assignee"
            className="form-select form-select-sm mb-1"
            value={filters.assignee}
            onChange={(e) => setFilters((f) => ({ ...f, assignee: e.target.value }))}
            data-testid="documents-filter-assignee"
          >
            <option value="">{t('workspace.tools.documentsPanel.anyAssignee')}</option>
            <option value="none">{t('workspace.tools.documentsPanel.unassigned')}</option>
            {userId !== null && !seen.current.has(userId) && (
              <option value={String(userId)}>{t('workspace.tools.documentsPanel.me')}</option>
            )}
            {assigneeOptions.map((u) => (
              <option key={u.id} value={String(u.id)}>
                {u.id === userId ? `${userName(u)} (${t('workspace.tools.documentsPanel.me')})` : userName(u)}
              </option>
            ))}
          </select>
          <button
            type="button"
            className="btn btn-sm btn-link p-0 mb-2"
            disabled={!filtered}
            onClick={() => setFilters(NO_FILTERS)}
            data-testid="documents-clear-filters"
          >
            {t('workspace.tools.documentsPanel.clearFilters')}
          </button>
        </div>
      )}
      {failed ? (
        <p className="small text-danger" data-testid="documents-error">
          {t('workspace.tools.documentsPanel.failed')}
        </p>
      ) : pending ? (
        <p className="small text-body-secondary">{t('workspace.tools.documentsPanel.loading')}</p>
      ) : ids.length === 0 ? (
        <p className="small text-body-secondary" data-testid="documents-empty">
          {t('workspace.tools.documentsPanel.noResults')}
        </p>
      ) : (
        <ul className="ws-doc-list list-unstyled mb-0" data-testid="documents-list">
          {segments[0].map(item)}
          {segments.length > 1 && segments[0].length > 0 && segments[1].length > 0 && (
            <li role="separator" aria-hidden="true" data-testid="documents-rule">
              <hr className="my-1" />
            </li>
          )}
          {segments.length > 1 && segments[1].map(item)}
        </ul>
      )}
      <div ref={sentinel} data-testid="documents-sentinel" style={{ height: 1 }} />
      {fetching && (
        <p className="small text-body-secondary mb-0">{t('workspace.tools.documentsPanel.loading')}</p>
      )}
    </div>
  );
}
