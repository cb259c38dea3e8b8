import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { defaultParserConcurrency, programSlots, Semaphore, setParserConcurrency } from './concurrency';
import { run } from './run';
import type { Work } from './work';

const tick = () => new Promise((r) => setImmediate(r));

describe('Semaphore', () => {
  it('lets `limit` holders in and serves the waiters first come, first served', async () => {
    const s = new Semaphore(2);
    const order: string[] = [];
    const holders = ['a', 'b', 'c', 'd'].map((id) =>
      s.acquire().then((release) => (order.push(id), release)),
    );
    await tick();
    expect(order).toEqual(['a', 'b']);
    expect([s.running, s.queued]).toEqual([2, 2]);
    (await holders[1])();
    await tick();
    expect(order).toEqual(['a', 'b', 'c']);
    (await holders[0])();
    await tick();
    expect(order).toEqual(['a', 'b', 'c', 'd']);
  });

  it('releases once however often release is called, and frees the slot when the work throws', async () => {
    const s = new Semaphore(1);
    const release = await s.acquire();
    release();
    release();
    expect(s.running).toBe(0);
    await expect(s.use(() => Promise.reject(new Error('boom')))).rejects.toThrow('boom');
    expect(s.running).toBe(0);
  });

  it('drops a waiter whose signal aborts, with the signal reason', async () => {
    const s = new Semaphore(1);
    const release = await s.acquire();
    const ctl = new AbortController();
    const waiting = s.acquire(ctl.signal);
    ctl.abort(new Error('cancelled'));
    await expect(waiting).rejects.toThrow('cancelled');
    expect(s.queued).toBe(0);
    release();
    expect(s.running).toBe(0);
  });

  it('starts waiters when the limit grows, and refuses a limit below 1', async () => {
    const s = new Semaphore(1);
    await s.acquire();
    let second = false;
    void s.acquire().then(() => (second = true));
    await tick();
    expect(second).toBe(false);
    s.resize(2);
    await tick();
    expect(second).toBe(true);
    expect(() => s.resize(0)).toThrow(/limit >= 1/);
  });
});

describe('parser program caps', () => {
  it('default to half the cores for LibreOffice and the cores for OCR and speech, at least 1', () => {
    expect(defaultParserConcurrency(8)).toEqual({ office: 4, ocr: 8, asr: 8 });
    expect(defaultParserConcurrency(1)).toEqual({ office: 1, ocr: 1, asr: 1 });
    expect(defaultParserConcurrency(0)).toEqual({ office: 1, ocr: 1, asr: 1 });
  });

  it('with a cap of 1, two office runs started together never overlap', async () => {
    setParserConcurrency({ office: 1 });
    const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'caps-'));
    const log = path.join(dir, 'log');
    const work: Work = { dir, signal: new AbortController().signal, heartbeat: () => {} };
    // Each run writes "start <id>", waits, then "end <id>": without the cap the two starts come first.
    const script = (id: string) => `echo start ${id} >> ${log}; sleep 0.3; echo end ${id} >> ${log}`;
    try {
      await Promise.all(
        ['a', 'b'].map((id) => run(work, 'sh', ['-c', script(id)], { timeoutMs: 30_000, slot: 'office' })),
      );
      expect(fs.readFileSync(log, 'utf8').trim().split('\n')).toEqual([
        'start a',
        'end a',
        'start b',
        'end b',
      ]);
      expect(programSlots('office').running).toBe(0);
    } finally {
      fs.rmSync(dir, { recursive: true, force: true });
      setParserConcurrency(defaultParserConcurrency());
    }
  });
});
