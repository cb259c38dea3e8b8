/**
 * Webhooks across a worker kill (issue 32 section 1): documents walk HUP -> CLF with a subscriber to every
 * event whose receiver answers slowly, and the only worker process is killed (SIGKILL) while deliveries and
 * step actions are under way; a second worker process takes over. Afterwards no event is lost (every event
 * stored for a document reached the receiver), each change is one event (the retried transitions stored none
 * twice), duplicates carry the same event id, and each document's events arrived in order.
 */
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { Webhook } from 'standardwebhooks';
import { WebhookEventTypes } from '../../domain/webhooks';
import {
  eventually,
  GraphBuilder,
  setupEngineSuite,
  spawnWorkerProcess,
  startDocument,
  stepReaching,
  type WorkerProcess,
} from '../support/engine';

jest.setTimeout(180_000);

interface Received {
  id: string;
  verified: boolean;
  type: string;
  documentId: number;
}

describe('webhooks: the worker is killed mid-walk', () => {
  const s = setupEngineSuite('webhook-kill', { worker: false, config: { outboundAllowlist: ['127.0.0.1'] } });
  const workers: WorkerProcess[] = [];
  let server: http.Server;
  let secret = '';
  const received: Received[] = [];

  const spawn = () => {
    const w = spawnWorkerProcess({
      taskQueue: s.taskQueue,
      filesDir: s.filesDir,
      // the kill may fall between a commit and the wake-up of its deliveries: the sweep makes that up
      env: { OUTBOUND_ALLOWLIST: '127.0.0.1', WEBHOOK_SWEEP: 'on', WEBHOOK_SWEEP_SECONDS: '2' },
    });
    workers.push(w);
    return w;
  };

  beforeAll(async () => {
    server = http.createServer((req, res) => {
      const chunks: Buffer[] = [];
      req.on('data', (c: Buffer) => chunks.push(c));
      req.on('end', () => {
        const raw = Buffer.concat(chunks).toString('utf8');
        let verified: boolean;
        try {
          new Webhook(secret).verify(raw, req.headers as Record<string, string>);
          verified = true;
        } catch {
          verified = false;
        }
        const body = JSON.parse(raw);
        received.push({
          id: String(req.headers['webhook-id']),
          verified,
          type: body.type,
          documentId: body.data.documentId,
        });
        // slow enough that the kill finds deliveries in flight
        setTimeout(() => res.writeHead(204).end(), 150);
      });
    });
    await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
  });

  afterAll(async () => {
    for (const w of workers) await w.kill();
    await new Promise<void>((r) => server.close(() => r()));
  });

  it('loses no event, stores none twice, repeats only with the same id, and keeps each document in order', async () => {
    const g = await GraphBuilder.create(s.knex);
    const hup = await g.node('HUP');
    const clf = await g.node('CLF');
    await g.edge(hup, clf);
    const port = (server.address() as AddressInfo).port;
    const hook = await s.send('POST', `/api/processes/${g.processId}/webhooks`, s.admin, {
      url: `http://127.0.0.1:${port}/hook`,
      events: [...WebhookEventTypes],
    });
    expect(hook.status).toBe(201);
    secret = hook.body.secret;

    const first = spawn();
    await first.ready;
    const docs: { id: number }[] = [];
    for (let i = 0; i < 8; i++) docs.push(await startDocument(s, g, hup));
    const steps = await Promise.all(docs.map((d) => stepReaching(s.knex, d.id, clf, ['WAITING'], 60000)));
    const complete = async (i: number) => {
      const d = docs[i];
      expect((await s.send('POST', `/api/step/assign?docId=${d.id}&nodeId=${clf}`, s.admin)).status).toBe(
        200,
      );
      expect((await s.send('PUT', `/api/steps/${steps[i].id}/complete`, s.admin)).status).toBe(200);
    };
    for (let i = 0; i < 4; i++) await complete(i);
    await eventually('deliveries under way', async () => received.length >= 8);
    await first.kill('SIGKILL');
    const delivering = received.length;

    const second = spawn();
    await second.ready;
    for (let i = 4; i < 8; i++) await complete(i);

    const stored = await eventually(
      'every stored event received',
      async () => {
        const rows = await s
          .knex('webhook_events')
          .whereIn(
            'document_id',
            docs.map((d) => d.id),
          )
          .orderBy('id')
          .select('event_id', 'document_id', 'type');
        const got = new Set(received.map((r) => r.id));
        return rows.length === docs.length * 5 && rows.every((r) => got.has(r.event_id)) && rows;
      },
      120000,
    );
    expect(delivering).toBeLessThan(docs.length * 5); // the kill did fall mid-way
    expect(received.every((r) => r.verified)).toBe(true);
    const ids = new Set(stored.map((r) => r.event_id));
    expect(received.filter((r) => !ids.has(r.id))).toEqual([]);
    for (const d of docs) {
      const mine = stored.filter((r) => Number(r.document_id) === d.id);
      // one event per change, also for the transitions retried after the kill
      expect(mine.map((r) => r.type)).toEqual([
        'document.created',
        'step.status_changed',
        'step.status_changed',
        'step.status_changed',
        'document.done',
      ]);
      // in order: the first arrival of each id follows the stored order
      const arrivals = [...new Set(received.filter((r) => r.documentId === d.id).map((r) => r.id))];
      expect(arrivals).toEqual(mine.map((r) => r.event_id));
    }
  });
});
