import {
  activeFilterCount,
  assigneeCellOpens,
  documentAction,
  documentFilters,
  documentStartTab,
  documentTabsFor,
  inFlight,
  nodeCheckState,
  PageCursors,
  toggleNode,
  toggleStatus,
  userLabel,
  visibleSteps,
  type DocumentDashboardState,
} from './documents';
import type { DocumentInfoDTO } from '@domain/document-info';

const ALL = ['WAITING', 'PROCESSING', 'DONE', 'ACCEPTED', 'ERROR'];
const state = (s: Partial<DocumentDashboardState>): DocumentDashboardState => ({
  tab: 'all',
  name: '',
  steps: {},
  assigneeIds: [],
  ...s,
});

describe('documents dashboard state', () => {
  it('gives process admins the All tab as their start tab, and others none', () => {
    expect(documentTabsFor(true)).toEqual(['my', 'unassigned', 'done', 'all']);
    expect(documentTabsFor(false)).toEqual(['my', 'unassigned', 'done']);
    expect(documentStartTab(true)).toBe('all');
    expect(documentStartTab(false)).toBe('my');
  });

  it("turns each tab into the list's filters", () => {
    const process = { type: 'PROCESS', value: 4 };
    expect(documentFilters(4, 9, state({ tab: 'all' }))).toEqual([process]);
    expect(documentFilters(4, 9, state({ tab: 'my' }))).toEqual([process, { type: 'MINE', value: 9 }]);
    expect(documentFilters(4, 9, state({ tab: 'unassigned' }))).toEqual([
      process,
      { type: 'UNASSIGNED', value: true },
    ]);
    expect(documentFilters(4, 9, state({ tab: 'done' }))).toEqual([
      process,
      { type: 'ASSIGNEE', value: [9] },
      { type: 'STATUS', value: 'DONE' },
    ]);
  });

  it('adds the filename, the steps in node order and the assignees (on the All tab only)', () => {
    const s = state({
      name: ' scan ',
      steps: { 12: ['ERROR', 'WAITING'], 3: [...ALL] as never, 5: [] },
      assigneeIds: [8, 2],
    });
    expect(documentFilters(4, 9, s)).toEqual([
      { type: 'PROCESS', value: 4 },
      { type: 'ASSIGNEE', value: [2, 8] },
      { type: 'NAME', value: 'scan' },
      { type: 'STEP', value: { nodeId: 3, statuses: ALL } },
      { type: 'STEP', value: { nodeId: 12, statuses: ['WAITING', 'ERROR'] } },
    ]);
    expect(activeFilterCount(s)).toBe(4);
    const mine = { ...s, tab: 'my' as const };
    // My documents: assigned to or uploaded by the user, never the assignee filter of the All tab
    expect(documentFilters(4, 9, mine).filter((f) => f.type === 'ASSIGNEE' || f.type === 'MINE')).toEqual([
      { type: 'MINE', value: 9 },
    ]);
    expect(activeFilterCount(mine)).toBe(3);
  });

  it('runs the tri-state node checkbox: unchecked, indeterminate, checked = all five statuses', () => {
    expect(nodeCheckState(undefined)).toBe('unchecked');
    let sel = toggleStatus({}, 7, 'DONE');
    expect(sel).toEqual({ 7: ['DONE'] });
    expect(nodeCheckState(sel[7])).toBe('indeterminate');
    sel = toggleNode(sel, 7);
    expect(sel).toEqual({});
    sel = toggleNode(sel, 7);
    expect(sel[7]).toEqual(ALL);
    expect(nodeCheckState(sel[7])).toBe('checked');
    sel = toggleStatus(sel, 7, 'WAITING');
    expect(nodeCheckState(sel[7])).toBe('indeterminate');
    sel = toggleStatus(sel, 7, 'WAITING');
    expect(sel[7]).toEqual(ALL);
    for (const s of ['PROCESSING', 'DONE', 'ACCEPTED', 'ERROR', 'WAITING'] as const)
      sel = toggleStatus(sel, 7, s);
    expect(sel).toEqual({});
  });

  it("links 'go to document' unless the document is DONE or locked by another user", () => {
    const me = 9;
    const user = (id: number) => ({ id, login: `u${id}`, firstName: null, lastName: null, email: '' });
    expect(documentAction({ status: 'WAITING', blockedBy: null }, me)).toBe('goTo');
    expect(documentAction({ status: 'WAITING', blockedBy: user(me) }, me)).toBe('goTo');
    expect(documentAction({ status: 'WAITING', blockedBy: user(3) }, me)).toBe('view');
    expect(documentAction({ status: 'DONE', blockedBy: null }, me)).toBe('view');
  });

  it('counts a document in flight while a step processes or only its upload step exists', () => {
    const step = (activityType: string, status: string) =>
      ({ activityType, status }) as DocumentInfoDTO['steps'][number];
    const upload = step('HUP', 'ACCEPTED');
    expect(inFlight({ status: 'WAITING', steps: [] })).toBe(true);
    expect(inFlight({ status: 'WAITING', steps: [upload] })).toBe(true);
    expect(inFlight({ status: 'WAITING', steps: [upload, step('FILE_PARSER', 'PROCESSING')] })).toBe(true);
    expect(inFlight({ status: 'WAITING', steps: [upload, step('FILE_PARSER', 'DONE')] })).toBe(false);
    expect(inFlight({ status: 'WAITING', steps: [upload, step('CLF', 'WAITING')] })).toBe(false);
    expect(inFlight({ status: 'WAITING', steps: [upload, step('FILE_PARSER', 'ERROR')] })).toBe(false);
    expect(inFlight({ status: 'DONE', steps: [upload] })).toBe(false);
  });

  it('opens the assignee cell for writers, or when the document has an assignee', () => {
    const a = { id: 1, login: 'a', firstName: 'A', lastName: null, email: 'a@x' };
    expect(assigneeCellOpens('READ', { assignees: [] })).toBe(false);
    expect(assigneeCellOpens('READ', { assignees: [a] })).toBe(true);
    expect(assigneeCellOpens('WRITE', { assignees: [] })).toBe(true);
    expect(assigneeCellOpens('ADMIN', { assignees: [] })).toBe(true);
    expect(assigneeCellOpens(null, { assignees: [] })).toBe(false);
  });

  it("names users, or null ('unknown user') without a name or e-mail", () => {
    expect(userLabel({ firstName: 'Ada', lastName: 'Lovelace', email: 'a@x' })).toBe('Ada Lovelace');
    expect(userLabel({ firstName: null, lastName: null, email: 'a@x' })).toBe('a@x');
    expect(userLabel({ firstName: ' ', lastName: null, email: '' })).toBeNull();
  });

  it('orders the steps and hides the accepted ones on request', () => {
    const steps = [
      { id: 3, order: 2, status: 'ACCEPTED' as const },
      { id: 1, order: 0, status: 'DONE' as const },
      { id: 2, order: 1, status: 'WAITING' as const },
    ];
    expect(visibleSteps(steps, true).map((s) => s.id)).toEqual([1, 2, 3]);
    expect(visibleSteps(steps, false).map((s) => s.id)).toEqual([1, 2]);
  });

  it('remembers the cursor of the next page per list, never for the first page', () => {
    const cursors = new PageCursors();
    const f = [{ type: 'PROCESS' as const, value: 4 }];
    const g = [...f, { type: 'NAME' as const, value: 'x' }];
    cursors.set(f, 20, 1, 'c1');
    cursors.set(f, 20, 2, null);
    cursors.set(f, 20, 0, 'ignored');
    expect(cursors.get(f, 20, 1)).toBe('c1');
    expect(cursors.get(f, 20, 2)).toBeNull();
    expect(cursors.get(f, 20, 0)).toBeNull();
    expect(cursors.get(f, 50, 1)).toBeNull();
    expect(cursors.get(g, 20, 1)).toBeNull();
  });
});
