/**
 * `agreement.p99Ms` (issue 31 section 2): a CLF node and a SPAN node, each multiprocessed with 3 annotators
 * on 10,000 documents (BENCH_AGREEMENT_DOCUMENTS), seeded in SQL: every document has 3 finished steps of each
 * node, each step one class (70% the document's "true" class) or 5 spans over 3 labels (70% at the "true"
 * place, else shifted); then `GET api/nodes/{id}/agreement` over the month through the real API, BENCH_AGREEMENT_RUNS
 * times each (after 2 warm-up reads): p50 and p99. The aim is < 2 s.
 */
import { performance } from 'node:perf_hooks';
import { startApi } from '../api/server';
import { createKnex } from '../db/connection';
import { loadConfig } from '../server/config';
import { benchSignIn } from './lib/bench-app';
import { percentile } from './bench-lists';
import { agreementData } from '../db/queries/agreement';
import { agreementReport } from '../domain/agreement-report';

export interface AgreementQueryStats {
  n: number;
  p50: number;
  p99: number;
  documents: number;
  /** one read split: the database's part (db/queries/agreement.ts) and the computation's (domain/) */
  readMs: number;
  computeMs: number;
}

export interface AgreementBenchResults {
  documents: number;
  annotators: number;
  seedMs: number;
  clf: AgreementQueryStats;
  span: AgreementQueryStats;
  /** the slower node's p99 */
  p99Ms: number;
}

/** A bigint[] literal (knex would spread a JS array binding into a list). */
const pgArray = (ids: number[]) => `{${ids.join(',')}}`;

async function seed(databaseUrl: string, documents: number) {
  const knex = createKnex(databaseUrl, { min: 0, max: 2 });
  try {
    const stamp = Date.now();
    const [p] = await knex('processes')
      .insert({ name: `Bench agreement ${stamp}` })
      .returning('id');
    const node = async (activityType: string) =>
      Number(
        (
          await knex('nodes')
            .insert({
              process_id: p.id,
              name: `${activityType} ${stamp}`,
              activity_type: activityType,
              additional_node_submits: JSON.stringify([{ docId: null, submits: 2 }]),
            })
            .returning('id')
        )[0].id,
      );
    const hup = await node('HUP');
    const clf = await node('CLF');
    const span = await node('SPAN');
    const users: number[] = [];
    for (let i = 1; i <= 3; i++)
      users.push(
        Number(
          (
            await knex('users')
              .insert({
                login: `bench-a${i}-${stamp}`,
                email: `bench-a${i}-${stamp}@example.com`,
                password_hash: 'x',
              })
              .returning('id')
          )[0].id,
        ),
      );
    const classes: number[] = [];
    for (let i = 0; i < 4; i++)
      classes.push(
        Number(
          (
            await knex('classifier_types')
              .insert({ node_id: clf, name: `class ${i}`, background_color: '#ffffff' })
              .returning('id')
          )[0].id,
        ),
      );
    const labels: number[] = [];
    for (let i = 0; i < 3; i++)
      labels.push(
        Number(
          (
            await knex('ner_tag_types')
              .insert({
                node_id: span,
                name: `label ${i}`,
                path: `label ${i}`,
                background_color: '#ffffff',
                text_color: '#000000',
              })
              .returning('id')
          )[0].id,
        ),
      );
    await knex.raw(
      `with d as (
         insert into documents (process_id, upload_node_id, filename, path, content_hash, mime_type, size, document_type, status)
         select ?, ?, 'bench-' || g || '.txt', 'bench/' || g, md5(g::text) || md5(g::text), 'text/plain', 600, 'TEXTFILE', 'DONE'
           from generate_series(1, ?) g
         returning id)
       insert into document_contents (document_id, content) select id, repeat('lorem ipsum ', 50) from d`,
      [p.id, hup, documents],
    );
    await knex.raw(
      `insert into steps (document_id, node_id, status, "order", master, blocked_by_id, last_modified_date)
       select d.id, n.node, 'DONE', n.k + k.k - 1, k.k = 1, (?::bigint[])[k.k], now()
         from documents d
        cross join (values (?::bigint, 1), (?::bigint, 4)) as n(node, k)
        cross join generate_series(1, 3) as k(k)
        where d.process_id = ?`,
      [pgArray(users), clf, span, p.id],
    );
    await knex.raw(
      `insert into classifier_tags (document_id, step_id, node_id, classifier_type_id)
       select s.document_id, s.id, s.node_id,
              (?::bigint[])[1 + case when random() < 0.7 then s.document_id % 4 else floor(random() * 4)::int end]
         from steps s where s.node_id = ?`,
      [pgArray(classes), clf],
    );
    await knex.raw(
      `insert into ner_tags (document_id, step_id, ner_tag_type_id, type, start_offset, end_offset)
       select s.document_id, s.id, (?::bigint[])[1 + (k + s.document_id::int) % 3], 'SPAN_TAG', b.start, b.start + 8
         from steps s cross join generate_series(0, 4) k
         cross join lateral (select k * 110 + (s.document_id % 20)::int
                                    + case when random() < 0.7 then 0 else floor(random() * 6)::int end as start) b
        where s.node_id = ?`,
      [pgArray(labels), span],
    );
    await knex.raw('analyze steps; analyze classifier_tags; analyze ner_tags');
    return { clf, span };
  } finally {
    await knex.destroy();
  }
}

export async function benchAgreement(o: {
  databaseUrl: string;
  documents: number;
  runs: number;
}): Promise<AgreementBenchResults> {
  const t0 = performance.now();
  const { clf, span } = await seed(o.databaseUrl, o.documents);
  const seedMs = performance.now() - t0;
  const api = await startApi(
    loadConfig({ ...process.env, DATABASE_URL: o.databaseUrl, PORT: '0', TEMPORAL_ADDRESS: '127.0.0.1:1' }),
  );
  const base = `http://127.0.0.1:${api.port}`;
  const knex = createKnex(o.databaseUrl, { min: 0, max: 4 });
  try {
    const admin = await benchSignIn(base, 'admin', 'admin');
    const measure = async (nodeId: number): Promise<AgreementQueryStats> => {
      const times: number[] = [];
      let documents = 0;
      for (let i = 0; i < o.runs + 2; i++) {
        const t = performance.now();
        const res = await fetch(`${base}/api/nodes/${nodeId}/agreement`, {
          headers: { Authorization: admin },
        });
        const text = await res.text();
        const ms = performance.now() - t;
        if (res.status !== 200)
          throw new Error(`agreement of node ${nodeId}: ${res.status} ${text.slice(0, 300)}`);
        documents = JSON.parse(text).documents;
        if (i >= 2) times.push(ms);
      }
      times.sort((a, b) => a - b);
      const kind = nodeId === clf ? 'CLASSES' : 'SPANS';
      const t1 = performance.now();
      const day = 86_400_000;
      const data = await agreementData(
        knex,
        { id: nodeId, kind },
        new Date(Date.now() - day),
        new Date(Date.now() + day),
      );
      const t2 = performance.now();
      agreementReport(kind, data.documents, data.leftOut);
      const computeMs = performance.now() - t2;
      return {
        n: times.length,
        p50: percentile(times, 50),
        p99: percentile(times, 99),
        documents,
        readMs: t2 - t1,
        computeMs,
      };
    };
    const clfStats = await measure(clf);
    const spanStats = await measure(span);
    return {
      documents: o.documents,
      annotators: 3,
      seedMs,
      clf: clfStats,
      span: spanStats,
      p99Ms: Math.max(clfStats.p99, spanStats.p99),
    };
  } finally {
    await knex.destroy();
    await api.close();
  }
}

export function printAgreementResults(r: AgreementBenchResults): void {
  console.log(
    `\nagreement of a node, ${r.documents} documents x ${r.annotators} annotators (seeded in ${(r.seedMs / 1000).toFixed(1)} s)`,
  );
  for (const [name, s] of [
    ['CLF (kappa, alpha)', r.clf],
    ['SPAN (F1, u-alpha)', r.span],
  ] as const)
    console.log(
      `  ${name.padEnd(20)} p50 ${s.p50.toFixed(0).padStart(6)} ms  p99 ${s.p99.toFixed(0).padStart(6)} ms  (${s.documents} documents; one read: database ${s.readMs.toFixed(0)} ms, computation ${s.computeMs.toFixed(0)} ms)`,
    );
  console.log(`  agreement.p99Ms ${r.p99Ms.toFixed(0)} ms (aim < 2000)`);
}
