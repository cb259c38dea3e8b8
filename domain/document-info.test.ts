import { issueScopeRefusal, scopeRefusal } from './document-info';

describe('document-info visibility (scopeRefusal)', () => {
  it("lets a process admin list everything, anyone's documents included", () => {
    expect(scopeRefusal({}, 7, true)).toBeNull();
    expect(scopeRefusal({ assigneeIds: [8, 9] }, 7, true)).toBeNull();
  });

  it('lets others list only their own or the unassigned documents', () => {
    expect(scopeRefusal({ assigneeIds: [7] }, 7, false)).toBeNull();
    expect(scopeRefusal({ unassigned: true }, 7, false)).toBeNull();
    expect(scopeRefusal({}, 7, false)).toBe('allDocumentsForAdmins');
    expect(scopeRefusal({ assigneeIds: [7, 8] }, 7, false)).toBe('othersDocumentsForAdmins');
    expect(scopeRefusal({ assigneeIds: [8], unassigned: true }, 7, false)).toBe('othersDocumentsForAdmins');
    expect(scopeRefusal({ mineOf: 7 }, 7, false)).toBeNull();
    expect(scopeRefusal({ mineOf: 8 }, 7, false)).toBe('othersDocumentsForAdmins');
  });
});

describe('issue view visibility (issueScopeRefusal)', () => {
  it("lets a process admin list any tab, anyone's issues included", () => {
    expect(issueScopeRefusal({ issues: { emptyReplies: true } }, 7, true)).toBeNull();
    expect(issueScopeRefusal({ issues: { userId: 8 } }, 7, true)).toBeNull();
  });

  it("lets others list All and their own issues, never Without replies or anyone else's", () => {
    expect(issueScopeRefusal({ issues: {} }, 7, false)).toBeNull();
    expect(issueScopeRefusal({ issues: { userId: 7 } }, 7, false)).toBeNull();
    expect(issueScopeRefusal({ issues: { emptyReplies: true } }, 7, false)).toBe('withoutRepliesForAdmins');
    expect(issueScopeRefusal({ issues: { userId: 8 } }, 7, false)).toBe('othersIssuesForAdmins');
    expect(issueScopeRefusal({ issues: {}, assigneeIds: [8] }, 7, false)).toBe('othersDocumentsForAdmins');
  });
});
