/**
 * The statistics of a process (spec 3 "Statistics screen"; issue 16 section 1), for ADMIN on the process:
 * the tabs Work time (the default), Tags and Node Activity over one date range (presets or two days typed
 * dd.MM.yyyy, at most 365 days) in the browser's zone, with user and node filters where the tab has them.
 * The process's nodes load first: a process without nodes (or none at all) is 'The page does not exist.'.
 */
import { useMemo, useState } from 'react';
import { useQuery } from '@tanstack/react-query';
import { useTranslation } from 'react-i18next';
import { Link, useParams } from 'react-router-dom';
import type { NodeDTO } from '@domain/graph-types';
import type { StatisticsAnswer, StatisticsQuery, StatisticsType } from '@domain/statistics-types';
import { DelayedSpinner } from '../../../components/DelayedSpinner';
import { localDay } from '../../../components/format';
import { IconArrowLeft } from '../../../components/icons';
import { DashboardTabs } from '../../dashboard/components/DashboardTabs';
import { nodeQueries } from '../../graph/api';
import { processQueries } from '../../processes/api';
import { NotFoundPage } from '../../shell/components/StatusPages';
import { workspaceQueries } from '../../workspace/api';
import { parseId } from '../../workspace/model';
import { statisticsQueries } from '../api';
import { STATISTICS_TABS, statisticsQuery, statisticsUserName, TAB_FILTERS } from '../figures';
import { browserZone, daysOf, formatDay, parseDay, presetRange, rangeError } from '../range';
import { DateRangePicker, type TypedRange } from './DateRangePicker';
import { FilterMenu, type FilterOption } from './FilterMenu';
import { NodeActivityTab } from './NodeActivityTab';
import { TagsTab } from './TagsTab';
import { WorkTimeTab } from './WorkTimeTab';
import '../statistics.css';

/** The range the screen opens with. */
const START_PRESET = 'thisMonth';

export function StatisticsPage() {
  const { t } = useTranslation();
  const processId = parseId(useParams().processId);
  const nodes = useQuery({ ...nodeQueries.list(processId ?? 0), enabled: processId !== null });
  if (processId === null) return <NotFoundPage />;
  if (nodes.isPending) return <DelayedSpinner label={t('global.common.loading')} />;
  if (nodes.isError || nodes.data.length === 0) return <NotFoundPage />;
  return <Statistics processId={processId} nodes={nodes.data} />;
}

/** What a tab shows its figures with. */
export interface TabContext {
  processId: number;
  /** the query of the tab's answer (the node activity tab asks for a cell's documents with it) */
  query: StatisticsQuery;
  days: string[];
  nodeName: (id: number) => string;
  userName: (id: number) => string;
}

function Statistics({ processId, nodes }: { processId: number; nodes: NodeDTO[] }) {
  const { t } = useTranslation();
  const process = useQuery(processQueries.detail(processId));
  const assignable = useQuery(workspaceQueries.assignable(processId));
  const today = useMemo(() => localDay(new Date()), []);
  const zoneId = useMemo(browserZone, []);
  const [tab, setTab] = useState<StatisticsType>('WORK_TIMER');
  const [typed, setTyped] = useState<TypedRange>(() => {
    const r = presetRange(START_PRESET, today);
    return { from: formatDay(r.from), to: formatDay(r.to) };
  });
  const [userIds, setUserIds] = useState<number[]>([]);
  const [nodeIds, setNodeIds] = useState<number[]>([]);

  const from = parseDay(typed.from);
  const to = parseDay(typed.to);
  const error = rangeError(from, to);
  const range = from && to ? { from, to } : null;
  const query = statisticsQuery(tab, processId, {
    range: range ?? { from: today, to: today },
    zoneId,
    userIds,
    nodeIds,
  });
  const answer = useQuery({ ...statisticsQueries.answer<StatisticsAnswer>(query), enabled: !error });
  const data = answer.data?.type === tab ? answer.data : undefined;

  // Users: those with access to the process, and anyone the answer names (a global admin, a former member).
  const users = useMemo(() => {
    const byId = new Map<number, string>();
    for (const u of assignable.data ?? []) byId.set(u.id, statisticsUserName(u));
    if (data && 'users' in data) for (const u of data.users) byId.set(u.id, statisticsUserName(u));
    return byId;
  }, [assignable.data, data]);
  const nodeNames = useMemo(() => new Map(nodes.map((n) => [n.id, n.name])), [nodes]);
  const options = (m: Map<number, string>): FilterOption[] =>
    [...m.entries()].map(([id, name]) => ({ id, name })).sort((a, b) => a.name.localeCompare(b.name));

  const context: TabContext = {
    processId,
    query,
    days: error || !range ? [] : daysOf(range),
    nodeName: (id) => nodeNames.get(id) ?? `#${id}`,
    userName: (id) => users.get(id) ?? `#${id}`,
  };

  return (
    <div className="container-xxl py-4 page statistics" data-testid="statistics-page">
      <div className="page-header d-flex flex-wrap align-items-start gap-3 mb-3">
        <Link to="/entity/process" className="btn btn-outline-secondary btn-sm" data-testid="statistics-back">
          <IconArrowLeft className="me-1" />
          {t('global.common.back')}
        </Link>
        <div className="me-auto">
          <h1 className="h3 mb-0">{t('statistics.title')}</h1>
          <p className="text-body-secondary mb-0 small" data-testid="statistics-process">
            {process.data?.name ?? '\u00a0'}
          </p>
        </div>
        <DateRangePicker value={typed} onChange={setTyped} today={today} range={range} error={error} />
      </div>

      <div className="card shadow-sm border-0" data-testid="statistics-card" data-tab={tab}>
        <div className="card-header bg-body border-bottom-0 pb-0 d-flex flex-wrap align-items-end gap-2">
          <DashboardTabs
            tabs={STATISTICS_TABS}
            tab={tab}
            onTab={setTab}
            labelKey="statistics.tabs"
            testIdPrefix="statistics-tab"
            className="me-auto"
          />
          <div className="d-flex flex-wrap align-items-center gap-2 mb-2">
            {answer.isFetching && (
              <span
                className="spinner-border spinner-border-sm text-primary"
                role="status"
                aria-label={t('global.common.loading')}
              />
            )}
            <span className="small text-body-secondary" data-testid="statistics-zone">
              {t('statistics.zone', { zone: zoneId })}
            </span>
            {TAB_FILTERS[tab].users && (
              <FilterMenu
                label={t('statistics.filters.users')}
                allLabel={t('statistics.filters.allUsers')}
                options={options(users)}
                selected={userIds}
                onChange={setUserIds}
                testId="statistics-users"
              />
            )}
            {TAB_FILTERS[tab].nodes && (
              <FilterMenu
                label={t('statistics.filters.nodes')}
                allLabel={t('statistics.filters.allNodes')}
                options={options(nodeNames)}
                selected={nodeIds}
                onChange={setNodeIds}
                testId="statistics-nodes"
              />
            )}
          </div>
        </div>
        <div
          className="card-body border-top"
          data-testid="statistics-body"
          data-loaded={!!data && !answer.isFetching}
        >
          {error ? (
            <div className="text-body-secondary p-4 text-center" data-testid="statistics-no-range">
              {t('statistics.range.fix')}
            </div>
          ) : answer.isError ? (
            <div className="text-danger p-4" data-testid="statistics-error">
              {t('statistics.loadError')}
            </div>
          ) : !data ? (
            <DelayedSpinner label={t('global.common.loading')} />
          ) : data.type === 'WORK_TIMER' ? (
            <WorkTimeTab answer={data} context={context} />
          ) : data.type === 'TAG_USAGE' ? (
            <TagsTab answer={data} context={context} />
          ) : (
            <NodeActivityTab answer={data} context={context} />
          )}
        </div>
      </div>
    </div>
  );
}
