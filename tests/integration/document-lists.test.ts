/**
 * The document lists at scale (issue 13 section 2), on the benchmark's data set made small
 * (scripts/lib/seed-lists.ts, 12,000 documents): every filter of the seeder's rules answers the count the
 * rules give; keyset paging (`?after=` from X-Next-Cursor) walks a tab without a gap or a repeat and agrees
 * with offset paging; a page past the middle read from the other end of the index is the same page; a tab of
 * more than 1,000 documents answers an estimated total (X-Total-Count-Exact false), a smaller one an exact
 * one; the NAME filter finds a common word and a rare filename; a bad cursor is a 400; another process's documents never appear.
 * The result window (domain/paging.ts) lowered to 1,000 rows: a page number beyond it is a 400 with
 * `entity.validation.pageWindow` on both lists; cursors walk beyond it forwards and backwards without a gap or
 * a repeat; the last pages read from the end are the list's last rows; the documents of the processes seeded
 * before and after (ids on both sides) never appear.
 */
import { EXACT_COUNT_LIMIT } from '../../db/queries/bounded-count';
import type { DocumentInfoDTO } from '../../domain/document-info';
import { expectedCounts, seedListsDataset, type ListsDataset } from '../../scripts/lib/seed-lists';
import { login, setupSuite, type Res } from '../support/harness';

const DOCUMENTS = 12_000;
const USERS = 40;
/** The result window of the suite's API, lowered so that 12,000 documents reach beyond it. */
const WINDOW = 1_000;

describe('document lists on the seeded data set', () => {
  const suite = setupSuite({ config: { listResultWindow: WINDOW } });
  let data: ListsDataset;
  let annotator: string;
  const expected = expectedCounts(DOCUMENTS, USERS);

  beforeAll(async () => {
    // other processes' documents with ids before and after the list's own
    await seedListsDataset(suite.knex, { documents: 300, users: 3, name: `Lists before ${Date.now()}` });
    data = await seedListsDataset(suite.knex, { documents: DOCUMENTS, users: USERS });
    await seedListsDataset(suite.knex, { documents: 300, users: 3, name: `Lists after ${Date.now()}` });
    annotator = await login(suite.api.baseUrl, `lists${data.processId}-1`, 'user');
  }, 300_000);

  const list = (filters: unknown[], query = '', token = suite.admin): Promise<Res<DocumentInfoDTO[]>> =>
    suite.send<DocumentInfoDTO[]>('POST', `/api/v2/document-info?size=20${query}`, token, {
      paged: true,
      filters: [{ type: 'PROCESS', value: data.processId }, ...filters],
    });
  const total = (res: Res) => Number(res.headers.get('x-total-count'));

  it('answers each filter with the count the seeding rules give', async () => {
    const [, , span] = data.nodeIds;
    const me = data.userIds[0];
    const cases: [unknown[], number, string?][] = [
      [[{ type: 'STATUS', value: 'DONE' }], expected.done],
      [[{ type: 'STEP', value: { nodeId: span, statuses: ['WAITING'] } }], expected.waitingAtSpan],
      [[{ type: 'ASSIGNEE', value: [me] }], expected.assignedToFirst],
      [[{ type: 'UNASSIGNED', value: true }], DOCUMENTS - expected.assigned],
      [[{ type: 'ASSIGNEE', value: [me] }], expected.assignedToFirst, annotator],
    ];
    for (const [filters, count, token] of cases) {
      const res = await list(filters, '', token);
      expect(res.status).toBe(200);
      expect(res.body.every((d) => d.processId === data.processId)).toBe(true);
      if (count <= EXACT_COUNT_LIMIT) {
        expect(total(res)).toBe(count);
        expect(res.headers.get('x-total-count-exact')).toBe('true');
      } else {
        // the planner's estimate after ANALYZE: near the truth
        expect(res.headers.get('x-total-count-exact')).toBe('false');
        expect(total(res)).toBeGreaterThan(count / 3);
        expect(total(res)).toBeLessThan(count * 3);
      }
    }
    // filenames doc-<i>-<word>.txt with word 'contract' when i % 7 = 1
    const named = await list([{ type: 'NAME', value: 'contract' }]);
    expect(named.body).toHaveLength(20);
    expect(named.body.every((d) => /-contract\.txt$/.test(d.filename))).toBe(true);
    const rare = await list([{ type: 'NAME', value: 'doc-7777-' }]);
    expect(total(rare)).toBe(1);
    expect(rare.body.map((d) => d.filename)).toEqual([expect.stringMatching(/^doc-7777-/)]);
  });

  it('estimates the total of a tab beyond the exact limit and counts a smaller one', async () => {
    expect(DOCUMENTS).toBeGreaterThan(EXACT_COUNT_LIMIT);
    const all = await list([]);
    expect(all.headers.get('x-total-count-exact')).toBe('false');
    // the planner's estimate after ANALYZE: near the truth, and never at or below the exact limit
    expect(total(all)).toBeGreaterThan(EXACT_COUNT_LIMIT);
    expect(total(all)).toBeGreaterThan(DOCUMENTS * 0.5);
    expect(total(all)).toBeLessThan(DOCUMENTS * 2);
    const mine = await list([{ type: 'ASSIGNEE', value: [data.userIds[0]] }]);
    expect(mine.headers.get('x-total-count-exact')).toBe('true');
  });

  it('walks a tab by keyset cursor as offset paging does, in both sorts', async () => {
    const filters = [{ type: 'STEP', value: { nodeId: data.nodeIds[2], statuses: ['WAITING'] } }];
    for (const sort of ['id,desc', 'filename,asc']) {
      const byOffset: number[] = [];
      for (let page = 0; page < 4; page++)
        byOffset.push(...(await list(filters, `&sort=${sort}&page=${page}`)).body.map((d) => d.id));
      const byCursor: number[] = [];
      let after = '';
      for (let page = 0; page < 4; page++) {
        const res = await list(filters, `&sort=${sort}${after ? `&after=${after}` : ''}`);
        expect(res.status).toBe(200);
        byCursor.push(...res.body.map((d) => d.id));
        after = res.headers.get('x-next-cursor') ?? '';
        expect(after).not.toBe('');
      }
      expect(byCursor).toEqual(byOffset);
      expect(new Set(byCursor).size).toBe(80);
    }
  });

  it('reads a page past the middle from the other end: the same rows as the order gives', async () => {
    // an exact total (below the limit): the documents of two annotators
    const filters = [{ type: 'ASSIGNEE', value: data.userIds.slice(0, 2) }];
    const ids: number[] = (
      await suite
        .knex('document_assignees')
        .whereIn('user_id', data.userIds.slice(0, 2))
        .orderBy('document_id', 'desc')
    ).map((r: { document_id: string }) => Number(r.document_id));
    expect(ids.length).toBe(2 * expected.assignedToFirst);
    const lastPage = Math.ceil(ids.length / 20) - 1;
    for (const page of [lastPage, lastPage - 1, Math.floor(lastPage / 2) + 1]) {
      const res = await list(filters, `&page=${page}`);
      expect(res.body.map((d) => d.id)).toEqual(ids.slice(page * 20, page * 20 + 20));
    }
    expect((await list(filters, `&page=${lastPage + 1}`)).body).toEqual([]);
  });

  it('refuses a bad cursor with a field error and keeps other processes out', async () => {
    const res = await list([], '&after=not-a-cursor');
    expect(res.status).toBe(400);
    const other = await suite.send('POST', '/api/v2/document-info', annotator, {
      paged: true,
      filters: [
        { type: 'PROCESS', value: data.processId + 100000 },
        { type: 'UNASSIGNED', value: true },
      ],
    });
    expect([403, 404]).toContain(other.status);
  });

  describe('under the result window', () => {
    type Row = { id: number; processId: number };
    const search = (query: string): Promise<Res<Row[]>> =>
      suite.send<Row[]>('POST', `/api/documents/_search/document?size=50${query}`, suite.admin, {
        processId: data.processId,
        discriminator: 'BY_CONTENT',
      });
    /** The whole list (process admin), pages of 50. */
    const info = (query: string): Promise<Res<Row[]>> =>
      suite.send<Row[]>('POST', `/api/v2/document-info?size=50${query}`, suite.admin, {
        paged: true,
        filters: [{ type: 'PROCESS', value: data.processId }],
      });
    /** A list with an exact total that is no multiple of a page size: one annotator's 'contract' documents. */
    const few = () => [
      { type: 'ASSIGNEE', value: [data.userIds[0]] },
      { type: 'NAME', value: 'contract' },
    ];
    /** Its ids by id descending, and its pages of 20 by number. */
    const exactList = async (): Promise<[number[], number[][]]> => {
      const mine = (
        await suite
          .knex('documents as d')
          .join('document_assignees as a', 'a.document_id', 'd.id')
          .where('d.process_id', data.processId)
          .where('a.user_id', data.userIds[0])
          .where('d.filename', 'like', '%contract%')
          .orderBy('d.id', 'desc')
          .pluck('d.id')
      ).map(Number);
      const pages: number[][] = [];
      for (let page = 0; page * 20 < mine.length; page++)
        pages.push((await list(few(), `&page=${page}`)).body.map((r) => r.id));
      expect(pages.flat()).toEqual(mine);
      return [mine, pages];
    };
    const fieldErrorsOf = (res: Res) =>
      (res.body.fieldErrors as { field: string; key: string }[]).map((e) => [e.field, e.key]);
    const ids = async (order: [string, 'asc' | 'desc'][]) => {
      const q = suite.knex('documents').where('process_id', data.processId);
      for (const [column, dir] of order) q.orderBy(column, dir);
      return (await q.pluck('id')).map(Number);
    };
    /** `pages` pages walked from the answer of `start` by its X-Next-Cursor or X-Prev-Cursor. */
    const walk = async (
      read: (query: string) => Promise<Res<Row[]>>,
      start: string,
      dir: 'after' | 'before',
      pages: number,
    ) => {
      const seen: number[][] = [];
      let query = start;
      for (let i = 0; i < pages; i++) {
        const res = await read(query);
        expect(res.status).toBe(200);
        expect(res.body.every((r) => r.processId === data.processId)).toBe(true);
        seen.push(res.body.map((r) => r.id));
        const cursor = res.headers.get(dir === 'after' ? 'x-next-cursor' : 'x-prev-cursor');
        expect(cursor).toBeTruthy();
        query = `&${dir}=${cursor}`;
      }
      return (dir === 'after' ? seen : seen.reverse()).flat();
    };

    it('refuses a page number beyond the window with the spec key, on both lists and in the issue view', async () => {
      // size 50: pages 0..19 lie inside 1,000 rows
      const inside = await info('&page=19');
      expect(inside.status).toBe(200);
      expect(inside.headers.get('x-result-window')).toBe(String(WINDOW));
      expect(inside.body).toHaveLength(50);
      const beyond = await info('&page=20');
      expect(beyond.status).toBe(400);
      expect(fieldErrorsOf(beyond)).toEqual([['page', 'entity.validation.pageWindow']]);
      // counted from a cursor or from the end, the same window
      const cursor = inside.headers.get('x-next-cursor')!;
      expect(fieldErrorsOf(await info(`&page=20&after=${cursor}`))).toEqual([
        ['page', 'entity.validation.pageWindow'],
      ]);
      expect(fieldErrorsOf(await info('&page=20&last=true'))).toEqual([
        ['page', 'entity.validation.pageWindow'],
      ]);
      expect(fieldErrorsOf(await list([{ type: 'ISSUES', value: true }], '&page=50'))).toEqual([
        ['page', 'entity.validation.pageWindow'],
      ]);
      expect((await search('&page=19')).status).toBe(200);
      const searchBeyond = await search('&page=20');
      expect(searchBeyond.status).toBe(400);
      expect(fieldErrorsOf(searchBeyond)).toEqual([['page', 'entity.validation.pageWindow']]);
      // one anchor at a time
      expect(fieldErrorsOf(await info(`&after=${cursor}&last=true`))).toEqual([
        ['after', 'entity.validation.pageAnchor'],
      ]);
      expect(fieldErrorsOf(await search(`&before=${cursor}&after=${cursor}`))).toEqual([
        ['after', 'entity.validation.pageAnchor'],
      ]);
    });

    it('walks beyond the window by cursor, forwards and backwards, without a gap or a repeat', async () => {
      const byIdDesc = await ids([['id', 'desc']]);
      const byFilename = await ids([
        ['filename', 'asc'],
        ['id', 'asc'],
      ]);
      // 25 pages of 50: 1,250 rows, past the 1,000 of the window
      expect(await walk(info, '', 'after', 25)).toEqual(byIdDesc.slice(0, 1250));
      expect(await walk(info, '&last=true', 'before', 25)).toEqual(byIdDesc.slice(-1250));
      expect(await walk((q) => info(`&sort=filename,asc${q}`), '', 'after', 25)).toEqual(
        byFilename.slice(0, 1250),
      );
      expect(await walk((q) => info(`&sort=filename,asc${q}`), '&last=true', 'before', 25)).toEqual(
        byFilename.slice(-1250),
      );
      // the document search (id ascending by default, and descending)
      const byIdAsc = [...byIdDesc].reverse();
      expect(await walk(search, '', 'after', 25)).toEqual(byIdAsc.slice(0, 1250));
      expect(await walk(search, '&last=true', 'before', 25)).toEqual(byIdAsc.slice(-1250));
      expect(await walk((q) => search(`&sort=id,desc${q}`), '&last=true', 'before', 3)).toEqual(
        byIdDesc.slice(-150),
      );
    });

    it('reads the last pages from the end: the last rows of an estimated list, the numbered pages of an exact one', async () => {
      const byIdDesc = await ids([['id', 'desc']]);
      const last = await info('&last=true');
      expect(last.headers.get('x-total-count-exact')).toBe('false');
      expect(last.body.map((r) => r.id)).toEqual(byIdDesc.slice(-50));
      expect(last.headers.get('x-next-cursor')).toBeNull();
      expect(last.headers.get('x-prev-cursor')).toBeTruthy();
      expect((await info('&last=true&page=3')).body.map((r) => r.id)).toEqual(byIdDesc.slice(-200, -150));
      const searchLast = await search('&last=true');
      expect(searchLast.body.map((r) => r.id)).toEqual([...byIdDesc].reverse().slice(-50));
      // an exact total (one annotator's documents named 'contract'): the last page holds the rest, as the
      // numbering gives
      const [mine, pages] = await exactList();
      expect(mine.length % 20).not.toBe(0);
      const lastNumbered = Math.floor((mine.length - 1) / 20);
      const fromEnd = await list(few(), '&last=true');
      expect(fromEnd.headers.get('x-total-count-exact')).toBe('true');
      expect(fromEnd.body.map((r) => r.id)).toEqual(mine.slice(lastNumbered * 20));
      expect(fromEnd.body.map((r) => r.id)).toEqual(pages[lastNumbered]);
      expect((await list(few(), '&last=true&page=1')).body.map((r) => r.id)).toEqual(pages[lastNumbered - 1]);
    });

    it('says whether rows follow or precede a page: no cursor past either end', async () => {
      const first = await info('');
      expect(first.headers.get('x-prev-cursor')).toBeNull();
      expect(first.headers.get('x-next-cursor')).toBeTruthy();
      const [mine] = await exactList();
      const lastNumbered = Math.floor((mine.length - 1) / 20);
      const start = await list(few(), '&page=0');
      expect(start.headers.get('x-prev-cursor')).toBeNull();
      expect(start.headers.get('x-next-cursor')).toBeTruthy();
      const end = await list(few(), `&page=${lastNumbered}`);
      expect(end.headers.get('x-next-cursor')).toBeNull();
      expect(end.headers.get('x-prev-cursor')).toBeTruthy();
      // the page before the last by its cursor is the numbered one
      const before = await list(few(), `&before=${end.headers.get('x-prev-cursor')}`);
      expect(before.body.map((r) => r.id)).toEqual(mine.slice((lastNumbered - 1) * 20, lastNumbered * 20));
    });
  });
});
