/**
 * Issues of a document (spec 2 sections 3 to 7, issue 12 section 2; contract in docs/api-issues.md, rules in
 * domain/issues.ts):
 * - `GET api/document/{id}/issues`: the issues the caller sees, with their replies;
 * - `POST api/issues`: raise one (TEXT, TOKEN, TAG, RELATION); `PUT api/issues`: the whole issue (status,
 *   new replies; reply edits and deletions for process admins);
 * - `PUT api/issues/{id}/status`, `POST api/issues/{id}/replies`, `PUT|DELETE api/issues/{id}/replies/{replyId}`:
 *   the single changes the workspace makes, so two people commenting at once never overwrite each other.
 * Reading needs what reading the document needs; raising, commenting and status changes WRITE on the
 * process; reply edits and deletions ADMIN on the process. An issue or document of another process answers
 * like an unknown one (403, or 404 to an admin), and so does an issue the caller may not see.
 */
import Router from '@koa/router';
import type { Context } from 'koa';
import { z } from 'zod';
import type { AppDeps } from '../app';
import { assertProcessMode, currentUser, mayReadDocumentOf, unreachable, type AuthUser } from '../auth';
import * as issues from '../services/issues';
import { body, bodyId, idParam, MAX_ID } from '../validate';
import { ISSUE_TOKENS_MAX, IssueStatuses, type IssueInput } from '../../domain/issues';
import { documentById } from '../../db/queries/documents';
import { issueRef } from '../../db/queries/issues';

const id = z.number().int().min(1).max(MAX_ID);
const offset = z.number().int().min(-MAX_ID).max(MAX_ID);
// Texts are checked by the issue rules (their messages), not by the shape.
const text = z.string();
const common = { docId: id, text, stepId: id.nullish() };

export const issueSchema = z.discriminatedUnion('type', [
  z.object({ ...common, type: z.literal('TEXT'), startOffset: offset, endOffset: offset }),
  z.object({
    ...common,
    type: z.literal('TOKEN'),
    tokens: z.array(z.object({ id })).min(1).max(ISSUE_TOKENS_MAX),
  }),
  z.object({ ...common, type: z.literal('TAG'), tags: z.array(z.object({ id })).min(1).max(2) }),
  z.object({
    ...common,
    type: z.literal('RELATION'),
    relation: z.object({ fromId: id, toId: id, relationTypeId: id }),
  }),
]);

const statusSchema = z.enum(IssueStatuses);
export const statusBody = z.object({ status: statusSchema });
export const replyBody = z.object({ text });
export const updateSchema = z.object({
  id,
  status: statusSchema,
  text: text.optional(),
  replies: z.array(z.object({ id: id.nullish(), text })).max(10_000),
});

export function issueRoutes({ knex }: AppDeps): Router {
  const router = new Router();

  /** The issue and its process, with at least `mode` on the process (defence in depth behind the gate). */
  const issueFor = async (ctx: Context, user: AuthUser, issueId: number, mode: 'WRITE' | 'ADMIN') => {
    const ref = await issueRef(knex, issueId);
    if (!ref) throw unreachable(user, 'issue');
    assertProcessMode(user, ref.processId, mode);
    return ref;
  };

  router.get('/api/document/:id/issues', async (ctx) => {
    const user = currentUser(ctx);
    const documentId = idParam(ctx.params.id);
    const doc = await documentById(knex, documentId);
    if (!doc || !(await mayReadDocumentOf(knex, user, Number(doc.processId))))
      throw unreachable(user, 'document');
    ctx.body = await issues.listIssues(knex, user, documentId, Number(doc.processId));
  });

  router.post('/api/issues', async (ctx) => {
    const user = currentUser(ctx);
    const docId = bodyId(ctx, 'docId', 'issue');
    const doc = await documentById(knex, docId);
    if (!doc) throw unreachable(user, 'document');
    assertProcessMode(user, Number(doc.processId), 'WRITE');
    const input = body(ctx, issueSchema, 'issue') as IssueInput;
    ctx.status = 201;
    ctx.body = await issues.createIssue(knex, user, { id: docId, processId: Number(doc.processId) }, input);
  });

  router.put('/api/issues', async (ctx) => {
    const user = currentUser(ctx);
    const ref = await issueFor(ctx, user, bodyId(ctx, 'id', 'issue'), 'WRITE');
    const input = body(ctx, updateSchema, 'issue');
    ctx.body = await issues.updateIssue(knex, user, ref, input);
  });

  router.put('/api/issues/:id/status', async (ctx) => {
    const user = currentUser(ctx);
    const ref = await issueFor(ctx, user, idParam(ctx.params.id), 'WRITE');
    const { status } = body(ctx, statusBody, 'issue');
    ctx.body = await issues.changeStatus(knex, user, ref, status);
  });

  router.post('/api/issues/:id/replies', async (ctx) => {
    const user = currentUser(ctx);
    const ref = await issueFor(ctx, user, idParam(ctx.params.id), 'WRITE');
    const input = body(ctx, replyBody, 'issueReply');
    ctx.status = 201;
    ctx.body = await issues.addReply(knex, user, ref, input.text);
  });

  router.put('/api/issues/:id/replies/:replyId', async (ctx) => {
    const user = currentUser(ctx);
    const ref = await issueFor(ctx, user, idParam(ctx.params.id), 'ADMIN');
    const replyId = idParam(ctx.params.replyId, 'replyId');
    const input = body(ctx, replyBody, 'issueReply');
    ctx.body = await issues.changeReply(knex, user, ref, replyId, input.text);
  });

  router.delete('/api/issues/:id/replies/:replyId', async (ctx) => {
    const user = currentUser(ctx);
    const ref = await issueFor(ctx, user, idParam(ctx.params.id), 'ADMIN');
    ctx.body = await issues.changeReply(knex, user, ref, idParam(ctx.params.replyId, 'replyId'), null);
  });

  return router;
}
