import type { UserRefDTO } from '@domain/document-state-types';
import { assigneeChanges, assigneeGroups, assigneeRights, matchesUserSearch } from './assignees';

const user = (id: number, firstName: string | null, lastName: string | null, email: string): UserRefDTO => ({
  id,
  login: `u${id}`,
  firstName,
  lastName,
  email,
});

const anna = user(1, 'Anna', 'Nowak', 'anna@example.test');
const bob = user(2, 'Bob', 'Smith', 'bsmith@example.test');
const carl = user(3, null, null, 'carl@example.test');

describe('assigneeRights', () => {
  it('READ: nothing but the list', () => {
    const r = assigneeRights('READ', 1, []);
    expect([r.assignSelf, r.edit, r.replace, r.remove(1), r.remove(2)]).toEqual([
      false,
      false,
      false,
      false,
      false,
    ]);
  });

  it('WRITE: assign myself while not assigned, edit, remove my own entry only', () => {
    expect(assigneeRights('WRITE', 1, [bob]).assignSelf).toBe(true);
    const r = assigneeRights('WRITE', 1, [anna, bob]);
    expect(r.assignSelf).toBe(false);
    expect(r.edit).toBe(true);
    expect(r.replace).toBe(false);
    expect(r.remove(1)).toBe(true);
    expect(r.remove(2)).toBe(false);
  });

  it('ADMIN: removes anybody and saves the whole list', () => {
    const r = assigneeRights('ADMIN', 1, [bob]);
    expect(r.assignSelf).toBe(true);
    expect(r.replace).toBe(true);
    expect(r.remove(2)).toBe(true);
  });

  it('no user or no mode: nothing', () => {
    const r = assigneeRights('ADMIN', null, []);
    expect([r.assignSelf, r.edit, r.remove(1)]).toEqual([false, false, false]);
    expect(assigneeRights(null, 1, []).edit).toBe(false);
  });
});

describe('matchesUserSearch', () => {
  it('matches a prefix of the first name, the last name or the e-mail, ignoring case', () => {
    expect(matchesUserSearch(anna, 'an')).toBe(true);
    expect(matchesUserSearch(anna, 'NOW')).toBe(true);
    expect(matchesUserSearch(bob, 'bsm')).toBe(true);
    expect(matchesUserSearch(carl, 'Carl')).toBe(true);
  });

  it('does not match inside a word, nor the login', () => {
    expect(matchesUserSearch(anna, 'nna')).toBe(false);
    expect(matchesUserSearch(bob, 'mith')).toBe(false);
    expect(matchesUserSearch(anna, 'u1')).toBe(false);
  });

  it('an empty or blank query matches everybody', () => {
    expect(matchesUserSearch(carl, '')).toBe(true);
    expect(matchesUserSearch(carl, '  ')).toBe(true);
  });
});

describe('assigneeGroups', () => {
  it('splits the candidates into the assignees and the others, both filtered', () => {
    expect(assigneeGroups([anna], [anna, bob, carl], '')).toEqual({ assigned: [anna], others: [bob, carl] });
    expect(assigneeGroups([anna], [anna, bob, carl], 'c')).toEqual({ assigned: [], others: [carl] });
  });
});

describe('assigneeChanges', () => {
  it('lists the added and the removed ids', () => {
    expect(assigneeChanges([1, 2], [2, 3, 4])).toEqual({ added: [3, 4], removed: [1] });
    expect(assigneeChanges([1], [1])).toEqual({ added: [], removed: [] });
  });
});
