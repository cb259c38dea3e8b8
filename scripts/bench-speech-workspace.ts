/**
 * The speech workspace's figures of the hours-of-audio bench (issue 14 section 5; scripts/bench-speech.ts runs
 * them in its FIGURES over the same context: the 2-hour recording, 1,500 utterances and 20,000 tokens, the
 * Proofread step started by the admin, so the workspace opens editable in the EDITING view). Headless
 * Chromium, 1440x900, a fresh browser context per open (nothing cached):
 * - openMs: page.goto of the workspace until it is interactive: editable, the rows of the first window drawn
 *   and the player ready with play enabled (median of 5; where the time goes beside it, and the API
 *   requests of the last open with their start and end);
 * - longestPlaybackTaskMs: the longest 'longtask' entry (PerformanceObserver) during 10 s of playback from
 *   the start with the word highlight moving (the media element has to advance: how far, and how many words
 *   were highlighted, are reported beside it), and while scrolling the transcript top to bottom a viewport
 *   at a time, two animation frames per step; both reported, the figure is the larger (0 when none);
 * - tokenEditP95Ms: 30 inline edits of the first words (double-click, type, Enter), each timed in the page
 *   from the Enter keydown until the PUT is answered and the new word is in the DOM with a frame painted
 *   after it (p95; the median and the median of the PUT's own time beside it); the next edit waits for the
 *   workspace to be done with the write (`data-busy` false: a refetch of the transcript, if any, drawn).
 * BENCH_SPEECH_PROFILE=1: a sixth open (not counted), the playback, the scroll and the edits run under Chromium's CPU
 * profiler (see `profiled`); BENCH_SPEECH_TRACE=1 (or =invalidations): the same under a trace of the
 * renderer's main thread, summed by kind of work (`traced`). Diagnoses, whose figures are not ones to publish.
 */
import fs from 'node:fs';
import path from 'node:path';
import { performance } from 'node:perf_hooks';
import type { Page } from 'playwright-core';
import { signedInContext } from './lib/bench-browser';
import type { SpeechBenchContext, SpeechBenchResults } from './bench-speech';

type Figure = (c: SpeechBenchContext) => Promise<Partial<SpeechBenchResults>>;

const round = (x: number, d = 0) => Math.round(x * 10 ** d) / 10 ** d;
const median = (xs: number[]) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)];
const p95 = (xs: number[]) => [...xs].sort((a, b) => a - b)[Math.ceil(xs.length * 0.95) - 1];

const workspaceUrl = (c: SpeechBenchContext) =>
  `${c.base}/entity/process/${c.processId}/document/${c.documentId}`;

/** Editable, the first rows drawn, the player ready with play enabled. */
async function interactive(page: Page): Promise<void> {
  await page
    .locator('[data-testid="speech-workspace"][data-editable="true"] [data-testid="token"]')
    .first()
    .waitFor();
  await page.locator('[data-testid="audio-player"][data-ready="true"]').waitFor();
  await page.locator('[data-testid="audio-player-play"]:enabled').waitFor();
}

async function openWorkspace(c: SpeechBenchContext, profile?: string) {
  const opened = await signedInContext(c.browser, c.base, c.admin.login, c.admin.password);
  const t0 = performance.now();
  const open = async () => {
    await opened.page.goto(workspaceUrl(c));
    await interactive(opened.page);
  };
  await (profile ? profiled(opened.page, profile, open) : open());
  return { ...opened, ms: performance.now() - t0 };
}

/** Starts collecting 'longtask' entries in the page (read with takeLongTasks). */
const watchLongTasks = (page: Page) =>
  page.evaluate(() => {
    const g = globalThis as any;
    g.__longTasks = [] as number[];
    g.__longTaskObserver?.disconnect();
    g.__longTaskObserver = new g.PerformanceObserver((list: any) => {
      for (const e of list.getEntries()) g.__longTasks.push(e.duration);
    });
    g.__longTaskObserver.observe({ type: 'longtask' });
  });

const takeLongTasks = (page: Page) =>
  page.evaluate(async () => {
    const g = globalThis as any;
    await new Promise((r) => setTimeout(r, 300));
    for (const e of g.__longTaskObserver.takeRecords()) g.__longTasks.push(e.duration);
    g.__longTaskObserver.disconnect();
    return g.__longTasks as number[];
  });

/** The player's shown time (mm:ss:cc) in seconds. */
async function playerSeconds(page: Page): Promise<number> {
  const text = (await page.getByTestId('audio-player-time').textContent()) ?? '';
  const [mm, ss, cc] = text.split('/')[0].trim().split(':').map(Number);
  return mm * 60 + ss + cc / 100;
}

interface ProfileNode {
  id: number;
  callFrame: { functionName: string; url: string; lineNumber: number };
}

/**
 * With BENCH_SPEECH_PROFILE set: `run` under Chromium's CPU profiler, the profile written to
 * .data/bench/speech-<name>.cpuprofile (open it in the DevTools Performance panel) and the functions with
 * the most self time printed. Otherwise just `run`.
 */
async function profiled<T>(page: Page, name: string, run: () => Promise<T>): Promise<T> {
  if (process.env.BENCH_SPEECH_TRACE) return traced(page, name, run);
  if (!process.env.BENCH_SPEECH_PROFILE) return run();
  const cdp = await page.context().newCDPSession(page);
  await cdp.send('Profiler.enable');
  await cdp.send('Profiler.setSamplingInterval', { interval: 200 });
  await cdp.send('Profiler.start');
  const out = await run();
  const { profile } = (await cdp.send('Profiler.stop')) as unknown as {
    profile: { nodes: ProfileNode[]; samples: number[]; timeDeltas: number[] };
  };
  const file = path.join('.data', 'bench', `speech-${name}.cpuprofile`);
  fs.mkdirSync(path.dirname(file), { recursive: true });
  fs.writeFileSync(file, JSON.stringify(profile));
  const byNode = new Map(profile.nodes.map((n) => [n.id, n]));
  const self = new Map<string, number>();
  profile.samples.forEach((id, i) => {
    const f = byNode.get(id)!.callFrame;
    const key = `${f.functionName || '(anonymous)'} ${f.url.split('/').pop()}:${f.lineNumber + 1}`;
    self.set(key, (self.get(key) ?? 0) + (profile.timeDeltas[i] ?? 0) / 1000);
  });
  const top = [...self].sort((a, b) => b[1] - a[1]).slice(0, 15);
  console.log(`speech profile ${name} (${file}), self ms:`);
  for (const [k, ms] of top) console.log(`  ${round(ms).toString().padStart(6)}  ${k}`);
  return out;
}

interface TraceEvent {
  name: string;
  ph: string;
  ts: number;
  dur?: number;
  tid: number;
  args?: { name?: string; elementCount?: number; data?: Record<string, unknown> };
}

/**
 * With BENCH_SPEECH_TRACE set (instead of BENCH_SPEECH_PROFILE): `run` under a Chromium trace of the
 * renderer's main thread (the DevTools timeline categories), printing the time per kind of work (style,
 * layout, paint, script...) and what the five longest tasks were made of. A diagnosis: its figures are not
 * ones to publish.
 */
async function traced<T>(page: Page, name: string, run: () => Promise<T>): Promise<T> {
  const cdp = await page.context().newCDPSession(page);
  const events: TraceEvent[] = [];
  cdp.on('Tracing.dataCollected', (e) => {
    events.push(...(e.value as unknown as TraceEvent[]));
  });
  const complete = new Promise<void>((resolve) => cdp.once('Tracing.tracingComplete', () => resolve()));
  await cdp.send('Tracing.start', {
    categories:
      'devtools.timeline,disabled-by-default-devtools.timeline,blink.user_timing' +
      (process.env.BENCH_SPEECH_TRACE === 'invalidations'
        ? ',disabled-by-default-devtools.timeline.invalidationTracking'
        : ''),
    transferMode: 'ReportEvents',
  } as never);
  const out = await run();
  await cdp.send('Tracing.end');
  await complete;
  const main = events.find((e) => e.name === 'thread_name' && e.args?.name === 'CrRendererMain')?.tid;
  const onMain = events.filter((e) => e.tid === main && e.ph === 'X' && e.dur !== undefined);
  const self = new Map<string, number>();
  for (const e of onMain) if (e.name !== 'RunTask') self.set(e.name, (self.get(e.name) ?? 0) + e.dur! / 1000);
  console.log(
    `speech trace ${name}: main-thread time by event (ms, nested events counted in their parents too)`,
  );
  for (const [k, ms] of [...self].sort((a, b) => b[1] - a[1]).slice(0, 15))
    console.log(`  ${round(ms).toString().padStart(6)}  ${k}`);
  const tasks = onMain.filter((e) => e.name === 'RunTask').sort((a, b) => b.dur! - a.dur!);
  for (const task of tasks.slice(0, 5)) {
    const inside = new Map<string, number>();
    for (const e of onMain)
      if (e !== task && e.ts >= task.ts && e.ts + e.dur! <= task.ts + task.dur!)
        inside.set(e.name, (inside.get(e.name) ?? 0) + e.dur! / 1000);
    const parts = [...inside]
      .sort((a, b) => b[1] - a[1])
      .slice(0, 6)
      .map(([k, ms]) => `${k} ${round(ms)}`);
    console.log(`  task ${round(task.dur! / 1000)} ms: ${parts.join(', ')}`);
  }
  const counts = onMain
    .filter((e) => e.name === 'UpdateLayoutTree')
    .map((e) => e.args?.elementCount ?? 0)
    .sort((a, b) => b - a);
  console.log(
    `  style recalculations: ${counts.length}, elements ${counts.reduce((a, b) => a + b, 0)}, largest ${counts.slice(0, 8).join(' ')}`,
  );
  // The largest style recalculations: how many elements, and (with BENCH_SPEECH_TRACE=invalidations) why.
  const recalcs = onMain.filter((e) => e.name === 'UpdateLayoutTree').sort((a, b) => b.dur! - a.dur!);
  for (const r of recalcs.slice(0, 3)) {
    const why = new Map<string, number>();
    for (const e of events)
      if (e.tid === main && e.name.includes('Invalidation') && e.ts <= r.ts && e.ts > r.ts - 50_000) {
        const d = (e.args?.data ?? {}) as {
          reason?: string;
          nodeName?: string;
          invalidatedSelectorId?: string;
        };
        const key = `${e.name}: ${d.reason ?? d.invalidatedSelectorId ?? ''} ${d.nodeName ?? ''}`;
        why.set(key, (why.get(key) ?? 0) + 1);
      }
    const top = [...why].sort((a, b) => b[1] - a[1]).slice(0, 8);
    console.log(
      `  style ${round(r.dur! / 1000)} ms, ${JSON.stringify(r.args)}: ${top.map(([k, n]) => `${k} x${n}`).join('; ')}`,
    );
  }
  return out;
}

/** The workspace opened until interactive (median of 5). */
export const measureOpen: Figure = async (c) => {
  const runs: number[] = [];
  const marks: Record<string, number>[] = [];
  let requests: { path: string; startMs: number; endMs: number }[] = [];
  // A sixth, profiled open (not counted) with BENCH_SPEECH_PROFILE.
  for (let i = 0; i < (process.env.BENCH_SPEECH_PROFILE || process.env.BENCH_SPEECH_TRACE ? 6 : 5); i++) {
    const { context, page, ms } = await openWorkspace(c, i === 5 ? 'open' : undefined);
    try {
      if (i === 5) continue;
      runs.push(ms);
      marks.push(
        await page.evaluate(() => {
          const g = globalThis as any;
          const nav = g.performance.getEntriesByType('navigation')[0];
          const res = g.performance.getEntriesByType('resource') as any[];
          const find = (part: string) => res.find((e) => e.name.includes(part));
          const utterances = find('/utterances');
          const peaks = find('/peaks');
          return {
            domContentLoaded: nav.domContentLoadedEventEnd,
            utterancesRequested: utterances ? utterances.startTime : -1,
            utterancesReceived: utterances ? utterances.responseEnd : -1,
            peaksRequested: peaks ? peaks.startTime : -1,
            peaksReceived: peaks ? peaks.responseEnd : -1,
            interactive: g.performance.now(),
          };
        }),
      );
      requests = await page.evaluate(() =>
        ((globalThis as any).performance.getEntriesByType('resource') as any[])
          .filter((e) => e.initiatorType === 'fetch' || e.initiatorType === 'xmlhttprequest')
          .map((e) => ({
            path: new URL(e.name).pathname.replace(/\/\d+/g, '/{id}'),
            startMs: Math.round(e.startTime),
            endMs: Math.round(e.responseEnd),
          })),
      );
    } finally {
      await context.close();
    }
  }
  const breakdown: Record<string, number> = {};
  for (const k of Object.keys(marks[0])) breakdown[k] = round(median(marks.map((m) => m[k])));
  return {
    openMs: round(median(runs)),
    openRunsMs: runs.map((x) => round(x)),
    openBreakdownMs: breakdown,
    openRequests: requests,
  };
};

/** Long tasks during 10 s of playback with the highlight moving, then while scrolling top to bottom. */
export const measurePlaybackAndScroll: Figure = async (c) => {
  const { context, page } = await openWorkspace(c);
  try {
    await watchLongTasks(page);
    const from = await playerSeconds(page);
    const words = await profiled(page, 'playback', async () => {
      await page.getByTestId('audio-player-play').click();
      await page.locator('.sp-token-playing').first().waitFor();
      const highlighted = page.evaluate(async () => {
        const g = globalThis as any;
        const ids = new Set<string>();
        for (let i = 0; i < 40; i++) {
          const el = g.document.querySelector('.sp-token-playing');
          if (el) ids.add(el.dataset.tokenId);
          await new Promise((r) => setTimeout(r, 250));
        }
        return ids.size;
      });
      const words = await highlighted;
      await page.getByTestId('audio-player-play').click();
      await page.locator('[data-testid="audio-player"][data-playing="false"]').waitFor();
      return words;
    });
    const advancedS = (await playerSeconds(page)) - from;
    const playback = await takeLongTasks(page);
    if (advancedS < 5 || words < 5)
      throw new Error(`playback did not advance: ${advancedS} s, ${words} words highlighted`);

    await watchLongTasks(page);
    const scrolled = await profiled(page, 'scroll', () =>
      page.evaluate(async () => {
        const g = globalThis as any;
        const scroller = g.document.querySelector('[data-testid="utterances"]');
        const frame = () => new Promise((r) => g.requestAnimationFrame(() => g.requestAnimationFrame(r)));
        scroller.scrollTop = 0;
        await frame();
        let steps = 0;
        // Windows drawn on the way change the height: on until the bottom is reached.
        while (scroller.scrollTop + scroller.clientHeight < scroller.scrollHeight - 1 && steps < 5000) {
          scroller.scrollTop += scroller.clientHeight;
          steps++;
          await frame();
        }
        return { steps, px: scroller.scrollTop };
      }),
    );
    const scroll = await takeLongTasks(page);
    const playbackMs = round(Math.max(0, ...playback));
    const scrollMs = round(Math.max(0, ...scroll));
    return {
      longestPlaybackTaskMs: Math.max(playbackMs, scrollMs),
      playback: {
        longestTaskMs: playbackMs,
        longTasks: playback.length,
        advancedS: round(advancedS, 1),
        wordsHighlighted: words,
      },
      scroll: { longestTaskMs: scrollMs, longTasks: scroll.length, steps: scrolled.steps, px: scrolled.px },
    };
  } finally {
    await context.close();
  }
};

/** 30 inline token edits, Enter to the saved word shown (p95). */
export const measureTokenEdits: Figure = async (c) => {
  const { context, page } = await openWorkspace(c);
  try {
    const tokens = await page
      .locator('[data-testid="token"]')
      .evaluateAll((els) =>
        els
          .slice(0, 30)
          .map((e) => ({ id: (e as any).dataset.tokenId as string, value: e.textContent ?? '' })),
      );
    const runs: number[] = [];
    const puts: number[] = [];
    await profiled(page, 'edits', async () => {
      for (const [i, token] of tokens.entries()) {
        const value = `${token.value}${'abcdefghij'[i % 10]}`;
        await page.locator(`[data-token-id="${token.id}"]`).dblclick();
        const input = page.getByTestId('token-editor-input');
        await input.fill(value);
        await page.evaluate(
          ({ id, value }) => {
            const g = globalThis as any;
            // The buffer holds 250 entries: emptied before each edit.
            g.performance.clearResourceTimings();
            const t = { enter: -1, shown: -1 };
            const put = () =>
              (g.performance.getEntriesByType('resource') as any[]).find(
                (e) => e.name.includes('/utterance-tokens') && e.startTime >= t.enter,
              );
            g.addEventListener(
              'keydown',
              (e: any) => {
                if (e.key === 'Enter') t.enter = g.performance.now();
              },
              { capture: true, once: true },
            );
            g.__edit = new Promise((resolve) => {
              const check = () => {
                const el = g.document.querySelector(`[data-testid="token"][data-token-id="${id}"]`);
                if (t.enter < 0 || t.shown >= 0 || !el || el.textContent !== value) return;
                g.requestAnimationFrame(() => {
                  t.shown = g.performance.now();
                  const answered = put();
                  observer.disconnect();
                  resolve({
                    ms: Math.max(t.shown, answered ? answered.responseEnd : t.shown) - t.enter,
                    putMs: answered ? answered.responseEnd - answered.startTime : -1,
                  });
                });
              };
              const observer = new g.MutationObserver(check);
              observer.observe(g.document.body, { subtree: true, childList: true, characterData: true });
            });
            // The edit is over once the workspace is no longer busy with the write (a refetch of the
            // transcript, if any, answered and drawn).
            g.__idle = new Promise((resolve) => {
              const poll = () => {
                const idle = g.document.querySelector('[data-testid="speech-workspace"][data-busy="false"]');
                if (t.shown >= 0 && idle) g.requestAnimationFrame(() => g.requestAnimationFrame(resolve));
                else setTimeout(poll, 20);
              };
              poll();
            });
          },
          { id: token.id, value },
        );
        await input.press('Enter');
        const run = await page.evaluate(
          () => (globalThis as any).__edit as Promise<{ ms: number; putMs: number }>,
        );
        runs.push(run.ms);
        puts.push(run.putMs);
        await page.evaluate(() => (globalThis as any).__idle as Promise<void>);
      }
    });
    return {
      tokenEditP95Ms: round(p95(runs)),
      tokenEditMedianMs: round(median(runs)),
      tokenEditRunsMs: runs.map((x) => round(x)),
      tokenEditPutMedianMs: round(median(puts)),
      tokenEditPutRunsMs: puts.map((x) => round(x)),
    };
  } finally {
    await context.close();
  }
};
