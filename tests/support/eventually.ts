/** Polling helpers of the tests: what a test waits for, never how long it takes. */

/** Polls until `check` returns a value (not undefined / false), or fails with the last value seen. */
export async function eventually<T>(
  what: string,
  check: () => Promise<T | undefined | false>,
  timeoutMs = 30000,
): Promise<T> {
  const until = Date.now() + timeoutMs;
  let last: unknown;
  for (;;) {
    const v = await check();
    if (v !== undefined && v !== false) return v as T;
    last = v;
    if (Date.now() > until) throw new Error(`timed out waiting for ${what} (last: ${JSON.stringify(last)})`);
    await new Promise((r) => setTimeout(r, 100));
  }
}

/** Polls `read` until `ok` holds for what it returns; returns that value (eventually with a predicate). */
export const eventuallyMatches = <T>(
  read: () => Promise<T>,
  ok: (v: T) => boolean,
  what: string,
  timeoutMs?: number,
): Promise<T> =>
  eventually(
    what,
    async () => {
      const v = await read();
      return ok(v) ? v : undefined;
    },
    timeoutMs,
  );
