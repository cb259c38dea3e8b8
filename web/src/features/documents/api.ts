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
import { pageAnswerOf, type PageAnswer } from '../../components/pagination';

export interface DocumentInfoPage extends PageAnswer {
  rows: DocumentInfoDTO[];
  page: number;
}

export const documentInfoKeys = {
  all: ['document-info'] as const,
  list: (filters: readonly DocumentInfoFilter[], sort: DocumentInfoSort) =>
    [...documentInfoKeys.all, 'list', sort, filters] as const,
};

/**
 * A page of the list: by number (`page`, inside the result window), or with `after` / `before` (keyset
 * cursors: `page` then counts from the cursor) or `last` (`page` counts back from the last page).
 */
export async function fetchDocumentInfo(
  filters: readonly DocumentInfoFilter[],
  page: number,
  opts: {
    size?: number;
    sort?: DocumentInfoSort;
    signal?: AbortSignal;
    after?: string | null;
    before?: string;
    last?: boolean;
  } = {},
): Promise<DocumentInfoPage> {
  const res = await request<DocumentInfoDTO[]>('api/v2/document-info', {
    method: 'POST',
    query: {
      page: opts.after ? 0 : page,
      size: opts.size ?? DOCUMENT_INFO_PAGE_SIZE,
      sort: opts.sort ?? DEFAULT_DOCUMENT_INFO_SORT,
      paged: true,
      ...(opts.after ? { after: opts.after } : {}),
      ...(opts.before ? { before: opts.before } : {}),
      ...(opts.last ? { last: true } : {}),
    },
    body: { paged: true, filters },
    signal: opts.signal,
  });
  return { rows: res.data, ...pageAnswerOf(res.headers, res.data.length), page };
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
