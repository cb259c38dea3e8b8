/**
 * The issue view of `POST api/v2/document-info` behind the issues dashboard (issue 12 section 2, spec 2
 * section 2 "Issues dashboard"; decisions in domain/document-info.ts): one row per document with matching
 * issues and their issue, resolved and comment counts; the tabs' filters (All, My issues = raised or
 * commented, Without replies = active and no comment, for process admins only), the status and filename
 * filters, sorting by filename and comment count, paging with X-Total-Count, the visibility rule (a
 * node-only grantee sees neither documents outside their nodes nor TAG / RELATION issues on tags of other
 * nodes' steps), and another process refused. Documents, tags, issues and replies are inserted directly.
 */
import { insertObligatoryUploadNode } from '../../db/queries/nodes';
import type { IssueDocumentInfoDTO } from '../../domain/document-info';
import { insertDocument, insertIssue, insertTag, stepOf } from '../support/documents';
import {
  buildProcess,
  buildUser,
  insertNerTagType,
  insertNode,
  setupSuite,
  type BuiltUser,
} from '../support/harness';

type Row = IssueDocumentInfoDTO;

describe('issues dashboard (document-info issue view)', () => {
  const suite = setupSuite();
  let P: number;
  let Q: number;
  let admin: BuiltUser;
  let adminToken: string;
  let writer: BuiltUser;
  let writerToken: string;
  let other: BuiltUser;
  let otherToken: string;
  let nodeUser: BuiltUser;
  let nodeToken: string;
  const docs: Record<string, number> = {};

  const list = (token: string, filters: unknown[], query = '') =>
    suite.send<Row[]>('POST', `/api/v2/document-info?paged=true${query}`, token, { paged: true, filters });
  const inP = (...more: unknown[]) => [{ type: 'PROCESS', value: P }, ...more];
  const ALL = { type: 'ISSUES', value: true };
  const name = (id: number) => Object.entries(docs).find(([, d]) => d === id)?.[0] ?? `?${id}`;
  /** [document, issues, resolved, comments] per row, in order; asserts the 200 and the total */
  async function rows(
    token: string,
    filters: unknown[],
    query = '',
  ): Promise<[string, number, number, number][]> {
    const res = await list(token, filters, query);
    expect([res.status, res.body]).toEqual([200, expect.any(Array)]);
    expect(res.headers.get('x-total-count')).toBe(String(res.body.length));
    return res.body.map((r) => [name(r.id), r.issueCount, r.resolvedCount, r.commentCount]);
  }

  beforeAll(async () => {
    const k = suite.knex;
    P = (await buildProcess(k)).id;
    Q = (await buildProcess(k)).id;
    const upload = (await insertObligatoryUploadNode(k, P)).id;
    const s1 = (await insertNode(k, P, 'SPAN')).id;
    const s2 = (await insertNode(k, P, 'SPAN')).id;
    const type1 = (await insertNerTagType(k, s1)).id;
    const type2 = (await insertNerTagType(k, s2)).id;
    admin = await buildUser(k, { authorities: [{ componentId: P, type: 'PROCESS', mode: 'ADMIN' }] });
    adminToken = await suite.signIn(admin);
    writer = await buildUser(k, { authorities: [{ componentId: P, type: 'PROCESS', mode: 'WRITE' }] });
    writerToken = await suite.signIn(writer);
    other = await buildUser(k, { authorities: [{ componentId: P, type: 'PROCESS', mode: 'WRITE' }] });
    otherToken = await suite.signIn(other);
    nodeUser = await buildUser(k, { authorities: [{ componentId: s1, type: 'NODE', mode: 'WRITE' }] });
    nodeToken = await suite.signIn(nodeUser);
    const steps = (...nodes: number[]): [number, string][] => [
      [upload, 'ACCEPTED'],
      ...nodes.map((n): [number, string] => [n, 'WAITING']),
    ];

    docs.a = await insertDocument(k, P, upload, 'alpha.txt', { steps: steps(s1) });
    docs.b = await insertDocument(k, P, upload, 'beta.txt', { steps: steps(s1, s2) });
    docs.c = await insertDocument(k, P, upload, 'gamma.txt', { steps: steps(s1, s2) });
    docs.d = await insertDocument(k, P, upload, 'delta.txt', { steps: steps(s1) });
    docs.e = await insertDocument(k, P, upload, 'epsilon.txt', { steps: steps(s2) });
    const qUpload = (await insertObligatoryUploadNode(k, Q)).id;
    docs.q = await insertDocument(k, Q, qUpload, 'alpha.txt');

    // a: one active issue of the writer commented by the other (and an automatic reply of the admin),
    // one resolved issue of the other with only the automatic reply of its resolution
    await insertIssue(k, docs.a, {
      userId: writer.id,
      replies: [{ userId: other.id }, { userId: admin.id, automatic: true }],
    });
    await insertIssue(k, docs.a, {
      userId: other.id,
      status: 'RESOLVED',
      replies: [{ userId: admin.id, automatic: true }],
    });
    // b: a TAG issue on a tag of the s2 step (no reply), an admin's TEXT issue with three comments
    const bTag = await insertTag(k, docs.b, await stepOf(k, docs.b, s2), type2);
    await insertIssue(k, docs.b, { userId: other.id, type: 'TAG', fromTagId: bTag });
    await insertIssue(k, docs.b, {
      userId: admin.id,
      replies: [{ userId: writer.id }, { userId: other.id }, { userId: other.id }],
    });
    // c: a TAG issue on a tag of s1, a RELATION issue from that tag to a tag of s2, no replies
    const cTag1 = await insertTag(k, docs.c, await stepOf(k, docs.c, s1), type1);
    const cTag2 = await insertTag(k, docs.c, await stepOf(k, docs.c, s2), type2, [2, 3]);
    await insertIssue(k, docs.c, { userId: other.id, type: 'TAG', fromTagId: cTag1 });
    await insertIssue(k, docs.c, { userId: writer.id, type: 'RELATION', fromTagId: cTag1, toTagId: cTag2 });
    // d: no issue; e: an admin's issue, only on s2
    await insertIssue(k, docs.e, { userId: admin.id });
    await insertIssue(k, docs.q, { userId: writer.id });
  });

  it('lists every document with issues and its counts (All), sorted by filename or comment count', async () => {
    expect(await rows(adminToken, inP(ALL), '&sort=filename,asc')).toEqual([
      ['a', 2, 1, 1],
      ['b', 2, 0, 3],
      ['e', 1, 0, 0],
      ['c', 2, 0, 0],
    ]);
    expect((await rows(adminToken, inP(ALL), '&sort=filename,desc')).map((r) => r[0])).toEqual([
      'c',
      'e',
      'b',
      'a',
    ]);
    // ties (c and e: no comments) by id in the same direction
    expect((await rows(adminToken, inP(ALL), '&sort=commentCount,desc')).map((r) => r[0])).toEqual([
      'b',
      'a',
      'e',
      'c',
    ]);
    expect((await rows(adminToken, inP(ALL), '&sort=COMMENTCOUNT,ASC')).map((r) => r[0])).toEqual([
      'c',
      'e',
      'a',
      'b',
    ]);
    // every reader of the process lists All: the same rows for a writer
    expect(await rows(writerToken, inP(ALL), '&sort=filename,asc')).toEqual(
      await rows(adminToken, inP(ALL), '&sort=filename,asc'),
    );
    const row = (await list(adminToken, inP(ALL, { type: 'NAME', value: 'ALPHA' }))).body;
    expect(row).toEqual([
      {
        id: docs.a,
        processId: P,
        filename: 'alpha.txt',
        documentType: 'TEXTFILE',
        status: 'WAITING',
        issueCount: 2,
        resolvedCount: 1,
        commentCount: 1,
      },
    ]);
  });

  it('filters by status and filename, and counts only the matching issues', async () => {
    const sorted = '&sort=filename,asc';
    expect(await rows(adminToken, inP({ type: 'ISSUE_STATUS', value: 'RESOLVED' }), sorted)).toEqual([
      ['a', 1, 1, 0],
    ]);
    expect(await rows(adminToken, inP({ type: 'ISSUE_STATUS', value: 'ACTIVE' }), sorted)).toEqual([
      ['a', 1, 0, 1],
      ['b', 2, 0, 3],
      ['e', 1, 0, 0],
      ['c', 2, 0, 0],
    ]);
    expect(await rows(adminToken, inP(ALL, { type: 'NAME', value: 'ta.t' }), sorted)).toEqual([
      ['b', 2, 0, 3],
    ]);
  });

  it('lists My issues: the issues the user raised or commented on (automatic replies do not count)', async () => {
    const mine = (u: BuiltUser) => inP({ type: 'ISSUE_USER', value: u.id });
    const sorted = '&sort=filename,asc';
    expect(await rows(writerToken, mine(writer), sorted)).toEqual([
      ['a', 1, 0, 1], // raised
      ['b', 1, 0, 3], // commented
      ['c', 1, 0, 0], // raised
    ]);
    expect(await rows(otherToken, mine(other), sorted)).toEqual([
      ['a', 2, 1, 1],
      ['b', 2, 0, 3],
      ['c', 1, 0, 0],
    ]);
    // the admin's automatic replies on a's issues do not make them theirs
    expect(await rows(adminToken, mine(admin), sorted)).toEqual([
      ['b', 1, 0, 3],
      ['e', 1, 0, 0],
    ]);
    expect(
      await rows(
        writerToken,
        inP({ type: 'ISSUE_USER', value: writer.id }, { type: 'ISSUE_STATUS', value: 'RESOLVED' }),
      ),
    ).toEqual([]);
  });

  it('lists Without replies (active issues without a comment) for process admins only', async () => {
    const withoutReplies = inP(
      { type: 'ISSUE_EMPTY_REPLIES', value: true },
      { type: 'ISSUE_STATUS', value: 'ACTIVE' },
    );
    expect(await rows(adminToken, withoutReplies, '&sort=filename,asc')).toEqual([
      ['b', 1, 0, 0],
      ['e', 1, 0, 0],
      ['c', 2, 0, 0],
    ]);
    // without the status: a's resolved issue has only its automatic reply
    expect(
      await rows(adminToken, inP({ type: 'ISSUE_EMPTY_REPLIES', value: true }), '&sort=filename,asc'),
    ).toEqual([
      ['a', 1, 1, 0],
      ['b', 1, 0, 0],
      ['e', 1, 0, 0],
      ['c', 2, 0, 0],
    ]);
    for (const token of [writerToken, nodeToken, await suite.userWith(P, 'READ')]) {
      const res = await list(token, withoutReplies);
      expect(res.status).toBe(403);
      expect((res.body as unknown as { key: string }).key).toBe('documentInfo.withoutRepliesForAdmins');
    }
    // someone else's issues are for process admins too
    const others = await list(writerToken, inP({ type: 'ISSUE_USER', value: other.id }));
    expect(others.status).toBe(403);
    expect((others.body as unknown as { key: string }).key).toBe('documentInfo.othersIssuesForAdmins');
    expect((await list(adminToken, inP({ type: 'ISSUE_USER', value: other.id }))).status).toBe(200);
  });

  it("hides from a node-only grantee the documents outside their nodes and issues on other nodes' tags", async () => {
    // nodeUser holds s1 only: e (s2 only) is out; b's TAG issue on s2 and c's RELATION to s2 are hidden
    expect(await rows(nodeToken, inP(ALL), '&sort=filename,asc')).toEqual([
      ['a', 2, 1, 1],
      ['b', 1, 0, 3],
      ['c', 1, 0, 0],
    ]);
    expect(await rows(nodeToken, inP({ type: 'ISSUE_USER', value: nodeUser.id }))).toEqual([]);
  });

  it('refuses another process and mixes none of its issues in', async () => {
    expect((await list(adminToken, [{ type: 'PROCESS', value: Q }, ALL])).status).toBe(403);
    const stranger = await suite.signIn(await buildUser(suite.knex));
    expect((await list(stranger, inP(ALL))).status).toBe(403);
    expect((await list(nodeToken, [{ type: 'PROCESS', value: Q }, ALL])).status).toBe(403);
    // the writer raised an issue in Q: My issues of P does not show it
    expect(
      (await rows(writerToken, inP({ type: 'ISSUE_USER', value: writer.id }))).map((r) => r[0]),
    ).not.toContain('q');
    expect((await rows(suite.admin, inP(ALL))).map((r) => r[0]).sort()).toEqual(['a', 'b', 'c', 'e']);
  });

  it('pages by 10, 20 or 50 with the total of documents with issues in X-Total-Count', async () => {
    const k = suite.knex;
    const R = (await buildProcess(k)).id;
    const upload = (await insertObligatoryUploadNode(k, R)).id;
    for (let i = 1; i <= 25; i++) {
      const d = await insertDocument(k, R, upload, `doc-${String(i).padStart(2, '0')}.txt`);
      await insertIssue(k, d, {
        userId: admin.id,
        replies: Array.from({ length: i % 4 }, () => ({ userId: writer.id })),
      });
    }
    await insertDocument(k, R, upload, 'no-issue.txt');
    const page = async (query: string) => {
      const res = await suite.send<Row[]>('POST', `/api/v2/document-info?paged=true${query}`, suite.admin, {
        paged: true,
        filters: [{ type: 'PROCESS', value: R }, ALL],
      });
      expect(res.status).toBe(200);
      expect(res.headers.get('x-total-count')).toBe('25');
      return res.body.map((r) => r.filename);
    };
    expect(await page('&page=0&size=10&sort=filename,asc')).toEqual(
      Array.from({ length: 10 }, (_, i) => `doc-${String(i + 1).padStart(2, '0')}.txt`),
    );
    expect(await page('&page=2&size=10&sort=filename,asc')).toEqual([
      'doc-21.txt',
      'doc-22.txt',
      'doc-23.txt',
      'doc-24.txt',
      'doc-25.txt',
    ]);
    expect(await page('&page=3&size=10&sort=filename,asc')).toEqual([]);
    expect(await page('&page=0&size=20')).toHaveLength(20);
    expect(await page('&page=0&size=50')).toHaveLength(25);
    // comment counts 3 first (i % 4 = 3: 23, 19, 15, 11, 7, 3 by id desc), then 2...
    expect((await page('&page=0&size=10&sort=commentCount,desc')).slice(0, 7)).toEqual([
      'doc-23.txt',
      'doc-19.txt',
      'doc-15.txt',
      'doc-11.txt',
      'doc-07.txt',
      'doc-03.txt',
      'doc-22.txt',
    ]);
    // the last pages read from the end (domain/paging.ts): the pages the numbering gives, in the sort's order
    expect(await page('&last=true&size=10&sort=filename,asc')).toEqual(
      await page('&page=2&size=10&sort=filename,asc'),
    );
    expect(await page('&last=true&page=1&size=10&sort=filename,asc')).toEqual(
      Array.from({ length: 10 }, (_, i) => `doc-${String(i + 11).padStart(2, '0')}.txt`),
    );
    expect(await page('&last=true&size=10&sort=commentCount,desc')).toEqual(
      await page('&page=2&size=10&sort=commentCount,desc'),
    );
    expect(await page('&last=true&page=3&size=10')).toEqual([]);
    const bad = await suite.send('POST', '/api/v2/document-info?size=7', suite.admin, {
      filters: [{ type: 'PROCESS', value: R }, ALL],
    });
    expect(bad.status).toBe(400);
    // no keyset cursor in the issue view
    const cursor = Buffer.from(JSON.stringify({ id: 1 })).toString('base64url');
    const withCursor = await suite.send('POST', `/api/v2/document-info?before=${cursor}`, suite.admin, {
      filters: [{ type: 'PROCESS', value: R }, ALL],
    });
    expect(withCursor.status).toBe(400);
  });

  it('answers bad issue filters with 400 and field errors', async () => {
    const bad = async (filters: unknown[]) => {
      const res = await list(adminToken, filters);
      expect(res.status).toBe(400);
      return (res.body as unknown as { fieldErrors: { field: string; key: string }[] }).fieldErrors.map(
        (e) => e.field,
      );
    };
    expect((await bad(inP({ type: 'ISSUE_STATUS', value: 'OPEN' })))[0]).toMatch(/^filters\.1/);
    expect((await bad(inP({ type: 'ISSUE_USER', value: 'me' })))[0]).toMatch(/^filters\.1/);
    expect((await bad(inP({ type: 'ISSUE_EMPTY_REPLIES', value: false })))[0]).toMatch(/^filters\.1/);
    expect(
      await bad(inP({ type: 'ISSUE_STATUS', value: 'ACTIVE' }, { type: 'ISSUE_STATUS', value: 'RESOLVED' })),
    ).toEqual(['filters']);
  });
});
