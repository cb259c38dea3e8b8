/**
 * Webhooks in Chromium (issue 32 section 1): a process admin adds a webhook on the process's Webhooks page
 * (all events checked), copies the secret shown once, a document then walks the process and its events
 * appear in the delivery log as delivered; "Send test event" and "Send again" reach the receiver too. The
 * receiver (a local HTTP server, reached as `localhost`, which the suite's OUTBOUND_ALLOWLIST admits by
 * name) verifies every request with the Standard Webhooks reference library. Screenshot in tests/artifacts/.
 */
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { Webhook } from 'standardwebhooks';
import { eventually } from '../support/eventually';
import {
  addTextDocument,
  BASE_URL,
  browserSuite,
  e2eWorld,
  shot,
  signedInPage,
  type E2eWorld,
} from './support';

interface Received {
  id: string;
  raw: string;
  headers: Record<string, string>;
}

describe('webhooks in Chromium', () => {
  const suite = browserSuite();
  let world: E2eWorld;
  let server: http.Server;
  let url: string;
  const received: Received[] = [];

  beforeAll(async () => {
    world = await e2eWorld('Webhooks e2e');
    server = http.createServer((req, res) => {
      const chunks: Buffer[] = [];
      req.on('data', (c: Buffer) => chunks.push(c));
      req.on('end', () => {
        received.push({
          id: String(req.headers['webhook-id']),
          raw: Buffer.concat(chunks).toString('utf8'),
          headers: req.headers as Record<string, string>,
        });
        res.writeHead(200).end('ok');
      });
    });
    // every interface (IPv4 and IPv6): `localhost` may resolve to either
    await new Promise<void>((r) => server.listen(0, r));
    url = `http://localhost:${(server.address() as AddressInfo).port}/hook`;
  });

  afterAll(async () => {
    await new Promise<void>((r) => server.close(() => r()));
    await world?.knex.destroy();
  });

  it('adds a webhook, shows its secret once, and logs signed deliveries of a document walk, a test and a resend', async () => {
    const page = await signedInPage(suite.browser, suite.contexts, world.admin);
    await page.goto(`${BASE_URL}/entity/process/${world.processId}/webhooks`);
    await page.getByTestId('webhooks-empty').waitFor();
    await page.getByTestId('webhook-create').click();
    await page.getByTestId('webhook-url').fill(url);
    for (const type of ['document.created', 'step.status_changed', 'document.done'])
      expect(await page.getByTestId(`webhook-event-${type}`).isChecked()).toBe(true);
    await page.getByTestId('webhook-save').click();
    const secret = await page.getByTestId('webhook-secret').inputValue();
    expect(secret).toMatch(/^whsec_/);
    await page.getByTestId('webhook-secret-done').click();
    expect(await page.locator('body').textContent()).not.toContain(secret);

    const documentId = await addTextDocument(world.token, world.processId, 'hooked.txt', 'A walk.');
    await page.getByTestId('webhook-delivery-row').nth(2).waitFor();
    await page.locator('[data-testid="webhook-delivery-row"][data-status="DELIVERED"] >> nth=2').waitFor();
    expect(received.length).toBeGreaterThanOrEqual(3);
    const verify = (r: Received) =>
      new Webhook(secret).verify(r.raw, r.headers) as { type: string; data: any };
    const walk = received.map(verify);
    expect(walk[0]).toMatchObject({
      type: 'document.created',
      data: { documentId, processId: world.processId },
    });
    expect(walk.map((e) => e.type)).toContain('document.done');

    await page.getByTestId('webhook-send-test').click();
    await page
      .getByTestId('webhook-delivery-row')
      .first()
      .filter({ hasText: 'webhook.test' })
      .filter({ hasText: 'Delivered' })
      .waitFor();
    const testEvent = received.at(-1)!;
    expect(verify(testEvent).type).toBe('webhook.test');

    const before = received.length;
    await page.getByTestId('webhook-delivery-resend').first().click();
    await eventually('sent again', async () => received.length > before);
    expect(received.at(-1)!.id).toBe(testEvent.id);
    await shot(page, '95-webhooks');
  });
});
