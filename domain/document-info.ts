/**
 * The document-info list (spec 2 section 7: `POST api/v2/document-info?page&size&sort&paged` with body
 * {paged, filters[{type, value}]}): the filter types of the spec's Dashboard filter (process id, assignee
 * ids, status, name, step filter; issue filters arrive with issues), the list entry, and the visibility rule
 * the API enforces. Shared by the API (api/services/document-info.ts), the workspace's documents panel and
 * the documents dashboard.
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
 */
import type { StepStatus } from './steps';
import { StepStatuses } from './steps';
import type { UserRefDTO } from './document-state-types';
import type { ActivityType } from './enums';

export const DocumentInfoFilterTypes = [
  'PROCESS',
  'ASSIGNEE',
  'UNASSIGNED',
  'STATUS',
  'NAME',
  'STEP',
  'DOCUMENT_IDS',
] as const;
export type DocumentInfoFilterType = (typeof DocumentInfoFilterTypes)[number];

export interface StepFilterValue {
  nodeId: number;
  /** the statuses a step at the node may have (the tri-state checkbox: all five when checked) */
  statuses: StepStatus[];
}

export type DocumentInfoFilter =
  | { type: 'PROCESS'; value: number }
  | { type: 'ASSIGNEE'; value: number[] }
  | { type: 'UNASSIGNED'; value: true }
  | { type: 'STATUS'; value: 'WAITING' | 'DONE' }
  | { type: 'NAME'; value: string }
  | { type: 'STEP'; value: StepFilterValue }
  | { type: 'DOCUMENT_IDS'; value: number[] };

export interface DocumentInfoRequest {
  paged?: boolean;
  filters: DocumentInfoFilter[];
}

export const DocumentInfoSorts = ['id,desc', 'id,asc', 'filename,asc', 'filename,desc'] as const;
export type DocumentInfoSort = (typeof DocumentInfoSorts)[number];
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

/** The filters as the query reads them (one of each, lists merged). */
export interface DocumentInfoCriteria {
  processId: number;
  assigneeIds?: number[];
  unassigned?: boolean;
  status?: 'WAITING' | 'DONE';
  name?: string;
  steps: StepFilterValue[];
  documentIds?: number[];
  /** node-only grantees: documents with a step at one of these nodes */
  throughNodeIds?: number[];
}

/** Why a caller may not list with these filters (null: allowed). `processAdmin`: ADMIN on the process. */
export function scopeRefusal(
  c: Pick<DocumentInfoCriteria, 'assigneeIds' | 'unassigned'>,
  userId: number,
  processAdmin: boolean,
): 'allDocumentsForAdmins' | 'othersDocumentsForAdmins' | null {
  if (processAdmin) return null;
  if (c.assigneeIds && c.assigneeIds.some((id) => id !== userId)) return 'othersDocumentsForAdmins';
  if (!c.unassigned && !c.assigneeIds) return 'allDocumentsForAdmins';
  return null;
}

export const ALL_STEP_STATUSES: readonly StepStatus[] = StepStatuses;
