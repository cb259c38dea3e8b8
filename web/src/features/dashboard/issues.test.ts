import {
  effectiveStatus,
  issueFilters,
  issuesLink,
  sortParam,
  startTab,
  tabsFor,
  toggleSort,
} from './issues';

describe('issues dashboard state', () => {
  it('gives process admins Without replies as their start tab, and others no such tab', () => {
    expect(tabsFor(true)).toEqual(['withoutReplies', 'my', 'all']);
    expect(tabsFor(false)).toEqual(['my', 'all']);
    expect(startTab(true)).toBe('withoutReplies');
    expect(startTab(false)).toBe('my');
  });

  it("turns each tab and the filters into the list's filters", () => {
    const base = [
      { type: 'PROCESS', value: 4 },
      { type: 'ISSUES', value: true },
    ];
    expect(issueFilters(4, 9, { tab: 'all', name: '', status: '' })).toEqual(base);
    expect(issueFilters(4, 9, { tab: 'my', name: ' scan ', status: 'RESOLVED' })).toEqual([
      ...base,
      { type: 'ISSUE_USER', value: 9 },
      { type: 'ISSUE_STATUS', value: 'RESOLVED' },
      { type: 'NAME', value: 'scan' },
    ]);
    // Without replies lists active issues whatever the status filter says
    expect(issueFilters(4, 9, { tab: 'withoutReplies', name: '', status: 'RESOLVED' })).toEqual([
      ...base,
      { type: 'ISSUE_EMPTY_REPLIES', value: true },
      { type: 'ISSUE_STATUS', value: 'ACTIVE' },
    ]);
    expect(effectiveStatus({ tab: 'all', name: '', status: '' })).toBe('');
  });

  it('sorts by a column ascending first, then toggles its direction', () => {
    const s = toggleSort({ field: 'filename', dir: 'asc' }, 'commentCount');
    expect(s).toEqual({ field: 'commentCount', dir: 'asc' });
    expect(sortParam(toggleSort(s, 'commentCount'))).toBe('commentCount,desc');
    expect(sortParam(toggleSort({ field: 'filename', dir: 'desc' }, 'filename'))).toBe('filename,asc');
  });

  it('links a document to its workspace with the issues panel open', () => {
    expect(issuesLink(3, 17)).toBe('/entity/process/3/document/17?panel=issues');
  });
});
