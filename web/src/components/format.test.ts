import { formatDate, formatDateSeconds, localDay } from './format';

describe('display formats', () => {
  const at = new Date(2026, 0, 2, 3, 4, 5).toISOString(); // local time, whatever the zone

  test('DD/MM/YY HH:mm and with seconds, in the local zone', () => {
    expect(formatDate(at)).toBe('02/01/26 03:04');
    expect(formatDateSeconds(at)).toBe('02/01/26 03:04:05');
  });

  test('no date gives an empty text, an unreadable one is shown as it came', () => {
    expect(formatDate(null)).toBe('');
    expect(formatDateSeconds(undefined)).toBe('');
    expect(formatDateSeconds('soon')).toBe('soon');
  });

  test('localDay is the local calendar day', () => {
    expect(localDay(new Date(2026, 11, 31, 23, 59))).toBe('2026-12-31');
    expect(localDay(new Date(2027, 0, 1, 0, 0))).toBe('2027-01-01');
  });
});
