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
  /** false: `total` is an estimate (more than 1,000 documents match), shown as "about N" */
  exact: boolean;
  page: number;
  /** the `after` of the next page (keyset paging), absent on the last page */
  next: string | null;
}

export const documentInfoKeys = {
  all: ['document-info'] as const,
  list: (filters: readonly DocumentInfoFilter[], sort: DocumentInfoSort) =>
    [...documentInfoKeys.all, 'list', sort, filters] as const,
};

export async function fetchDocumentInfo(
  filters: readonly DocumentInfoFilter[],
  page: number,
  opts: { size?: number; sort?: DocumentInfoSort; signal?: AbortSignal; after?: string | null } = {},
): Promise<DocumentInfoPage> {
  const res = await request<DocumentInfoDTO[]>('api/v2/document-info', {
    method: 'POST',
    query: {
      page: opts.after ? 0 : page,
      size: opts.size ?? DOCUMENT_INFO_PAGE_SIZE,
      sort: opts.sort ?? DEFAULT_DOCUMENT_INFO_SORT,
      paged: true,
      ...(opts.after ? { after: opts.after } : {}),
    },
    body: { paged: true, filters },
    signal: opts.signal,
  });
  return {
    rows: res.data,
    total: Number(res.headers.get('X-Total-Count') ?? res.data.length),
    exact: res.headers.get('X-Total-Count-Exact') !== 'false',
    page,
    next: res.headers.get('X-Next-Cursor'),
  };
}

export const documentInfoQueries = {
  infinite: (filters: readonly DocumentInfoFilter[], sort: DocumentInfoSort = DEFAULT_DOCUMENT_INFO_SORT) =>
    infiniteQueryOptions({
      queryKey: documentInfoKeys.list(filters, sort),
      // Keyset paging: each page starts after the last row of the one before (X-Next-Cursor).
      queryFn: ({ pageParam, signal }) =>
        fetchDocumentInfo(filters, pageParam.page, { sort, signal, after: pageParam.after }),
      initialPageParam: { page: 0, after: null as string | null },
      getNextPageParam: (last) => (last.next ? { page: last.page + 1, after: last.next } : undefined),
      staleTime: 0,
    }),
};
