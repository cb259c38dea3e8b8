/**
 * The tag calls of the workspace (docs/api-tags.md): the document's NER tags, the labelling menu's option
 * tree, the classifier types of a node and the document's classifier tags, and the writes on them. Every
 * write refetches the list it changed; failures show the API's toast.
 */
import { queryOptions } from '@tanstack/react-query';
import type { ClassifierTypeDTO, NerTagTypeDTO } from '@domain/label-types';
import type { ClassifierTagDTO, NerTagDTO, TagTypeOption } from '@domain/tags';
import { http } from '../../api/client';
import { workspaceKeys } from './api';

export const tagKeys = {
  ner: (documentId: number) => [...workspaceKeys.all, 'ner-tags', documentId] as const,
  options: (documentId: number, nodeId: number) =>
    [...workspaceKeys.all, 'tag-options', documentId, nodeId] as const,
  classifierTypes: (nodeId: number) => [...workspaceKeys.all, 'classifier-types', nodeId] as const,
  nodeTagTypes: (nodeId: number) => [...workspaceKeys.all, 'node-tag-types', nodeId] as const,
  classifierTags: (documentId: number) => [...workspaceKeys.all, 'classifier-tags', documentId] as const,
};

export const tagQueries = {
  ner: (documentId: number) =>
    queryOptions({
      queryKey: tagKeys.ner(documentId),
      queryFn: ({ signal }) => http.get<NerTagDTO[]>('api/ner-tags', { query: { documentId }, signal }),
      staleTime: 0,
    }),
  options: (documentId: number, nodeId: number) =>
    queryOptions({
      queryKey: tagKeys.options(documentId, nodeId),
      queryFn: ({ signal }) =>
        http.get<TagTypeOption[]>('api/root-ner-tag-types', {
          query: { documentId, nodeIds: nodeId, labellingType: 'SPAN_TAG' },
          signal,
        }),
    }),
  classifierTypes: (nodeId: number) =>
    queryOptions({
      queryKey: tagKeys.classifierTypes(nodeId),
      queryFn: ({ signal }) =>
        http.get<ClassifierTypeDTO[]>(`api/node/${nodeId}/classifier-types`, { signal }),
    }),
  /** The node's NER tag types as a flat list, with their shortcut keys (the label hotkeys). */
  nodeTagTypes: (nodeId: number) =>
    queryOptions({
      queryKey: tagKeys.nodeTagTypes(nodeId),
      queryFn: ({ signal }) => http.get<NerTagTypeDTO[]>(`api/node/${nodeId}/ner-tag-type`, { signal }),
    }),
  classifierTags: (documentId: number) =>
    queryOptions({
      queryKey: tagKeys.classifierTags(documentId),
      queryFn: ({ signal }) =>
        http.get<ClassifierTagDTO[]>('api/classifier-tags', { query: { documentId }, signal }),
      staleTime: 0,
    }),
};

export interface SpanInput {
  startOffset: number;
  endOffset: number;
}

export const tagCalls = {
  create: (documentId: number, nerTagTypeId: number, span: SpanInput) =>
    http.post<NerTagDTO>('api/ner-tags', { documentId, nerTagTypeId, type: 'SPAN_TAG', ...span }),
  createMany: (documentId: number, nerTagTypeId: number, spans: SpanInput[]) =>
    http.post<NerTagDTO[]>('api/ner-tags/batch', { documentId, nerTagTypeId, spans }),
  update: (id: number, change: { nerTagTypeId: number; startOffset: number; endOffset: number }) =>
    http.put<NerTagDTO>('api/ner-tags', { id, ...change }),
  remove: (id: number) => http.delete(`api/ner-tags/${id}`),
  classify: (documentId: number, classifierTypeId: number) =>
    http.post<ClassifierTagDTO>('api/classifier-tags', { documentId, classifierTypeId }),
  unclassify: (id: number) => http.delete(`api/classifier-tags/${id}`),
};
