/**
 * CRON and THRESHOLD triggers of action nodes (issue 5): documents reaching such a node are collected and
 * move on; the action runs once per batch with the aggregate of the collected documents. A local HTTP server
 * receives the send-request node's requests. The CRON node's Temporal Schedule is kept in step with the node
 * through the node API (created on save, paused when the trigger changes, deleted with the node).
 */
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { ScheduleNotFoundError } from '@temporalio/client';
import { actionNodeScheduleId } from '../../workflows/action-contract';
import {
  GraphBuilder,
  eventually,
  setupEngineSuite,
  startDocument,
  startWorkers,
  stepReaching,
} from '../support/engine';

jest.setTimeout(90_000);

interface Received {
  url: string;
  body: string;
}

describe('CRON and THRESHOLD triggers', () => {
  const s = setupEngineSuite('triggers', { worker: false });
  let workers: { stop(): Promise<void> } | undefined;
  let web: http.Server;
  let base: string;
  const requests: Received[] = [];

  beforeAll(async () => {
    web = http.createServer((req, res) => {
      const chunks: Buffer[] = [];
      req.on('data', (c: Buffer) => chunks.push(c));
      req.on('end', () => {
        requests.push({ url: req.url!, body: Buffer.concat(chunks).toString('utf8') });
        res.writeHead(200, { 'Content-Type': 'text/plain' });
        res.end('ok');
      });
    });
    await new Promise<void>((r) => web.listen(0, '127.0.0.1', r));
    base = `http://127.0.0.1:${(web.address() as AddressInfo).port}`;
    workers = await startWorkers(s, [{ taskQueue: s.taskQueue, outboundAllowlist: ['127.0.0.1'] }]);
  });

  afterAll(async () => {
    await workers?.stop();
    await new Promise<void>((r) => web.close(() => r()));
  });

  const to = (path: string) => requests.filter((r) => r.url === path);

  /** HUP -> SEND_REQUEST (the trigger given) -> CLF, the request posting the aggregate to `path`. */
  async function triggerGraph(
    path: string,
    trigger: { triggerType: string; cron?: string; threshold?: number },
  ) {
    const g = await GraphBuilder.create(s.knex);
    const hup = await g.node('HUP');
    const action = await g.node('SEND_REQUEST', { automatic: true, autoStepStatus: 'ACCEPTED' });
    const after = await g.node('CLF');
    await s
      .knex('nodes')
      .where('id', action)
      .update({
        trigger_type: trigger.triggerType,
        cron: trigger.cron ?? null,
        threshold: trigger.threshold ?? null,
        settings: JSON.stringify({
          httpRequestMethod: 'POST',
          url: `${base}${path}`,
          headers: {},
          requestBody: {
            bodyType: 'PLAIN_TEXT',
            plainTextBody: 'ids=${document.id};files=${document.filename};process=${process.name}',
          },
        }),
      });
    await g.edge(hup, action);
    await g.edge(action, after);
    return { g, hup, action, after };
  }

  const results = (nodeId: number) =>
    s.knex('action_execution_results').where('node_id', nodeId).orderBy('id');

  it('THRESHOLD 3: the first two documents move on without a send, the third sends the three once', async () => {
    const { g, hup, action, after } = await triggerGraph('/threshold', {
      triggerType: 'THRESHOLD',
      threshold: 3,
    });
    const docs = [];
    for (const name of ['a.txt', 'b.txt']) {
      const doc = await startDocument(s, g, hup, { name });
      docs.push(doc);
      // Collected, the document goes on to the next node.
      await stepReaching(s.knex, doc.id, action, ['ACCEPTED']);
      await stepReaching(s.knex, doc.id, after, ['WAITING']);
    }
    expect(to('/threshold')).toHaveLength(0);
    expect(await results(action)).toHaveLength(0);

    const third = await startDocument(s, g, hup, { name: 'c.txt' });
    docs.push(third);
    await stepReaching(s.knex, third.id, after, ['WAITING']);
    const [row] = await eventually('the batch result', async () => {
      const rows = await results(action);
      return rows.length && rows[0].status === 'SUCCESS' ? rows : undefined;
    });
    expect(row).toMatchObject({ step_id: null, document_id: null });
    expect(row.batch_id).not.toBeNull();
    const process = await s.knex('processes').where('id', g.processId).first('name');
    expect(to('/threshold')).toEqual([
      {
        url: '/threshold',
        body: `ids=${docs.map((d) => d.id).join(', ')};files=a.txt, b.txt, c.txt;process=${process.name}`,
      },
    ]);
    const batch = await s.knex('action_batches').where('id', row.batch_id).first();
    expect(batch.reason).toBe('THRESHOLD');

    // A fourth document starts a new count: nothing is sent for it alone.
    const fourth = await startDocument(s, g, hup, { name: 'd.txt' });
    await stepReaching(s.knex, fourth.id, after, ['WAITING']);
    const pending = await s.knex('action_trigger_items').where({ node_id: action }).whereNull('batch_id');
    expect(pending.map((p) => p.document_id)).toEqual([fourth.id]);
    expect(to('/threshold')).toHaveLength(1);

    // execute-action runs it now, for what was collected; an ALWAYS node is refused; READ may not.
    const run = await s.send('POST', `/api/action-nodes/${action}/execute-action`, s.admin);
    expect(run.status).toBe(200);
    expect(run.body).toMatchObject({ nodeId: action, status: 'SUCCESS', documents: 1 });
    expect(to('/threshold').map((r) => r.body)).toEqual([
      expect.any(String),
      `ids=${fourth.id};files=d.txt;process=${process.name}`,
    ]);
    const reader = await s.userWith(g.processId, 'READ');
    expect((await s.send('POST', `/api/action-nodes/${action}/execute-action`, reader)).status).toBe(403);
    await s.knex('nodes').where('id', action).update({ trigger_type: 'ALWAYS' });
    const always = await s.send('POST', `/api/action-nodes/${action}/execute-action`, s.admin);
    expect(always.status).toBe(400);
    expect(always.body.detail).toMatch(/trigger ALWAYS/);
    expect((await s.send('POST', `/api/action-nodes/${hup}/execute-action`, s.admin)).status).toBe(400);
  });

  it('CRON: the schedule made on save sends what was collected once per tick with documents', async () => {
    const { g, hup, action, after } = await triggerGraph('/cron', { triggerType: 'ALWAYS' });
    const docs = [];
    // Collected before the schedule exists: the node is switched to CRON below, through the API.
    await s.knex('nodes').where('id', action).update({ trigger_type: 'CRON', cron: '0 0 0 1 1 ? 2099' });
    for (const name of ['x.txt', 'y.txt']) {
      const doc = await startDocument(s, g, hup, { name });
      docs.push(doc);
      await stepReaching(s.knex, doc.id, after, ['WAITING']);
    }
    expect(to('/cron')).toHaveLength(0);

    const node = (await s.get(`/api/nodes/${action}`, s.admin)).body;
    const saved = await s.send('PUT', '/api/nodes', s.admin, {
      ...node,
      triggerType: 'CRON',
      cron: '*/2 * * * * ?',
    });
    expect(saved.status).toBe(200);
    const schedule = s.client.schedule.getHandle(actionNodeScheduleId(action));
    const described = await schedule.describe();
    expect(described.state.paused).toBe(false);
    expect(described.spec.calendars?.length).toBe(1);

    await eventually('the CRON send', async () => (to('/cron').length ? true : undefined), 20_000);
    const process = await s.knex('processes').where('id', g.processId).first('name');
    expect(to('/cron')[0].body).toBe(
      `ids=${docs.map((d) => d.id).join(', ')};files=x.txt, y.txt;process=${process.name}`,
    );
    // Later ticks find nothing collected and send nothing.
    const runs = (await schedule.describe()).info.numActionsTaken;
    await eventually(
      'two more ticks',
      async () => ((await schedule.describe()).info.numActionsTaken >= runs + 2 ? true : undefined),
      20_000,
    );
    await eventually('the ticks finished', async () => {
      const recent = (await schedule.describe()).info.runningActions;
      return recent.length === 0 ? true : undefined;
    });
    expect(to('/cron')).toHaveLength(1);
    expect((await results(action)).map((r) => r.status)).toEqual(['SUCCESS']);

    // Switching the trigger away pauses the schedule; deleting the node deletes it.
    const away = await s.send('PUT', '/api/nodes', s.admin, { ...saved.body, triggerType: 'ALWAYS' });
    expect(away.status).toBe(200);
    expect((await schedule.describe()).state.paused).toBe(true);
    await s.knex('edges').where('from_id', action).orWhere('to_id', action).delete();
    expect((await s.send('DELETE', `/api/nodes/${action}`, s.admin)).status).toBe(204);
    await expect(schedule.describe()).rejects.toBeInstanceOf(ScheduleNotFoundError);
  });
});
