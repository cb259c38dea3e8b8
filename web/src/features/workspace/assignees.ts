/**
 * The assignees menu's rules (spec 2 sections 2, 4, 5 and 6), pure so they are unit-tested: who may do
 * what in it, the edit view's search and groups, and what a save changes.
 *
 * - 'Assign myself' (only while the user is not assigned) and the remove icon of the user's own entry need
 *   WRITE or ADMIN on the process; the remove icon of anybody else's entry needs ADMIN.
 * - 'Edit Assignees' needs more than READ. A process admin saves the whole list (PUT); a writer adds users
 *   one by one and may take only themselves off (the others' checkboxes of the Assigned group are locked).
 * - The search is a case-insensitive prefix match on the first name, the last name or the e-mail.
 */
import { modeSatisfies, type AccessMode } from '@domain';
import type { UserRefDTO } from '@domain/document-state-types';

export interface AssigneeRights {
  assignSelf: boolean;
  edit: boolean;
  /** The user's full list may be saved at once (PUT): ADMIN. */
  replace: boolean;
  remove: (assigneeId: number) => boolean;
}

export function assigneeRights(
  mode: AccessMode | null,
  userId: number | null,
  assignees: readonly Pick<UserRefDTO, 'id'>[],
): AssigneeRights {
  const write = userId !== null && modeSatisfies(mode, 'WRITE');
  const admin = userId !== null && mode === 'ADMIN';
  return {
    assignSelf: write && !assignees.some((a) => a.id === userId),
    edit: write,
    replace: admin,
    remove: (id) => admin || (write && id === userId),
  };
}

/** Case-insensitive prefix match on the first name, the last name or the e-mail; an empty query matches. */
export function matchesUserSearch(
  user: Pick<UserRefDTO, 'firstName' | 'lastName' | 'email'>,
  query: string,
): boolean {
  const q = query.trim().toLowerCase();
  if (!q) return true;
  return [user.firstName, user.lastName, user.email].some((v) => !!v && v.toLowerCase().startsWith(q));
}

/** The edit view's groups: the assignees when it opened, and the other assignable users. */
export function assigneeGroups<U extends UserRefDTO>(
  assigned: readonly U[],
  candidates: readonly U[],
  query: string,
): { assigned: U[]; others: U[] } {
  const ids = new Set(assigned.map((u) => u.id));
  return {
    assigned: assigned.filter((u) => matchesUserSearch(u, query)),
    others: candidates.filter((u) => !ids.has(u.id) && matchesUserSearch(u, query)),
  };
}

/** What saving the selection changes against the assignees when the view opened. */
export function assigneeChanges(
  before: readonly number[],
  selected: readonly number[],
): { added: number[]; removed: number[] } {
  const was = new Set(before);
  const now = new Set(selected);
  return {
    added: [...now].filter((id) => !was.has(id)),
    removed: [...was].filter((id) => !now.has(id)),
  };
}
