import {
  effectiveLevel,
  getLogger,
  listLoggers,
  sdkLogFunction,
  setLogLevel,
  setLogSink,
  withRequestContext,
} from './logger';

describe('structured logs', () => {
  const lines: string[] = [];
  let restore: ReturnType<typeof setLogSink>;
  beforeEach(() => {
    lines.length = 0;
    restore = setLogSink((line) => lines.push(line));
  });
  afterEach(() => {
    setLogSink(restore);
    setLogLevel('unit', null);
    setLogLevel('unit.child', null);
  });

  it('writes one JSON object per entry with the request id of its context', async () => {
    const log = getLogger('unit.child');
    setLogLevel('unit', 'DEBUG');
    await withRequestContext('req-1', async () => {
      await Promise.resolve();
      log.debug('inside', { n: 1, error: new Error('boom') });
    });
    log.trace('too low');
    expect(lines).toHaveLength(1);
    const entry = JSON.parse(lines[0]);
    expect(entry).toMatchObject({
      level: 'DEBUG',
      logger: 'unit.child',
      message: 'inside',
      requestId: 'req-1',
      n: 1,
    });
    expect(entry.error).toMatchObject({ type: 'Error', message: 'boom' });
  });

  it('takes the nearest configured ancestor level and lists the loggers', () => {
    getLogger('unit.child');
    setLogLevel('unit', 'ERROR');
    expect(effectiveLevel('unit.child')).toBe('ERROR');
    setLogLevel('unit.child', 'TRACE');
    expect(listLoggers()['unit.child']).toEqual({ configuredLevel: 'TRACE', effectiveLevel: 'TRACE' });
    setLogLevel('unit', 'OFF');
    getLogger('unit').error('silenced');
    expect(lines).toHaveLength(0);
  });

  it("writes the Temporal SDK's entries as the same JSON lines, at the SDK's time, bigints as strings", () => {
    const { DefaultLogger } = jest.requireActual('@temporalio/worker') as typeof import('@temporalio/worker');
    const sdk = new DefaultLogger('INFO', sdkLogFunction('unit.sdk'));
    sdk.warn('Worker state changed', { state: 'RUNNING', taskQueue: 'q', attempt: 3n });
    sdk.debug('below the SDK level');
    const at = Date.UTC(2026, 0, 2, 3, 4, 5);
    sdkLogFunction('unit.sdk')({ level: 'ERROR', message: 'core', timestampNanos: BigInt(at) * 1_000_000n });
    expect(lines).toHaveLength(2);
    const [warn, error] = lines.map((l) => JSON.parse(l));
    expect(warn).toMatchObject({
      level: 'WARN',
      logger: 'unit.sdk',
      message: 'Worker state changed',
      state: 'RUNNING',
      taskQueue: 'q',
      attempt: '3',
    });
    expect(Number.isNaN(Date.parse(warn.time))).toBe(false);
    expect(error).toMatchObject({ level: 'ERROR', message: 'core', time: '2026-01-02T03:04:05.000Z' });
  });
});
