/**
 * Labels of a node (classifier types, NER tag types), matching rules and NER relation types: one key factory
 * and queryOptions per resource, the mutations, and the labels export download. Every change invalidates
 * the node's lists it can affect (a deleted tag type takes its children, rules and relations with it).
 */
import { queryOptions, useMutation, useQueryClient, type QueryClient } from '@tanstack/react-query';
import type {
  BatchRuleRequest,
  ClassifierTypeDTO,
  ClassifierTypeInput,
  ImportResult,
  LabelImportFile,
  MatchingRuleDTO,
  NerTagTypeDTO,
  NerTagTypeInput,
  RelationTypeDTO,
  RelationTypeInput,
} from '@domain/label-types';
import { http, request } from '../../api/client';

export const labelKeys = {
  all: ['labels'] as const,
  node: (nodeId: number) => [...labelKeys.all, 'node', nodeId] as const,
  classifierTypes: (nodeId: number) => [...labelKeys.node(nodeId), 'classifier-types'] as const,
  nerTagTypes: (nodeId: number) => [...labelKeys.node(nodeId), 'ner-tag-types'] as const,
  matchingRules: (nodeId: number) => [...labelKeys.node(nodeId), 'matching-rules'] as const,
  relationTypes: (nodeId: number) => [...labelKeys.node(nodeId), 'relation-types'] as const,
};

export const labelQueries = {
  classifierTypes: (nodeId: number) =>
    queryOptions({
      queryKey: labelKeys.classifierTypes(nodeId),
      queryFn: ({ signal }) =>
        http.get<ClassifierTypeDTO[]>(`api/node/${nodeId}/classifier-types`, { signal }),
    }),
  /** The node's tag types as a flat list (parentId and path on each). */
  nerTagTypes: (nodeId: number) =>
    queryOptions({
      queryKey: labelKeys.nerTagTypes(nodeId),
      queryFn: ({ signal }) => http.get<NerTagTypeDTO[]>(`api/node/${nodeId}/ner-tag-type`, { signal }),
    }),
  matchingRules: (nodeId: number) =>
    queryOptions({
      queryKey: labelKeys.matchingRules(nodeId),
      queryFn: ({ signal }) =>
        http.get<MatchingRuleDTO[]>('api/matching-rules', { signal, query: { nodeId } }),
    }),
  relationTypes: (nodeId: number) =>
    queryOptions({
      queryKey: labelKeys.relationTypes(nodeId),
      queryFn: ({ signal }) =>
        http.get<RelationTypeDTO[]>('api/ner-tag-relation-types', { signal, query: { nodeIds: nodeId } }),
    }),
};

/** Everything label-related of the node (tag types, rules, relations, classifier types) is reloaded. */
const invalidateNode = (queryClient: QueryClient, nodeId: number) =>
  queryClient.invalidateQueries({ queryKey: labelKeys.node(nodeId) });

// --- classifier types ---

export function useSaveClassifierType(nodeId: number) {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (body: ClassifierTypeInput) =>
      body.id === undefined
        ? http.post<ClassifierTypeDTO>(`api/node/${nodeId}/classifier-types`, { ...body, nodeId })
        : http.put<ClassifierTypeDTO>('api/classifier-types', { ...body, nodeId }),
    onSettled: () => queryClient.invalidateQueries({ queryKey: labelKeys.classifierTypes(nodeId) }),
  });
}

export function useDeleteClassifierType(nodeId: number) {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (id: number) => http.delete(`api/classifier-types/${id}`),
    onSettled: () => queryClient.invalidateQueries({ queryKey: labelKeys.classifierTypes(nodeId) }),
  });
}

// --- NER tag types ---

export function useSaveNerTagType(nodeId: number) {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (body: NerTagTypeInput) =>
      body.id === undefined
        ? http.post<NerTagTypeDTO>(`api/node/${nodeId}/ner-tag-type`, { ...body, nodeId })
        : http.put<NerTagTypeDTO>('api/ner-tag-type', { ...body, nodeId }),
    // A rename changes the paths of the descendants, shown by the rules and relations too.
    onSettled: () => invalidateNode(queryClient, nodeId),
  });
}

export function useDeleteNerTagType(nodeId: number) {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (id: number) => http.delete(`api/ner-tag-type/${id}`),
    onSettled: () => invalidateNode(queryClient, nodeId),
  });
}

/**
 * Import of a labels file. Silent: a schema failure (400 'Validation Failed' with errors) is shown inside
 * the import modal, other failures are reported by the caller.
 */
export function useImportLabels(nodeId: number) {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (file: LabelImportFile) =>
      http.post<ImportResult>(`api/node/${nodeId}/ner-tag-type/import`, file, {
        silent: true,
        query: { cacheBuster: Date.now() },
      }),
    onSettled: () => invalidateNode(queryClient, nodeId),
  });
}

/** The filename of a content-disposition header (RFC 6266 filename* first), if any. */
export function filenameOf(disposition: string | null): string | null {
  if (!disposition) return null;
  const star = /filename\*\s*=\s*(?:UTF-8'[^']*')?([^;]+)/i.exec(disposition);
  if (star) {
    try {
      return decodeURIComponent(star[1].trim().replace(/^"|"$/g, ''));
    } catch {
      /* fall back to the plain filename */
    }
  }
  const plain = /filename\s*=\s*("([^"]*)"|[^;]+)/i.exec(disposition);
  return plain ? (plain[2] ?? plain[1]).trim() : null;
}

/** Hands a blob to the browser as a download. */
export function saveBlob(blob: Blob, filename: string): void {
  const url = URL.createObjectURL(blob);
  const a = document.createElement('a');
  a.href = url;
  a.download = filename;
  document.body.appendChild(a);
  a.click();
  a.remove();
  window.setTimeout(() => URL.revokeObjectURL(url), 1000);
}

/** Downloads the node's labels (with their rules) under the name the server gives in content-disposition. */
export async function downloadLabels(nodeId: number): Promise<void> {
  const res = await request<unknown>(`api/node/${nodeId}/ner-tag-type/export`, {
    headers: { Accept: 'application/json, application/octet-stream, */*' },
  });
  const text = typeof res.data === 'string' ? res.data : JSON.stringify(res.data, null, 2);
  const filename = filenameOf(res.headers.get('content-disposition')) ?? `labels-${nodeId}.json`;
  saveBlob(new Blob([text], { type: 'application/json' }), filename);
}

export function useExportLabels(nodeId: number) {
  return useMutation({ mutationFn: () => downloadLabels(nodeId) });
}

// --- matching rules ---

export function useSaveRulesBatch(nodeId: number) {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (body: BatchRuleRequest) => http.post<MatchingRuleDTO[]>('api/matching-rules/batch', body),
    onSettled: () => queryClient.invalidateQueries({ queryKey: labelKeys.matchingRules(nodeId) }),
  });
}

// --- relation types ---

export function useSaveRelationType(nodeId: number) {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (body: RelationTypeInput) =>
      body.id === undefined
        ? http.post<RelationTypeDTO>('api/ner-tag-relation-types', { ...body, nodeId })
        : http.put<RelationTypeDTO>('api/ner-tag-relation-types', { ...body, nodeId }),
    onSettled: () => queryClient.invalidateQueries({ queryKey: labelKeys.relationTypes(nodeId) }),
  });
}

export function useDeleteRelationType(nodeId: number) {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (id: number) => http.delete(`api/ner-tag-relation-types/${id}`),
    onSettled: () => queryClient.invalidateQueries({ queryKey: labelKeys.relationTypes(nodeId) }),
  });
}
