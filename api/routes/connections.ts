/**
 * Connections of upload and action nodes (spec 3 sections 3, 5 and 7): e-mail upload connections, cloud-
 * drive connections with their OAuth configuration, and the inter-process receiver nodes. SFTP connections
 * are in sftp-connections.ts. Reading needs READ on the node; every change needs ADMIN on its process.
 * Stored passwords and tokens never appear in a response.
 */
import { NO_CONTENT, route, type Route } from '../route';
import { id } from '../responses';
import type {
  DriveConfigDTO,
  DriveConnectionDTO,
  EmailConnectionDTO,
  IprNodeDTO,
} from '../../domain/integration-types';

import { SIGNED_IN, inBody, onNode, onProcess, param, query, withKeys } from './access';
import { z } from 'zod';
import type { AppDeps } from '../app';
import { currentUser, unreachable } from '../auth';
import { appError, FieldErrorCollector, setAlert } from '../errors';
import {
  applyDriveChange,
  driveConnectionIds,
  listDriveConnections,
} from '../../db/queries/drive-connections';
import * as email from '../../db/queries/email-connections';
import { driveClientConfig, exchangeAuthorizationCode, type GrantedTokens } from '../services/google-oauth';
import {
  assertCanChange,
  assertCanRead,
  assertNodeType,
  requireOwnerNode,
} from '../services/integration-nodes';
import { listReceiverNodes } from '../services/ipr-nodes';
import { firstValue, idParam } from '../validate';
import {
  DRIVE_CONNECTION_NODE_TYPES,
  EMAIL_CONNECTION_NODE_TYPES,
  driveConnectionCountAllowed,
  driveConnectionViolations,
  emailConnectionViolations,
  type FieldViolation,
} from '../../domain/integrations';
import { keepSchedulesInStep } from '../../server/schedules';

export const emailSchema = z.object({
  id: z.number().int().nullish(),
  nodeId: z.number().int().nullish(),
  imapHost: z.string().nullish(),
  imapPort: z.number().int().nullish(),
  address: z.string().nullish(),
  password: z.string().nullish(),
  folder: z.string().nullish(),
  contentType: z.string().nullish(),
  cron: z.string().nullish(),
});

export const driveSchema = z.object({
  nodeId: z.number().int(),
  deletedConnectionIds: z.array(z.number().int()).nullish(),
  updatedConnections: z
    .array(
      z.object({
        id: z.number().int(),
        name: z.string().nullish(),
        folderId: z.string().nullish(),
        authorizationCode: z.string().nullish(),
      }),
    )
    .nullish(),
  newConnections: z
    .array(
      z.object({
        name: z.string().nullish(),
        folderId: z.string().nullish(),
        authorizationCode: z.string().nullish(),
      }),
    )
    .nullish(),
});

const requiredField = (objectName: string, field: string) =>
  new FieldErrorCollector(objectName).check(field, { code: 'NotBlank', key: 'entity.validation.required' });

function throwViolations(objectName: string, list: FieldViolation[], prefix = ''): void {
  const errors = new FieldErrorCollector(objectName);
  for (const v of list) errors.check(`${prefix}${v.field}`, v.violation);
  errors.throwIfAny();
}

/** An e-mail upload connection as answered (the password always masked). */
const emailConnectionDto = z.object({
  id: id.nullish(),
  nodeId: id,
  imapHost: z.string(),
  imapPort: z.union([z.literal(993), z.literal(143)]),
  address: z.string(),
  password: z.string().nullable(),
  folder: z.string(),
  contentType: z.enum(['MESSAGE', 'ATTACHMENT']),
  cron: z.string().nullable(),
}) satisfies z.ZodType<EmailConnectionDTO>;
const driveConnectionDto = z.object({
  id,
  name: z.string(),
  folderId: z.string(),
  authorized: z.boolean(),
}) satisfies z.ZodType<DriveConnectionDTO>;
const driveConfigDto = z.object({
  clientId: z.string(),
  scope: z.string(),
  redirectUri: z.string(),
  authUrl: z.string(),
}) satisfies z.ZodType<DriveConfigDTO>;
const receiverNodeDto = z.object({
  id,
  name: z.string(),
  processId: id,
  processName: z.string(),
}) satisfies z.ZodType<IprNodeDTO>;

export function connectionRoutes(deps: AppDeps): Route[] {
  const { knex, config } = deps;

  return [
    // --- e-mail upload connections ---

    route(
      {
        method: 'GET',
        path: '/api/email-upload-connection-data',
        access: onNode('READ', query('nodeId', 'node')),
        response: z.array(emailConnectionDto),
      },
      async (ctx) => {
        const user = currentUser(ctx);
        const node = await requireOwnerNode(knex, user, idParam(firstValue(ctx.query.nodeId), 'nodeId'));
        assertCanRead(user, node);
        ctx.body = await email.listEmailConnections(knex, node.id);
      },
    ),

    route(
      {
        method: 'GET',
        path: '/api/email-upload-connection-data/:id',
        access: onNode('READ', param('id', 'emailConnection')),
        response: emailConnectionDto,
      },
      async (ctx) => {
        const user = currentUser(ctx);
        const stored = await email.findEmailConnection(knex, idParam(ctx.params.id));
        if (!stored) throw unreachable(user, 'emailUploadConnection');
        assertCanRead(user, await requireOwnerNode(knex, user, stored.node_id));
        ctx.body = email.toEmailConnectionDTO(stored);
      },
    ),

    route(
      {
        method: 'POST',
        path: '/api/email-upload-connection-data',
        access: onProcess('ADMIN', inBody('nodeId', 'node')),
        body: { schema: emailSchema, object: 'emailUploadConnection' },
        response: emailConnectionDto,
        status: 201,
      },
      async (ctx, { body }) => {
        const user = currentUser(ctx);
        const input = body();
        if (input.nodeId === null || input.nodeId === undefined)
          requiredField('emailUploadConnection', 'nodeId').throwIfAny();
        const node = await requireOwnerNode(knex, user, input.nodeId!);
        assertCanChange(user, node);
        assertNodeType(node, EMAIL_CONNECTION_NODE_TYPES, 'emailUploadConnection');
        throwViolations('emailUploadConnection', emailConnectionViolations(input));
        const created = await email.createEmailConnection(knex, node.id, {
          ...input,
          imapHost: input.imapHost!,
          address: input.address!,
        });
        await keepSchedulesInStep(deps, [node.id]);
        ctx.status = 201;
        setAlert(ctx, 'soaApp.emailUploadConnection.created', created.address);
        ctx.body = created;
      },
    ),

    route(
      {
        method: 'PUT',
        path: '/api/email-upload-connection-data',
        access: onProcess('ADMIN', inBody('id', 'emailConnection')),
        body: { schema: emailSchema, object: 'emailUploadConnection' },
        response: emailConnectionDto,
      },
      async (ctx, { body }) => {
        const user = currentUser(ctx);
        const input = body();
        const stored = await email.findEmailConnection(knex, idParam(input.id, 'id'));
        if (!stored) throw unreachable(user, 'emailUploadConnection');
        const node = await requireOwnerNode(knex, user, stored.node_id);
        assertCanChange(user, node);
        if (input.nodeId != null && input.nodeId !== stored.node_id)
          throw appError('error.idinvalid', 'emailUploadConnection', 'idinvalid');
        throwViolations(
          'emailUploadConnection',
          emailConnectionViolations(input, { hasStoredPassword: true }),
        );
        const updated = await email.updateEmailConnection(knex, stored, {
          ...input,
          imapHost: input.imapHost!,
          address: input.address!,
        });
        await keepSchedulesInStep(deps, [node.id]);
        setAlert(ctx, 'soaApp.emailUploadConnection.updated', updated.address);
        ctx.body = updated;
      },
    ),

    route(
      {
        method: 'DELETE',
        path: '/api/email-upload-connection-data/:id',
        access: onProcess('ADMIN', param('id', 'emailConnection')),
        response: NO_CONTENT,
      },
      async (ctx) => {
        const user = currentUser(ctx);
        const stored = await email.findEmailConnection(knex, idParam(ctx.params.id));
        if (!stored) throw unreachable(user, 'emailUploadConnection');
        assertCanChange(user, await requireOwnerNode(knex, user, stored.node_id));
        await email.deleteEmailConnection(knex, stored.id);
        await keepSchedulesInStep(deps, [Number(stored.node_id)]);
        setAlert(ctx, 'soaApp.emailUploadConnection.deleted', stored.address);
        ctx.status = 204;
      },
    ),

    // --- cloud-drive connections ---

    route(
      {
        method: 'GET',
        path: '/api/google-drive-connections/config',
        access: withKeys(SIGNED_IN),
        response: driveConfigDto,
      },
      async (ctx) => {
        currentUser(ctx);
        ctx.body = driveClientConfig(config.googleOAuth);
      },
    ),

    route(
      {
        method: 'GET',
        path: '/api/node/:id/google-drive-connections',
        access: onNode('READ', param('id', 'node')),
        response: z.array(driveConnectionDto),
      },
      async (ctx) => {
        const user = currentUser(ctx);
        const node = await requireOwnerNode(knex, user, idParam(ctx.params.id));
        assertCanRead(user, node);
        ctx.body = await listDriveConnections(knex, node.id);
      },
    ),

    route(
      {
        method: 'PUT',
        path: '/api/node/google-drive-connections',
        access: onProcess('ADMIN', inBody('nodeId', 'node')),
        body: { schema: driveSchema, object: 'googleDriveConnection' },
        response: z.array(driveConnectionDto),
      },
      async (ctx, { body }) => {
        const user = currentUser(ctx);
        const input = body();
        const node = await requireOwnerNode(knex, user, input.nodeId);
        assertCanChange(user, node);
        assertNodeType(node, DRIVE_CONNECTION_NODE_TYPES, 'googleDriveConnection');
        const deleted = input.deletedConnectionIds ?? [];
        const updated = input.updatedConnections ?? [];
        const created = input.newConnections ?? [];

        const errors: FieldViolation[] = [];
        updated.forEach((c, i) =>
          errors.push(
            ...driveConnectionViolations(c).map((v) => ({
              ...v,
              field: `updatedConnections.${i}.${v.field}`,
            })),
          ),
        );
        created.forEach((c, i) =>
          errors.push(
            ...driveConnectionViolations(c).map((v) => ({ ...v, field: `newConnections.${i}.${v.field}` })),
          ),
        );
        throwViolations('googleDriveConnection', errors);

        const existing = await driveConnectionIds(knex, node.id);
        if (updated.some((c) => !existing.includes(c.id)) || deleted.some((id) => !existing.includes(id)))
          throw appError('error.idinvalid', 'googleDriveConnection', 'idinvalid');
        const remaining = existing.filter((id) => !deleted.includes(id)).length;
        if (!driveConnectionCountAllowed(remaining + created.length))
          throw appError('error.dataValidationUnexpectedError', 'googleDriveConnection');
        // A new connection needs the sign-in; an updated one may bring a fresh one (re-authorization).
        if (created.some((c) => !c.authorizationCode?.trim()))
          throw appError('error.dataValidationUnexpectedError', 'googleDriveConnection');

        const exchange = async (code: string): Promise<GrantedTokens> => {
          const outcome = await exchangeAuthorizationCode(config.googleOAuth, code.trim());
          if (outcome.ok) return outcome.tokens;
          const e = appError('error.dataValidationUnexpectedError', 'googleDriveConnection');
          e.body.detail = outcome.detail;
          throw e;
        };
        const change = {
          nodeId: node.id,
          deletedIds: deleted,
          updated: [] as { id: number; name: string; folderId: string; tokens: GrantedTokens | null }[],
          created: [] as { name: string; folderId: string; tokens: GrantedTokens }[],
        };
        for (const c of updated) {
          const tokens = c.authorizationCode?.trim() ? await exchange(c.authorizationCode) : null;
          change.updated.push({ id: c.id, name: c.name!, folderId: c.folderId!, tokens });
        }
        for (const c of created) {
          change.created.push({
            name: c.name!,
            folderId: c.folderId!,
            tokens: await exchange(c.authorizationCode!),
          });
        }
        ctx.body = await applyDriveChange(knex, change);
        setAlert(ctx, 'soaApp.googleDriveConnection.updated', node.name);
      },
    ),

    // --- inter-process receivers ---

    // filtered to the readable processes
    route(
      {
        method: 'GET',
        path: '/api/inter-process-receiver-nodes',
        access: withKeys(SIGNED_IN),
        response: z.array(receiverNodeDto),
      },
      async (ctx) => {
        ctx.body = await listReceiverNodes(knex, currentUser(ctx));
      },
    ),
  ];
}
