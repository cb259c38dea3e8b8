/**
 * The document lists at scale (issue 13 section 2), on the benchmark's data set made small
 * (scripts/lib/seed-lists.ts, 12,000 documents): every filter of the seeder's rules answers the count the
 * rules give; keyset paging (`?after=` from X-Next-Cursor) walks a tab without a gap or a repeat and agrees
 * with offset paging; a page past the middle read from the other end of the index is the same page; a tab of
 * more than 1,000 documents answers an estimated total (X-Total-Count-Exact false), a smaller one an exact
 * one; the NAME filter finds a common word and a rare filename; a bad cursor is a 400; another process's documents never appear.
 */
import { EXACT_COUNT_LIMIT } from '../../db/queries/bounded-count';
import type { DocumentInfoDTO } from '../../domain/document-info';
import { expectedCounts, seedListsDataset, type ListsDataset } from '../../scripts/lib/seed-lists';
import { login, setupSuite, type Res } from '../support/harness';

const DOCUMENTS = 12_000;
const USERS = 40;

describe('document lists on the seeded data set', () => {
  const suite = setupSuite();
  let data: ListsDataset;
  let annotator: string;
  const expected = expectedCounts(DOCUMENTS, USERS);

  beforeAll(async () => {
    data = await seedListsDataset(suite.knex, { documents: DOCUMENTS, users: USERS });
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
});
