/**
 * The issues dashboard's state as the list request (domain/document-info.ts "The issue view"): the tab, the
 * filename and status filters and the sort become the body's filters and the `sort` parameter.
 * - Without replies (process admins only, their start tab): active issues without a comment.
 * - My issues: the issues the user raised or commented on. All: every issue the user may see.
 */
import type { DocumentInfoFilter, DocumentInfoSort, IssueStatus } from '@domain/document-info';

export type IssueTab = 'withoutReplies' | 'my' | 'all';
export const ISSUE_TABS: readonly IssueTab[] = ['withoutReplies', 'my', 'all'];

export type IssueSortField = 'filename' | 'commentCount';
export interface IssueSort {
  field: IssueSortField;
  dir: 'asc' | 'desc';
}
export const DEFAULT_ISSUE_SORT: IssueSort = { field: 'filename', dir: 'asc' };

export interface IssueDashboardState {
  tab: IssueTab;
  /** the filename filter, already debounced */
  name: string;
  /** '' any status */
  status: IssueStatus | '';
}

/** The tabs a caller has: Without replies for process admins only. */
export const tabsFor = (processAdmin: boolean): IssueTab[] =>
  processAdmin ? [...ISSUE_TABS] : ISSUE_TABS.filter((t) => t !== 'withoutReplies');

export const startTab = (processAdmin: boolean): IssueTab => (processAdmin ? 'withoutReplies' : 'my');

/** The status the list uses: Without replies lists the active issues only. */
export const effectiveStatus = (s: IssueDashboardState): IssueStatus | '' =>
  s.tab === 'withoutReplies' ? 'ACTIVE' : s.status;

export function issueFilters(
  processId: number,
  userId: number,
  s: IssueDashboardState,
): DocumentInfoFilter[] {
  const filters: DocumentInfoFilter[] = [
    { type: 'PROCESS', value: processId },
    { type: 'ISSUES', value: true },
  ];
  if (s.tab === 'withoutReplies') filters.push({ type: 'ISSUE_EMPTY_REPLIES', value: true });
  if (s.tab === 'my') filters.push({ type: 'ISSUE_USER', value: userId });
  const status = effectiveStatus(s);
  if (status) filters.push({ type: 'ISSUE_STATUS', value: status });
  const name = s.name.trim();
  if (name) filters.push({ type: 'NAME', value: name });
  return filters;
}

export const sortParam = (s: IssueSort): DocumentInfoSort => `${s.field},${s.dir}`;

/** A click on a column header: that column ascending, or the other direction when it is the sorted one. */
export const toggleSort = (current: IssueSort, field: IssueSortField): IssueSort =>
  current.field === field ? { field, dir: current.dir === 'asc' ? 'desc' : 'asc' } : { field, dir: 'asc' };

/** The workspace of a document with the issues panel open. */
export const issuesLink = (processId: number, documentId: number) =>
  `/entity/process/${processId}/document/${documentId}?panel=issues`;
