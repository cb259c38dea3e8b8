import { pageCount, pageItems } from './pagination';

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
