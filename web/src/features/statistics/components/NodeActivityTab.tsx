/**
 * Node activity (spec 3 section 3 "Node activity rows"): documents finished and tags per node and day as
 * charts, and a table of the days and nodes; a cell's documents open below it (the answer has the counts; the
 * ids of a cell's documents are asked for when it opens), read from the documents list five at a time (newest
 * first), each linking into the workspace.
 */
import { useState } from 'react';
import { useQuery } from '@tanstack/react-query';
import { useTranslation } from 'react-i18next';
import { Link } from 'react-router-dom';
import { STATISTICS_DOCUMENTS_PAGE_SIZE, type NodeActivityAnswer } from '@domain/statistics-types';
import { IconFile } from '../../../components/icons';
import { Pagination } from '../../../components/Pagination';
import { FIRST_PAGE, NO_ANSWER, type PagePosition } from '../../../components/pagination';
import { statisticsQueries } from '../api';
import { activityCells, nodeActivitySeries, type ActivityCell } from '../figures';
import { formatDay } from '../range';
import { ChartCards, TableCard } from './ChartCard';
import type { TabContext } from './StatisticsPage';

const keyOf = (c: { date: string; nodeId: number }) => `${c.date}-${c.nodeId}`;

export function NodeActivityTab({ answer, context }: { answer: NodeActivityAnswer; context: TabContext }) {
  const { t } = useTranslation();
  const { days, nodeName } = context;
  const cells = activityCells(answer.rows);
  const [open, setOpen] = useState<string | null>(null);
  return (
    <div data-testid="statistics-node-activity">
      <div className="row g-3 mb-3">
        <ChartCards
          days={days}
          charts={[
            {
              title: t('statistics.activity.documentsChart'),
              series: nodeActivitySeries(answer.rows, days, 'documents', nodeName),
              integer: true,
              testId: 'activity-documents-chart',
            },
            {
              title: t('statistics.activity.tagsChart'),
              series: nodeActivitySeries(answer.rows, days, 'tags', nodeName),
              integer: true,
              testId: 'activity-tags-chart',
            },
          ]}
        />
      </div>
      <TableCard title={t('statistics.activity.table')} empty={cells.length === 0}>
        <table className="table table-sm align-middle mb-0" data-testid="activity-table">
          <thead>
            <tr>
              <th>{t('statistics.columns.date')}</th>
              <th>{t('statistics.columns.node')}</th>
              <th className="text-end">{t('statistics.columns.documents')}</th>
              <th className="text-end">{t('statistics.columns.tags')}</th>
              <th className="text-end">
                <span className="visually-hidden">{t('statistics.activity.documents')}</span>
              </th>
            </tr>
          </thead>
          <tbody>
            {cells.map((c) => {
              const isOpen = open === keyOf(c);
              return [
                <tr
                  key={keyOf(c)}
                  data-testid="activity-row"
                  data-date={c.date}
                  data-node-id={c.nodeId}
                  data-documents={c.documents}
                  data-tags={c.tags}
                >
                  <td className="text-nowrap">{formatDay(c.date)}</td>
                  <td>{nodeName(c.nodeId)}</td>
                  <td className="text-end font-monospace">{c.documents}</td>
                  <td className="text-end font-monospace">{c.tags}</td>
                  <td className="text-end">
                    {c.documents > 0 && (
                      <button
                        type="button"
                        className={`btn btn-sm ${isOpen ? 'btn-primary' : 'btn-outline-primary'}`}
                        aria-expanded={isOpen}
                        onClick={() => setOpen(isOpen ? null : keyOf(c))}
                        data-testid="activity-documents-toggle"
                      >
                        <IconFile className="me-1" />
                        {t('statistics.activity.documents')}
                      </button>
                    )}
                  </td>
                </tr>,
                isOpen && (
                  <tr key={`${keyOf(c)}-documents`} className="statistics-activity-documents">
                    <td colSpan={5}>
                      <ActivityDocuments context={context} cell={c} />
                    </td>
                  </tr>
                ),
              ];
            })}
          </tbody>
        </table>
      </TableCard>
    </div>
  );
}

/**
 * The documents of a cell, five a page, newest first, each a link into the workspace: their ids and tag counts
 * from the statistics query narrowed to the cell, the documents from the documents list.
 */
function ActivityDocuments({ context, cell }: { context: TabContext; cell: ActivityCell }) {
  const { t } = useTranslation();
  const { processId } = context;
  const [position, setPosition] = useState<PagePosition>(FIRST_PAGE);
  const listed = useQuery(statisticsQueries.cell(context.query, cell));
  const found = listed.data && activityCells(listed.data.rows).find((c) => keyOf(c) === keyOf(cell));
  const ids = found?.documentIds ?? [];
  const documents = useQuery({
    ...statisticsQueries.documents(processId, ids, position),
    enabled: ids.length > 0,
  });
  const rows = ids.length ? (documents.data?.rows ?? []) : [];
  const documentTags = found?.documentTags ?? {};
  return (
    <div className="py-1 px-2" data-testid="activity-documents">
      {listed.isError || documents.isError ? (
        <div className="text-danger small">{t('statistics.loadError')}</div>
      ) : (
        <ul className="list-unstyled mb-2">
          {rows.map((d) => (
            <li key={d.id} className="d-flex align-items-center gap-2 py-1" data-testid="activity-document">
              <IconFile className="text-body-secondary" />
              <Link
                to={`/entity/process/${processId}/document/${d.id}`}
                data-testid="activity-document-link"
                data-document-id={d.id}
              >
                {d.filename}
              </Link>
              <span className="small text-body-secondary">#{d.id}</span>
              <span className="badge text-bg-light border ms-auto">
                {t('statistics.activity.documentTags', { count: documentTags[d.id] ?? 0 })}
              </span>
            </li>
          ))}
        </ul>
      )}
      {(documents.data?.total ?? 0) > STATISTICS_DOCUMENTS_PAGE_SIZE && (
        <Pagination
          position={position}
          size={STATISTICS_DOCUMENTS_PAGE_SIZE}
          answer={documents.data ?? NO_ANSWER}
          onGo={setPosition}
          testId="activity-documents-pager"
        />
      )}
    </div>
  );
}
