/**
 * SFTP connections of SFTP_UPLOAD and SEND_TO_SFTP nodes (spec 3 sections 3, 5 and 7) and the connection
 * test. Reading needs READ on the node; changes and tests need ADMIN on its process. The password and the
 * private key are masked in every response; null or the mask on an update or a test means "the stored one".
 */
import Router from '@koa/router';
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
import type { SftpConnectionRow } from '../../server/sftp-connections';
import * as sftp from '../services/sftp-connections';
import { testSftpConnection } from '../services/sftp-test';
import { body, idParam } from '../validate';
import { SFTP_CONNECTION_NODE_TYPES, sftpConnectionViolations } from '../../domain/integrations';

const firstValue = (v: string | string[] | undefined): string | undefined => (Array.isArray(v) ? v[0] : v);

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

export function sftpConnectionRoutes({ knex, config }: AppDeps): Router {
  const router = new Router();

  async function storedWithNode(user: AuthUser, id: number) {
    const stored = await sftp.findSftpConnection(knex, id);
    if (!stored) throw unreachable(user, OBJECT);
    return { stored, node: await requireOwnerNode(knex, user, stored.node_id) };
  }

  router.get('/api/sftp-connection-data', async (ctx) => {
    const user = currentUser(ctx);
    const node = await requireOwnerNode(knex, user, idParam(firstValue(ctx.query.nodeId), 'nodeId'));
    assertCanRead(user, node);
    ctx.body = await sftp.listSftpConnections(knex, node.id);
  });

  router.get('/api/sftp-connection-data/:id', async (ctx) => {
    const user = currentUser(ctx);
    const { stored, node } = await storedWithNode(user, idParam(ctx.params.id));
    assertCanRead(user, node);
    ctx.body = sftp.toSftpConnectionDTO(stored);
  });

  router.post('/api/sftp-connection-data', async (ctx) => {
    const user = currentUser(ctx);
    const input = body(ctx, sftpSchema, OBJECT);
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
  });

  router.put('/api/sftp-connection-data', async (ctx) => {
    const user = currentUser(ctx);
    const input = body(ctx, sftpSchema, OBJECT);
    const { stored, node } = await storedWithNode(user, idParam(input.id, 'id'));
    assertCanChange(user, node);
    if (input.nodeId != null && input.nodeId !== stored.node_id)
      throw appError('error.idinvalid', OBJECT, 'idinvalid');
    const updated = await sftp.updateSftpConnection(knex, stored, validate(input, stored));
    setAlert(ctx, 'soaApp.sftpConnection.updated', updated.name);
    ctx.body = updated;
  });

  router.delete('/api/sftp-connection-data/:id', async (ctx) => {
    const user = currentUser(ctx);
    const { stored, node } = await storedWithNode(user, idParam(ctx.params.id));
    assertCanChange(user, node);
    await sftp.deleteSftpConnection(knex, stored.id);
    setAlert(ctx, 'soaApp.sftpConnection.deleted', stored.name);
    ctx.status = 204;
  });

  /**
   * Tests the connection in the body: a saved one (id; masked secrets come from the database) or an
   * unsaved one (nodeId). 200 {status:'OK'}, or 400 app error with the failure in `detail`.
   */
  router.post('/api/sftp-connection-data/test', async (ctx) => {
    const user = currentUser(ctx);
    const input = body(ctx, sftpSchema, OBJECT);
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
      throw e;
    }
    ctx.body = { status: 'OK' };
  });

  return router;
}
