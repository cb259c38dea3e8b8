/**
 * The document-info list (spec 2 section 7: `POST api/v2/document-info?page&size&sort&paged` with body
 * {paged, filters[{type, value}]}): the filter types of the spec's Dashboard filter (process id, assignee
 * ids, status, name, step filter, issue filters), the list entries, and the visibility rules the API
 * enforces. Shared by the API (api/services/document-info.ts), the workspace's documents panel and the
 * documents and issues dashboards.
 *
 * Decisions where the spec is silent:
 * - PROCESS is required, exactly once: the list is always one process's.
 * - Filters of different types are ANDed; ASSIGNEE matches a document assigned to any of its users; several
 *   STEP filters are ANDed (a document with a step at node A in one of A's statuses and one at node B...).
 * - NAME matches a substring of the filename, case-insensitively (`%` and `_` are literal).
 * - Visibility (`scopeRefusal`): the All view (no ASSIGNEE or UNASSIGNED filter) and an ASSIGNEE filter
 *   naming others are for process admins only (spec 2 section 6: All tab, All documents tab); anyone else
 *   lists their own documents (ASSIGNEE [self]) or the unassigned ones (UNASSIGNED), and a caller whose only
 *   grants are on nodes of the process sees only documents with a step at one of those nodes.
 *
 * The issue view (issues dashboard, spec 2 section 2 "Issues dashboard"; issue 12 section 2): a body with
 * any ISSUE* filter lists only documents with at least one matching issue, one `IssueDocumentInfoDTO` per
 * document. Decisions:
 * - `ISSUES` (true) alone selects the view with no issue condition (the All tab).
 * - Counts are over the issues that match: issueCount (all of them), resolvedCount (the RESOLVED ones),
 *   commentCount (their replies written by users; the automatic replies of status changes are not comments).
 * - `ISSUE_USER` (My issues): issues the user raised or wrote a comment (non-automatic reply) on.
 * - `ISSUE_EMPTY_REPLIES` (Without replies): issues with no comment (automatic replies do not count); the
 *   tab adds `ISSUE_STATUS` ACTIVE. Process admins only (spec 2 section 6), as is an `ISSUE_USER` naming
 *   someone else; the view itself (All, My issues) is open to every reader of the process.
 * - Visibility (spec 2 section 6): a TAG or RELATION issue naming a tag of a step at a node the caller
 *   holds no mode on (domain/access.ts nodeMode) is hidden unless the caller is a process admin; a tag
 *   without a step hides nothing. Since a process mode gives at least that mode on every node, this hides
 *   issues only from node-only grantees (who also see only documents passing through their nodes).
 * - Sorts: `filename` and `commentCount` asc/desc (ties by id), and `id`; `commentCount` only here.
 */
import type { StepStatus } from './steps';
import { StepStatuses } from './steps';
import type { UserRefDTO } from './document-state-types';
import type { ActivityType } from './enums';

export const DocumentInfoFilterTypes = [
  'PROCESS',
  'ASSIGNEE',
  'MINE',
  'UNASSIGNED',
  'STATUS',
  'NAME',
  'STEP',
  'DOCUMENT_IDS',
  'ISSUES',
  'ISSUE_USER',
  'ISSUE_STATUS',
  'ISSUE_EMPTY_REPLIES',
] as const;
export type DocumentInfoFilterType = (typeof DocumentInfoFilterTypes)[number];

export const IssueStatuses = ['ACTIVE', 'RESOLVED'] as const;
export type IssueStatus = (typeof IssueStatuses)[number];
/** The filter types that select the issue view. */
export const ISSUE_FILTER_TYPES = ['ISSUES', 'ISSUE_USER', 'ISSUE_STATUS', 'ISSUE_EMPTY_REPLIES'] as const;

export interface StepFilterValue {
  nodeId: number;
  /** the statuses a step at the node may have (the tri-state checkbox: all five when checked) */
  statuses: StepStatus[];
}

export type DocumentInfoFilter =
  | { type: 'PROCESS'; value: number }
  | { type: 'ASSIGNEE'; value: number[] }
  /** assigned to the user or uploaded by them (a writer's My documents, issue 30) */
  | { type: 'MINE'; value: number }
  | { type: 'UNASSIGNED'; value: true }
  | { type: 'STATUS'; value: 'WAITING' | 'DONE' }
  | { type: 'NAME'; value: string }
  | { type: 'STEP'; value: StepFilterValue }
  | { type: 'DOCUMENT_IDS'; value: number[] }
  | { type: 'ISSUES'; value: true }
  | { type: 'ISSUE_USER'; value: number }
  | { type: 'ISSUE_STATUS'; value: IssueStatus }
  | { type: 'ISSUE_EMPTY_REPLIES'; value: true };

export interface DocumentInfoRequest {
  paged?: boolean;
  filters: DocumentInfoFilter[];
}

export const DocumentInfoSorts = [
  'id,desc',
  'id,asc',
  'filename,asc',
  'filename,desc',
  'commentCount,asc',
  'commentCount,desc',
] as const;
export type DocumentInfoSort = (typeof DocumentInfoSorts)[number];
/** The sorts only the issue view has. */
export const ISSUE_ONLY_SORTS = ['commentCount,asc', 'commentCount,desc'] as const;
/** The sorts of the document view. */
export type DocumentSort = Exclude<DocumentInfoSort, (typeof ISSUE_ONLY_SORTS)[number]>;
export const isDocumentSort = (sort: DocumentInfoSort): sort is DocumentSort =>
  !(ISSUE_ONLY_SORTS as readonly string[]).includes(sort);
export const DEFAULT_DOCUMENT_INFO_SORT: DocumentInfoSort = 'id,desc';
/** Spec 2 section 9: sidebar and dashboard page size. */
export const DOCUMENT_INFO_PAGE_SIZE = 20;

export interface DocumentInfoStepDTO {
  id: number;
  status: StepStatus;
  master: boolean;
  rejected: boolean;
  order: number;
  nodeId: number;
  nodeName: string;
  activityType: ActivityType;
  /** the user working on the step */
  userId: number | null;
  /** what an ERROR step failed with (the dashboard's tooltip) */
  errorMessage: string | null;
}

/** The spec's Document list entry (id, filename, status, steps) with what the dashboard shows beside it. */
export interface DocumentInfoDTO {
  id: number;
  processId: number;
  filename: string;
  documentType: string;
  status: 'WAITING' | 'DONE';
  blockedBy: UserRefDTO | null;
  assignees: UserRefDTO[];
  steps: DocumentInfoStepDTO[];
}

/** One document of the issue view: counts over the issues that match the filters and the caller may see. */
export interface IssueDocumentInfoDTO {
  id: number;
  processId: number;
  filename: string;
  documentType: string;
  status: 'WAITING' | 'DONE';
  issueCount: number;
  resolvedCount: number;
  commentCount: number;
}

/** The issue conditions of the issue view. */
export interface IssueCriteria {
  /** raised by the user or commented on by them */
  userId?: number;
  status?: IssueStatus;
  /** no comment (non-automatic reply) */
  emptyReplies?: boolean;
  /** null: every node's steps are visible; else TAG/RELATION issues on tags of steps elsewhere are hidden */
  visibleNodeIds: number[] | null;
}

/** The filters as the query reads them (one of each, lists merged). */
export interface DocumentInfoCriteria {
  processId: number;
  assigneeIds?: number[];
  /** assigned to or uploaded by this user */
  mineOf?: number;
  unassigned?: boolean;
  status?: 'WAITING' | 'DONE';
  name?: string;
  steps: StepFilterValue[];
  documentIds?: number[];
  /** node-only grantees: documents with a step at one of these nodes */
  throughNodeIds?: number[];
  /** the issue view */
  issues?: IssueCriteria;
}

/** Why a caller may not list with these filters (null: allowed). `processAdmin`: ADMIN on the process. */
export function scopeRefusal(
  c: Pick<DocumentInfoCriteria, 'assigneeIds' | 'unassigned' | 'mineOf'>,
  userId: number,
  processAdmin: boolean,
): 'allDocumentsForAdmins' | 'othersDocumentsForAdmins' | null {
  if (processAdmin) return null;
  if (c.assigneeIds && c.assigneeIds.some((id) => id !== userId)) return 'othersDocumentsForAdmins';
  if (c.mineOf !== undefined && c.mineOf !== userId) return 'othersDocumentsForAdmins';
  if (!c.unassigned && !c.assigneeIds && c.mineOf === undefined) return 'allDocumentsForAdmins';
  return null;
}

/** Why a caller may not list the issue view with these filters (null: allowed). */
export function issueScopeRefusal(
  c: Pick<DocumentInfoCriteria, 'assigneeIds'> & { issues: Pick<IssueCriteria, 'userId' | 'emptyReplies'> },
  userId: number,
  processAdmin: boolean,
): 'withoutRepliesForAdmins' | 'othersIssuesForAdmins' | 'othersDocumentsForAdmins' | null {
  if (processAdmin) return null;
  if (c.issues.emptyReplies) return 'withoutRepliesForAdmins';
  if (c.issues.userId !== undefined && c.issues.userId !== userId) return 'othersIssuesForAdmins';
  if (c.assigneeIds && c.assigneeIds.some((id) => id !== userId)) return 'othersDocumentsForAdmins';
  return null;
}

export const ALL_STEP_STATUSES: readonly StepStatus[] = StepStatuses;
