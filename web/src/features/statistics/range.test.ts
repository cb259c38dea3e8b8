import {
  addDays,
  daysBetween,
  daysOf,
  formatDay,
  mondayOf,
  parseDay,
  presetOf,
  presetRange,
  rangeError,
  RANGE_PRESETS,
} from './range';

describe('statistics date range', () => {
  it('formats days as dd.MM.yyyy and parses them back', () => {
    expect(formatDay('2026-03-07')).toBe('07.03.2026');
    expect(parseDay('07.03.2026')).toBe('2026-03-07');
    expect(parseDay(' 7.3.2026 ')).toBe('2026-03-07');
    expect(parseDay(formatDay('2024-12-31'))).toBe('2024-12-31');
  });

  it('refuses text that is not a real dd.MM.yyyy date', () => {
    for (const bad of ['', '2026-03-07', '31.02.2026', '29.02.2025', '00.01.2026', '1.13.2026', '07/03/2026'])
      expect(parseDay(bad)).toBeNull();
    expect(parseDay('29.02.2024')).toBe('2024-02-29');
  });

  it('starts a week on Monday', () => {
    expect(mondayOf('2026-11-24')).toBe('2026-11-23'); // a Tuesday
    expect(mondayOf('2026-11-23')).toBe('2026-11-23'); // the Monday itself
    expect(mondayOf('2026-11-29')).toBe('2026-11-23'); // Sunday belongs to the week before it
    expect(mondayOf('2026-01-01')).toBe('2025-12-29'); // across a year
  });

  it('counts each preset from today', () => {
    const today = '2026-11-24';
    expect(RANGE_PRESETS.map((p) => [p, presetRange(p, today)])).toEqual([
      ['today', { from: '2026-11-24', to: '2026-11-24' }],
      ['yesterday', { from: '2026-11-23', to: '2026-11-23' }],
      ['thisWeek', { from: '2026-11-23', to: '2026-11-24' }],
      ['lastWeek', { from: '2026-11-16', to: '2026-11-22' }],
      ['thisMonth', { from: '2026-11-01', to: '2026-11-24' }],
      ['lastMonth', { from: '2026-10-01', to: '2026-10-31' }],
      ['thisYear', { from: '2026-01-01', to: '2026-11-24' }],
      ['lastYear', { from: '2025-01-01', to: '2025-12-31' }],
    ]);
  });

  it('crosses month and year edges in the presets', () => {
    expect(presetRange('yesterday', '2026-03-01')).toEqual({ from: '2026-02-28', to: '2026-02-28' });
    expect(presetRange('lastMonth', '2026-01-15')).toEqual({ from: '2025-12-01', to: '2025-12-31' });
    expect(presetRange('lastMonth', '2024-03-31')).toEqual({ from: '2024-02-01', to: '2024-02-29' });
    expect(presetRange('lastWeek', '2026-01-02')).toEqual({ from: '2025-12-22', to: '2025-12-28' });
  });

  it('names the preset a range is, if any', () => {
    expect(presetOf({ from: '2026-11-01', to: '2026-11-24' }, '2026-11-24')).toBe('thisMonth');
    expect(presetOf({ from: '2026-11-02', to: '2026-11-24' }, '2026-11-24')).toBeNull();
  });

  it('allows at most 365 days after the start', () => {
    expect(rangeError('2025-01-01', '2026-01-01')).toBeNull(); // 365 days after
    expect(rangeError('2024-01-01', '2024-12-31')).toBeNull(); // a leap year, 365 days after
    expect(rangeError('2025-01-01', '2026-01-02')).toBe('tooLong');
    expect(rangeError('2024-01-01', '2025-01-01')).toBe('tooLong'); // 366 days after
  });

  it('names the first thing wrong with a typed range', () => {
    expect(rangeError(null, '2026-01-01')).toBe('invalidFrom');
    expect(rangeError('2026-01-01', null)).toBe('invalidTo');
    expect(rangeError('2026-01-02', '2026-01-01')).toBe('order');
    expect(rangeError('2026-01-01', '2026-01-01')).toBeNull();
  });

  it('lists the days of a range', () => {
    expect(daysOf({ from: '2026-02-27', to: '2026-03-02' })).toEqual([
      '2026-02-27',
      '2026-02-28',
      '2026-03-01',
      '2026-03-02',
    ]);
    expect(daysOf({ from: '2026-03-02', to: '2026-03-01' })).toEqual([]);
    expect(daysBetween('2026-03-29', '2026-03-30')).toBe(1); // no daylight saving in day arithmetic
    expect(addDays('2026-12-31', 1)).toBe('2027-01-01');
  });
});
