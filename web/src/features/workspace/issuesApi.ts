/**
 * The issue calls of the workspace (docs/api-issues.md): the document's issues (GET
 * api/document/{id}/issues), raising one (POST api/issues), and the single changes of the issues panel:
 * status, a new comment, and (process admins) a comment's edit or deletion. Each change answers the whole
 * issue, put into the list at once; the list is refetched after every change.
 */
import { queryOptions, useMutation, useQueryClient } from '@tanstack/react-query';
import { useEffect } from 'react';
import type { IssueDTO, IssueInput, IssueStatus } from '@domain/issues';
import { http } from '../../api/client';
import { workspaceKeys } from './api';
import { tagKeys } from './tagsApi';

export const issueKeys = {
  list: (documentId: number) => [...workspaceKeys.all, 'issues', documentId] as const,
};

export const issueQueries = {
  list: (documentId: number) =>
    queryOptions({
      queryKey: issueKeys.list(documentId),
      queryFn: ({ signal }) => http.get<IssueDTO[]>(`api/document/${documentId}/issues`, { signal }),
      staleTime: 0,
    }),
};

export const issueCalls = {
  create: (input: IssueInput) => http.post<IssueDTO>('api/issues', input),
  status: (id: number, status: IssueStatus) => http.put<IssueDTO>(`api/issues/${id}/status`, { status }),
  reply: (id: number, text: string) => http.post<IssueDTO>(`api/issues/${id}/replies`, { text }),
  editReply: (id: number, replyId: number, text: string) =>
    http.put<IssueDTO>(`api/issues/${id}/replies/${replyId}`, { text }),
  deleteReply: (id: number, replyId: number) => http.delete<IssueDTO>(`api/issues/${id}/replies/${replyId}`),
};

/** A change of one issue: the answer replaces it in the list, then the list is refetched. */
export function useIssueChange<A>(documentId: number, call: (args: A) => Promise<IssueDTO>) {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: call,
    onSuccess: (issue) =>
      queryClient.setQueryData<IssueDTO[]>(issueKeys.list(documentId), (old) =>
        old?.some((i) => i.id === issue.id)
          ? old.map((i) => (i.id === issue.id ? issue : i))
          : [issue, ...(old ?? [])],
      ),
    onSettled: () => queryClient.invalidateQueries({ queryKey: issueKeys.list(documentId) }),
  });
}

/**
 * Spec 2 section 4: after a tag (or graph) change the issues are refetched: an issue goes with its tag, and
 * a tag issue's highlight follows the tag's span. Watches the tag list's successful fetches while mounted.
 */
export function useIssuesFollowTags(documentId: number) {
  const queryClient = useQueryClient();
  useEffect(() => {
    const tags = JSON.stringify(tagKeys.ner(documentId));
    return queryClient.getQueryCache().subscribe((event) => {
      if (
        event.type === 'updated' &&
        event.action.type === 'success' &&
        JSON.stringify(event.query.queryKey) === tags
      )
        void queryClient.invalidateQueries({ queryKey: issueKeys.list(documentId) });
    });
  }, [queryClient, documentId]);
}
