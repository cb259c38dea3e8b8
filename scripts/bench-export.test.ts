/** The export bench's loop watch: what holds the loop counts, the bench's own excluded work does not. */
import { performance } from 'node:perf_hooks';
import { loopStallWatch, loopThreadCpuMs } from './bench-export';

const busy = (ms: number) => {
  const end = performance.now() + ms;
  while (performance.now() < end);
};
/** Computes until the loop's thread has had `ms` of CPU (however long a loaded machine makes that take). */
const compute = (ms: number) => {
  const end = loopThreadCpuMs() + ms;
  while (loopThreadCpuMs() < end);
};
const turns = (n: number) => new Promise((r) => setTimeout(r, n));

describe('loopStallWatch', () => {
  it('counts a step that holds the loop for its whole length (at least)', async () => {
    const watch = loopStallWatch();
    await turns(20);
    compute(120);
    await turns(20);
    const { maxStallMs, maxStallCpuMs, maxExcludedMs } = watch.stop();
    expect(maxStallMs).toBeGreaterThanOrEqual(110);
    // the loop's own CPU time, to the 10 ms tick; never more than the wall time
    expect(maxStallCpuMs).toBeGreaterThanOrEqual(110);
    expect(maxStallCpuMs).toBeLessThanOrEqual(maxStallMs);
    expect(maxExcludedMs).toBe(0);
  });

  it('tells a stall spent waiting (not on the CPU) from one spent computing', async () => {
    const watch = loopStallWatch();
    await turns(20);
    Atomics.wait(new Int32Array(new SharedArrayBuffer(4)), 0, 0, 150); // holds the loop, off the CPU
    await turns(20);
    const { maxStallMs, maxStallCpuMs } = watch.stop();
    expect(maxStallMs).toBeGreaterThanOrEqual(140);
    expect(maxStallCpuMs).toBeLessThan(maxStallMs / 2);
  });

  it('leaves out the time of excluded work, and reports it apart', async () => {
    const watch = loopStallWatch();
    await turns(20);
    watch.exclude(() => busy(300));
    await turns(20);
    const { maxStallMs, maxExcludedMs } = watch.stop();
    expect(maxExcludedMs).toBeGreaterThanOrEqual(300);
    // what is left is only how late the timer was otherwise: less than the excluded work it came after
    expect(maxStallMs).toBeLessThan(maxExcludedMs);
  });
});
