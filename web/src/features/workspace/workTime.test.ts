import { IDLE_TIMEOUT_MS, formatDuration, input, isIdle, startClock, tick } from './workTime';

describe('work-time counter', () => {
  it('counts time while the user is active', () => {
    let c = startClock(1000);
    c = tick(c, 11_000);
    expect(c.workedMs).toBe(10_000);
    expect(isIdle(c, 11_000)).toBe(false);
  });

  it('stops counting once the idle timeout has passed without input, and goes on after an input', () => {
    let c = startClock(0);
    c = tick(c, IDLE_TIMEOUT_MS + 30_000);
    expect(isIdle(c, IDLE_TIMEOUT_MS + 30_000)).toBe(true);
    expect(c.workedMs).toBe(IDLE_TIMEOUT_MS);
    c = input(c, IDLE_TIMEOUT_MS + 40_000);
    expect(isIdle(c, IDLE_TIMEOUT_MS + 40_000)).toBe(false);
    expect(c.workedMs).toBe(IDLE_TIMEOUT_MS);
    c = tick(c, IDLE_TIMEOUT_MS + 45_000);
    expect(c.workedMs).toBe(IDLE_TIMEOUT_MS + 5_000);
  });

  it('never counts the same stretch twice', () => {
    let c = startClock(0, 500);
    c = input(c, 2000);
    c = tick(c, 2000);
    c = tick(c, 1500);
    expect(c.workedMs).toBe(2500);
  });

  it('formats durations', () => {
    expect(formatDuration(0)).toBe('00:00');
    expect(formatDuration(65_000)).toBe('01:05');
    expect(formatDuration(3_726_000)).toBe('1:02:06');
  });
});
