/**
 * The `statistics` part of `npm run bench` (issue 16 section 1): seeds a process with BENCH_STAT_DOCUMENTS
 * documents (1,000,000 by default) spread over the last year in SQL (generate_series), through the real
 * tables, so the triggers of migrations 023 and 025 build the rollups as production would: per document three
 * finished steps (upload, SPAN, CLF), two NER tags made by one of 50 users, a classifier tag on every second
 * document, and a work stretch (1 to 21 minutes) on every fifth. Then times `POST api/statistics` through the
 * real API over HTTP, each type over the last year and the last month (BENCH_STAT_RUNS, 100 by default).
 * Measured, never asserted.
 */
import { performance } from 'node:perf_hooks';
import { startApi } from '../api/server';
import { createKnex } from '../db/connection';
import { loadConfig } from '../server/config';
import { benchSignIn } from './lib/bench-app';
import { percentile } from './bench-lists';

export interface StatisticsQueryStats {
  n: number;
  p50: number;
  p99: number;
  /** size of the answer's body */
  bytes: number;
}

export interface StatisticsBenchResults {
  documents: number;
  users: number;
  seedMs: number;
  /** rows of the sources and the rollups after seeding */
  rows: Record<string, number>;
  queries: Record<string, StatisticsQueryStats>;
}

const USERS = 50;
const BATCH = 100_000;

export async function seedStatistics(
  knex: ReturnType<typeof createKnex>,
  documents: number,
  log: (line: string) => void,
) {
  const [proc] = await knex('processes')
    .insert({ name: `Bench statistics ${Date.now()}` })
    .returning('id');
  const processId = Number(proc.id);
  const nodeIds: number[] = [];
  for (const [i, type] of ['HUP', 'SPAN', 'CLF'].entries()) {
    const [row] = await knex('nodes')
      .insert({ process_id: processId, name: `${type} ${i + 1}`, activity_type: type, automatic: i === 0 })
      .returning('id');
    nodeIds.push(Number(row.id));
  }
  const [hup, span, clf] = nodeIds;
  const [tagType] = await knex('ner_tag_types')
    .insert({ node_id: span, name: 'Person', background_color: '#ffcc00', text_color: '#000000' })
    .returning('id');
  const [clfType] = await knex('classifier_types')
    .insert({ node_id: clf, name: 'Urgent', background_color: '#cc0000' })
    .returning('id');
  const hash = (await knex('users').where({ login: 'user' }).first('password_hash'))?.password_hash ?? 'x';
  const users: { id: string }[] = (
    await knex.raw(
      `insert into users (login, email, password_hash, first_name, last_name, activated)
       select 'stats' || ? || '-' || g, 'stats' || ? || '-' || g || '@example.org', ?, 'Anna' || g, 'Nowak' || g, true
         from generate_series(1, ?) g order by g returning id`,
      [processId, processId, hash, USERS],
    )
  ).rows;
  const userIds = `{${users.map((u) => u.id).join(',')}}`;
  // document g finishes its steps on day g % 365 before today, at a time of day spread by g
  const T = `(date_trunc('day', now()) - (x.g % 365) * interval '1 day' + ((x.g * 7919) % 86400) * interval '1 second')`;
  for (let from = 1; from <= documents; from += BATCH) {
    const to = Math.min(documents, from + BATCH - 1);
    const t0 = performance.now();
    await knex.raw(
      `insert into documents (process_id, upload_node_id, filename, path, content_hash, mime_type, size,
                              document_type, status, created_date)
       select ?, ?, 'stat-' || g || '.txt', 'stats/' || g, md5(g::text), 'text/plain', 100, 'TEXTFILE', 'DONE',
              date_trunc('day', now()) - (g % 365) * interval '1 day'
         from generate_series(?::int, ?::int) g order by g`,
      [processId, hup, from, to],
    );
    const X = `with x as (
      select d.id, row_number() over (order by d.id) + ? - 1 as g from documents d
       where d.process_id = ? and d.id > coalesce((select max(document_id) from steps s join nodes n
             on n.id = s.node_id where n.process_id = ?), 0))`;
    await knex.raw(
      `${X}
       insert into steps (document_id, node_id, status, master, "order", created_date, last_modified_date)
       select x.id, (?::bigint[])[o], case when o = 1 then 'ACCEPTED' else 'DONE' end, true, o,
              ${T}, ${T} + o * interval '5 minutes'
         from x cross join generate_series(1, 3) o`,
      [from, processId, processId, `{${nodeIds.join(',')}}`],
    );
    const Y = `with x as (
      select s.id as step_id, s.document_id, s.node_id, row_number() over (order by s.document_id) + ? - 1 as g
        from steps s where s.node_id = ? and s.document_id in (
          select id from documents where process_id = ? order by id offset ? limit ?))`;
    await knex.raw(
      `${Y}
       insert into ner_tags (document_id, step_id, ner_tag_type_id, type, start_offset, end_offset, origin,
                             created_by_id, created_date)
       select x.document_id, x.step_id, ?, 'SPAN_TAG', k * 10, k * 10 + 5, 'USER',
              (?::bigint[])[x.g % ${USERS} + 1], ${T} + k * interval '1 minute'
         from x cross join generate_series(1, 2) k`,
      [from, span, processId, from - 1, to - from + 1, tagType.id, userIds],
    );
    await knex.raw(
      `${Y}
       insert into classifier_tags (document_id, step_id, node_id, classifier_type_id, origin, created_by_id,
                                    created_date)
       select x.document_id, x.step_id, ?, ?, 'USER', (?::bigint[])[x.g % ${USERS} + 1], ${T}
         from x where x.g % 2 = 0`,
      [from, clf, processId, from - 1, to - from + 1, clf, clfType.id, userIds],
    );
    await knex.raw(
      `${Y}
       insert into work_times (client_id, user_id, process_id, node_id, step_id, document_id, start_time, end_time)
       select md5(x.g::text), (?::bigint[])[x.g % ${USERS} + 1], ?, x.node_id, x.step_id, x.document_id,
              ${T}, ${T} + (60 + x.g % 1200) * interval '1 second'
         from x where x.g % 5 = 0`,
      [from, span, processId, from - 1, to - from + 1, userIds, processId],
    );
    log(`statistics: documents ${from}-${to} seeded in ${((performance.now() - t0) / 1000).toFixed(1)} s`);
  }
  await knex.raw(
    `analyze documents, steps, ner_tags, classifier_tags, work_times, stat_step_finishes, stat_work_buckets,
             stat_tag_buckets, stat_node_buckets, stat_document_node_tags, stat_work_days, stat_tag_days,
             stat_node_days`,
  );
  return { processId, span };
}

export async function benchStatistics(o: {
  databaseUrl: string;
  documents: number;
  runs?: number;
}): Promise<StatisticsBenchResults> {
  const runs = o.runs ?? 100;
  const knex = createKnex(o.databaseUrl, { min: 0, max: 2 });
  const t0 = performance.now();
  const { processId, span } = await seedStatistics(knex, o.documents, (line) => console.log(line));
  const seedMs = performance.now() - t0;
  const rows: Record<string, number> = {};
  for (const table of [
    'work_times',
    'stat_step_finishes',
    'stat_work_buckets',
    'stat_tag_buckets',
    'stat_node_buckets',
    'stat_work_days',
    'stat_tag_days',
    'stat_node_days',
    'stat_document_node_tags',
  ])
    rows[table] = Number((await knex(table).count({ n: '*' }))[0].n);
  await knex.destroy();
  const api = await startApi(
    loadConfig({ ...process.env, DATABASE_URL: o.databaseUrl, PORT: '0', TEMPORAL_ADDRESS: '127.0.0.1:1' }),
  );
  const base = `http://127.0.0.1:${api.port}`;
  const queries: Record<string, StatisticsQueryStats> = {};
  try {
    const admin = await benchSignIn(base, 'admin', 'admin');
    const day = (msAgo: number) => new Date(Date.now() - msAgo).toISOString().slice(0, 10);
    const ranges = { year: day(364 * 86_400_000), month: day(30 * 86_400_000) };
    // each type over the year and the month; and the documents of one node activity cell (the SPAN node a
    // week ago) asked with the year's range, as the screen asks when a cell opens
    const cases: [string, Record<string, unknown>][] = [];
    for (const type of ['WORK_TIMER', 'TAG_USAGE', 'NODE_ACTIVITY'])
      for (const [length, dateFrom] of Object.entries(ranges))
        cases.push([`${type}, ${length}`, { type, dateFrom }]);
    cases.push([
      'NODE_ACTIVITY, cell',
      {
        type: 'NODE_ACTIVITY',
        dateFrom: ranges.year,
        documentsOf: { nodeId: span, date: day(7 * 86_400_000) },
      },
    ]);
    for (const [label, query] of cases) {
      const times: number[] = [];
      let bytes = 0;
      for (let i = 0; i < runs + 3; i++) {
        const t = performance.now();
        const res = await fetch(`${base}/api/statistics`, {
          method: 'POST',
          headers: { Authorization: admin, 'Content-Type': 'application/json' },
          body: JSON.stringify({ ...query, processId, dateTo: day(0), zoneId: 'Europe/Warsaw' }),
        });
        const text = await res.text();
        const ms = performance.now() - t;
        if (res.status !== 200) throw new Error(`${label}: ${res.status} ${text}`);
        bytes = text.length;
        if (i >= 3) times.push(ms);
      }
      times.sort((a, b) => a - b);
      queries[label] = { n: times.length, p50: percentile(times, 50), p99: percentile(times, 99), bytes };
      console.log(
        `${label.padEnd(24)} p50 ${queries[label].p50.toFixed(1).padStart(7)} ms  p99 ${queries[label].p99
          .toFixed(1)
          .padStart(7)} ms  ${(bytes / 1024).toFixed(0)} KiB`,
      );
    }
  } finally {
    await api.close();
  }
  return { documents: o.documents, users: USERS, seedMs, rows, queries };
}

export function printStatisticsResults(r: StatisticsBenchResults): void {
  console.log(
    `\nstatistics: ${r.documents} documents, ${r.users} users, seeded in ${(r.seedMs / 1000).toFixed(1)} s` +
      ` (POST api/statistics, zone Europe/Warsaw, ${Object.values(r.queries)[0]?.n ?? 0} runs each); rows ${JSON.stringify(r.rows)}`,
  );
}
