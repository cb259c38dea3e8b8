/**
 * The document detail and edit pages' server state (spec 2 sections 2 and 7): the document
 * (GET api/documents/{id}), a speech document's utterances (GET api/asr-documents/{id}/utterances) and
 * audio player (features/speech: the audio streamed by range requests, the waveform drawn from its
 * peaks), and the edit (PUT api/documents), which refreshes the workspace's copy and the document lists.
 */
import { queryOptions, useMutation, useQueryClient } from '@tanstack/react-query';
import type { DocumentType, FieldErrorDTO, Violation } from '@domain';
import type { DocumentEditField } from '@domain/document-edit';
import type { DocumentTimeline } from '@domain/timeline';
import { http, HttpError } from '../../api/client';
import { documentInfoKeys } from '../documents/api';
import { workspaceKeys } from '../workspace/api';

export interface UserRefDTO {
  id: number;
  login?: string;
  firstName?: string | null;
  lastName?: string | null;
  email?: string | null;
}

/** GET api/documents/{id} (api/services/documents.ts DocumentDTO). */
export interface DocumentDetailDTO {
  id: number;
  filename: string;
  path: string;
  documentType: DocumentType;
  processId: number;
  status: string;
  uploadNodeId: number | null;
  mimeType: string;
  size: number;
  createdDate: string;
  lastModifiedDate: string | null;
  content: { id: number; content: string } | null;
  assignees: UserRefDTO[];
  blockedBy: UserRefDTO | null;
}

export interface UtteranceDTO {
  id: number;
  actor: string;
  prevId: number | null;
  nextId: number | null;
  tokens: { id: number; value: string; tsStart: number | null; tsEnd: number | null }[];
}

export const documentDetailKeys = {
  all: ['document-detail'] as const,
  document: (id: number) => [...documentDetailKeys.all, id] as const,
  timeline: (id: number) => [...documentDetailKeys.all, id, 'timeline'] as const,
  utterances: (id: number) => [...documentDetailKeys.all, id, 'utterances'] as const,
};

export const documentDetailQueries = {
  document: (id: number) =>
    queryOptions({
      queryKey: documentDetailKeys.document(id),
      queryFn: ({ signal }) => http.get<DocumentDetailDTO>(`api/documents/${id}`, { signal }),
      staleTime: 0,
    }),
  timeline: (id: number) =>
    queryOptions({
      queryKey: documentDetailKeys.timeline(id),
      queryFn: ({ signal }) => http.get<DocumentTimeline>(`api/v2/document/${id}/timeline`, { signal }),
      staleTime: 0,
    }),
  utterances: (id: number) =>
    queryOptions({
      queryKey: documentDetailKeys.utterances(id),
      queryFn: ({ signal }) => http.get<UtteranceDTO[]>(`api/asr-documents/${id}/utterances`, { signal }),
    }),
};

export interface DocumentEdit {
  id: number;
  filename: string;
  path: string;
  documentType: string;
  processId: number | null;
}

export function useUpdateDocument() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (edit: DocumentEdit) => http.put<DocumentDetailDTO>('api/documents', edit),
    onSuccess: (doc) =>
      Promise.all([
        queryClient.setQueryData(documentDetailKeys.document(doc.id), doc),
        queryClient.invalidateQueries({ queryKey: workspaceKeys.document(doc.id) }),
        queryClient.invalidateQueries({ queryKey: documentInfoKeys.all }),
      ]),
  });
}

/** The field errors of a refused edit (400 with fieldErrors) by field, else null. */
export function serverViolations(error: unknown): Partial<Record<DocumentEditField, Violation>> | null {
  if (!(error instanceof HttpError) || error.status !== 400) return null;
  const list = (error.body as { fieldErrors?: FieldErrorDTO[] } | null)?.fieldErrors;
  if (!list?.length) return null;
  const out: Partial<Record<DocumentEditField, Violation>> = {};
  for (const fe of list) {
    out[fe.field as DocumentEditField] ??= {
      code: 'Pattern',
      key: fe.key ?? `error.${fe.message}`,
    };
  }
  return out;
}
