/**
 * The workspace's server state: the document state (GET api/v2/document/{id}/state, polled every second
 * while a step is PROCESSING), the document with its text (GET api/documents/{id}), the page count of the
 * preview, and the mutations: step actions on the existing step routes (each answers with the state, which
 * replaces the cached one), the content update (PUT api/document-content), the document block (POST/DELETE
 * api/v2/document/{id}/blocked-by), the assignees (POST / DELETE / PUT on api/v2/document/{id}/assignee(s),
 * with the users who may be assigned from GET api/processes/{id}/assignable-users) and the LLM chat
 * responses of the document (GET api/llm-chat-responses).
 */
import { queryOptions, useMutation, useQueryClient } from '@tanstack/react-query';
import type { DocumentType } from '@domain';
import type { DocumentStateDTO, StepDTO, UserRefDTO } from '@domain/document-state-types';
import type { StepAction } from '@domain/steps';
import { http } from '../../api/client';
import { documentInfoKeys } from '../documents/api';
import { assigneeChanges } from './assignees';

const PROCESSING_POLL_MS = 1000;

/** The part of the document DTO (GET api/documents/{id}) the workspace reads. */
export interface DocumentDTO {
  id: number;
  filename: string;
  documentType: DocumentType;
  processId: number;
  status: string;
  content: { id: number; content: string } | null;
}

export const workspaceKeys = {
  all: ['workspace'] as const,
  state: (documentId: number) => [...workspaceKeys.all, 'state', documentId] as const,
  document: (documentId: number) => [...workspaceKeys.all, 'document', documentId] as const,
  pages: (documentId: number) => [...workspaceKeys.all, 'pages', documentId] as const,
  assignable: (processId: number) => [...workspaceKeys.all, 'assignable', processId] as const,
  llmResponses: (documentId: number) => [...workspaceKeys.all, 'llm-responses', documentId] as const,
};

/** A chat response of an LLM prompt step (GET api/llm-chat-responses?documentId, oldest first). */
export interface LlmChatResponseDTO {
  id: number;
  stepId: number;
  nodeId: number;
  documentId: number;
  prompt: string;
  response: string;
  createdDate: string;
}

export const workspaceQueries = {
  state: (documentId: number) =>
    queryOptions({
      queryKey: workspaceKeys.state(documentId),
      queryFn: ({ signal }) => http.get<DocumentStateDTO>(`api/v2/document/${documentId}/state`, { signal }),
      staleTime: 0,
      refetchInterval: (query) =>
        query.state.data?.steps.some((s) => s.status === 'PROCESSING') ? PROCESSING_POLL_MS : false,
    }),
  document: (documentId: number) =>
    queryOptions({
      queryKey: workspaceKeys.document(documentId),
      queryFn: ({ signal }) => http.get<DocumentDTO>(`api/documents/${documentId}`, { signal }),
      staleTime: 0,
    }),
  pages: (documentId: number) =>
    queryOptions({
      queryKey: workspaceKeys.pages(documentId),
      queryFn: ({ signal }) =>
        http.get<{ length: number }>(`api/documents/${documentId}/images/length`, { signal }),
    }),
  assignable: (processId: number) =>
    queryOptions({
      queryKey: workspaceKeys.assignable(processId),
      queryFn: ({ signal }) =>
        http.get<UserRefDTO[]>(`api/processes/${processId}/assignable-users`, { signal }),
      staleTime: 0,
    }),
  llmResponses: (documentId: number) =>
    queryOptions({
      queryKey: workspaceKeys.llmResponses(documentId),
      queryFn: ({ signal }) =>
        http.get<LlmChatResponseDTO[]>('api/llm-chat-responses', { query: { documentId }, signal }),
      staleTime: 0,
    }),
};

const ACTION_PATHS: Partial<Record<StepAction, string>> = {
  complete: 'complete',
  accept: 'accept',
  activate: 'activate',
  cancelAcceptance: 'cancel-acceptance',
  rerun: 'rerun',
};

/** The answer of a step action: the step after it and the document's state after it (null if it is gone). */
export type StepActionAnswer = StepDTO & { documentState?: DocumentStateDTO | null };

/** One step action on its route: assign, PUT api/steps (unassign, master) or PUT api/steps/{id}/{action}. */
export function runStepAction(step: StepDTO, action: StepAction): Promise<StepActionAnswer> {
  switch (action) {
    case 'startWorking':
      return http.post<StepActionAnswer>('api/step/assign', undefined, {
        query: { docId: step.documentId, nodeId: step.nodeId, stepId: step.id },
      });
    case 'unassign':
      return http.put<StepActionAnswer>('api/steps', { id: step.id, blockedBy: null });
    case 'markMaster':
      return http.put<StepActionAnswer>('api/steps', { id: step.id, master: true });
    default:
      return http.put<StepActionAnswer>(`api/steps/${step.id}/${ACTION_PATHS[action]}`);
  }
}

/**
 * The answer's state (read by the API after the workflow wrote it) replaces the cached one, with no second
 * request; a refused or failed action refetches the state. The text, which a step may have changed, is
 * refetched after every action. `onDone` is a mutation-level callback: it runs even when the buttons that
 * started the action are gone by then (the new state may select another step).
 */
export function useStepAction(documentId: number, onDone?: (action: StepAction, step: StepDTO) => void) {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: ({ step, action }: { step: StepDTO; action: StepAction }) => runStepAction(step, action),
    onSuccess: async (answer, { step, action }) => {
      if (answer.documentState) {
        // a state read already under way (the poll, a refetch on focus) must not land over the newer answer
        await queryClient.cancelQueries({ queryKey: workspaceKeys.state(documentId) });
        queryClient.setQueryData(workspaceKeys.state(documentId), answer.documentState);
      }
      onDone?.(action, step);
    },
    onSettled: (answer) =>
      Promise.all([
        answer?.documentState
          ? undefined
          : queryClient.invalidateQueries({ queryKey: workspaceKeys.state(documentId) }),
        queryClient.invalidateQueries({ queryKey: workspaceKeys.document(documentId) }),
      ]),
  });
}

/**
 * Saves the text; failures are silent here (the workspace shows the 'Lack document content' modal). The
 * callbacks are mutation-level: the editor is re-created with the saved text before a mutate-level one
 * would run.
 */
export function useSaveContent(
  documentId: number,
  callbacks: { onSaved?: () => void; onFailed?: (error: unknown) => void } = {},
) {
  const queryClient = useQueryClient();
  return useMutation({
    onError: (error) => callbacks.onFailed?.(error),
    mutationFn: ({ contentId, content }: { contentId: number; content: string }) =>
      http.put<{ id: number; docId: number; content: string }>(
        'api/document-content',
        { id: contentId, docId: documentId, content },
        { silent: true },
      ),
    onSuccess: (saved) => {
      callbacks.onSaved?.();
      queryClient.setQueryData<DocumentDTO>(workspaceKeys.document(documentId), (doc) =>
        doc ? { ...doc, content: { id: saved.id, content: saved.content } } : doc,
      );
    },
    onSettled: () => queryClient.invalidateQueries({ queryKey: workspaceKeys.document(documentId) }),
  });
}

/** Blocks the document for the current user, or releases the block. */
export function useDocumentBlock(documentId: number) {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: ({ block, userId }: { block: boolean; userId: number }) =>
      block
        ? http.post(`api/v2/document/${documentId}/blocked-by/`, { id: userId })
        : http.delete(`api/v2/document/${documentId}/blocked-by/`),
    onSettled: () => queryClient.invalidateQueries({ queryKey: workspaceKeys.state(documentId) }),
  });
}

/**
 * The assignee changes of the assignees menu; each refetches the document state and the document lists
 * (a blocker removed also unblocks the document: the API does both at once). `save` writes the edit view's
 * selection: the whole list at once for a process admin (PUT), else one call per added or removed user; it
 * is silent, the menu shows its error.
 */
export function useAssignees(documentId: number) {
  const queryClient = useQueryClient();
  const reload = () =>
    Promise.all([
      queryClient.invalidateQueries({ queryKey: workspaceKeys.state(documentId) }),
      queryClient.invalidateQueries({ queryKey: documentInfoKeys.all }),
    ]);
  const base = `api/v2/document/${documentId}`;
  const assign = useMutation({
    mutationFn: (userId: number) => http.post(`${base}/assignees/${userId}`),
    onSettled: reload,
  });
  const remove = useMutation({
    mutationFn: (userId: number) => http.delete(`${base}/assignee/${userId}`),
    onSettled: reload,
  });
  const save = useMutation({
    mutationFn: async ({
      replace,
      before,
      selected,
    }: {
      replace: boolean;
      before: number[];
      selected: number[];
    }) => {
      if (replace) return void (await http.put(`${base}/assignees`, selected, { silent: true }));
      const { added, removed } = assigneeChanges(before, selected);
      for (const id of added) await http.post(`${base}/assignees/${id}`, undefined, { silent: true });
      for (const id of removed) await http.delete(`${base}/assignee/${id}`, { silent: true });
    },
    onSettled: reload,
  });
  return { assign, remove, save };
}
