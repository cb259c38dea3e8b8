/**
 * The documents dashboard's state as the list request (spec 2 sections 2-6; domain/document-info.ts), pure
 * so it is unit-tested:
 * - tabs: My documents (assigned to me), Unassigned, Done (DONE and assigned to me), All (process admins,
 *   their start tab; the others start on My documents);
 * - the filters panel: the filename (debounced by the page), a step filter per node (the tri-state
 *   checkbox: unchecked no condition, indeterminate some statuses, checked all five) and an assignee filter
 *   (All tab only: the API lets only process admins name other users, and the other tabs already fix the
 *   assignee);
 * - a row's link: 'go to document' when the document is not DONE and not locked by another user, else
 *   'view' (spec 2 section 4 "Document state");
 * - the labels of users and steps ('unknown user', 'unknown node');
 * - whether a document is still moving through the engine (the page then polls: an upload is followed to
 *   its first waiting step without a reload).
 */
import { ALL_STEP_STATUSES, type DocumentInfoDTO, type DocumentInfoFilter } from '@domain/document-info';
import type { UserRefDTO } from '@domain/document-state-types';
import { isUploadType } from '@domain/nodes';
import type { StepStatus } from '@domain/steps';

export type DocumentTab = 'my' | 'unassigned' | 'done' | 'all';
export const DOCUMENT_TABS: readonly DocumentTab[] = ['my', 'unassigned', 'done', 'all'];

/** The tabs a caller has: All for process admins only. */
export const documentTabsFor = (processAdmin: boolean): DocumentTab[] =>
  processAdmin ? [...DOCUMENT_TABS] : DOCUMENT_TABS.filter((t) => t !== 'all');

export const documentStartTab = (processAdmin: boolean): DocumentTab => (processAdmin ? 'all' : 'my');

/** The statuses chosen per node id (a node absent or with none: no condition on it). */
export type StepSelection = Readonly<Record<number, readonly StepStatus[]>>;

export interface DocumentDashboardState {
  tab: DocumentTab;
  /** the filename filter, already debounced */
  name: string;
  steps: StepSelection;
  /** the assignee filter's users (All tab only) */
  assigneeIds: readonly number[];
}

/** Whether the assignee filter applies on a tab. */
export const assigneeFilterApplies = (tab: DocumentTab) => tab === 'all';

export function documentFilters(
  processId: number,
  userId: number,
  s: DocumentDashboardState,
): DocumentInfoFilter[] {
  const filters: DocumentInfoFilter[] = [{ type: 'PROCESS', value: processId }];
  // My documents: assigned to the user or uploaded by them (a new upload is where a writer looks first).
  if (s.tab === 'my') filters.push({ type: 'MINE', value: userId });
  if (s.tab === 'done') filters.push({ type: 'ASSIGNEE', value: [userId] });
  if (s.tab === 'done') filters.push({ type: 'STATUS', value: 'DONE' });
  if (s.tab === 'unassigned') filters.push({ type: 'UNASSIGNED', value: true });
  if (assigneeFilterApplies(s.tab) && s.assigneeIds.length > 0)
    filters.push({ type: 'ASSIGNEE', value: [...s.assigneeIds].sort((a, b) => a - b) });
  const name = s.name.trim();
  if (name) filters.push({ type: 'NAME', value: name });
  for (const [nodeId, statuses] of Object.entries(s.steps).sort(([a], [b]) => Number(a) - Number(b)))
    if (statuses.length > 0)
      filters.push({
        type: 'STEP',
        value: { nodeId: Number(nodeId), statuses: ALL_STEP_STATUSES.filter((x) => statuses.includes(x)) },
      });
  return filters;
}

export type TriState = 'unchecked' | 'indeterminate' | 'checked';

/** The node checkbox of the step filter: checked means all five statuses. */
export function nodeCheckState(statuses: readonly StepStatus[] | undefined): TriState {
  const n = statuses?.length ?? 0;
  if (n === 0) return 'unchecked';
  return ALL_STEP_STATUSES.every((x) => statuses!.includes(x)) ? 'checked' : 'indeterminate';
}

/** A click on a node checkbox: an unchecked one takes all five statuses, any other is cleared. */
export function toggleNode(sel: StepSelection, nodeId: number): StepSelection {
  const next = { ...sel };
  if (nodeCheckState(sel[nodeId]) === 'unchecked') next[nodeId] = [...ALL_STEP_STATUSES];
  else delete next[nodeId];
  return next;
}

/** A click on one status checkbox of a node. */
export function toggleStatus(sel: StepSelection, nodeId: number, status: StepStatus): StepSelection {
  const current = sel[nodeId] ?? [];
  const statuses = current.includes(status) ? current.filter((x) => x !== status) : [...current, status];
  const next = { ...sel };
  if (statuses.length === 0) delete next[nodeId];
  else next[nodeId] = ALL_STEP_STATUSES.filter((x) => statuses.includes(x));
  return next;
}

/** How many filters of the panel are set (shown on the Filters button). */
export function activeFilterCount(s: DocumentDashboardState): number {
  return (
    (s.name.trim() ? 1 : 0) +
    Object.values(s.steps).filter((x) => x.length > 0).length +
    (assigneeFilterApplies(s.tab) && s.assigneeIds.length > 0 ? 1 : 0)
  );
}

/** A document is locked when blockedBy names another user. */
export const lockedByOther = (doc: Pick<DocumentInfoDTO, 'blockedBy'>, userId: number) =>
  !!doc.blockedBy && doc.blockedBy.id !== userId;

/** 'go to document' when the document is not DONE and not locked by another user; else 'view'. */
export const documentAction = (doc: Pick<DocumentInfoDTO, 'status' | 'blockedBy'>, userId: number) =>
  doc.status !== 'DONE' && !lockedByOther(doc, userId) ? ('goTo' as const) : ('view' as const);

export const documentLink = (processId: number, documentId: number) =>
  `/entity/process/${processId}/document/${documentId}`;

/**
 * The assignee cell opens the assignees menu only if the user's access is not READ or the document has an
 * assignee (spec 2 section 2).
 */
export const assigneeCellOpens = (processMode: string | null, doc: Pick<DocumentInfoDTO, 'assignees'>) =>
  (processMode !== null && processMode !== 'READ') || doc.assignees.length > 0;

/** A user's name: first and last name, else the e-mail, else null ('unknown user'). */
export function userLabel(u: Pick<UserRefDTO, 'firstName' | 'lastName' | 'email'>): string | null {
  const full = [u.firstName, u.lastName]
    .filter((x) => !!x && x.trim())
    .join(' ')
    .trim();
  return full || u.email?.trim() || null;
}

/** The steps column: by order, the accepted ones left out when hidden. */
export function visibleSteps<S extends { status: StepStatus; order: number; id: number }>(
  steps: readonly S[],
  showAccepted: boolean,
): S[] {
  return [...steps]
    .filter((s) => showAccepted || s.status !== 'ACCEPTED')
    .sort((a, b) => a.order - b.order || a.id - b.id);
}

/**
 * The cursors learnt while paging one list: the `after` of page n (n >= 1), by list (filters and size), so
 * the next page is read by keyset; a page whose cursor is unknown is read by its number.
 */
export class PageCursors {
  private map = new Map<string, string>();
  private key = (filters: readonly DocumentInfoFilter[], size: number, page: number) =>
    `${JSON.stringify(filters)}|${size}|${page}`;
  get(filters: readonly DocumentInfoFilter[], size: number, page: number): string | null {
    return page > 0 ? (this.map.get(this.key(filters, size, page)) ?? null) : null;
  }
  set(filters: readonly DocumentInfoFilter[], size: number, page: number, cursor: string | null): void {
    if (cursor) this.map.set(this.key(filters, size, page), cursor);
  }
}

/**
 * The engine is moving the document on: a step is PROCESSING (a parser, a model, an action), or the document
 * is not DONE and has only its upload step (its next steps are being made). Steps that wait for people
 * (WAITING, ERROR, DONE before acceptance) do not count: nobody's work changes them by itself.
 */
export const inFlight = (doc: Pick<DocumentInfoDTO, 'status' | 'steps'>): boolean =>
  doc.steps.some((s) => s.status === 'PROCESSING') ||
  (doc.status !== 'DONE' && doc.steps.every((s) => isUploadType(s.activityType)));

/** How often the dashboard re-reads its page while a row is in flight. */
export const IN_FLIGHT_POLL_MS = 2000;
