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
