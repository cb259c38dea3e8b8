/**
 * The dashboards' lists over POST api/v2/document-info (domain/document-info.ts), one page at a time:
 * - the issues dashboard's issue view, with the total from X-Total-Count;
 * - the documents dashboard's documents (../documents/api.ts fetchDocumentInfo): the total may be an
 *   estimate ("about N"); a page whose cursor is known (the X-Next-Cursor of the page before it) is read
 *   with `after` (keyset), any other by its number (the API reads deep pages from the nearer end); the
 *   page is re-read every IN_FLIGHT_POLL_MS while one of its documents is in flight (documents.ts).
 */
import { keepPreviousData, queryOptions } from '@tanstack/react-query';
import {
  DEFAULT_DOCUMENT_INFO_SORT,
  type DocumentInfoFilter,
  type DocumentInfoSort,
  type IssueDocumentInfoDTO,
} from '@domain/document-info';
import { request } from '../../api/client';
import { documentInfoKeys, fetchDocumentInfo } from '../documents/api';
import { IN_FLIGHT_POLL_MS, inFlight, type PageCursors } from './documents';

export interface IssueDocumentsPage {
  rows: IssueDocumentInfoDTO[];
  total: number;
}

export const issueDashboardKeys = {
  page: (filters: readonly DocumentInfoFilter[], sort: DocumentInfoSort, page: number, size: number) =>
    [...documentInfoKeys.all, 'issues', sort, page, size, filters] as const,
};

export const documentDashboardKeys = {
  page: (filters: readonly DocumentInfoFilter[], page: number, size: number) =>
    [...documentInfoKeys.all, 'dashboard', DEFAULT_DOCUMENT_INFO_SORT, page, size, filters] as const,
};

export const issueDashboardQueries = {
  page: (filters: readonly DocumentInfoFilter[], sort: DocumentInfoSort, page: number, size: number) =>
    queryOptions({
      queryKey: issueDashboardKeys.page(filters, sort, page, size),
      queryFn: async ({ signal }): Promise<IssueDocumentsPage> => {
        const res = await request<IssueDocumentInfoDTO[]>('api/v2/document-info', {
          method: 'POST',
          query: { page, size, sort, paged: true },
          body: { paged: true, filters },
          signal,
        });
        return { rows: res.data, total: Number(res.headers.get('X-Total-Count') ?? res.data.length) };
      },
      placeholderData: keepPreviousData,
      staleTime: 0,
    }),
};

export const documentDashboardQueries = {
  page: (filters: readonly DocumentInfoFilter[], page: number, size: number, cursors: PageCursors) =>
    queryOptions({
      queryKey: documentDashboardKeys.page(filters, page, size),
      queryFn: async ({ signal }) => {
        const after = cursors.get(filters, size, page);
        const result = await fetchDocumentInfo(filters, page, { size, signal, after });
        cursors.set(filters, size, page + 1, result.next);
        return result;
      },
      placeholderData: keepPreviousData,
      staleTime: 0,
      // A document the engine is moving on (a parser running, steps being made) is followed to a step that
      // waits for people without a reload.
      refetchInterval: (query) => (query.state.data?.rows.some(inFlight) ? IN_FLIGHT_POLL_MS : false),
    }),
};
