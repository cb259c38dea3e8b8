/**
 * Previous / Next of the documents panel (spec 2 section 2: the workspace route is "also used for
 * previous/next navigation"), over the list as far as it is loaded: the neighbour in the list, wrapping
 * from the last document to the first and from the first to the last. At the end of what is loaded the
 * panel loads more first (`load`), and before wrapping backwards it loads the rest (`loadAll`), so the wrap
 * lands on the list's real last document. A document not in the list goes to the first (Next) or the last
 * (Previous).
 */
export type NavTarget =
  { kind: 'go'; id: number } | { kind: 'load' } | { kind: 'loadAll' } | { kind: 'none' };

export function nextTarget(ids: readonly number[], current: number, hasMore: boolean): NavTarget {
  const i = ids.indexOf(current);
  if (i >= 0 && i < ids.length - 1) return { kind: 'go', id: ids[i + 1] };
  if (hasMore) return { kind: 'load' };
  if (!ids.length || ids[0] === current) return { kind: 'none' };
  return { kind: 'go', id: ids[0] };
}

export function previousTarget(ids: readonly number[], current: number, hasMore: boolean): NavTarget {
  const i = ids.indexOf(current);
  if (i > 0) return { kind: 'go', id: ids[i - 1] };
  if (hasMore) return { kind: 'loadAll' };
  const last = ids[ids.length - 1];
  if (last === undefined || last === current) return { kind: 'none' };
  return { kind: 'go', id: last };
}
