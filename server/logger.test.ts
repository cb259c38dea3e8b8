import {
  effectiveLevel,
  getLogger,
  listLoggers,
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
});
