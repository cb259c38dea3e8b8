import { fromEnd, lastPageRows, pageInWindow, RESULT_WINDOW, windowPages } from './paging';

describe('the result window', () => {
  it('admits a page by number while its last row lies inside the window', () => {
    expect(RESULT_WINDOW).toBe(10_000);
    expect(pageInWindow(0, 20)).toBe(true);
    expect(pageInWindow(499, 20)).toBe(true);
    expect(pageInWindow(500, 20)).toBe(false);
    expect(pageInWindow(199, 50)).toBe(true);
    expect(pageInWindow(200, 50)).toBe(false);
    expect(pageInWindow(99, 10, 1_000)).toBe(true);
    expect(pageInWindow(100, 10, 1_000)).toBe(false);
  });

  it('counts the pages the window holds, at least one', () => {
    expect(windowPages(20)).toBe(500);
    expect(windowPages(50, 1_000)).toBe(20);
    expect(windowPages(50, 30)).toBe(1);
  });
});

describe('the last pages', () => {
  it('holds the rest of an exact total on the last page', () => {
    expect(lastPageRows(0, 20)).toBe(0);
    expect(lastPageRows(1, 20)).toBe(1);
    expect(lastPageRows(20, 20)).toBe(20);
    expect(lastPageRows(41, 20)).toBe(1);
    expect(lastPageRows(59, 20)).toBe(19);
  });

  it('lines the pages read from the end up with the numbering of an exact total', () => {
    // 45 rows by 20: pages [0, 20), [20, 40), [40, 45); reversed, the last is rows 0..4, the one before 5..24
    expect(fromEnd(0, 20, 45)).toEqual({ offset: 0, limit: 5 });
    expect(fromEnd(1, 20, 45)).toEqual({ offset: 5, limit: 20 });
    expect(fromEnd(2, 20, 45)).toEqual({ offset: 25, limit: 20 });
  });

  it('takes the last size rows of an estimated list', () => {
    expect(fromEnd(0, 20)).toEqual({ offset: 0, limit: 20 });
    expect(fromEnd(3, 20)).toEqual({ offset: 60, limit: 20 });
  });
});
