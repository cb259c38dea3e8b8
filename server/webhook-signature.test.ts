import { Webhook } from 'standardwebhooks';
import { generateWebhookSecret, webhookHeaders } from './webhook-signature';

describe('Standard Webhooks signing', () => {
  it('signs what the reference library verifies, and nothing else', () => {
    const secret = generateWebhookSecret();
    const body = JSON.stringify({
      type: 'document.done',
      timestamp: '2026-01-01T00:00:00Z',
      data: { processId: 1 },
    });
    const headers = webhookHeaders(secret, 'msg_abc', body, new Date());
    expect(new Webhook(secret).verify(body, headers)).toEqual(JSON.parse(body));
    expect(() => new Webhook(secret).verify(body + ' ', headers)).toThrow();
    expect(() => new Webhook(generateWebhookSecret()).verify(body, headers)).toThrow();
  });

  it('matches the reference signature byte for byte', () => {
    const secret = 'whsec_' + Buffer.alloc(32, 1).toString('base64');
    const at = new Date('2026-03-04T05:06:07Z');
    const body = '{"a":1}';
    expect(webhookHeaders(secret, 'msg_1', body, at)['webhook-signature']).toBe(
      new Webhook(secret).sign('msg_1', at, body),
    );
  });
});
