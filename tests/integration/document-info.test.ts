/**
 * `POST api/v2/document-info` (spec 2 section 7): the list of one process's documents behind the documents
 * dashboard and the workspace's documents panel. Filters (status, name, assignee, unassigned, step, ids),
 * paging with the total in X-Total-Count, sorting, the visibility per mode (process admins list everything,
 * others their own or the unassigned documents, node-only grantees only documents passing their nodes),
 * another process refused, bad input answered 400 with field errors, and the plans of the page query on a
 * few thousand documents use the indexes. Documents and steps are inserted directly (no workflow).
 */
import { insertObligatoryUploadNode } from '../../db/queries/nodes';
import { explainDocumentInfo } from '../../db/queries/document-info';
import type { DocumentInfoDTO } from '../../domain/document-info';
import { insertDocument as insertDocumentOf } from '../support/documents';
import { buildProcess, buildUser, insertNode, setupSuite, type BuiltUser } from '../support/harness';

type DocumentArgs = Parameters<typeof insertDocumentOf> extends [unknown, ...infer R] ? R : never;

describe('document-info API', () => {
  const suite = setupSuite();
  let P: number;
  let Q: number;
  let upload: number;
  let clf: number;
  let span: number;
  let admin: string;
  let writer: BuiltUser;
  let writerToken: string;
  let other: BuiltUser;
  let nodeUser: BuiltUser;
  let nodeToken: string;
  /** the documents of P by name */
  const docs: Record<string, number> = {};
  let qDoc: number;

  const insertDocument = (...args: DocumentArgs) => insertDocumentOf(suite.knex, ...args);

  const list = (token: string, filters: unknown[], query = '') =>
    suite.send<DocumentInfoDTO[]>('POST', `/api/v2/document-info?paged=true${query}`, token, {
      paged: true,
      filters,
    });
  const inP = (...more: unknown[]) => [{ type: 'PROCESS', value: P }, ...more];
  const names = (res: { body: DocumentInfoDTO[] }) =>
    res.body.map((d) => Object.entries(docs).find(([, id]) => id === d.id)?.[0] ?? `?${d.id}`);

  beforeAll(async () => {
    const k = suite.knex;
    P = (await buildProcess(k)).id;
    Q = (await buildProcess(k)).id;
    upload = (await insertObligatoryUploadNode(k, P)).id;
    clf = (await insertNode(k, P, 'CLF')).id;
    span = (await insertNode(k, P, 'SPAN')).id;
    const qUpload = (await insertObligatoryUploadNode(k, Q)).id;
    admin = await suite.userWith(P, 'ADMIN');
    writer = await buildUser(k, { authorities: [{ componentId: P, type: 'PROCESS', mode: 'WRITE' }] });
    writerToken = await suite.signIn(writer);
    other = await buildUser(k, { authorities: [{ componentId: P, type: 'PROCESS', mode: 'WRITE' }] });
    nodeUser = await buildUser(k, { authorities: [{ componentId: span, type: 'NODE', mode: 'WRITE' }] });
    nodeToken = await suite.signIn(nodeUser);
    // Inserted in this order: ids ascend a..g.
    docs.a = await insertDocument(P, upload, 'alpha.txt', {
      assignees: [writer.id],
      blockedBy: writer.id,
      steps: [
        [upload, 'ACCEPTED'],
        [clf, 'WAITING'],
      ],
    });
    docs.b = await insertDocument(P, upload, 'beta 100%.txt', {
      status: 'DONE',
      assignees: [writer.id, other.id],
      steps: [
        [upload, 'ACCEPTED'],
        [clf, 'DONE'],
        [span, 'ACCEPTED'],
      ],
    });
    docs.c = await insertDocument(P, upload, 'gamma.pdf', {
      assignees: [other.id],
      steps: [
        [upload, 'ACCEPTED'],
        [clf, 'DONE'],
        [span, 'WAITING'],
      ],
    });
    docs.d = await insertDocument(P, upload, 'delta.txt', { steps: [[upload, 'ACCEPTED']] });
    docs.e = await insertDocument(P, upload, 'beta 2.txt', {
      steps: [
        [upload, 'ACCEPTED'],
        [clf, 'ERROR'],
      ],
    });
    docs.f = await insertDocument(P, upload, 'epsilon.txt', {
      assignees: [nodeUser.id],
      steps: [
        [upload, 'ACCEPTED'],
        [span, 'WAITING'],
      ],
    });
    docs.g = await insertDocument(P, upload, 'zeta.txt', {
      status: 'DONE',
      steps: [
        [upload, 'ACCEPTED'],
        [span, 'DONE'],
      ],
    });
    qDoc = await insertDocument(Q, qUpload, 'alpha.txt', { assignees: [writer.id] });
  });

  it('lists a process admin every document of the process, newest first, with steps, assignees and blocker', async () => {
    const res = await list(admin, inP());
    expect(res.status).toBe(200);
    expect(names(res)).toEqual(['g', 'f', 'e', 'd', 'c', 'b', 'a']);
    expect(res.headers.get('x-total-count')).toBe('7');
    const a = res.body.find((d) => d.id === docs.a)!;
    expect(a).toMatchObject({
      processId: P,
      filename: 'alpha.txt',
      status: 'WAITING',
      documentType: 'TEXTFILE',
      blockedBy: { id: writer.id, login: writer.login },
    });
    expect(a.assignees.map((u) => u.id)).toEqual([writer.id]);
    expect(a.steps.map((s) => [s.order, s.nodeId, s.status, s.activityType])).toEqual([
      [1, upload, 'ACCEPTED', 'HUP'],
      [2, clf, 'WAITING', 'CLF'],
    ]);
    expect(res.body.find((d) => d.id === docs.b)!.assignees.map((u) => u.id)).toEqual(
      [writer.id, other.id].sort((x, y) => x - y),
    );
    expect(res.body.every((d) => d.processId === P)).toBe(true);
  });

  it('pages with page and size, and sorts by id or filename', async () => {
    const page0 = await list(admin, inP(), '&page=0&size=10&sort=id,asc');
    expect(names(page0)).toEqual(['a', 'b', 'c', 'd', 'e', 'f', 'g']);
    const page1 = await list(admin, inP(), '&page=1&size=10');
    expect(page1.body).toEqual([]);
    expect(page1.headers.get('x-total-count')).toBe('7');
    expect(names(await list(admin, inP(), '&sort=filename,asc'))).toEqual([
      'a',
      'b',
      'e',
      'd',
      'f',
      'c',
      'g',
    ]);
    expect(names(await list(admin, inP(), '&sort=filename,desc'))).toEqual([
      'g',
      'c',
      'f',
      'd',
      'e',
      'b',
      'a',
    ]);
  });

  it('filters by status, name, assignee, unassigned, step and ids, and combines them', async () => {
    const f = async (...filters: unknown[]) => {
      const res = await list(admin, inP(...filters));
      expect(res.status).toBe(200);
      expect(res.headers.get('x-total-count')).toBe(String(res.body.length));
      return names(res);
    };
    expect(await f({ type: 'STATUS', value: 'DONE' })).toEqual(['g', 'b']);
    expect(await f({ type: 'NAME', value: 'BETA' })).toEqual(['e', 'b']);
    expect(await f({ type: 'NAME', value: '100%' })).toEqual(['b']); // % is literal
    expect(await f({ type: 'NAME', value: 'a_p' })).toEqual([]); // _ is literal
    expect(await f({ type: 'ASSIGNEE', value: [writer.id] })).toEqual(['b', 'a']);
    expect(await f({ type: 'ASSIGNEE', value: [writer.id, other.id] })).toEqual(['c', 'b', 'a']);
    expect(await f({ type: 'UNASSIGNED', value: true })).toEqual(['g', 'e', 'd']);
    expect(await f({ type: 'STEP', value: { nodeId: clf, statuses: ['DONE', 'ERROR'] } })).toEqual([
      'e',
      'c',
      'b',
    ]);
    // two step filters: both must hold
    expect(
      await f(
        { type: 'STEP', value: { nodeId: clf, statuses: ['DONE'] } },
        { type: 'STEP', value: { nodeId: span, statuses: ['WAITING'] } },
      ),
    ).toEqual(['c']);
    expect(await f({ type: 'DOCUMENT_IDS', value: [docs.a, docs.c, qDoc] })).toEqual(['c', 'a']);
    expect(
      await f(
        { type: 'STATUS', value: 'WAITING' },
        { type: 'ASSIGNEE', value: [other.id] },
        { type: 'NAME', value: 'gam' },
      ),
    ).toEqual(['c']);
  });

  it('lets a writer list their own and the unassigned documents only', async () => {
    const mine = await list(writerToken, inP({ type: 'ASSIGNEE', value: [writer.id] }));
    expect(mine.status).toBe(200);
    expect(names(mine)).toEqual(['b', 'a']); // never Q's document assigned to them
    const waiting = await list(
      writerToken,
      inP({ type: 'ASSIGNEE', value: [writer.id] }, { type: 'STATUS', value: 'WAITING' }),
    );
    expect(names(waiting)).toEqual(['a']);
    expect(names(await list(writerToken, inP({ type: 'UNASSIGNED', value: true })))).toEqual(['g', 'e', 'd']);
    const all = await list(writerToken, inP());
    expect(all.status).toBe(403);
    expect((all.body as unknown as { key: string }).key).toBe('documentInfo.allDocumentsForAdmins');
    const others = await list(writerToken, inP({ type: 'ASSIGNEE', value: [writer.id, other.id] }));
    expect(others.status).toBe(403);
    expect((others.body as unknown as { key: string }).key).toBe('documentInfo.othersDocumentsForAdmins');
    const reader = await suite.userWith(P, 'READ');
    expect((await list(reader, inP())).status).toBe(403);
    expect((await list(reader, inP({ type: 'UNASSIGNED', value: true }))).status).toBe(200);
  });

  it('lists as MINE the documents assigned to the caller or uploaded by them, for themselves only', async () => {
    const uploaded = await insertDocument(P, upload, 'my upload.txt', { createdBy: writer.id });
    try {
      const mine = await list(writerToken, inP({ type: 'MINE', value: writer.id }));
      expect(mine.status).toBe(200);
      expect(names(mine)).toEqual([`?${uploaded}`, 'b', 'a']); // newest first
      const others = await list(writerToken, inP({ type: 'MINE', value: other.id }));
      expect(others.status).toBe(403);
      expect((others.body as unknown as { key: string }).key).toBe('documentInfo.othersDocumentsForAdmins');
    } finally {
      await suite.knex('documents').where('id', uploaded).delete();
    }
  });

  it('shows a node-only grantee only the documents passing through their nodes', async () => {
    const mine = await list(nodeToken, inP({ type: 'ASSIGNEE', value: [nodeUser.id] }));
    expect(mine.status).toBe(200);
    expect(names(mine)).toEqual(['f']);
    // unassigned documents with a SPAN step: g only (d and e never reached the SPAN node)
    expect(names(await list(nodeToken, inP({ type: 'UNASSIGNED', value: true })))).toEqual(['g']);
    expect((await list(nodeToken, inP())).status).toBe(403);
  });

  it("refuses another process's list and never mixes processes (no IDOR)", async () => {
    // ADMIN on P, nothing on Q
    const res = await list(admin, [{ type: 'PROCESS', value: Q }]);
    expect(res.status).toBe(403);
    const stranger = await suite.signIn(await buildUser(suite.knex));
    expect((await list(stranger, inP({ type: 'UNASSIGNED', value: true }))).status).toBe(403);
    // an unknown process answers like an unreachable one
    expect((await list(admin, [{ type: 'PROCESS', value: 987654321 }])).status).toBe(403);
    // ids of Q's documents in the filter of P's list find nothing
    const ids = await list(admin, inP({ type: 'DOCUMENT_IDS', value: [qDoc] }));
    expect([ids.status, ids.body]).toEqual([200, []]);
    // a node-only grantee of P gets nothing of Q
    expect(
      (
        await list(nodeToken, [
          { type: 'PROCESS', value: Q },
          { type: 'UNASSIGNED', value: true },
        ])
      ).status,
    ).toBe(403);
  });

  it('answers bad input with 400 and field errors', async () => {
    const bad = async (filters: unknown, query = '') => {
      const res = await suite.send('POST', `/api/v2/document-info?paged=true${query}`, admin, {
        paged: true,
        filters,
      });
      expect(res.status).toBe(400);
      return (res.body.fieldErrors as { field: string; key: string }[]).map((e) => [e.field, e.key]);
    };
    expect(await bad(inP(), '&size=7')).toEqual([['size', 'entity.validation.pageSize']]);
    // 5 is answered although no pager offers it: the statistics node activity's documents (spec 3 s. 7)
    const five = await suite.send('POST', '/api/v2/document-info?paged=true&size=5', admin, {
      paged: true,
      filters: inP(),
    });
    expect(five.status).toBe(200);
    expect(await bad(inP(), '&size=abc&page=-1')).toEqual([
      ['page', 'entity.validation.number'],
      ['size', 'entity.validation.pageSize'],
    ]);
    expect(await bad(inP(), '&sort=content,asc')).toEqual([['sort', 'entity.validation.sort']]);
    // the comment count sorts the issue view only
    expect(await bad(inP(), '&sort=commentCount,asc')).toEqual([['sort', 'entity.validation.sort']]);
    expect(await bad([])).toEqual([['filters', 'entity.validation.processFilter']]);
    expect(await bad(inP({ type: 'PROCESS', value: P }))).toEqual([
      ['filters', 'entity.validation.processFilter'],
    ]);
    expect(await bad(inP({ type: 'STATUS', value: 'WAITING' }, { type: 'STATUS', value: 'DONE' }))).toEqual([
      ['filters', 'entity.validation.duplicateFilter'],
    ]);
    expect((await bad(inP({ type: 'COLOUR', value: 'red' }))).map(([field]) => field)).toEqual([
      'filters.1.type',
    ]);
    expect((await bad(inP({ type: 'STEP', value: { nodeId: clf, statuses: ['LOST'] } })))[0][0]).toMatch(
      /^filters\.1\.value\.statuses/,
    );
    expect((await bad(inP({ type: 'ASSIGNEE', value: [] })))[0][0]).toBe('filters.1.value');
    expect((await bad('PROCESS'))[0][0]).toBe('filters');
  });

  it('pages a few thousand documents through the indexes (EXPLAIN)', async () => {
    const k = suite.knex;
    const big = (await buildProcess(k)).id;
    const bigUpload = (await insertObligatoryUploadNode(k, big)).id;
    const bigNode = (await insertNode(k, big, 'SPAN')).id;
    const beside = (await buildProcess(k)).id;
    const besideUpload = (await insertObligatoryUploadNode(k, beside)).id;
    // 4,000 documents of the process interleaved with 4,000 of another one
    await k.raw(
      `insert into documents (process_id, upload_node_id, filename, path, content_hash, mime_type, size,
         document_type, status)
       select case when i % 2 = 0 then ?::bigint else ?::bigint end, case when i % 2 = 0 then ?::bigint else ?::bigint end,
         'doc-' || i || '.txt', 'x/y/' || md5(i::text), md5(i::text), 'text/plain', 1, 'TEXTFILE',
         case when i % 5 = 0 then 'DONE' else 'WAITING' end
       from generate_series(1, 8000) i`,
      [big, beside, bigUpload, besideUpload],
    );
    await k.raw(
      `insert into steps (document_id, node_id, status, "order")
       select d.id, ?, case when d.id % 3 = 0 then 'DONE' else 'WAITING' end, 1 from documents d where d.process_id = ?`,
      [bigNode, big],
    );
    await k.raw('analyze documents');
    await k.raw('analyze steps');
    await k.raw('analyze document_assignees');
    const page = { offset: 40, limit: 20, sort: 'id,desc' as const };
    const plans = [
      await explainDocumentInfo(k, { processId: big, steps: [] }, page),
      await explainDocumentInfo(k, { processId: big, steps: [], status: 'DONE' }, page),
      await explainDocumentInfo(
        k,
        { processId: big, steps: [{ nodeId: bigNode, statuses: ['DONE'] }], unassigned: true },
        page,
      ),
    ];
    for (const plan of plans) {
      expect(plan).not.toMatch(/Seq Scan on documents/);
      // an index of documents walked in order, or read as a bitmap when the filters leave few rows
      expect(plan).toMatch(/(Index (Only )?Scan( Backward)? using|Bitmap Index Scan on) documents_/);
    }
    expect(plans[2]).not.toMatch(/Seq Scan on steps/);
    const res = await suite.send<DocumentInfoDTO[]>(
      'POST',
      '/api/v2/document-info?page=2&size=20',
      suite.admin,
      {
        paged: true,
        filters: [
          { type: 'PROCESS', value: big },
          { type: 'STATUS', value: 'DONE' },
        ],
      },
    );
    expect(res.status).toBe(200);
    expect(res.headers.get('x-total-count')).toBe('800');
    expect(res.body).toHaveLength(20);
    expect(res.body.every((d) => d.status === 'DONE' && d.steps.length === 1)).toBe(true);
  });
});
