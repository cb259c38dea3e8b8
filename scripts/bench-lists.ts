/**
 * The `lists` part of `npm run bench` (issue 13 section 2): seeds the list data set in SQL
 * (scripts/lib/seed-lists.ts; BENCH_LIST_DOCUMENTS documents, 1,000,000 by default) and times
 * `POST api/v2/document-info` through the real API over HTTP for every dashboard tab and filter, first and
 * deep pages, as a process admin and as an annotator with WRITE on the process, and the document list's
 * three searches (`POST api/documents/_search/document`: by content, rare and common, by NER tag, by
 * classifier tag, first and deep pages). Measured, never asserted.
 */
import crypto from 'node:crypto';
import { performance } from 'node:perf_hooks';
import { startApi } from '../api/server';
import { createKnex } from '../db/connection';
import { loadConfig } from '../server/config';
import { benchSignIn } from './lib/bench-app';
import { LIST_NAMES, seedListsDataset } from './lib/seed-lists';

export interface ListQueryStats {
  n: number;
  p50: number;
  p99: number;
  /** X-Total-Count of the answer */
  total: number;
  rows: number;
}

export interface ListsBenchResults {
  documents: number;
  users: number;
  seedMs: number;
  queries: Record<string, ListQueryStats>;
}

const percentile = (sorted: number[], p: number) =>
  sorted[Math.min(sorted.length - 1, Math.max(0, Math.ceil((p / 100) * sorted.length) - 1))];

export async function benchLists(o: {
  databaseUrl: string;
  documents: number;
  users?: number;
  runs?: number;
}): Promise<ListsBenchResults> {
  const users = o.users ?? 1000;
  const runs = o.runs ?? 30;
  const knex = createKnex(o.databaseUrl, { min: 0, max: 2 });
  const t0 = performance.now();
  const data = await seedListsDataset(knex, {
    documents: o.documents,
    users,
    name: `Bench lists ${Date.now()}`,
    log: (line) => console.log(line),
  });
  const seedMs = performance.now() - t0;
  await knex.destroy();
  const api = await startApi(
    loadConfig({ ...process.env, DATABASE_URL: o.databaseUrl, PORT: '0', TEMPORAL_ADDRESS: '127.0.0.1:1' }),
  );
  const base = `http://127.0.0.1:${api.port}`;
  const queries: Record<string, ListQueryStats> = {};
  try {
    const admin = await benchSignIn(base, 'admin', 'admin');
    const annotatorLogin = `lists${data.processId}-1`;
    const annotator = await benchSignIn(base, annotatorLogin, 'user');
    const me = data.userIds[0];
    const [, , span] = data.nodeIds;
    const lastPage = Math.max(0, Math.ceil(o.documents / 20) - 1);
    const P = { type: 'PROCESS', value: data.processId };
    type Case = [label: string, auth: string, query: string, filters: unknown[], search?: object];
    const cases: Case[] = [
      ['all, first page', admin, 'page=0', [P]],
      // The last page as a pager's "last" link asks for it: the first page of the reversed order.
      ['all, last page (reversed sort)', admin, 'page=0&sort=id,asc', [P]],
      // A deep page by offset, page numbers counted from the start (an estimated total: no reversal).
      [`all, page ${lastPage} by offset`, admin, `page=${lastPage}`, [P]],
      ['all, sorted by filename', admin, 'page=0&sort=filename,asc', [P]],
      ['done tab (status DONE)', admin, 'page=0', [P, { type: 'STATUS', value: 'DONE' }]],
      ['filename filter', admin, 'page=0', [P, { type: 'NAME', value: 'contract' }]],
      ['filename filter, page 200', admin, 'page=200', [P, { type: 'NAME', value: 'contract' }]],
      [
        'step filter (SPAN waiting)',
        admin,
        'page=0',
        [P, { type: 'STEP', value: { nodeId: span, statuses: ['WAITING'] } }],
      ],
      ['assignee filter', admin, 'page=0', [P, { type: 'ASSIGNEE', value: [me] }]],
      ['unassigned tab (admin)', admin, 'page=0', [P, { type: 'UNASSIGNED', value: true }]],
      ['my documents (annotator)', annotator, 'page=0', [P, { type: 'ASSIGNEE', value: [me] }]],
      [
        'done tab (annotator)',
        annotator,
        'page=0',
        [P, { type: 'ASSIGNEE', value: [me] }, { type: 'STATUS', value: 'DONE' }],
      ],
      ['unassigned tab (annotator)', annotator, 'page=0', [P, { type: 'UNASSIGNED', value: true }]],
      [
        'unassigned, last page (annotator)',
        annotator,
        `page=${Math.floor((o.documents * 0.7) / 20) - 1}`,
        [P, { type: 'UNASSIGNED', value: true }],
      ],
    ];
    // A page deep in the list reached by keyset: the cursor of the document in the middle.
    const middle = await fetch(
      `${base}/api/v2/document-info?size=20&paged=true&page=${Math.floor(lastPage / 2)}`,
      {
        method: 'POST',
        headers: { Authorization: admin, 'Content-Type': 'application/json' },
        body: JSON.stringify({ paged: true, filters: [P] }),
      },
    );
    const cursor = middle.headers.get('x-next-cursor');
    if (cursor) cases.push(['all, middle page by cursor', admin, `page=0&after=${cursor}`, [P]]);
    // The document list's searches (body instead of filters; pages of 20 by id ascending).
    const S = { processId: data.processId };
    const rare = String(Math.max(1, Math.floor(o.documents / 3)));
    const rareHash = crypto.createHash('md5').update(rare).digest('hex').slice(0, 12);
    const searchLast = (matches: number) => `page=${Math.max(0, Math.ceil(matches / 20) - 1)}`;
    cases.push(
      ['search: whole list, first page', admin, 'page=0', [], { ...S, discriminator: 'BY_CONTENT' }],
      [
        'search: whole list, last page',
        admin,
        searchLast(o.documents),
        [],
        { ...S, discriminator: 'BY_CONTENT' },
      ],
      [
        'search: content, rare text',
        admin,
        'page=0',
        [],
        { ...S, discriminator: 'BY_CONTENT', content: rareHash },
      ],
      [
        'search: content, common word',
        admin,
        'page=0',
        [],
        { ...S, discriminator: 'BY_CONTENT', content: 'about the contract' },
      ],
      [
        'search: content, common, page 200',
        admin,
        'page=200',
        [],
        { ...S, discriminator: 'BY_CONTENT', content: 'about the contract' },
      ],
      [
        'search: NER tag (Person = name)',
        admin,
        'page=0',
        [],
        { ...S, discriminator: 'BY_NER_TAG', tagTypeContentMap: { [data.nerTagTypeId]: [LIST_NAMES[2]] } },
      ],
      [
        'search: NER tag, rare value',
        admin,
        'page=0',
        [],
        { ...S, discriminator: 'BY_NER_TAG', tagTypeContentMap: { [data.nerTagTypeId]: ['Zebra'] } },
      ],
      [
        'search: classifier tag',
        admin,
        'page=0',
        [],
        { ...S, discriminator: 'BY_CLASSIFIER_TAG', typeList: [data.classifierTypeId] },
      ],
      [
        'search: classifier tag, page 200',
        admin,
        'page=200',
        [],
        { ...S, discriminator: 'BY_CLASSIFIER_TAG', typeList: [data.classifierTypeId] },
      ],
    );
    for (const [label, auth, query, filters, search] of cases) {
      const times: number[] = [];
      let total = 0;
      let rows = 0;
      for (let i = 0; i < runs + 3; i++) {
        const t = performance.now();
        const url = search
          ? `${base}/api/documents/_search/document?size=20&${query}`
          : `${base}/api/v2/document-info?size=20&paged=true&${query}`;
        const res = await fetch(url, {
          method: 'POST',
          headers: { Authorization: auth, 'Content-Type': 'application/json' },
          body: JSON.stringify(search ?? { paged: true, filters }),
        });
        const body = (await res.json()) as unknown[];
        const ms = performance.now() - t;
        if (res.status !== 200) throw new Error(`${label}: ${res.status} ${JSON.stringify(body)}`);
        total = Number(res.headers.get('x-total-count'));
        rows = body.length;
        if (i >= 3) times.push(ms);
      }
      times.sort((a, b) => a - b);
      queries[label] = {
        n: times.length,
        p50: percentile(times, 50),
        p99: percentile(times, 99),
        total,
        rows,
      };
      console.log(
        `${label.padEnd(36)} p50 ${queries[label].p50.toFixed(1).padStart(7)} ms  p99 ${queries[label].p99
          .toFixed(1)
          .padStart(7)} ms  total ${total}  rows ${rows}`,
      );
    }
  } finally {
    await api.close();
  }
  return { documents: o.documents, users, seedMs, queries };
}

export function printListsResults(r: ListsBenchResults): void {
  console.log(
    `\nlists: ${r.documents} documents, ${r.users} users, seeded in ${(r.seedMs / 1000).toFixed(1)} s` +
      ` (POST api/v2/document-info and api/documents/_search/document, pages of 20, ${Object.values(r.queries)[0]?.n ?? 0} runs each)`,
  );
}
