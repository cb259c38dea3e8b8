/**
 * Webhook subscriptions of a process (issue 32 section 1): every call needs ADMIN on the process. The
 * secret is answered only by the call that set it (created or replaced), never listed. Delivery itself is
 * the engine's (activities/webhooks, workflows/webhook-delivery.ts).
 */
import type { Context } from 'koa';
import { NO_CONTENT, route, type Route } from '../route';
import { id, springPage as pageOf } from '../responses';
import { WebhookDeliveryStatuses, type WebhookDeliveryDTO, type WebhookDTO } from '../../domain/webhooks';

import { onProcess, param } from './access';
import { z } from 'zod';
import type { AppDeps } from '../app';
import { assertProcessMode, currentUser } from '../auth';
import { notFound, setAlert } from '../errors';
import { findProcess } from '../services/processes';
import * as webhooks from '../services/webhooks';
import { findWebhook, processWebhooks, webhookDeliveries, deleteWebhook } from '../../db/queries/webhooks';
import { idParam, pageQuery } from '../validate';
import { setTotal, springPage } from '../paging';

export const webhookSchema = z.object({
  url: z.string().nullish(),
  events: z.array(z.string()).nullish(),
  active: z.boolean().nullish(),
  secret: z.string().nullish(),
});

const ON_PROCESS = onProcess('ADMIN', param('id', 'process'));
const ON_WEBHOOK = onProcess('ADMIN', param('id', 'webhook'));
const BODY = { schema: webhookSchema, object: 'webhook' } as const;

const webhookDto = z.object({
  id,
  processId: id,
  url: z.string(),
  events: z.array(z.string()),
  active: z.boolean(),
  createdDate: z.string(),
  lastModifiedDate: z.string(),
  /** shown once: in the answer that created or replaced it */
  secret: z.string().optional(),
}) satisfies z.ZodType<WebhookDTO>;
const deliveryDto = z.object({
  id,
  eventId: z.string(),
  type: z.string(),
  documentId: id.nullable(),
  status: z.enum(WebhookDeliveryStatuses),
  attempts: z.number().int(),
  responseStatus: z.number().int().nullable(),
  responseMs: z.number().nullable(),
  lastError: z.string().nullable(),
  createdDate: z.string(),
  lastAttemptDate: z.string().nullable(),
  nextRetryDate: z.string().nullable(),
  deliveredDate: z.string().nullable(),
}) satisfies z.ZodType<WebhookDeliveryDTO>;

export function webhookRoutes({ knex, temporal, config }: AppDeps): Route[] {
  const deps: webhooks.WebhookDeps = { knex, temporal, config };

  /** The subscription, after checking ADMIN on its process (404 when gone). */
  const ownWebhook = async (ctx: Context) => {
    const user = currentUser(ctx);
    const hook = await findWebhook(knex, idParam(ctx.params.id));
    if (!hook) throw notFound('webhook');
    assertProcessMode(user, hook.processId, 'ADMIN');
    return { user, hook };
  };

  return [
    route(
      {
        method: 'GET',
        path: '/api/processes/:id/webhooks',
        access: ON_PROCESS,
        response: pageOf(webhookDto),
      },
      async (ctx) => {
        const user = currentUser(ctx);
        const processId = idParam(ctx.params.id);
        assertProcessMode(user, processId, 'ADMIN');
        if (!(await findProcess(knex, processId))) throw notFound('process');
        const { page: number, size } = pageQuery(ctx, 20);
        const { content, total } = await processWebhooks(knex, processId, number, size);
        setTotal(ctx, total);
        ctx.body = springPage(content, total, number, size);
      },
    ),

    route(
      {
        method: 'POST',
        path: '/api/processes/:id/webhooks',
        access: ON_PROCESS,
        body: BODY,
        response: webhookDto,
        status: 201,
      },
      async (ctx, { body }) => {
        const user = currentUser(ctx);
        const processId = idParam(ctx.params.id);
        assertProcessMode(user, processId, 'ADMIN');
        if (!(await findProcess(knex, processId))) throw notFound('process');
        const created = await webhooks.createWebhook(deps, processId, body());
        ctx.set('Cache-Control', 'no-store');
        setAlert(ctx, 'webhooks.created', created.url);
        ctx.status = 201;
        ctx.body = created;
      },
    ),

    route(
      { method: 'PUT', path: '/api/webhooks/:id', access: ON_WEBHOOK, body: BODY, response: webhookDto },
      async (ctx, { body }) => {
        const { hook } = await ownWebhook(ctx);
        const updated = await webhooks.updateWebhook(deps, hook, body());
        if (!updated) throw notFound('webhook');
        ctx.set('Cache-Control', 'no-store');
        setAlert(ctx, 'webhooks.updated', updated.url);
        ctx.body = updated;
      },
    ),

    route(
      { method: 'DELETE', path: '/api/webhooks/:id', access: ON_WEBHOOK, response: NO_CONTENT },
      async (ctx) => {
        const { hook } = await ownWebhook(ctx);
        await deleteWebhook(knex, hook.id);
        setAlert(ctx, 'webhooks.deleted', hook.url);
        ctx.status = 204;
      },
    ),

    route(
      {
        method: 'GET',
        path: '/api/webhooks/:id/deliveries',
        access: ON_WEBHOOK,
        response: pageOf(deliveryDto),
      },
      async (ctx) => {
        const { hook } = await ownWebhook(ctx);
        const { page: number, size } = pageQuery(ctx, 20);
        const { content, total } = await webhookDeliveries(knex, hook.id, number, size);
        setTotal(ctx, total);
        ctx.body = springPage(content, total, number, size);
      },
    ),

    route(
      {
        method: 'POST',
        path: '/api/webhooks/:id/test',
        access: ON_WEBHOOK,
        response: z.object({ deliveryId: id, eventId: z.string() }),
        status: 202,
      },
      async (ctx) => {
        const { user, hook } = await ownWebhook(ctx);
        ctx.status = 202;
        ctx.body = await webhooks.sendTestEvent(deps, hook, user.id);
      },
    ),

    route(
      {
        method: 'POST',
        path: '/api/webhooks/:id/deliveries/:deliveryId/retry',
        access: ON_WEBHOOK,
        response: z.object({ deliveryId: id }),
        status: 202,
      },
      async (ctx) => {
        const { hook } = await ownWebhook(ctx);
        const deliveryId = idParam(ctx.params.deliveryId, 'deliveryId');
        if (!(await webhooks.resendDelivery(deps, hook.id, deliveryId))) throw notFound('webhookDelivery');
        ctx.status = 202;
        ctx.body = { deliveryId };
      },
    ),
  ];
}
