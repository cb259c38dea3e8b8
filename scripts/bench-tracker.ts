/**
 * The activity tracker under 1,000 connected clients (issue 15 section 2), part of `npm run bench`
 * (`BENCH_ONLY=tracker` alone): an API process of its own (`tsx api/server.ts`, so its memory is the
 * server's only), BENCH_TRACKER_CLIENTS (1000) websocket clients signed in as `user` in the bench process,
 * and one subscribed administrator. Measured, never asserted:
 * - the API's resident memory and heap (its own `management/jhimetrics`) before and with the clients;
 * - the time to open every connection;
 * - the latency of one report to the administrator's screen (a client sends a page, the admin receives
 *   the broadcast), p50 / p95 / p99 over BENCH_TRACKER_REPORTS (300) reports one after the other;
 * - a burst: every client reports at once, time until the administrator has seen all of them.
 * Figures under `tracker` in .data/bench/results.json.
 */
import { performance } from 'node:perf_hooks';
import WebSocket from 'ws';
import { benchSignIn } from './lib/bench-app';
import { freePort, waitForPort } from './lib/ports';
import { spawnTs } from './lib/prepare';

export interface TrackerBenchResults {
  clients: number;
  connectAllMs: number;
  apiRssBeforeMiB: number;
  apiRssWithClientsMiB: number;
  apiHeapBeforeMiB: number;
  apiHeapWithClientsMiB: number;
  perClientKiB: number;
  reportToAdminMs: { p50: number; p95: number; p99: number; max: number; samples: number };
  burstAllSeenMs: number;
}

const percentile = (sorted: number[], p: number) =>
  sorted[Math.min(sorted.length - 1, Math.floor((p / 100) * sorted.length))];

function open(url: string): Promise<WebSocket> {
  return new Promise((resolve, reject) => {
    const ws = new WebSocket(url);
    ws.once('open', () => resolve(ws));
    ws.once('error', reject);
  });
}

export async function benchTracker(o: {
  databaseUrl: string;
  temporalAddress: string;
  clients: number;
  reports: number;
}): Promise<TrackerBenchResults> {
  const port = await freePort();
  const child = spawnTs(
    'api/server.ts',
    {
      ...process.env,
      DATABASE_URL: o.databaseUrl,
      TEMPORAL_ADDRESS: o.temporalAddress,
      PORT: String(port),
      NODE_ENV: 'production',
      LOG_LEVEL: 'WARN',
    },
    'bench-tracker-api',
  );
  try {
    await waitForPort(port, '127.0.0.1', 120_000);
    const base = `http://127.0.0.1:${port}`;
    const admin = await benchSignIn(base, 'admin', 'admin');
    const user = await benchSignIn(base, 'user', 'user');
    const wsUrl = (auth: string) =>
      `ws://127.0.0.1:${port}/websocket/tracker?access_token=${encodeURIComponent(auth.replace(/^Bearer /, ''))}`;
    const memory = async () => {
      // Settle: let the server collect garbage from the sign-ins (no --expose-gc in the child).
      await new Promise((r) => setTimeout(r, 2000));
      const res = await fetch(`${base}/management/jhimetrics`, { headers: { Authorization: admin } });
      const m = (await res.json()) as {
        process: { residentMemoryBytes: number };
        memory: { heapUsedBytes: number };
      };
      return { rss: m.process.residentMemoryBytes / 1048576, heap: m.memory.heapUsedBytes / 1048576 };
    };
    const before = await memory();

    // The administrator's screen: every activity it receives, by page.
    const adminSocket = await open(wsUrl(admin));
    const waiting = new Map<string, () => void>();
    adminSocket.on('message', (data) => {
      const msg = JSON.parse(String(data)) as { type: string; activity?: { page: string } };
      if (msg.type === 'activity' && msg.activity) waiting.get(msg.activity.page)?.();
    });
    adminSocket.send(JSON.stringify({ type: 'subscribe' }));
    const seen = (page: string) =>
      new Promise<void>((resolve) => {
        waiting.set(page, () => {
          waiting.delete(page);
          resolve();
        });
      });

    const t0 = performance.now();
    const sockets: WebSocket[] = [];
    for (let i = 0; i < o.clients; i += 50)
      sockets.push(
        ...(await Promise.all(Array.from({ length: Math.min(50, o.clients - i) }, () => open(wsUrl(user))))),
      );
    const connectAllMs = performance.now() - t0;
    for (const [i, s] of sockets.entries()) s.send(JSON.stringify({ type: 'activity', page: `/start/${i}` }));
    const withClients = await memory();

    const latencies: number[] = [];
    for (let r = 0; r < o.reports; r++) {
      const page = `/report/${r}`;
      const arrived = seen(page);
      const start = performance.now();
      sockets[r % sockets.length].send(JSON.stringify({ type: 'activity', page }));
      await arrived;
      latencies.push(performance.now() - start);
    }
    latencies.sort((a, b) => a - b);

    const burstPages = sockets.map((_, i) => `/burst/${i}`);
    const all = Promise.all(burstPages.map(seen));
    const b0 = performance.now();
    sockets.forEach((s, i) => s.send(JSON.stringify({ type: 'activity', page: burstPages[i] })));
    await all;
    const burstAllSeenMs = performance.now() - b0;

    for (const s of sockets) s.terminate();
    adminSocket.terminate();
    const round = (n: number) => Math.round(n * 10) / 10;
    return {
      clients: o.clients,
      connectAllMs: round(connectAllMs),
      apiRssBeforeMiB: round(before.rss),
      apiRssWithClientsMiB: round(withClients.rss),
      apiHeapBeforeMiB: round(before.heap),
      apiHeapWithClientsMiB: round(withClients.heap),
      perClientKiB: round(((withClients.rss - before.rss) * 1024) / o.clients),
      reportToAdminMs: {
        p50: round(percentile(latencies, 50)),
        p95: round(percentile(latencies, 95)),
        p99: round(percentile(latencies, 99)),
        max: round(latencies[latencies.length - 1]),
        samples: latencies.length,
      },
      burstAllSeenMs: round(burstAllSeenMs),
    };
  } finally {
    await new Promise<void>((resolve) => {
      if (child.exitCode !== null) return resolve();
      child.once('exit', () => resolve());
      child.kill('SIGTERM');
      setTimeout(() => child.kill('SIGKILL'), 10_000).unref();
    });
  }
}

export function printTrackerResults(r: TrackerBenchResults): void {
  console.log(`\nactivity tracker with ${r.clients} websocket clients`);
  console.log(`  connect all:             ${r.connectAllMs} ms`);
  console.log(
    `  API resident memory:     ${r.apiRssBeforeMiB} -> ${r.apiRssWithClientsMiB} MiB (${r.perClientKiB} KiB per client)`,
  );
  console.log(`  API heap used:           ${r.apiHeapBeforeMiB} -> ${r.apiHeapWithClientsMiB} MiB`);
  console.log(
    `  report to admin:         p50 ${r.reportToAdminMs.p50} ms, p95 ${r.reportToAdminMs.p95} ms, p99 ${r.reportToAdminMs.p99} ms (${r.reportToAdminMs.samples})`,
  );
  console.log(`  burst, all ${r.clients} seen:    ${r.burstAllSeenMs} ms`);
}
