import {
  FIRST_PAGE,
  pageCount,
  pageItems,
  pagerView,
  positionQuery,
  type PageAnswer,
  type PagerView,
} from './pagination';

describe('pageItems', () => {
  it('shows every page up to five', () => {
    expect(pageItems(0, 1)).toEqual([0]);
    expect(pageItems(2, 5)).toEqual([0, 1, 2, 3, 4]);
  });

  it('beyond five pages keeps the first, the last and the current one with its neighbours, with gaps', () => {
    expect(pageItems(0, 10)).toEqual([0, 1, 2, 3, 'gap', 9]);
    expect(pageItems(5, 10)).toEqual([0, 'gap', 4, 5, 6, 'gap', 9]);
    expect(pageItems(9, 10)).toEqual([0, 'gap', 6, 7, 8, 9]);
    expect(pageItems(2, 6)).toEqual([0, 1, 2, 3, 'gap', 5]);
    expect(pageItems(3, 6)).toEqual([0, 'gap', 2, 3, 4, 5]);
  });

  it('counts at least one page', () => {
    expect(pageCount(0, 20)).toBe(1);
    expect(pageCount(20, 20)).toBe(1);
    expect(pageCount(21, 20)).toBe(2);
  });
});

describe('pagerView: the pager under the result window', () => {
  const estimated = (over: Partial<PageAnswer> = {}): PageAnswer => ({
    total: 1_000_000,
    exact: false,
    next: 'n',
    prev: 'p',
    window: 10_000,
    ...over,
  });
  const numbers = (v: PagerView) =>
    v.items.map((i) =>
      i.kind === 'gap' ? '…' : `${i.about ? '~' : ''}${i.index + 1}${i.current ? '*' : ''}`,
    );

  it('numbers every page of a small exact list and has no Last button', () => {
    const v = pagerView(FIRST_PAGE, { total: 45, exact: true, next: 'n', prev: null, window: 10_000 }, 20);
    expect(numbers(v)).toEqual(['1*', '2', '3']);
    expect(v.previous).toBeNull();
    // the next page by the cursor the API gave (keyset), by number without one
    expect(v.next).toEqual({ kind: 'after', cursor: 'n', index: 1, back: 1 });
    const noCursors = { total: 45, exact: true, next: null, prev: null, window: 10_000 };
    expect(pagerView(FIRST_PAGE, noCursors, 20).next).toEqual({ kind: 'page', page: 1 });
    expect(v.last).toBeNull();
    const last = pagerView(
      { kind: 'page', page: 2 },
      { total: 45, exact: true, next: null, prev: 'p', window: 10_000 },
      20,
    );
    expect(last.next).toBeNull();
  });

  it('numbers only the pages inside the window of an estimated list, with a Last button', () => {
    const v = pagerView(FIRST_PAGE, estimated({ prev: null }), 20);
    expect(numbers(v)).toEqual(['1*', '2', '3', '4', '…', '500', '…']);
    expect(v.items.flatMap((i) => (i.kind === 'page' ? [i.position] : []))).toContainEqual({
      kind: 'page',
      page: 499,
    });
    expect(v.next).toEqual({ kind: 'after', cursor: 'n', index: 1, back: undefined });
    expect(v.last).toEqual({ kind: 'last', back: 0 });
    expect(v.atLast).toBe(false);
  });

  it('leaves the window by cursor and comes back by cursor, to the first page by number', () => {
    const edge = pagerView({ kind: 'page', page: 499 }, estimated(), 20);
    expect(edge.next).toEqual({ kind: 'after', cursor: 'n', index: 500, back: undefined });
    expect(edge.previous).toEqual({ kind: 'before', cursor: 'p', index: 498, back: undefined });
    expect(pagerView({ kind: 'page', page: 1 }, estimated(), 20).previous).toEqual(FIRST_PAGE);
    const beyond = pagerView({ kind: 'after', cursor: 'x', index: 500 }, estimated(), 20);
    expect(numbers(beyond)).toEqual(['1', '…', '497', '498', '499', '500', '501*', '…']);
    expect(beyond.previous).toEqual({ kind: 'before', cursor: 'p', index: 499, back: undefined });
    // the page numbers inside the window stay buttons by number
    expect(beyond.items[2]).toMatchObject({ index: 496, position: { kind: 'page', page: 496 } });
    expect(beyond.next).toEqual({ kind: 'after', cursor: 'n', index: 501, back: undefined });
    const deep = pagerView({ kind: 'after', cursor: 'x', index: 700 }, estimated(), 20);
    expect(numbers(deep)).toEqual(['1', '…', '497', '498', '499', '500', '…', '701*', '…']);
    expect(deep.previous).toEqual({ kind: 'before', cursor: 'p', index: 699, back: undefined });
  });

  it('reads the last pages from the end, by cursor, or by number from the end without cursors', () => {
    const last = pagerView({ kind: 'last', back: 0 }, estimated({ next: null }), 20);
    expect(last.atLast).toBe(true);
    expect(last.next).toBeNull();
    expect(last.previous).toEqual({ kind: 'before', cursor: 'p', index: undefined, back: 1 });
    const issues = { total: 1_000, exact: true, next: null, prev: null, window: 100 };
    expect(pagerView({ kind: 'last', back: 0 }, issues, 10).previous).toEqual({ kind: 'last', back: 1 });
    expect(numbers(last)).toEqual(['1', '2', '3', '4', '…', '500', '…']);
    const second = pagerView({ kind: 'last', back: 1 }, estimated(), 20);
    expect(numbers(second).slice(-1)).toEqual(['~49999*']);
    expect(second.next).toEqual({ kind: 'last', back: 0 });
    const far = pagerView({ kind: 'before', cursor: 'x', back: 500 }, estimated(), 20);
    expect(far.previous).toEqual({ kind: 'before', cursor: 'p', index: undefined, back: 501 });
    expect(far.next).toEqual({ kind: 'after', cursor: 'n', index: undefined, back: 499 });
  });

  it('believes the cursors over an estimate: no Next when no row follows, no Previous when none precedes', () => {
    expect(pagerView({ kind: 'page', page: 3 }, estimated({ next: null }), 20).next).toBeNull();
    expect(pagerView({ kind: 'last', back: 0 }, estimated({ prev: null }), 20).previous).toBeNull();
  });

  it('numbers both ends of an exact list longer than the window and never a page between them', () => {
    const answer = { total: 1_000, exact: true, next: null, prev: null, window: 100 };
    const v = pagerView({ kind: 'page', page: 9 }, answer, 10);
    expect(numbers(v)).toEqual(['1', '…', '9', '10*', '…', '100']);
    expect(v.items[v.items.length - 1]).toMatchObject({ position: { kind: 'last', back: 0 } });
    // no cursors (the issue view): the page after the window is out of reach
    expect(v.next).toBeNull();
    expect(pagerView({ kind: 'page', page: 9 }, { ...answer, next: 'n' }, 10).next).toEqual({
      kind: 'after',
      cursor: 'n',
      index: 10,
      back: 89,
    });
    const end = pagerView({ kind: 'last', back: 9 }, answer, 10);
    // page 90 is 10 pages from the end: out of reach by number
    expect(numbers(end)).toEqual(['1', '…', '91*', '92', '…', '100']);
    expect(end.previous).toBeNull();
    expect(end.next).toEqual({ kind: 'last', back: 8 });
  });

  it('asks the API for a position by page and anchor', () => {
    expect(positionQuery({ kind: 'page', page: 3 })).toEqual({ page: 3 });
    expect(positionQuery({ kind: 'last', back: 2 })).toEqual({ page: 2, last: true });
    expect(positionQuery({ kind: 'after', cursor: 'c', index: 600 })).toEqual({ page: 0, after: 'c' });
    expect(positionQuery({ kind: 'before', cursor: 'c' })).toEqual({ page: 0, before: 'c' });
  });
});
