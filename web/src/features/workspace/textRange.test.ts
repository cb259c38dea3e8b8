import { clampRange, rangeFromSearch, rangeSearch } from './textRange';

const params = (s: string) => new URLSearchParams(s);

describe('the text range of the workspace address', () => {
  it('reads start and end offsets', () => {
    expect(rangeFromSearch(params('?start=12&end=80'))).toEqual({ start: 12, end: 80 });
    expect(rangeFromSearch(params('start=0&end=1&tool=issues'))).toEqual({ start: 0, end: 1 });
  });

  it('names no range when a bound is missing, not a whole number, or the range is empty or reversed', () => {
    expect(rangeFromSearch(params(''))).toBeNull();
    expect(rangeFromSearch(params('start=3'))).toBeNull();
    expect(rangeFromSearch(params('start=3&end=x'))).toBeNull();
    expect(rangeFromSearch(params('start=-1&end=4'))).toBeNull();
    expect(rangeFromSearch(params('start=1.5&end=4'))).toBeNull();
    expect(rangeFromSearch(params('start=4&end=4'))).toBeNull();
    expect(rangeFromSearch(params('start=9&end=4'))).toBeNull();
    expect(rangeFromSearch(params('start=1&end=99999999999'))).toBeNull();
  });

  it('builds the parameters that read back as the same range', () => {
    const link = rangeSearch({ start: 5, end: 42 });
    expect(link).toBe('?start=5&end=42');
    expect(rangeFromSearch(params(link))).toEqual({ start: 5, end: 42 });
  });

  it('keeps the part of the range inside the text', () => {
    expect(clampRange({ start: 2, end: 9 }, 20)).toEqual({ start: 2, end: 9 });
    expect(clampRange({ start: 2, end: 30 }, 20)).toEqual({ start: 2, end: 20 });
    expect(clampRange({ start: 25, end: 30 }, 20)).toBeNull();
    expect(clampRange(null, 20)).toBeNull();
  });
});
