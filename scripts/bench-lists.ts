/**
 * The `lists` part of `npm run bench` (issue 13 section 2): seeds the list data set in SQL
 * (scripts/lib/seed-lists.ts; BENCH_LIST_DOCUMENTS documents, 1,000,000 by default) and times
 * `POST api/v2/document-info` through the real API over HTTP for every dashboard tab and filter, first and
 * deep pages, as a process admin and as an annotator with WRITE on the process, and the document list's
 * three searches (`POST api/documents/_search/document`: by content, rare and common, by NER tag, by
 * classifier tag, first and deep pages). Deep pages as the result window (domain/paging.ts) lets them be
 * reached: the window's last page by number, pages in the middle by keyset cursor (after and before the
 * middle document, by id and by filename), the last pages from the end (`last=true`). Measured, never
 * asserted.
 */
import crypto from 'node:crypto';
import { performance } from 'node:perf_hooks';
import { startApi } from '../api/server';
import { createKnex } from '../db/connection';
import { loadConfig } from '../server/config';
import { benchSignIn } from './lib/bench-app';
import { cursorOf } from '../api/services/list-paging';
import { windowPages } from '../domain/paging';
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

/** The p-th percentile of ascending times (nearest rank). */
export const percentile = (sorted: number[], p: number) =>
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
  // Cursors deep in the list (domain/paging.ts: beyond the result window a page is reached by cursor): the
  // sort keys of the documents in the middle by id and by filename, found once here.
  const middleOf = (order: [string, 'asc' | 'desc'][]) => {
    const q = knex('documents').where('process_id', data.processId).select('id', 'filename');
    for (const [column, dir] of order) q.orderBy(column, dir);
    return q.offset(Math.floor(o.documents / 2)).first();
  };
  const byId = await middleOf([['id', 'desc']]);
  const byName = await middleOf([
    ['filename', 'asc'],
    ['id', 'asc'],
  ]);
  const byIdAsc = await middleOf([['id', 'asc']]);
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
    const windowEdge = windowPages(20) - 1;
    const middleCursor = byId && cursorOf({ id: Number(byId.id) }, false);
    const middleNameCursor = byName && cursorOf({ id: Number(byName.id), filename: byName.filename }, true);
    const P = { type: 'PROCESS', value: data.processId };
    type Case = [label: string, auth: string, query: string, filters: unknown[], search?: object];
    const cases: Case[] = [
      ['all, first page', admin, 'page=0', [P]],
      // The last page as the pager's Last button asks for it: read from the end (`last=true`).
      ['all, last page (last=true)', admin, 'last=true', [P]],
      ['all, 2nd page from the end (last=true&page=1)', admin, 'last=true&page=1', [P]],
      // The deepest page a page number reaches: the last one inside the result window (OFFSET 9,980).
      [`all, page ${windowEdge} (window edge, by number)`, admin, `page=${windowEdge}`, [P]],
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
      ['unassigned, last page (annotator)', annotator, 'last=true', [P, { type: 'UNASSIGNED', value: true }]],
    ];
    // Pages deep in the list reached by keyset: after and before the document in the middle.
    if (middleCursor)
      cases.push(
        ['all, middle page by cursor (after)', admin, `after=${middleCursor}`, [P]],
        ['all, middle page by cursor (before)', admin, `before=${middleCursor}`, [P]],
      );
    if (middleNameCursor)
      cases.push([
        'by filename, middle page by cursor',
        admin,
        `sort=filename,asc&after=${middleNameCursor}`,
        [P],
      ]);
    // The document list's searches (body instead of filters; pages of 20 by id ascending).
    const S = { processId: data.processId };
    const rare = String(Math.max(1, Math.floor(o.documents / 3)));
    const rareHash = crypto.createHash('md5').update(rare).digest('hex').slice(0, 12);
    cases.push(
      ['search: whole list, first page', admin, 'page=0', [], { ...S, discriminator: 'BY_CONTENT' }],
      [
        'search: whole list, last page (last=true)',
        admin,
        'last=true',
        [],
        { ...S, discriminator: 'BY_CONTENT' },
      ],
      ...(byIdAsc
        ? ([
            [
              'search: whole list, middle page by cursor',
              admin,
              `after=${cursorOf({ id: Number(byIdAsc.id) }, false)}`,
              [],
              { ...S, discriminator: 'BY_CONTENT' },
            ],
          ] as Case[])
        : []),
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
