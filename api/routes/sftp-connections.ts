/**
 * SFTP connections of SFTP_UPLOAD and SEND_TO_SFTP nodes (spec 3 sections 3, 5 and 7) and the connection
 * test. Reading needs READ on the node; changes and tests need ADMIN on its process. The password and the
 * private key are masked in every response; null or the mask on an update or a test means "the stored one".
 */
import { NO_CONTENT, route, type Route } from '../route';
import { id } from '../responses';
import type { SftpConnectionDTO } from '../../domain/integration-types';

import { inBody, onNode, onProcess, param, query } from './access';
import { z } from 'zod';
import type { AppDeps } from '../app';
import { currentUser, unreachable, type AuthUser } from '../auth';
import { appError, FieldErrorCollector, setAlert } from '../errors';
import {
  assertCanChange,
  assertCanRead,
  assertNodeType,
  requireOwnerNode,
} from '../services/integration-nodes';
import type { SftpConnectionRow } from '../../db/queries/sftp-connections';
import * as sftp from '../services/sftp-connections';
import { testSftpConnection } from '../services/sftp-test';
import { firstValue, idParam } from '../validate';
import { SFTP_CONNECTION_NODE_TYPES, sftpConnectionViolations } from '../../domain/integrations';

export const sftpSchema = z.object({
  id: z.number().int().nullish(),
  nodeId: z.number().int().nullish(),
  name: z.string().nullish(),
  address: z.string().nullish(),
  port: z.number().nullish(),
  folder: z.string().nullish(),
  password: z
    .object({
      id: z.number().int().nullish(),
      useKey: z.boolean().nullish(),
      username: z.string().nullish(),
      password: z.string().nullish(),
      publicKey: z.string().nullish(),
      privateKey: z.string().nullish(),
    })
    .nullish(),
  /** Absent: the stored pin (cleared when the address or the port changes); null or '': not pinned. */
  hostKey: z.string().nullish(),
});
type SftpBody = z.infer<typeof sftpSchema>;

const OBJECT = 'sftpConnection';

function validate(input: SftpBody, stored?: SftpConnectionRow): sftp.ValidSftpConnectionInput {
  const errors = new FieldErrorCollector(OBJECT);
  const storedSecrets = { password: !!stored?.password, privateKey: !!stored?.private_key };
  for (const v of sftpConnectionViolations(input, storedSecrets)) errors.check(v.field, v.violation);
  errors.throwIfAny();
  return { ...input, name: input.name!, address: input.address! };
}

/** A connection as answered: the password and private key masked when stored. */
const sftpConnectionDto = z.object({
  id: id.nullish(),
  nodeId: id,
  name: z.string(),
  address: z.string(),
  port: z.number().int(),
  folder: z.string(),
  password: z.object({
    id: id.nullish(),
    useKey: z.boolean(),
    username: z.string().nullable(),
    password: z.string().nullable(),
    publicKey: z.string().nullable(),
    privateKey: z.string().nullable(),
  }),
  hostKey: z.string().nullish(),
}) satisfies z.ZodType<SftpConnectionDTO>;

export function sftpConnectionRoutes({ knex, config }: AppDeps): Route[] {
  async function storedWithNode(user: AuthUser, id: number) {
    const stored = await sftp.findSftpConnection(knex, id);
    if (!stored) throw unreachable(user, OBJECT);
    return { stored, node: await requireOwnerNode(knex, user, stored.node_id) };
  }

  return [
    route(
      {
        method: 'GET',
        path: '/api/sftp-connection-data',
        access: onNode('READ', query('nodeId', 'node')),
        response: z.array(sftpConnectionDto),
      },
      async (ctx) => {
        const user = currentUser(ctx);
        const node = await requireOwnerNode(knex, user, idParam(firstValue(ctx.query.nodeId), 'nodeId'));
        assertCanRead(user, node);
        ctx.body = await sftp.listSftpConnections(knex, node.id);
      },
    ),

    route(
      {
        method: 'GET',
        path: '/api/sftp-connection-data/:id',
        access: onNode('READ', param('id', 'sftpConnection')),
        response: sftpConnectionDto,
      },
      async (ctx) => {
        const user = currentUser(ctx);
        const { stored, node } = await storedWithNode(user, idParam(ctx.params.id));
        assertCanRead(user, node);
        ctx.body = sftp.toSftpConnectionDTO(stored);
      },
    ),

    route(
      {
        method: 'POST',
        path: '/api/sftp-connection-data',
        access: onProcess('ADMIN', inBody('nodeId', 'node')),
        body: { schema: sftpSchema, object: OBJECT },
        response: sftpConnectionDto,
        status: 201,
      },
      async (ctx, { body }) => {
        const user = currentUser(ctx);
        const input = body();
        if (input.nodeId === null || input.nodeId === undefined)
          new FieldErrorCollector(OBJECT)
            .check('nodeId', { code: 'NotBlank', key: 'entity.validation.required' })
            .throwIfAny();
        const node = await requireOwnerNode(knex, user, input.nodeId!);
        assertCanChange(user, node);
        assertNodeType(node, SFTP_CONNECTION_NODE_TYPES, OBJECT);
        const created = await sftp.createSftpConnection(knex, node.id, validate(input));
        ctx.status = 201;
        setAlert(ctx, 'soaApp.sftpConnection.created', created.name);
        ctx.body = created;
      },
    ),

    route(
      {
        method: 'PUT',
        path: '/api/sftp-connection-data',
        access: onProcess('ADMIN', inBody('id', 'sftpConnection')),
        body: { schema: sftpSchema, object: OBJECT },
        response: sftpConnectionDto,
      },
      async (ctx, { body }) => {
        const user = currentUser(ctx);
        const input = body();
        const { stored, node } = await storedWithNode(user, idParam(input.id, 'id'));
        assertCanChange(user, node);
        if (input.nodeId != null && input.nodeId !== stored.node_id)
          throw appError('error.idinvalid', OBJECT, 'idinvalid');
        const updated = await sftp.updateSftpConnection(knex, stored, validate(input, stored));
        setAlert(ctx, 'soaApp.sftpConnection.updated', updated.name);
        ctx.body = updated;
      },
    ),

    route(
      {
        method: 'DELETE',
        path: '/api/sftp-connection-data/:id',
        access: onProcess('ADMIN', param('id', 'sftpConnection')),
        response: NO_CONTENT,
      },
      async (ctx) => {
        const user = currentUser(ctx);
        const { stored, node } = await storedWithNode(user, idParam(ctx.params.id));
        assertCanChange(user, node);
        await sftp.deleteSftpConnection(knex, stored.id);
        setAlert(ctx, 'soaApp.sftpConnection.deleted', stored.name);
        ctx.status = 204;
      },
    ),

    /**
     * Tests the connection in the body: a saved one (id; masked secrets come from the database) or an
     * unsaved one (nodeId). 200 {status:'OK', hostKey}, or 400 app error with the failure in `detail` (and
     * `hostKey` when the server presented one). `hostKey` is the fingerprint of the server's host key; a
     * pinned key (given, or stored for the same address and port) that differs fails the test.
     */
    route(
      {
        method: 'POST',
        path: '/api/sftp-connection-data/test',
        access: onProcess('ADMIN', [inBody('id', 'sftpConnection'), inBody('nodeId', 'node')]),
        body: { schema: sftpSchema, object: OBJECT },
        response: z.object({ status: z.literal('OK'), hostKey: z.string() }),
      },
      async (ctx, { body }) => {
        const user = currentUser(ctx);
        const input = body();
        let stored: SftpConnectionRow | undefined;
        if (input.id != null) {
          const found = await storedWithNode(user, input.id);
          assertCanChange(user, found.node);
          stored = found.stored;
        } else {
          if (input.nodeId === null || input.nodeId === undefined)
            new FieldErrorCollector(OBJECT)
              .check('nodeId', { code: 'NotBlank', key: 'entity.validation.required' })
              .throwIfAny();
          assertCanChange(user, await requireOwnerNode(knex, user, input.nodeId!));
        }
        const target = sftp.resolveSftpInput(validate(input, stored), stored);
        const outcome = await testSftpConnection(target, config.outboundAllowlist);
        if (!outcome.ok) {
          const e = appError('error.sftpConnectionFailed', OBJECT);
          e.body.detail = outcome.detail;
          e.body.hostKey = outcome.hostKey;
          throw e;
        }
        ctx.body = { status: 'OK', hostKey: outcome.hostKey };
      },
    ),
  ];
}
