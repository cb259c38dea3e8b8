import {
  formatTimestamp,
  parseTimestamp,
  repeatDelay,
  segmentBounds,
  segmentWindow,
  stepTimestamp,
  timestampMaxLength,
  withinBounds,
} from './timestamp';

describe('timestamp input rules', () => {
  it('formats seconds as mm:ss:cc', () => {
    expect(formatTimestamp(0)).toBe('00:00:00');
    expect(formatTimestamp(61.5)).toBe('01:01:50');
    expect(formatTimestamp(3599.994)).toBe('59:59:99');
    expect(formatTimestamp(-3)).toBe('00:00:00');
    expect(formatTimestamp(7200)).toBe('120:00:00');
  });

  it('parses mm:ss:cc and refuses anything else', () => {
    expect(parseTimestamp('01:01:50')).toBeCloseTo(61.5, 6);
    expect(parseTimestamp('1:02:03')).toBeCloseTo(62.03, 6);
    expect(parseTimestamp(' 00:10:00 ')).toBe(10);
    for (const bad of ['', '1:2:3', '00:60:00', '00:10', '00:10:5', 'ab:cd:ef', '00:10:00.5', '-1:00:00'])
      expect(parseTimestamp(bad)).toBeNull();
  });

  it('keeps the length limit of 8, longer only for recordings of 100 minutes or more', () => {
    expect(timestampMaxLength(59)).toBe(8);
    expect(timestampMaxLength(5999)).toBe(8);
    expect(timestampMaxLength(7200)).toBe(9);
    expect(parseTimestamp('120:00:00')).toBeNull();
    expect(parseTimestamp('120:00:00', 9)).toBe(7200);
  });

  it('steps by 0.01 s within the bounds', () => {
    expect(stepTimestamp(1.23, 1)).toBe(1.24);
    expect(stepTimestamp(1.23, -1)).toBe(1.22);
    expect(stepTimestamp(0, -1, { min: 0 })).toBe(0);
    expect(stepTimestamp(2.99, 1, { max: 2.99 })).toBe(2.99);
    // No floating-point drift over many steps.
    let t = 0;
    for (let i = 0; i < 1000; i++) t = stepTimestamp(t, 1);
    expect(t).toBe(10);
  });

  it('repeats a held button after 300 ms, 20 ms sooner each time, down to 30 ms', () => {
    const delays = Array.from({ length: 18 }, (_, n) => repeatDelay(n));
    expect(delays.slice(0, 4)).toEqual([300, 280, 260, 240]);
    expect(delays[13]).toBe(40);
    expect(delays.slice(14)).toEqual([30, 30, 30, 30]);
  });

  it("keeps a segment's start below its end", () => {
    const b = segmentBounds(1, 2, 10);
    expect(withinBounds(1.99, b.start)).toBe(true);
    expect(withinBounds(2, b.start)).toBe(false);
    expect(withinBounds(1, b.end)).toBe(false);
    expect(withinBounds(1.01, b.end)).toBe(true);
    expect(withinBounds(10.01, b.end)).toBe(false);
  });

  it('plays a clicked token with 0.5 s either side, within the recording', () => {
    expect(segmentWindow(1000, 1500)).toEqual({ start: 0.5, end: 2 });
    expect(segmentWindow(200, 9900, 10)).toEqual({ start: 0, end: 10 });
  });
});
