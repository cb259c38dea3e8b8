import {
  advanceStretch,
  IDLE_TIMEOUT_MS,
  formatDuration,
  input,
  isIdle,
  reportable,
  startClock,
  tick,
} from './workTime';

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

describe('work stretches reported to the server', () => {
  const ids = () => {
    let n = 0;
    return () => `stretch-${++n}`;
  };

  it('opens a stretch on the step, extends it while active and closes it where activity ended', () => {
    const newId = ids();
    let c = startClock(0);
    let r = advanceStretch(null, 7, c, 0, newId);
    expect(r).toEqual({ open: { clientId: 'stretch-1', stepId: 7, start: 0, end: 0 }, closed: null });
    expect(reportable(r.open)).toBe(false);
    c = input(c, 30_000);
    r = advanceStretch(r.open, 7, c, 50_000, newId);
    expect(r.open).toEqual({ clientId: 'stretch-1', stepId: 7, start: 0, end: 50_000 });
    // no input since 30 s: idle at 90 s; the stretch ends there, not when the idle was noticed
    r = advanceStretch(r.open, 7, c, 200_000, newId);
    expect(r).toEqual({ open: null, closed: { clientId: 'stretch-1', stepId: 7, start: 0, end: 90_000 } });
    // active again: a new stretch with a new id
    c = input(c, 300_000);
    r = advanceStretch(null, 7, c, 300_000, newId);
    expect(r.open?.clientId).toBe('stretch-2');
  });

  it('closes the stretch on a step change and opens one on the new step', () => {
    const newId = ids();
    const c = input(startClock(0), 10_000);
    const first = advanceStretch(null, 1, c, 10_000, newId).open;
    const grown = advanceStretch(first, 1, c, 20_000, newId).open;
    const r = advanceStretch(grown, 2, c, 25_000, newId);
    expect(r.closed).toEqual({ clientId: 'stretch-1', stepId: 1, start: 10_000, end: 20_000 });
    expect(r.open).toEqual({ clientId: 'stretch-2', stepId: 2, start: 25_000, end: 25_000 });
    // leaving the document (no step): closed, nothing opened
    expect(advanceStretch(grown, null, c, 21_000, newId)).toEqual({ open: null, closed: grown });
  });
});
