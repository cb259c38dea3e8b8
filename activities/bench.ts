/** The no-op activity of `npm run bench` (workflows/bench.ts): an activity round trip and nothing else. */
export function createBenchActivities() {
  return {
    async benchNoop(i: number): Promise<number> {
      return i;
    },
  };
}
