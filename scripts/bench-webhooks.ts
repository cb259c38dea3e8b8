/**
 * The webhooks part of `npm run bench` (issue 32 section 1; scripts/bench.ts starts PostgreSQL and the
 * Temporal dev server and calls benchWebhooks). Measured, never asserted. N txt documents (BENCH_WEBHOOK_DOCUMENTS,
 * 1,000) are uploaded at once into a 3-node flow HUP -> automatic FILE_PARSER (DONE) -> automatic FILE_PARSER
 * (DONE) -> end, with one subscription to every event whose receiver (HTTP on loopback, in this process)
 * answers 204 at once. Figures: whether every stored event arrived, how many arrived twice, and the latency
 * of each event from its change (the body's `timestamp`, the projection's clock) to its arrival (this
 * process's clock: the same machine), median and p99, under `webhooks` (`webhooks.deliveryP99Ms`).
 */
import crypto from 'node:crypto';
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { performance } from 'node:perf_hooks';
import { benchSignIn, startBenchApp, type BenchAppOptions } from './lib/bench-app';
import { stats, type Stats } from './bench-engine';

export interface WebhookBenchResults {
  documents: number;
  events: number;
  received: number;
  duplicates: number;
  missing: number;
  /** From the first upload until every event arrived. */
  seconds: number;
  latency: Stats;
  deliveryP99Ms: number;
}

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

export async function benchWebhooks(
  o: BenchAppOptions & { documents: number },
): Promise<WebhookBenchResults> {
  const arrivals = new Map<string, number>();
  let duplicates = 0;
  const latencies: number[] = [];
  const receiver = http.createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (c: Buffer) => chunks.push(c));
    req.on('end', () => {
      const now = Date.now();
      const id = String(req.headers['webhook-id']);
      if (arrivals.has(id)) duplicates++;
      else {
        arrivals.set(id, now);
        const body = JSON.parse(Buffer.concat(chunks).toString('utf8')) as { timestamp: string };
        latencies.push(now - Date.parse(body.timestamp));
      }
      res.writeHead(204).end();
    });
  });
  await new Promise<void>((r) => receiver.listen(0, '127.0.0.1', r));
  // the receiver is on loopback: the worker's and the API's net guard must admit it
  const before = process.env.OUTBOUND_ALLOWLIST;
  process.env.OUTBOUND_ALLOWLIST = '127.0.0.1';
  const app = await startBenchApp(o, { queuePrefix: 'bench-webhooks', workerPoolMax: 10 });
  const { knex, base } = app;
  try {
    const auth = await benchSignIn(base, 'admin', 'admin');
    const call = async (method: string, path: string, body?: string | FormData, type?: string) => {
      const res = await fetch(`${base}${path}`, {
        method,
        headers: { Authorization: auth, ...(type ? { 'Content-Type': type } : {}) },
        body,
      });
      const text = await res.text();
      if (res.status >= 300) throw new Error(`${method} ${path}: ${res.status} ${text}`);
      return text ? JSON.parse(text) : null;
    };
    const [proc] = await knex('processes')
      .insert({ name: `Bench webhooks ${crypto.randomUUID()}` })
      .returning('id');
    const node = async (activityType: string, autoStepStatus: string, obligatory = false) =>
      (
        await knex('nodes')
          .insert({
            process_id: proc.id,
            name: `${activityType} ${crypto.randomBytes(3).toString('hex')}`,
            activity_type: activityType,
            automatic: true,
            auto_step_status: autoStepStatus,
            obligatory,
          })
          .returning('id')
      )[0].id as number;
    const hup = await node('HUP', 'ACCEPTED', true);
    const parse1 = await node('FILE_PARSER', 'DONE');
    const parse2 = await node('FILE_PARSER', 'DONE');
    await knex('edges').insert([
      { process_id: proc.id, from_id: hup, to_id: parse1 },
      { process_id: proc.id, from_id: parse1, to_id: parse2 },
    ]);
    await call(
      'POST',
      `/api/processes/${proc.id}/webhooks`,
      JSON.stringify({
        url: `http://127.0.0.1:${(receiver.address() as AddressInfo).port}/hook`,
        events: ['document.created', 'step.status_changed', 'document.done', 'step.error'],
      }),
      'application/json',
    );
    const t0 = performance.now();
    const ids = await Promise.all(
      Array.from({ length: o.documents }, async (_, i) => {
        const form = new FormData();
        form.append('nodeId', String(hup));
        form.append(
          'file',
          new Blob([`Webhook bench document ${i}.\n`], { type: 'text/plain' }),
          `wh-${i}.txt`,
        );
        return (await call('POST', '/api/file-upload', form)).id as number;
      }),
    );
    // every document DONE, then every stored event received
    for (;;) {
      const [{ n }] = await knex('documents')
        .where({ process_id: proc.id, status: 'DONE' })
        .count({ n: '*' });
      if (Number(n) === ids.length) break;
      await sleep(200);
    }
    let events = 0;
    for (let waited = 0; waited < 120_000; waited += 200) {
      const rows: { event_id: string }[] = await knex('webhook_events')
        .where('process_id', proc.id)
        .select('event_id');
      events = rows.length;
      if (rows.every((r) => arrivals.has(r.event_id))) break;
      await sleep(200);
    }
    const stored: { event_id: string }[] = await knex('webhook_events')
      .where('process_id', proc.id)
      .select('event_id');
    const missing = stored.filter((r) => !arrivals.has(r.event_id)).length;
    const latency = stats(latencies);
    return {
      documents: ids.length,
      events,
      received: arrivals.size,
      duplicates,
      missing,
      seconds: (performance.now() - t0) / 1000,
      latency,
      deliveryP99Ms: latency.p99,
    };
  } finally {
    await app.stop();
    if (before === undefined) delete process.env.OUTBOUND_ALLOWLIST;
    else process.env.OUTBOUND_ALLOWLIST = before;
    await new Promise<void>((r) => receiver.close(() => r()));
  }
}

export function printWebhookResults(r: WebhookBenchResults): void {
  console.log(
    `\nWebhooks: ${r.documents} documents through HUP -> FILE_PARSER -> FILE_PARSER, one subscriber\n` +
      `${r.events} events stored, ${r.received} received (${r.missing} missing, ${r.duplicates} twice) in ${r.seconds.toFixed(1)} s\n` +
      `change -> delivery: median ${r.latency.median} ms, p99 ${r.latency.p99} ms, max ${r.latency.max} ms`,
  );
}
