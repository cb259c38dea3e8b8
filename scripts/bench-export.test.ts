/** The export bench's loop watch: what holds the loop counts, the bench's own excluded work does not. */
import { loopStallWatch } from './bench-export';

const busy = (ms: number) => {
  const end = Date.now() + ms;
  while (Date.now() < end);
};
const turns = (n: number) => new Promise((r) => setTimeout(r, n));

describe('loopStallWatch', () => {
  it('counts a step that holds the loop for its whole length (at least)', async () => {
    const watch = loopStallWatch();
    await turns(20);
    busy(120);
    await turns(20);
    const { maxStallMs, maxExcludedMs } = watch.stop();
    expect(maxStallMs).toBeGreaterThanOrEqual(110);
    expect(maxExcludedMs).toBe(0);
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
