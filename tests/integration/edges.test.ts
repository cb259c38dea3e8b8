/**
 * Edges API: listing, the whitelist, creation refused by the edge rules (400 edgeNotAllowed) or by cohesion
 * (422 noCohesive), deletion guarded by cohesion, and access. Other suites share the database.
 */
import type { EdgeDTO } from '../../domain/graph-types';
import { buildProcess, buildUser, MISSING_ID, setupSuite } from '../support/harness';

describe('edges API', () => {
  const suite = setupSuite();
  const { knex, get, send, signIn, node, edge, userWith } = suite;
  const connect = (fromId: number, toId: number, token = suite.admin) =>
    send('POST', '/api/edges', token, { fromId, toId });
  const expectRefused = async (fromId: number, toId: number) => {
    const res = await connect(fromId, toId);
    expect({ fromId, toId, status: res.status, message: res.body.message }).toEqual({
      fromId,
      toId,
      status: 400,
      message: 'error.graph.edgeNotAllowed',
    });
    expect(res.headers.get('x-soaapp-error')).toBe('error.graph.edgeNotAllowed');
  };

  it('serves the edge whitelist: every type to every non-upload type', async () => {
    const res = await get('/api/edges/whitelist', await signIn(await buildUser(knex)));
    expect(res.status).toBe(200);
    expect(Object.keys(res.body)).toHaveLength(15);
    expect(res.body.HUP).toEqual(expect.arrayContaining(['FILE_PARSER', 'CLF', 'SEND_MAIL']));
    for (const targets of Object.values(res.body) as string[][]) {
      expect(targets).not.toEqual(expect.arrayContaining(['HUP']));
      expect(targets).toHaveLength(10);
    }
    expect((await get('/api/edges/whitelist')).status).toBe(401);
  });

  it('adds edges (201) and lists them for READ; 403 without a mode, 401 anonymous', async () => {
    const process = await buildProcess(knex);
    const up = await node(process.id, 'HUP');
    const parser = await node(process.id, 'FILE_PARSER');
    const clf = await node(process.id, 'CLF');
    const created = await connect(up.id, parser.id);
    expect(created.status).toBe(201);
    expect(created.body).toEqual({
      id: expect.any(Number),
      fromId: up.id,
      toId: parser.id,
      processId: process.id,
    });
    const second = await edge(parser.id, clf.id);
    const res = await get(`/api/edges?processId=${process.id}`, await userWith(process.id, 'READ'));
    expect(res.status).toBe(200);
    expect(res.body.map((e: EdgeDTO) => [e.id, e.fromId, e.toId])).toEqual([
      [created.body.id, up.id, parser.id],
      [second.id, parser.id, clf.id],
    ]);
    expect(
      (await get(`/api/edges?processId=${process.id}`, await signIn(await buildUser(knex)))).status,
    ).toBe(403);
    expect((await get(`/api/edges?processId=${process.id}`)).status).toBe(401);
  });

  it('refuses an upload-type target, a self-loop, a duplicate, a cycle and a shortcut (400)', async () => {
    const process = await buildProcess(knex);
    const up = await node(process.id, 'HUP');
    const ipr = await node(process.id, 'IPR');
    const a = await node(process.id, 'FILE_PARSER');
    const b = await node(process.id, 'CLF');
    const c = await node(process.id, 'SPAN');
    await edge(up.id, a.id);
    await edge(a.id, b.id);
    await edge(b.id, c.id);
    await expectRefused(c.id, ipr.id); // upload target
    await expectRefused(a.id, up.id); // upload target
    await expectRefused(b.id, b.id); // self-loop
    await expectRefused(a.id, b.id); // duplicate
    await expectRefused(c.id, a.id); // cycle
    await expectRefused(a.id, c.id); // shortcut
    expect((await connect(ipr.id, a.id)).status).toBe(201); // a second source joins the graph
  });

  it('refuses an edge to a node of another process, 404 for a missing node', async () => {
    const p1 = await buildProcess(knex);
    const p2 = await buildProcess(knex);
    const a = await node(p1.id, 'HUP');
    const b = await node(p2.id, 'CLF');
    await expectRefused(a.id, b.id);
    expect((await connect(a.id, MISSING_ID)).status).toBe(404);
  });

  it('refuses (422 noCohesive) an edge that would leave two separate connected parts', async () => {
    const process = await buildProcess(knex);
    const up = await node(process.id, 'HUP');
    const parser = await node(process.id, 'FILE_PARSER');
    const mailUp = await node(process.id, 'EMAIL_UPLOAD');
    const lexicon = await node(process.id, 'LEXICON');
    await edge(up.id, parser.id);
    const res = await connect(mailUp.id, lexicon.id);
    expect(res.status).toBe(422);
    expect(res.body.key).toBe('error.graph.noCohesive');
    expect(await knex('edges').where({ from_id: mailUp.id })).toEqual([]);
    // Joined to the existing part it is fine.
    await edge(parser.id, lexicon.id);
    expect((await connect(mailUp.id, lexicon.id)).status).toBe(201);
  });

  it('needs ADMIN on the process to add (403 for READ, 401 anonymous)', async () => {
    const process = await buildProcess(knex);
    const a = await node(process.id, 'HUP');
    const b = await node(process.id, 'CLF');
    expect((await connect(a.id, b.id, await userWith(process.id, 'READ'))).status).toBe(403);
    expect((await send('POST', '/api/edges', undefined, { fromId: a.id, toId: b.id })).status).toBe(401);
    expect((await connect(a.id, b.id, await userWith(process.id, 'ADMIN'))).status).toBe(201);
  });

  describe('DELETE /api/edges/:id', () => {
    it('removes an edge at the end of a path (204) with its predicates', async () => {
      const process = await buildProcess(knex);
      const up = await node(process.id, 'HUP');
      const clf = await node(process.id, 'CLF');
      const mail = await node(process.id, 'SEND_MAIL');
      await edge(up.id, clf.id);
      const last = await edge(clf.id, mail.id);
      await knex('predicates').insert({
        edge_id: last.id,
        predicate_type: 'COMPLEX',
        logical_operator: 'AND',
      });
      expect((await send('DELETE', `/api/edges/${last.id}`, await userWith(process.id, 'READ'))).status).toBe(
        403,
      );
      expect((await send('DELETE', `/api/edges/${last.id}`, undefined)).status).toBe(401);
      const res = await send('DELETE', `/api/edges/${last.id}`, suite.admin);
      expect(res.status).toBe(204);
      expect(await knex('edges').where('id', last.id)).toEqual([]);
      expect(await knex('predicates').where('edge_id', last.id)).toEqual([]);
      expect((await send('DELETE', `/api/edges/${last.id}`, suite.admin)).status).toBe(404);
    });

    it('refuses (422 noCohesive) to remove an edge that holds the graph together', async () => {
      const process = await buildProcess(knex);
      const up = await node(process.id, 'HUP');
      const a = await node(process.id, 'FILE_PARSER');
      const b = await node(process.id, 'CLF');
      const c = await node(process.id, 'SPAN');
      await edge(up.id, a.id);
      const middle = await edge(a.id, b.id);
      await edge(b.id, c.id);
      const res = await send('DELETE', `/api/edges/${middle.id}`, suite.admin);
      expect(res.status).toBe(422);
      expect(res.body.key).toBe('error.graph.noCohesive');
      expect(await knex('edges').where('id', middle.id)).toHaveLength(1);
    });
  });
});
