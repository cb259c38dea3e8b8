/**
 * The issues dashboard's list: the issue view of POST api/v2/document-info (domain/document-info.ts), one
 * page at a time with the total from X-Total-Count.
 */
import { keepPreviousData, queryOptions } from '@tanstack/react-query';
import type { DocumentInfoFilter, DocumentInfoSort, IssueDocumentInfoDTO } from '@domain/document-info';
import { request } from '../../api/client';
import { documentInfoKeys } from '../documents/api';

export interface IssueDocumentsPage {
  rows: IssueDocumentInfoDTO[];
  total: number;
}

export const issueDashboardKeys = {
  page: (filters: readonly DocumentInfoFilter[], sort: DocumentInfoSort, page: number, size: number) =>
    [...documentInfoKeys.all, 'issues', sort, page, size, filters] as const,
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
