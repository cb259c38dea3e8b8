import { temporalCron } from './cron';
import { cronRule } from './validation';

describe('temporalCron', () => {
  it('keeps six-field patterns and adds the year', () => {
    expect(temporalCron('*/5 * * * * ?')).toBe('*/5 * * * * * *');
    expect(temporalCron('0 30 9 ? * MON-FRI')).toBe('0 30 9 * * MON-FRI *');
  });

  it('shifts Quartz weekday numbers to Sunday = 0 and keeps the year of seven-field patterns', () => {
    expect(temporalCron('0 0 12 ? * 1,7 2027')).toBe('0 0 12 * * 0,6 2027');
    expect(temporalCron('0 0 12 ? * 2-6/2')).toBe('0 0 12 * * 1-5/2 *');
  });

  it('refuses what Temporal cannot schedule', () => {
    expect(temporalCron('0 0 12 L * ?')).toBeNull();
    expect(temporalCron('0 0 12 ? * 6#3')).toBeNull();
    expect(temporalCron('0 0 12 ? * 8')).toBeNull();
    expect(temporalCron('* * * * *')).toBeNull();
    expect(temporalCron('')).toBeNull();
  });

  it('is what the cron validation accepts', () => {
    expect(cronRule('*/5 * * * * ?')).toBeNull();
    expect(cronRule('0 0 12 L * ?')).not.toBeNull();
  });
});

describe('cron ranges (what Temporal Schedules accept)', () => {
  it.each([
    '0 0 12 * * ?',
    '0 0/5 * * * ?',
    '59 59 23 31 12 ?',
    '0 0 0 1 JAN,jul ? 2099',
    '0 0 0 ? * SUN-SAT',
    '0 0 8-18/2 ? * MON-FRI',
    '*/15 1,2,3 0-23 1-31 1-12 1-7 1970-2099',
  ])('accepts %s', (cron) => {
    expect(temporalCron(cron)).not.toBeNull();
    expect(cronRule(cron)).toBeNull();
  });

  it.each([
    '99 99 99 99 99 ?',
    '60 * * * * ?',
    '* 60 * * * ?',
    '* * 24 * * ?',
    '* * * 0 * ?',
    '* * * 32 * ?',
    '* * * * 13 ?',
    '* * * * 0 ?',
    '* * * ? * 0',
    '* * * ? * 8',
    '* * * * * ? 1969',
    '* * * * * ? 2100',
    '0 0 12 ? * 6-2',
    '*/0 * * * * ?',
    '*/61 * * * * ?',
    '0 0 12 ? * FOO',
    '? * * * * *',
    '0 0 12 ,, * ?',
    '0 0 12 1-2-3 * ?',
    '0 0 12 1/2/3 * ?',
    '0 0 12 -1 * ?',
    '0 0 12 1 * ? ' + '1,'.repeat(200) + '1',
  ])('refuses %s with the cron key', (cron) => {
    expect(temporalCron(cron)).toBeNull();
    expect(cronRule(cron)).toEqual({ code: 'Pattern', key: 'cronError' });
  });
});
