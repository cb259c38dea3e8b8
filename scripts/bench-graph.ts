/**
 * The graph page in the browser (issue 17 point 10), part of the browser part of `npm run bench` (alone with
 * BENCH_ONLY=workspace, beside the workspace, or BENCH_ONLY=graph). Measured, never asserted. On the bench's
 * PostgreSQL and Temporal dev server it starts the API (serving the built web app of dist/web) and one
 * worker in this process, sets up two processes through the API, one with 5 nodes and one with 100 (HUP and
 * a chain of SPAN nodes, each joined to the one before), then, in headless Debian Chromium signed in as the
 * admin, times page.goto of /entity/process/{id}/graph until the first graph node is drawn
 * (`[data-testid="graph-node"]` visible), median of 5 for each:
 * - firstNodesMs (5 nodes), firstNodes100Ms (100 nodes).
 */
import crypto from 'node:crypto';
import { performance } from 'node:perf_hooks';
import { chromium } from 'playwright-core';
import { benchCaller, benchProcess, benchSignIn, startBenchApp, type BenchAppOptions } from './lib/bench-app';
import { benchMachine, prepareBrowserBench, signInPage, type BenchMachine } from './lib/bench-browser';

export interface GraphBenchResults {
  skipped?: string;
  firstNodesMs?: number;
  firstNodesRunsMs?: number[];
  firstNodes100Ms?: number;
  firstNodes100RunsMs?: number[];
  /** The drawn node counts of the two processes once settled (5 and 100 when all is well). */
  nodes?: { small: number; large: number };
  opens?: number;
  machine?: BenchMachine;
}

const TARGETS = { firstNodesMs: 400, firstNodes100Ms: 1000 };
const OPENS = 5;

const median = (xs: number[]) => {
  const s = [...xs].sort((a, b) => a - b);
  return s.length % 2 ? s[(s.length - 1) / 2] : (s[s.length / 2 - 1] + s[s.length / 2]) / 2;
};
const round = (x: number, d = 1) => Math.round(x * 10 ** d) / 10 ** d;

export async function benchGraph(o: BenchAppOptions): Promise<GraphBenchResults> {
  const prepared = prepareBrowserBench();
  if ('skipped' in prepared) return prepared;
  const { executablePath } = prepared;

  const app = await startBenchApp(o, {
    queuePrefix: 'bench-graph',
    workerPoolMax: 2,
    env: { NODE_ENV: 'production' },
  });
  const { base } = app;
  const browser = await chromium.launch({
    executablePath,
    args: [
      '--headless',
      '--no-sandbox',
      '--disable-gpu',
      '--disable-quic',
      '--no-first-run',
      '--disable-background-networking',
      '--disable-component-update',
      '--disable-sync',
    ],
  });
  try {
    const admin = await benchSignIn(base, 'admin', 'admin');
    const call = benchCaller(base, admin);
    const suffix = crypto.randomBytes(3).toString('hex');

    /** A process of `count` nodes: its HUP and a chain of SPAN nodes after it. */
    const processOf = async (count: number) => {
      const { processId, nodes: existing } = await benchProcess(call, `Bench graph ${count} ${suffix}`);
      let previous = existing.find((n) => n.activityType === 'HUP')!.id;
      for (let i = existing.length; i < count; i++) {
        const id = (
          await call<{ id: number }>('POST', '/api/nodes', {
            processId,
            name: `Step ${i}`,
            activityType: 'SPAN',
          })
        ).id;
        await call('POST', '/api/edges', { fromId: previous, toId: id });
        previous = id;
      }
      return processId;
    };
    const small = await processOf(5);
    const large = await processOf(100);
    console.log(`graph: processes ${small} (5 nodes) and ${large} (100 nodes)`);

    const context = await browser.newContext({ viewport: { width: 1440, height: 900 } });
    const page = await context.newPage();
    page.setDefaultTimeout(60_000);
    await signInPage(page, base, 'admin', 'admin');

    const firstNodes = async (processId: number) => {
      const runs: number[] = [];
      for (let i = 0; i < OPENS; i++) {
        // From another page each time, so that every open loads the graph page afresh.
        await page.goto(`${base}/entity/process`);
        await page.getByTestId('process-create').waitFor();
        const t0 = performance.now();
        await page.goto(`${base}/entity/process/${processId}/graph`);
        await page.getByTestId('graph-node').first().waitFor({ state: 'visible' });
        runs.push(performance.now() - t0);
      }
      return runs;
    };
    const settled = async (processId: number, expected: number) => {
      await page.goto(`${base}/entity/process/${processId}/graph`);
      const nodes = page.getByTestId('graph-node');
      for (const until = Date.now() + 30_000; Date.now() < until;) {
        if ((await nodes.count()) >= expected) break;
        await page.waitForTimeout(200);
      }
      return nodes.count();
    };
    const smallRuns = await firstNodes(small);
    const largeRuns = await firstNodes(large);
    const counts = { small: await settled(small, 5), large: await settled(large, 100) };
    await context.close();

    return {
      firstNodesMs: round(median(smallRuns)),
      firstNodesRunsMs: smallRuns.map((x) => round(x)),
      firstNodes100Ms: round(median(largeRuns)),
      firstNodes100RunsMs: largeRuns.map((x) => round(x)),
      nodes: counts,
      opens: OPENS,
      machine: benchMachine(browser),
    };
  } finally {
    await browser.close().catch(() => undefined);
    await app.stop();
  }
}

export function printGraphResults(r: GraphBenchResults): void {
  console.log('\ngraph page in the browser (measured, not asserted)');
  if (r.skipped) {
    console.log(`  skipped: ${r.skipped}`);
    return;
  }
  const rows: [string, number | undefined, number][] = [
    ['first nodes, 5 nodes (median of 5)', r.firstNodesMs, TARGETS.firstNodesMs],
    ['first nodes, 100 nodes (median of 5)', r.firstNodes100Ms, TARGETS.firstNodes100Ms],
  ];
  console.log(`  ${'measure'.padEnd(38)} ${'value'.padStart(10)} ${'target'.padStart(10)}`);
  for (const [label, v, target] of rows)
    console.log(
      `  ${label.padEnd(38)} ${`${v} ms`.padStart(10)} ${`< ${target} ms`.padStart(10)}  ${
        v !== undefined && v < target ? 'meets' : 'misses'
      }`,
    );
  console.log(
    `  (runs ${r.firstNodesRunsMs?.join(', ')} / ${r.firstNodes100RunsMs?.join(', ')} ms; drawn ` +
      `${r.nodes?.small} and ${r.nodes?.large} nodes; load ${r.machine?.loadavg.join(' ')})`,
  );
}
