/**
 * The statistics screen's server state: POST api/statistics (domain/statistics-types.ts), one cache entry per
 * query, and the documents of a node activity cell: their ids from the query narrowed to the cell
 * (`documentsOf`), then the documents themselves from the documents list (POST api/v2/document-info with a
 * process filter and a document-ids filter, pages of 5, newest id first: spec 3 section 7).
 */
import { keepPreviousData, queryOptions } from '@tanstack/react-query';
import type { DocumentInfoFilter } from '@domain/document-info';
import {
  STATISTICS_DOCUMENTS_PAGE_SIZE,
  type NodeActivityAnswer,
  type NodeActivityCell,
  type StatisticsAnswer,
  type StatisticsQuery,
} from '@domain/statistics-types';
import { http } from '../../api/client';
import { positionQuery, type PagePosition } from '../../components/pagination';
import { fetchDocumentInfo } from '../documents/api';

export const statisticsKeys = {
  all: ['statistics'] as const,
  answer: (query: StatisticsQuery) => [...statisticsKeys.all, 'answer', query] as const,
  documents: (processId: number, ids: readonly number[], position: PagePosition) =>
    [...statisticsKeys.all, 'documents', processId, ids, position] as const,
};

export const activityDocumentFilters = (processId: number, ids: readonly number[]): DocumentInfoFilter[] => [
  { type: 'PROCESS', value: processId },
  { type: 'DOCUMENT_IDS', value: [...ids] },
];

export const statisticsQueries = {
  answer: <A extends StatisticsAnswer>(query: StatisticsQuery) =>
    queryOptions({
      queryKey: statisticsKeys.answer(query),
      queryFn: ({ signal }) => http.post<A>('api/statistics', query, { signal }),
      placeholderData: keepPreviousData,
      staleTime: 0,
    }),
  /** The documents of a node activity cell (the same query narrowed to the cell by `documentsOf`). */
  cell: (query: StatisticsQuery, cell: NodeActivityCell) => {
    const narrowed: StatisticsQuery = { ...query, documentsOf: { nodeId: cell.nodeId, date: cell.date } };
    return queryOptions({
      queryKey: statisticsKeys.answer(narrowed),
      queryFn: ({ signal }) => http.post<NodeActivityAnswer>('api/statistics', narrowed, { signal }),
      staleTime: 0,
    });
  },
  /** A page of a cell's documents at a pager position (Next and Last move by cursor or from the end). */
  documents: (processId: number, ids: readonly number[], position: PagePosition) =>
    queryOptions({
      queryKey: statisticsKeys.documents(processId, ids, position),
      queryFn: ({ signal }) => {
        const q = positionQuery(position);
        return fetchDocumentInfo(activityDocumentFilters(processId, ids), q.page, {
          ...q,
          size: STATISTICS_DOCUMENTS_PAGE_SIZE,
          sort: 'id,desc',
          signal,
        });
      },
      placeholderData: keepPreviousData,
    }),
};
