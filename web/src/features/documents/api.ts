/**
 * The document-info list (POST api/v2/document-info, spec 2 section 7; domain/document-info.ts), shared by
 * the workspace's documents panel and the documents dashboard: the key factory and the infinite-query
 * options (pages of 20, newest first, the total from X-Total-Count).
 */
import { infiniteQueryOptions } from '@tanstack/react-query';
import {
  DEFAULT_DOCUMENT_INFO_SORT,
  DOCUMENT_INFO_PAGE_SIZE,
  type DocumentInfoDTO,
  type DocumentInfoFilter,
  type DocumentInfoSort,
} from '@domain/document-info';
import { request } from '../../api/client';

export interface DocumentInfoPage {
  rows: DocumentInfoDTO[];
  total: number;
  page: number;
}

export const documentInfoKeys = {
  all: ['document-info'] as const,
  list: (filters: readonly DocumentInfoFilter[], sort: DocumentInfoSort) =>
    [...documentInfoKeys.all, 'list', sort, filters] as const,
};

export async function fetchDocumentInfo(
  filters: readonly DocumentInfoFilter[],
  page: number,
  opts: { size?: number; sort?: DocumentInfoSort; signal?: AbortSignal } = {},
): Promise<DocumentInfoPage> {
  const res = await request<DocumentInfoDTO[]>('api/v2/document-info', {
    method: 'POST',
    query: {
      page,
      size: opts.size ?? DOCUMENT_INFO_PAGE_SIZE,
      sort: opts.sort ?? DEFAULT_DOCUMENT_INFO_SORT,
      paged: true,
    },
    body: { paged: true, filters },
    signal: opts.signal,
  });
  return { rows: res.data, total: Number(res.headers.get('X-Total-Count') ?? res.data.length), page };
}

export const documentInfoQueries = {
  infinite: (filters: readonly DocumentInfoFilter[], sort: DocumentInfoSort = DEFAULT_DOCUMENT_INFO_SORT) =>
    infiniteQueryOptions({
      queryKey: documentInfoKeys.list(filters, sort),
      queryFn: ({ pageParam, signal }) => fetchDocumentInfo(filters, pageParam, { sort, signal }),
      initialPageParam: 0,
      getNextPageParam: (last, pages) =>
        pages.reduce((n, p) => n + p.rows.length, 0) < last.total && last.rows.length > 0
          ? last.page + 1
          : undefined,
      staleTime: 0,
    }),
};
