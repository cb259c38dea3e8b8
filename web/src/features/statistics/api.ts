/**
 * The statistics screen's server state: POST api/statistics (domain/statistics-types.ts), one cache entry per
 * query, and the documents of a node activity cell from the documents list (POST api/v2/document-info with a
 * process filter and a document-ids filter, pages of 5, newest id first: spec 3 section 7).
 */
import { keepPreviousData, queryOptions } from '@tanstack/react-query';
import type { DocumentInfoFilter } from '@domain/document-info';
import {
  STATISTICS_DOCUMENTS_PAGE_SIZE,
  type StatisticsAnswer,
  type StatisticsQuery,
} from '@domain/statistics-types';
import { http } from '../../api/client';
import { fetchDocumentInfo } from '../documents/api';

export const ACTIVITY_DOCUMENTS_PAGE_SIZE = STATISTICS_DOCUMENTS_PAGE_SIZE;

export const statisticsKeys = {
  all: ['statistics'] as const,
  answer: (query: StatisticsQuery) => [...statisticsKeys.all, 'answer', query] as const,
  documents: (processId: number, ids: readonly number[], page: number) =>
    [...statisticsKeys.all, 'documents', processId, ids, page] as const,
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
  documents: (processId: number, ids: readonly number[], page: number) =>
    queryOptions({
      queryKey: statisticsKeys.documents(processId, ids, page),
      queryFn: ({ signal }) =>
        fetchDocumentInfo(activityDocumentFilters(processId, ids), page, {
          size: ACTIVITY_DOCUMENTS_PAGE_SIZE,
          sort: 'id,desc',
          signal,
        }),
      placeholderData: keepPreviousData,
    }),
};
