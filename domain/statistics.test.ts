import {
  isZoneId,
  splitByDay,
  statisticsRangeViolations,
  documentsOfViolations,
  workTimeReportRule,
  workTimeViolations,
  WORK_TIME_LIMITS,
  zoneDate,
  zoneDayStart,
} from './statistics';

const at = (iso: string) => Date.parse(iso);

describe('statistics date range', () => {
  it('accepts a range of up to 365 days after the start, both days included', () => {
    expect(statisticsRangeViolations('2025-01-01', '2025-01-01')).toEqual([]);
    expect(statisticsRangeViolations('2025-01-01', '2026-01-01')).toEqual([]);
  });

  it('refuses a longer range, a reversed one and days that do not exist', () => {
    expect(statisticsRangeViolations('2025-01-01', '2026-01-02')).toEqual([
      { field: 'dateTo', code: 'Size', key: 'soaApp.statistics.errors.rangeTooLong' },
    ]);
    expect(statisticsRangeViolations('2025-02-02', '2025-02-01').map((v) => v.key)).toEqual([
      'soaApp.statistics.errors.dateOrder',
    ]);
    expect(statisticsRangeViolations('2025-02-30', '01.03.2025').map((v) => [v.field, v.key])).toEqual([
      ['dateFrom', 'soaApp.statistics.errors.dateInvalid'],
      ['dateTo', 'soaApp.statistics.errors.dateInvalid'],
    ]);
  });
});

describe('the documents of a node activity cell', () => {
  const q = { type: 'NODE_ACTIVITY' as const, dateFrom: '2026-03-01', dateTo: '2026-03-31' };
  const keys = (query: Parameters<typeof documentsOfViolations>[0], nodeId: number, date: string) =>
    documentsOfViolations(query, { nodeId, date }).map((v) => `${v.field} ${v.key.split('.').pop()}`);
  it('takes a day of the range and a node of the filter', () => {
    expect(keys(q, 7, '2026-03-01')).toEqual([]);
    expect(keys(q, 7, '2026-03-31')).toEqual([]);
    expect(keys({ ...q, nodeIds: [7, 8] }, 8, '2026-03-15')).toEqual([]);
    expect(keys({ ...q, nodeIds: [] }, 8, '2026-03-15')).toEqual([]);
  });
  it('refuses other types, days outside the range or unreal, and nodes left out by the filter', () => {
    expect(keys({ ...q, type: 'WORK_TIMER' }, 7, '2026-03-02')).toEqual(['documentsOf documentsOfType']);
    expect(keys(q, 7, '2026-02-28')).toEqual(['documentsOf documentsOfOutOfRange']);
    expect(keys(q, 7, '2026-04-01')).toEqual(['documentsOf documentsOfOutOfRange']);
    expect(keys(q, 7, '2026-02-30')).toEqual(['documentsOf dateInvalid']);
    expect(keys({ ...q, nodeIds: [8] }, 7, '2026-03-02')).toEqual(['documentsOf documentsOfNode']);
  });
});

describe('zones', () => {
  it('knows IANA zones and refuses anything else', () => {
    expect(['Europe/Warsaw', 'UTC', 'Asia/Kolkata', 'America/Argentina/Buenos_Aires'].map(isZoneId)).toEqual([
      true,
      true,
      true,
      true,
    ]);
    expect(['Mars/Olympus', '', "UTC'; drop", '../etc'].map(isZoneId)).toEqual([false, false, false, false]);
  });

  it("finds a day's first instant, DST days included", () => {
    expect(new Date(zoneDayStart('2026-03-10', 'Europe/Warsaw')).toISOString()).toBe(
      '2026-03-09T23:00:00.000Z',
    );
    expect(new Date(zoneDayStart('2026-07-10', 'Europe/Warsaw')).toISOString()).toBe(
      '2026-07-09T22:00:00.000Z',
    );
    expect(new Date(zoneDayStart('2026-03-10', 'Asia/Kolkata')).toISOString()).toBe(
      '2026-03-09T18:30:00.000Z',
    );
    // Santiago's clocks jump from 24:00 to 01:00 on 2026-09-06: the day starts at the jump
    expect(zoneDate(zoneDayStart('2026-09-06', 'America/Santiago'), 'America/Santiago')).toBe('2026-09-06');
  });
});

describe('splitByDay', () => {
  it('splits work spanning midnight of the zone in proportion', () => {
    // 22:30Z to 23:30Z is 23:30 to 00:30 in Warsaw in March (UTC+1)
    expect(splitByDay(at('2026-03-10T22:30:00Z'), at('2026-03-10T23:30:00Z'), 'Europe/Warsaw')).toEqual([
      { date: '2026-03-10', seconds: 1800 },
      { date: '2026-03-11', seconds: 1800 },
    ]);
    // the same stretch is one day in UTC
    expect(splitByDay(at('2026-03-10T22:30:00Z'), at('2026-03-10T23:30:00Z'), 'UTC')).toEqual([
      { date: '2026-03-10', seconds: 3600 },
    ]);
    // a half-hour zone: 23:45 to 00:15 in India
    expect(splitByDay(at('2026-03-10T18:15:00Z'), at('2026-03-10T18:45:00Z'), 'Asia/Kolkata')).toEqual([
      { date: '2026-03-10', seconds: 900 },
      { date: '2026-03-11', seconds: 900 },
    ]);
  });

  it('gives each whole day between its 24 hours, or 23 on a DST day', () => {
    const days = splitByDay(at('2026-03-28T12:00:00Z'), at('2026-03-30T12:00:00Z'), 'Europe/Warsaw');
    expect(days.map((d) => [d.date, d.seconds / 3600])).toEqual([
      ['2026-03-28', 11],
      ['2026-03-29', 23],
      ['2026-03-30', 14],
    ]);
  });

  it('gives nothing for an empty stretch', () => {
    expect(splitByDay(at('2026-03-10T10:00:00Z'), at('2026-03-10T10:00:00Z'), 'UTC')).toEqual([]);
  });
});

describe('work-time reports', () => {
  const now = at('2026-11-24T12:00:00Z');
  it('takes a stretch that ends after it starts, not in the future, at most 12 hours long', () => {
    expect(workTimeViolations(now - 60_000, now, now)).toEqual([]);
    expect(workTimeViolations(now, now + WORK_TIME_LIMITS.skewMs, now)).toEqual([]);
    expect(workTimeViolations(now, now, now).map((v) => v.key)).toEqual([
      'soaApp.statistics.errors.endBeforeStart',
    ]);
    expect(workTimeViolations(now, now + WORK_TIME_LIMITS.skewMs + 1, now).map((v) => v.key)).toEqual([
      'soaApp.statistics.errors.endInFuture',
    ]);
    expect(workTimeViolations(now - 12 * 3_600_000 - 1, now, now).map((v) => v.key)).toEqual([
      'soaApp.statistics.errors.stretchTooLong',
    ]);
  });

  it('reads the instants of a report with their offset, every refusal at once', () => {
    expect(workTimeReportRule('2026-11-24T11:59:00.000Z', '2026-11-24T13:00:00+01:00', now)).toEqual({
      start: now - 60_000,
      end: now,
    });
    const keys = (r: ReturnType<typeof workTimeReportRule>) =>
      'violations' in r ? r.violations.map((v) => `${v.field} ${v.key}`) : [];
    expect(keys(workTimeReportRule('yesterday', '2026-11-24T12:00', now))).toEqual([
      'startTime soaApp.statistics.errors.instantInvalid',
      'endTime soaApp.statistics.errors.instantInvalid',
    ]);
    expect(keys(workTimeReportRule('2026-11-24T12:00:00Z', '2026-11-24T11:00:00Z', now))).toEqual([
      'endTime soaApp.statistics.errors.endBeforeStart',
    ]);
  });
});
