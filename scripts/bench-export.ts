/**
 * The `export` part of `npm run bench` (issue 16 section 2, issue 25 finding 1): seeds in SQL two SPAN nodes
 * whose finished steps (each a document of ~200 characters with two tags) number BENCH_EXPORT_ROWS / 10 and
 * BENCH_EXPORT_ROWS (200,000 by default), and a third whose one finished step is a long document (one word
 * repeated, BENCH_EXPORT_LONG_MB megabytes, 50 by default) with BENCH_EXPORT_LONG_TAGS tags (100,000), then
 * downloads `GET api/nodes/{id}/export-step-result` in JSON, CSV and CoNLL (the long document in CoNLL, JSONL
 * and JSON) through the real API over HTTP, reading the body as a stream and dropping it, while sampling the process's RSS every
 * 20 ms and the live heap (heapUsed after a full GC) every 250 ms (API and client share the process; the
 * client holds one chunk at a time). RSS also holds garbage V8 has not collected yet; the live heap is what the
 * export retains, and constant memory shows as the same live-heap peak for ten times the rows. The longest
 * stall of the event loop during each download shows whether the API could answer other requests meanwhile: a
 * 5 ms timer notes how late each of its turns comes, less the time the bench's own forced full GCs took in
 * between (they exist only to read the live heap; a served API never runs them), so the export's own steps and
 * V8's ordinary collections count, the sampler's do not (its longest forced GC is reported beside). Beside the
 * longest stall, the CPU time of the loop's own thread during it: on a loaded machine a stall's wall time also
 * holds the wait for a core, which the CPU time does not. Measured, never asserted.
 */
import { readFileSync } from 'node:fs';
import { performance } from 'node:perf_hooks';
import v8 from 'node:v8';
import vm from 'node:vm';
import { startApi } from '../api/server';
import { createKnex } from '../db/connection';
import { loadConfig } from '../server/config';
import { benchSignIn } from './lib/bench-app';

export interface ExportRun {
  rows: number;
  format: string;
  bytes: number;
  ms: number;
  rssBeforeMb: number;
  peakRssMb: number;
  /** peak RSS during the download minus RSS before it (garbage not yet collected included) */
  growthMb: number;
  /** live heap (heapUsed right after a full GC, every 250 ms) before and at its peak during the download */
  liveHeapBeforeMb: number;
  peakLiveHeapMb: number;
  /** the longest the event loop was held during the download (ms), the bench's forced GCs left out */
  maxLoopDelayMs: number;
  /** the loop thread's CPU time during that longest stall (ms): the wall time less any wait for a core */
  maxLoopDelayCpuMs: number;
  /** the longest of the bench's own forced full GCs during the download (ms): not the export's */
  maxForcedGcMs: number;
}

/**
 * Watches the event loop: a timer every `everyMs` notes how late its turn came. Time spent in `exclude`d work
 * (the bench's forced GCs) between two turns is taken off that lateness, so what is left is what the rest of
 * the process (the export) held the loop for.
 */
/**
 * The CPU time (ms) of the calling thread, the event loop's: Linux's /proc/thread-self/stat (utime + stime in
 * clock ticks of 10 ms); elsewhere the whole process's (all its threads: GC helpers, libuv's pool), an upper
 * bound.
 */
export function loopThreadCpuMs(): number {
  try {
    const stat = readFileSync('/proc/thread-self/stat', 'latin1');
    const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
    // after the name: state is field 3, utime field 14 and stime field 15 of the whole line
    return (Number(fields[11]) + Number(fields[12])) * 10;
  } catch {
    const u = process.cpuUsage();
    return (u.user + u.system) / 1000;
  }
}

export function loopStallWatch(everyMs = 5) {
  const cpuMs = loopThreadCpuMs;
  let last = performance.now();
  let lastCpu = cpuMs();
  let excluded = 0;
  let excludedCpu = 0;
  let maxStall = 0;
  let maxStallCpu = 0;
  let maxExcluded = 0;
  const turn = () => {
    const now = performance.now();
    const cpu = cpuMs();
    const stall = now - last - everyMs - excluded;
    if (stall > maxStall) {
      maxStall = stall;
      // the loop thread's CPU time over that stretch (to the 10 ms tick)
      maxStallCpu = Math.max(0, Math.min(stall, cpu - lastCpu - excludedCpu));
    }
    excluded = excludedCpu = 0;
    last = now;
    lastCpu = cpu;
  };
  const timer = setInterval(turn, everyMs);
  let stopped = false;
  return {
    /** Runs fn, its time not counted as a stall. */
    exclude(fn: () => void) {
      const t = performance.now();
      const c = cpuMs();
      fn();
      const took = performance.now() - t;
      excluded += took;
      excludedCpu += cpuMs() - c;
      maxExcluded = Math.max(maxExcluded, took);
    },
    /**
     * The longest stall (wall-clock ms, excluded work left out), the CPU time the loop's thread spent during it
     * (on a loaded machine the wall time also holds the wait for a core), and the longest excluded run.
     */
    stop() {
      if (!stopped) {
        stopped = true;
        clearInterval(timer);
        turn(); // the stretch since the last turn counts too
      }
      return { maxStallMs: Math.max(0, maxStall), maxStallCpuMs: maxStallCpu, maxExcludedMs: maxExcluded };
    },
  };
}

/** A full GC on demand (the bench runs without --expose-gc). */
export function gcFunction(): () => void {
  v8.setFlagsFromString('--expose-gc');
  return vm.runInNewContext('gc') as () => void;
}

export interface ExportBenchResults {
  rows: number;
  seedMs: number;
  runs: ExportRun[];
  /** the long document: its size (MB of text) and tags; its runs have rows 1 */
  long: { mb: number; tags: number; runs: ExportRun[] };
}

const mb = (bytes: number) => Math.round((bytes / 1048576) * 10) / 10;

async function seedNode(
  knex: ReturnType<typeof createKnex>,
  processId: number,
  uploadId: number,
  rows: number,
) {
  const [node] = await knex('nodes')
    .insert({ process_id: processId, name: `Bench export ${rows}`, activity_type: 'SPAN' })
    .returning('id');
  const [per] = await knex('ner_tag_types')
    .insert({
      node_id: node.id,
      name: 'PER',
      background_color: '#111111',
      text_color: '#ffffff',
      path: 'PER',
    })
    .returning('id');
  const [loc] = await knex('ner_tag_types')
    .insert({
      node_id: node.id,
      name: 'LOC',
      background_color: '#222222',
      text_color: '#ffffff',
      path: 'LOC',
    })
    .returning('id');
  await knex.raw(
    `with docs as (
       insert into documents (process_id, upload_node_id, filename, path, content_hash, mime_type, size,
                              document_type, status)
       select ?::bigint, ?::bigint, 'bench-' || g || '.txt', 'bench/' || g, md5(g::text), 'text/plain', 200, 'TEXTFILE', 'DONE'
         from generate_series(1, ?::int) g
       returning id),
     contents as (
       insert into document_contents (document_id, content)
       select id, 'Jan Kowalski lives in Kraków. ' || repeat('Some ordinary words of a letter, line ' || id || '. ', 4)
         from docs returning document_id),
     steps as (
       insert into steps (document_id, node_id, status, "order", last_modified_date)
       select document_id, ?::bigint, 'DONE', 2, now() - (random() * interval '10 days') from contents
       returning id, document_id)
     insert into ner_tags (document_id, step_id, ner_tag_type_id, type, start_offset, end_offset)
     select document_id, id, ?::bigint, 'SPAN_TAG', 0, 12 from steps
     union all
     select document_id, id, ?::bigint, 'SPAN_TAG', 22, 28 from steps`,
    [processId, uploadId, rows, node.id, per.id, loc.id],
  );
  return Number(node.id);
}

/** One document of `mb` megabytes (`word ` repeated) with `tags` one-word tags spread over it. */
async function seedLongDocument(
  knex: ReturnType<typeof createKnex>,
  processId: number,
  uploadId: number,
  mb: number,
  tags: number,
) {
  const [node] = await knex('nodes')
    .insert({ process_id: processId, name: `Bench export long ${mb} MB`, activity_type: 'SPAN' })
    .returning('id');
  const [word] = await knex('ner_tag_types')
    .insert({
      node_id: node.id,
      name: 'WORD',
      background_color: '#111111',
      text_color: '#ffffff',
      path: 'WORD',
    })
    .returning('id');
  const words = Math.floor((mb * 1_000_000) / 5);
  const every = Math.max(1, Math.floor(words / tags));
  await knex.raw(
    `with doc as (
       insert into documents (process_id, upload_node_id, filename, path, content_hash, mime_type, size,
                              document_type, status)
       values (?::bigint, ?::bigint, 'long.txt', 'bench/long', md5(random()::text), 'text/plain', ?::bigint,
               'TEXTFILE', 'DONE')
       returning id),
     contents as (
       insert into document_contents (document_id, content) select id, repeat('word ', ?::int) from doc
       returning document_id),
     step as (
       insert into steps (document_id, node_id, status, "order", last_modified_date)
       select document_id, ?::bigint, 'DONE', 2, now() from contents returning id, document_id)
     insert into ner_tags (document_id, step_id, ner_tag_type_id, type, start_offset, end_offset)
     select document_id, id, ?::bigint, 'SPAN_TAG', g * 5, g * 5 + 4
       from step, generate_series(0, ?::int - 1, ?::int) g`,
    [processId, uploadId, words * 5, words, node.id, word.id, words, every],
  );
  return Number(node.id);
}

export async function benchExport(o: {
  databaseUrl: string;
  rows: number;
  longMb: number;
  longTags: number;
}): Promise<ExportBenchResults> {
  const knex = createKnex(o.databaseUrl, { min: 0, max: 2 });
  const t0 = performance.now();
  const [proc] = await knex('processes')
    .insert({ name: `Bench export ${Date.now()}` })
    .returning('id');
  const [upload] = await knex('nodes')
    .insert({ process_id: proc.id, name: 'Upload', activity_type: 'HUP' })
    .returning('id');
  const sizes = [Math.max(1, Math.floor(o.rows / 10)), o.rows];
  const nodes: number[] = [];
  for (const rows of sizes) nodes.push(await seedNode(knex, proc.id, upload.id, rows));
  const longNode = await seedLongDocument(knex, proc.id, upload.id, o.longMb, o.longTags);
  await knex.raw('analyze steps; analyze ner_tags; analyze documents; analyze document_contents');
  const seedMs = performance.now() - t0;
  console.log(
    `seeded ${sizes.join(' + ')} finished SPAN steps and a ${o.longMb} MB document in ${(seedMs / 1000).toFixed(1)} s`,
  );
  await knex.destroy();

  const api = await startApi(
    loadConfig({ ...process.env, DATABASE_URL: o.databaseUrl, PORT: '0', TEMPORAL_ADDRESS: '127.0.0.1:1' }),
  );
  const base = `http://127.0.0.1:${api.port}`;
  const runs: ExportRun[] = [];
  const longRuns: ExportRun[] = [];
  const gc = gcFunction();
  try {
    const admin = await benchSignIn(base, 'admin', 'admin');
    const download = (nodeId: number, rows: number, format: string) =>
      measureDownload(base, admin, gc, nodeId, rows, format);
    for (const format of ['json', 'csv', 'conll'])
      for (const [i, nodeId] of nodes.entries()) runs.push(await download(nodeId, sizes[i], format));
    for (const format of ['conll', 'jsonl', 'json']) longRuns.push(await download(longNode, 1, format));
  } finally {
    await api.close();
  }
  return {
    rows: o.rows,
    seedMs: Math.round(seedMs),
    runs,
    long: { mb: o.longMb, tags: o.longTags, runs: longRuns },
  };
}

/** One download of an export, its body read and dropped, with the process's memory and event loop watched. */
export async function measureDownload(
  base: string,
  admin: string,
  gc: () => void,
  nodeId: number,
  rows: number,
  format: string,
): Promise<ExportRun> {
  gc();
  const rssBefore = process.memoryUsage().rss;
  const liveBefore = process.memoryUsage().heapUsed;
  let peak = rssBefore;
  let peakLive = liveBefore;
  const sampler = setInterval(() => {
    peak = Math.max(peak, process.memoryUsage().rss);
  }, 20);
  const loop = loopStallWatch();
  const liveSampler = setInterval(() => {
    loop.exclude(gc);
    peakLive = Math.max(peakLive, process.memoryUsage().heapUsed);
  }, 250);
  const start = performance.now();
  try {
    const res = await fetch(`${base}/api/nodes/${nodeId}/export-step-result?format=${format}`, {
      headers: { Authorization: admin },
    });
    if (res.status !== 200 || !res.body) throw new Error(`export: ${res.status} ${await res.text()}`);
    let bytes = 0;
    const reader = res.body.getReader();
    for (;;) {
      const { done, value } = await reader.read();
      if (done) break;
      bytes += value.byteLength;
    }
    const ms = performance.now() - start;
    peak = Math.max(peak, process.memoryUsage().rss);
    const stalls = loop.stop();
    return {
      rows,
      format,
      bytes,
      ms: Math.round(ms),
      rssBeforeMb: mb(rssBefore),
      peakRssMb: mb(peak),
      growthMb: mb(peak - rssBefore),
      liveHeapBeforeMb: mb(liveBefore),
      peakLiveHeapMb: mb(peakLive),
      maxLoopDelayMs: Math.round(stalls.maxStallMs),
      maxLoopDelayCpuMs: Math.round(stalls.maxStallCpuMs),
      maxForcedGcMs: Math.round(stalls.maxExcludedMs),
    };
  } finally {
    loop.stop();
    clearInterval(sampler);
    clearInterval(liveSampler);
  }
}

export function printExportResults(r: ExportBenchResults): void {
  const line = (label: string, x: ExportRun) =>
    console.log(
      [
        label.padEnd(9),
        x.format.padEnd(7),
        mb(x.bytes).toFixed(1).padStart(6),
        (x.ms / 1000).toFixed(1).padStart(7),
        `${x.rssBeforeMb.toFixed(1).padStart(8)} MB`,
        `${x.peakRssMb.toFixed(1).padStart(6)} MB`,
        `${x.growthMb.toFixed(1).padStart(5)} MB`,
        `${x.liveHeapBeforeMb.toFixed(1)} / ${x.peakLiveHeapMb.toFixed(1)} MB`.padStart(15),
        `${x.maxLoopDelayMs} ms`.padStart(8),
        `${x.maxLoopDelayCpuMs} ms`.padStart(8),
        `${x.maxForcedGcMs} ms`.padStart(8),
      ].join('  '),
    );
  console.log('\nstep-result export (streamed; RSS of the process serving and reading it)');
  console.log(
    'rows       format   MB out  seconds  RSS before   peak RSS     growth   live heap before / peak  loop held  on CPU  forced GC',
  );
  for (const x of r.runs) line(String(x.rows), x);
  for (const x of r.long.runs) line(`${r.long.mb}MB doc`, x);
}
