/**
 * The relation calls of the workspace (docs/api-relations.md): the document's relation graphs, the candidate
 * relation types of two tags, the validation of a draft graph, and the writes. The writes are silent: the
 * workspace shows the validation message (or the 'cannot remove tag' modal) itself.
 */
import { queryOptions } from '@tanstack/react-query';
import type { RelationTypeDTO } from '@domain/label-types';
import type { GraphValidation, RelationGraphDTO, RelationInput, RelationMessageKey } from '@domain/relations';
import { http } from '../../api/client';
import { workspaceKeys } from './api';

export const relationKeys = {
  graphs: (documentId: number) => [...workspaceKeys.all, 'relation-graphs', documentId] as const,
};

export const relationQueries = {
  graphs: (documentId: number) =>
    queryOptions({
      queryKey: relationKeys.graphs(documentId),
      queryFn: ({ signal }) =>
        http.get<RelationGraphDTO[]>('api/ner-tag-relation-graphs', { query: { documentId }, signal }),
      staleTime: 0,
    }),
};

export interface CandidatesDTO {
  message: RelationMessageKey | null;
  candidates: RelationTypeDTO[];
}

export const relationCalls = {
  candidates: (documentId: number, fromId: number, toId: number) =>
    http.get<CandidatesDTO>('api/ner-tag-relation-graphs/candidates', {
      query: { documentId, fromId, toId },
    }),
  validate: (documentId: number, relations: RelationInput[]) =>
    http.put<GraphValidation>('api/ner-tag-relation-graphs/validation', { documentId, relations }),
  create: (documentId: number, relations: RelationInput[]) =>
    http.post<RelationGraphDTO>('api/ner-tag-relation-graphs', { documentId, relations }, { silent: true }),
  update: (id: number, relations: RelationInput[]) =>
    http.put<RelationGraphDTO>('api/ner-tag-relation-graphs', { id, relations }, { silent: true }),
  remove: (id: number) => http.delete(`api/ner-tag-relation-graphs/${id}`),
};
