/**
 * Calls of the document list page (spec 2 section 7, spec 1 section 7 Documents): the search
 * (`POST api/documents/_search/document?page&size&sort&cacheBuster`, and `after`, `before` or `last` for a
 * pager position beyond the result window; the total and the cursors from the headers), the
 * process's classifier and NER tag types for the search inputs, and the deletes (one; the listed ones and
 * all of a process with the 120000 ms budget of the bulk routes).
 */
import { queryOptions, useMutation, useQueryClient } from '@tanstack/react-query';
import type { ClassifierTypeDTO, NerTagTypeDTO } from '@domain/label-types';
import type { DocumentListEntryDTO, DocumentSearchBody, DocumentSearchSort } from '@domain/document-search';
import { http, request } from '../../api/client';
import { pageAnswerOf, positionQuery, type PageAnswer, type PagePosition } from '../../components/pagination';

/** Bulk delete timeout (spec 2 section 9). */
export const BULK_DELETE_TIMEOUT_MS = 120_000;

/** The rows and what the API said of the list (an estimated total shows as "about N"; the cursors). */
export interface DocumentSearchPage extends PageAnswer {
  rows: DocumentListEntryDTO[];
}

export const documentListKeys = {
  all: ['document-list'] as const,
  search: (body: DocumentSearchBody, position: PagePosition, size: number, sort: DocumentSearchSort) =>
    [...documentListKeys.all, 'search', body, position, size, sort] as const,
  classifierTypes: (processId: number) => [...documentListKeys.all, 'classifier-types', processId] as const,
  nerTagTypes: (nodeIds: readonly number[]) => [...documentListKeys.all, 'ner-tag-types', nodeIds] as const,
};

/** A tag type tree flattened, each with its path ("Root -> Child"). */
const flatten = (types: NerTagTypeDTO[]): NerTagTypeDTO[] =>
  types.flatMap((t) => [t, ...flatten(t.children ?? [])]);

export const documentListQueries = {
  search: (body: DocumentSearchBody, position: PagePosition, size: number, sort: DocumentSearchSort) =>
    queryOptions({
      queryKey: documentListKeys.search(body, position, size, sort),
      queryFn: async ({ signal }): Promise<DocumentSearchPage> => {
        const res = await request<DocumentListEntryDTO[]>('api/documents/_search/document', {
          method: 'POST',
          query: { ...positionQuery(position), size, sort, cacheBuster: Date.now() },
          body,
          signal,
        });
        return { rows: res.data, ...pageAnswerOf(res.headers, res.data.length) };
      },
      placeholderData: (previous) => previous,
    }),
  classifierTypes: (processId: number) =>
    queryOptions({
      queryKey: documentListKeys.classifierTypes(processId),
      queryFn: ({ signal }) =>
        http.get<ClassifierTypeDTO[]>(`api/process/${processId}/classifier-types`, { signal }),
    }),
  nerTagTypes: (nodeIds: readonly number[]) =>
    queryOptions({
      queryKey: documentListKeys.nerTagTypes(nodeIds),
      queryFn: async ({ signal }) =>
        nodeIds.length
          ? flatten(
              await http.get<NerTagTypeDTO[]>('api/root-ner-tag-types', {
                signal,
                query: { nodeIds: nodeIds.join(',') },
              }),
            )
          : [],
    }),
};

export type DeleteRequest =
  | { kind: 'one'; id: number }
  | { kind: 'selected'; processId: number; documentIds: number[] }
  | { kind: 'all'; processId: number };

/** Deletes one document, the listed ones, or every document of the process; the list is reloaded. */
export function useDeleteDocuments() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (req: DeleteRequest) => {
      switch (req.kind) {
        case 'one':
          return http.delete(`api/documents/${req.id}`);
        case 'selected':
          return http.delete('api/documents', {
            body: { documentIds: req.documentIds, processId: req.processId },
            timeoutMs: BULK_DELETE_TIMEOUT_MS,
          });
        case 'all':
          return http.delete(`api/processes/${req.processId}/documents`, {
            timeoutMs: BULK_DELETE_TIMEOUT_MS,
          });
      }
    },
    onSettled: () => queryClient.invalidateQueries({ queryKey: documentListKeys.all }),
  });
}
