/**
 * Webhooks (issue 32 section 1) end to end on real components: the API, a Worker, Temporal, PostgreSQL and
 * a local HTTP receiver that checks every request with the Standard Webhooks reference library
 * (`standardwebhooks`). The suite's API and Worker allow loopback (the receiver); other private addresses
 * stay refused.
 */
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { Webhook } from 'standardwebhooks';
import { WebhookEventTypes } from '../../domain/webhooks';
import { webhookDeliveryWorkflowId } from '../../workflows/webhook-contract';
import { fieldKeys } from '../support/harness';
import {
  eventually,
  GraphBuilder,
  setupEngineSuite,
  startDocument,
  stepReaching,
  type EngineSuite,
} from '../support/engine';

interface Received {
  path: string;
  id: string;
  verified: boolean;
  body: { type: string; timestamp: string; data: Record<string, any> };
}

const ALL = [...WebhookEventTypes];

describe('webhooks', () => {
  const s: EngineSuite = setupEngineSuite('webhooks', {
    settings: { outboundAllowlist: ['127.0.0.1'] },
    config: { outboundAllowlist: ['127.0.0.1'] },
  });
  let server: http.Server;
  let base: string;
  const received: Received[] = [];
  /** Secret per receiver path (set when the subscription is created). */
  const secrets = new Map<string, string>();
  /** Statuses a path answers in turn before 204. */
  const failures = new Map<string, number[]>();

  beforeAll(async () => {
    server = http.createServer((req, res) => {
      const chunks: Buffer[] = [];
      req.on('data', (c: Buffer) => chunks.push(c));
      req.on('end', () => {
        const raw = Buffer.concat(chunks).toString('utf8');
        const path = req.url!;
        let verified: boolean;
        try {
          new Webhook(secrets.get(path)!).verify(raw, req.headers as Record<string, string>);
          verified = true;
        } catch {
          verified = false;
        }
        received.push({ path, id: String(req.headers['webhook-id']), verified, body: JSON.parse(raw) });
        const status = failures.get(path)?.shift() ?? 204;
        res.writeHead(status).end();
      });
    });
    await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
    base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  });

  afterAll(async () => {
    await new Promise<void>((r) => server.close(() => r()));
  });

  async function subscribe(processId: number, path: string, events = ALL) {
    const res = await s.send('POST', `/api/processes/${processId}/webhooks`, s.admin, {
      url: `${base}${path}`,
      events,
    });
    expect(res.status).toBe(201);
    secrets.set(path, res.body.secret);
    return res.body as { id: number; secret: string };
  }

  /** HUP -> CLF (manual): a walk of one action. */
  async function twoNodeProcess() {
    const g = await GraphBuilder.create(s.knex);
    const hup = await g.node('HUP');
    const clf = await g.node('CLF');
    await g.edge(hup, clf);
    return { g, hup, clf };
  }

  /** Takes the document's step at the node and completes it, as the admin. */
  async function complete(documentId: number, nodeId: number, stepId: number) {
    expect(
      (await s.send('POST', `/api/step/assign?docId=${documentId}&nodeId=${nodeId}`, s.admin)).status,
    ).toBe(200);
    expect((await s.send('PUT', `/api/steps/${stepId}/complete`, s.admin)).status).toBe(200);
  }

  const at = (path: string, documentId?: number) =>
    received.filter(
      (r) => r.path === path && (documentId === undefined || r.body.data.documentId === documentId),
    );

  it('delivers a document walk signed, in order, once per change, and a deletion', async () => {
    const { g, hup, clf } = await twoNodeProcess();
    const hook = await subscribe(g.processId, '/walk');
    expect(hook.secret).toMatch(/^whsec_[A-Za-z0-9+/]{43}=$/);
    // the secret is shown once: the list never answers it
    const list = await s.get(`/api/processes/${g.processId}/webhooks`, s.admin);
    expect(list.body.content).toEqual([expect.objectContaining({ id: hook.id, events: ALL, active: true })]);
    expect(list.body.content[0].secret).toBeUndefined();

    const doc = await startDocument(s, g, hup);
    const step = await stepReaching(s.knex, doc.id, clf, ['WAITING']);
    await complete(doc.id, clf, step.id);
    const admin = (await s.get('/api/account', s.admin)).body;

    const walk = await eventually('the walk delivered', async () => {
      const got = at('/walk', doc.id);
      return got.some((r) => r.body.type === 'document.done') && got;
    });
    expect(walk.every((r) => r.verified)).toBe(true);
    const steps = await s.knex('steps').where('document_id', doc.id).orderBy('order').select('id', 'node_id');
    const [hupStep, clfStep] = steps.map((r) => Number(r.id));
    expect(walk.map((r) => [r.body.type, r.body.data.stepId ?? null, r.body.data.status ?? null])).toEqual([
      ['document.created', null, null],
      ['step.status_changed', hupStep, 'ACCEPTED'],
      ['step.status_changed', clfStep, 'WAITING'],
      ['step.status_changed', clfStep, 'DONE'],
      ['document.done', null, null],
    ]);
    for (const r of walk) expect(r.body.data).toMatchObject({ processId: g.processId, documentId: doc.id });
    const done = walk[3].body;
    expect(done.data).toMatchObject({ nodeId: clf, previousStatus: 'WAITING', who: { userId: admin.id } });
    expect(walk[1].body.data.who).toBeNull();
    // one event per change: distinct ids, and the outbox holds exactly these
    expect(new Set(walk.map((r) => r.id)).size).toBe(walk.length);
    const stored = await s.knex('webhook_events').where('document_id', doc.id).orderBy('id');
    expect(stored.map((e) => e.event_id)).toEqual(walk.map((r) => r.id));

    const log = await s.get(`/api/webhooks/${hook.id}/deliveries`, s.admin);
    expect(log.body.content).toHaveLength(5);
    expect(log.body.content.every((d: any) => d.status === 'DELIVERED' && d.attempts === 1)).toBe(true);
    expect(log.body.content[0]).toMatchObject({ type: 'document.done', responseStatus: 204 });
    expect(typeof log.body.content[0].responseMs).toBe('number');

    expect((await s.send('DELETE', `/api/documents/${doc.id}`, s.admin)).status).toBeLessThan(300);
    const deleted = await eventually('the deletion delivered', async () =>
      at('/walk', doc.id).find((r) => r.body.type === 'document.deleted'),
    );
    expect(deleted.verified).toBe(true);
  });

  it('runs deliveries on the webhook task queue, whether the projection or the API started them', async () => {
    const { g, hup } = await twoNodeProcess();
    const hook = await subscribe(g.processId, '/queue');
    const doc = await startDocument(s, g, hup);
    await eventually('the creation delivered', async () =>
      at('/queue', doc.id).some((r) => r.body.type === 'document.created'),
    );
    // the API's "send test event" starts the pair (subscription, no document)
    expect((await s.send('POST', `/api/webhooks/${hook.id}/test`, s.admin)).status).toBe(202);
    await eventually('the test event delivered', async () =>
      at('/queue').some((r) => r.body.type === 'webhook.test'),
    );
    const queueOf = async (documentId: number) =>
      (
        await s.client.workflow
          .getHandle(webhookDeliveryWorkflowId({ webhookId: hook.id, documentId }))
          .describe()
      ).taskQueue;
    expect(await queueOf(doc.id)).toBe(`${s.taskQueue}-webhooks`);
    expect(await queueOf(0)).toBe(`${s.taskQueue}-webhooks`);
  });

  it('keeps the order per document while several documents walk at once', async () => {
    const { g, hup, clf } = await twoNodeProcess();
    await subscribe(g.processId, '/many', ['step.status_changed', 'document.done']);
    const docs = await Promise.all([1, 2, 3, 4].map(() => startDocument(s, g, hup)));
    await Promise.all(
      docs.map(async (d) => {
        const step = await stepReaching(s.knex, d.id, clf, ['WAITING']);
        await complete(d.id, clf, step.id);
      }),
    );
    for (const d of docs) {
      const got = await eventually(`document ${d.id} delivered`, async () => {
        const r = at('/many', d.id);
        return r.length >= 4 && r;
      });
      expect(got.map((r) => [r.body.type, r.body.data.status ?? null])).toEqual([
        ['step.status_changed', 'ACCEPTED'],
        ['step.status_changed', 'WAITING'],
        ['step.status_changed', 'DONE'],
        ['document.done', null],
      ]);
    }
  });

  it('retries a delivery the receiver refuses twice, with the same event id, and logs each attempt', async () => {
    const g = await GraphBuilder.create(s.knex);
    const hook = await subscribe(g.processId, '/flaky', ['document.done']);
    failures.set('/flaky', [500, 503]);
    const test = await s.send('POST', `/api/webhooks/${hook.id}/test`, s.admin);
    expect(test.status).toBe(202);
    const delivered = await eventually(
      'the test event delivered on the third attempt',
      async () => {
        const log = await s.get(`/api/webhooks/${hook.id}/deliveries`, s.admin);
        const d = log.body.content[0];
        return d?.status === 'DELIVERED' && d;
      },
      60000,
    );
    expect(delivered).toMatchObject({
      attempts: 3,
      responseStatus: 204,
      eventId: test.body.eventId,
      type: 'webhook.test',
    });
    const attempts = at('/flaky');
    expect(attempts.map((r) => r.id)).toEqual([test.body.eventId, test.body.eventId, test.body.eventId]);
    expect(attempts.every((r) => r.verified)).toBe(true);

    // "send again" delivers the same event (same id) once more
    const again = await s.send('POST', `/api/webhooks/${hook.id}/deliveries/${delivered.id}/retry`, s.admin);
    expect(again.status).toBe(202);
    await eventually('sent again', async () => at('/flaky').length === 4);
    expect(at('/flaky')[3].id).toBe(test.body.eventId);
  });

  it('delivers the events that waited behind a retried one in one activity, in order', async () => {
    const { g, hup, clf } = await twoNodeProcess();
    const hook = await subscribe(g.processId, '/batch');
    // The first event is refused twice (retried after 5 s, then 10 s): the walk's later events wait behind it.
    failures.set('/batch', [503, 503]);
    const doc = await startDocument(s, g, hup);
    const step = await stepReaching(s.knex, doc.id, clf, ['WAITING']);
    await complete(doc.id, clf, step.id);
    const got = await eventually(
      'the walk delivered',
      async () => {
        const r = at('/batch', doc.id);
        return r.some((x) => x.body.type === 'document.done') && r;
      },
      60000,
    );
    const ids = [...new Set(got.map((r) => r.id))];
    expect(got.map((r) => r.body.type)[0]).toBe('document.created');
    expect(got.map((r) => r.id).slice(0, 3)).toEqual([ids[0], ids[0], ids[0]]); // refused, refused, delivered
    expect(got.slice(3).map((r) => r.id)).toEqual(ids.slice(1)); // the rest once each, in order
    expect(got.at(-1)!.body.type).toBe('document.done');
    // One activity per delivery would be at least 2 refused + one per event; the waiting ones went together.
    const { events } = await s.client.workflow
      .getHandle(webhookDeliveryWorkflowId({ webhookId: hook.id, documentId: doc.id }))
      .fetchHistory();
    const activities = (events ?? []).filter((e) => e.activityTaskScheduledEventAttributes).length;
    expect(ids.length).toBeGreaterThanOrEqual(5);
    expect(activities).toBeLessThan(2 + ids.length);
  });

  it('lets only process admins manage subscriptions', async () => {
    const g = await GraphBuilder.create(s.knex);
    const hook = await subscribe(g.processId, '/admins');
    const writer = await s.userWith(g.processId, 'WRITE');
    expect((await s.get(`/api/processes/${g.processId}/webhooks`, writer)).status).toBe(403);
    expect(
      (
        await s.send('POST', `/api/processes/${g.processId}/webhooks`, writer, {
          url: `${base}/x`,
          events: ALL,
        })
      ).status,
    ).toBe(403);
    expect(
      (await s.send('PUT', `/api/webhooks/${hook.id}`, writer, { url: `${base}/x`, events: ALL })).status,
    ).toBe(403);
    expect((await s.get(`/api/webhooks/${hook.id}/deliveries`, writer)).status).toBe(403);
    expect((await s.send('POST', `/api/webhooks/${hook.id}/test`, writer)).status).toBe(403);
    expect((await s.send('DELETE', `/api/webhooks/${hook.id}`, writer)).status).toBe(403);
    const admin = await s.userWith(g.processId, 'ADMIN');
    expect((await s.get(`/api/webhooks/${hook.id}/deliveries`, admin)).status).toBe(200);
  });

  it('refuses bad subscriptions with field errors, and private addresses the allowlist does not allow', async () => {
    const g = await GraphBuilder.create(s.knex);
    const post = (json: unknown) => s.send('POST', `/api/processes/${g.processId}/webhooks`, s.admin, json);
    const bad = await post({ url: 'ftp://example.test/x', events: ['document.exploded'], secret: 'nope' });
    expect(bad.status).toBe(400);
    expect(fieldKeys(bad)).toEqual(
      expect.arrayContaining([
        ['url', 'webhooks.validation.url'],
        ['events', 'webhooks.validation.unknownEvent'],
        ['secret', 'webhooks.validation.secret'],
      ]),
    );
    const empty = await post({});
    expect(fieldKeys(empty)).toEqual(
      expect.arrayContaining([
        ['url', 'entity.validation.required'],
        ['events', 'webhooks.validation.events'],
      ]),
    );
    const ssrf = await post({ url: 'http://10.1.2.3/hook', events: ALL });
    expect(ssrf.status).toBe(400);
    expect(ssrf.body.message).toBe('error.outboundAddressRefused');

    // a subscription stored before the address became refused: the delivery is refused, not sent
    const [row] = await s
      .knex('webhooks')
      .insert({
        process_id: g.processId,
        url: 'http://192.168.77.1/hook',
        events: ALL,
        secret: 'whsec_' + 'A'.repeat(44),
      })
      .returning('id');
    const test = await s.send('POST', `/api/webhooks/${row.id}/test`, s.admin);
    expect(test.status).toBe(202);
    const failed = await eventually('the refused delivery', async () => {
      const d = (await s.get(`/api/webhooks/${row.id}/deliveries`, s.admin)).body.content[0];
      return d?.status === 'FAILED' && d;
    });
    expect(failed).toMatchObject({ attempts: 1, responseStatus: null, nextRetryDate: null });
    expect(failed.lastError).toMatch(/not allowed/);
  });

  it('signs with a secret the caller gave, and stores no events for an inactive subscription', async () => {
    const { g, hup } = await twoNodeProcess();
    const secret = 'whsec_' + Buffer.alloc(32, 7).toString('base64');
    const res = await s.send('POST', `/api/processes/${g.processId}/webhooks`, s.admin, {
      url: `${base}/held`,
      events: ['document.created'],
      secret,
      active: true,
    });
    expect(res.body.secret).toBe(secret);
    secrets.set('/held', secret);
    const off = await s.send('PUT', `/api/webhooks/${res.body.id}`, s.admin, {
      url: `${base}/held`,
      events: ['document.created'],
      active: false,
    });
    expect(off.status).toBe(200);
    expect(off.body.secret).toBeUndefined();
    // inactive: nothing is stored for it
    const first = await startDocument(s, g, hup);
    await stepReaching(s.knex, first.id, hup, ['ACCEPTED']);
    expect(await s.knex('webhook_events').where('document_id', first.id)).toHaveLength(0);
    const on = await s.send('PUT', `/api/webhooks/${res.body.id}`, s.admin, {
      url: `${base}/held`,
      events: ['document.created'],
      active: true,
    });
    expect(on.status).toBe(200);
    const second = await startDocument(s, g, hup);
    const got = await eventually('delivered', async () => at('/held', second.id)[0]);
    expect(got).toMatchObject({ verified: true, body: { type: 'document.created' } });
    expect(at('/held', first.id)).toHaveLength(0);
  });
});
