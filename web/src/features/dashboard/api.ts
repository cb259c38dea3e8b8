/**
 * The dashboards' lists over POST api/v2/document-info (domain/document-info.ts), one page at a time:
 * - the issues dashboard's issue view, with the total from X-Total-Count (exact), its pages by number inside
 *   the result window from the start or from the end (`last`);
 * - the documents dashboard's documents (../documents/api.ts fetchDocumentInfo): the total may be an
 *   estimate ("about N"); a position of the pager (components/pagination.ts: by number inside the result
 *   window, from the end, or by cursor beyond it); a page by number whose cursor is known (the
 *   X-Next-Cursor of the page before it) is read with `after` (keyset) instead; the page is re-read every
 *   IN_FLIGHT_POLL_MS while one of its documents is in flight (documents.ts).
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
import { pageAnswerOf, positionQuery, type PageAnswer, type PagePosition } from '../../components/pagination';
import { IN_FLIGHT_POLL_MS, inFlight, type PageCursors } from './documents';

/** The issue view's rows and total (exact; no cursors: pages by number from either end of the window). */
export interface IssueDocumentsPage extends PageAnswer {
  rows: IssueDocumentInfoDTO[];
}

export const issueDashboardKeys = {
  page: (
    filters: readonly DocumentInfoFilter[],
    sort: DocumentInfoSort,
    position: PagePosition,
    size: number,
  ) => [...documentInfoKeys.all, 'issues', sort, position, size, filters] as const,
};

export const documentDashboardKeys = {
  page: (filters: readonly DocumentInfoFilter[], position: PagePosition, size: number) =>
    [...documentInfoKeys.all, 'dashboard', DEFAULT_DOCUMENT_INFO_SORT, position, size, filters] as const,
};

export const issueDashboardQueries = {
  page: (
    filters: readonly DocumentInfoFilter[],
    sort: DocumentInfoSort,
    position: PagePosition,
    size: number,
  ) =>
    queryOptions({
      queryKey: issueDashboardKeys.page(filters, sort, position, size),
      queryFn: async ({ signal }): Promise<IssueDocumentsPage> => {
        const res = await request<IssueDocumentInfoDTO[]>('api/v2/document-info', {
          method: 'POST',
          query: { ...positionQuery(position), size, sort, paged: true },
          body: { paged: true, filters },
          signal,
        });
        return { rows: res.data, ...pageAnswerOf(res.headers, res.data.length) };
      },
      placeholderData: keepPreviousData,
      staleTime: 0,
    }),
};

export const documentDashboardQueries = {
  page: (
    filters: readonly DocumentInfoFilter[],
    position: PagePosition,
    size: number,
    cursors: PageCursors,
  ) =>
    queryOptions({
      queryKey: documentDashboardKeys.page(filters, position, size),
      queryFn: async ({ signal }) => {
        const q = positionQuery(position);
        const after = q.after ?? (position.kind === 'page' ? cursors.get(filters, size, q.page) : null);
        const result = await fetchDocumentInfo(filters, q.page, { ...q, size, signal, after });
        if (position.kind === 'page') cursors.set(filters, size, q.page + 1, result.next);
        return result;
      },
      placeholderData: keepPreviousData,
      staleTime: 0,
      // A document the engine is moving on (a parser running, steps being made) is followed to a step that
      // waits for people without a reload.
      refetchInterval: (query) => (query.state.data?.rows.some(inFlight) ? IN_FLIGHT_POLL_MS : false),
    }),
};
