/**
 * Standard Webhooks signing (https://www.standardwebhooks.com): the secret is `whsec_` + base64 of the key;
 * `webhook-signature` is `v1,` + base64(HMAC-SHA256(key, `${id}.${timestamp}.${body}`)), the timestamp in
 * seconds. Shared by the delivery activity and the API (secrets are generated here).
 */
import crypto from 'node:crypto';
import { WEBHOOK_SECRET_BYTES, WEBHOOK_SECRET_PREFIX } from '../domain/webhooks';

export function generateWebhookSecret(): string {
  return WEBHOOK_SECRET_PREFIX + crypto.randomBytes(WEBHOOK_SECRET_BYTES.generated).toString('base64');
}

export function webhookSignature(secret: string, id: string, timestamp: number, body: string): string {
  const key = Buffer.from(secret.slice(WEBHOOK_SECRET_PREFIX.length), 'base64');
  return `v1,${crypto.createHmac('sha256', key).update(`${id}.${timestamp}.${body}`).digest('base64')}`;
}

/** The headers of one attempt (a new timestamp, and so a new signature, each time). */
export function webhookHeaders(secret: string, id: string, body: string, now: Date): Record<string, string> {
  const timestamp = Math.floor(now.getTime() / 1000);
  return {
    'Content-Type': 'application/json',
    'webhook-id': id,
    'webhook-timestamp': String(timestamp),
    'webhook-signature': webhookSignature(secret, id, timestamp, body),
  };
}
