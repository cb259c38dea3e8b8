import { scopeRefusal } from './document-info';

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
  });
});
