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
import { route, type Route } from '../route';
import { id as intId } from '../responses';

import { documentReader, inBody, onProcess, param } from './access';
import type { Context } from 'koa';
import { z } from 'zod';
import type { AppDeps } from '../app';
import { assertProcessMode, currentUser, mayReadDocumentOf, unreachable, type AuthUser } from '../auth';
import * as issues from '../services/issues';
import { bodyId, idParam, MAX_ID } from '../validate';
import {
  ISSUE_TOKENS_MAX,
  IssueStatuses,
  IssueTypes,
  type IssueDTO,
  type IssueInput,
} from '../../domain/issues';
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

const replyDto = z.object({
  id: intId,
  text: z.string(),
  userId: intId.nullable(),
  userName: z.string().nullable(),
  automatic: z.boolean(),
  timestamp: z.string(),
  lastModified: z.string().nullable(),
});
const issueDto = z.object({
  id: intId,
  docId: intId,
  stepId: intId.nullable(),
  type: z.enum(IssueTypes),
  status: z.enum(IssueStatuses),
  title: z.string(),
  text: z.string(),
  userId: intId.nullable(),
  userName: z.string().nullable(),
  timestamp: z.string(),
  lastModified: z.string().nullable(),
  startOffset: z.number().int().nullable(),
  endOffset: z.number().int().nullable(),
  tokens: z.array(z.object({ id: intId, value: z.string() })),
  tags: z.array(
    z.object({
      id: intId,
      label: z.string(),
      startOffset: z.number().int().nullable(),
      endOffset: z.number().int().nullable(),
      nerTagTypeId: intId,
      nerTagTypeName: z.string(),
    }),
  ),
  relation: z
    .object({ fromId: intId, toId: intId, relationTypeId: intId, relationTypeName: z.string() })
    .nullable(),
  replies: z.array(replyDto),
}) satisfies z.ZodType<IssueDTO>;

export function issueRoutes({ knex }: AppDeps): Route[] {
  /** The issue and its process, with at least `mode` on the process (defence in depth behind the gate). */
  const issueFor = async (ctx: Context, user: AuthUser, issueId: number, mode: 'WRITE' | 'ADMIN') => {
    const ref = await issueRef(knex, issueId);
    if (!ref) throw unreachable(user, 'issue');
    assertProcessMode(user, ref.processId, mode);
    return ref;
  };

  return [
    // --- issues of a document (spec 2 sections 3 to 7; docs/api-issues.md) ---
    route(
      {
        method: 'GET',
        path: '/api/document/:id/issues',
        access: documentReader(param('id', 'document')),
        response: z.array(issueDto),
      },
      async (ctx) => {
        const user = currentUser(ctx);
        const documentId = idParam(ctx.params.id);
        const doc = await documentById(knex, documentId);
        if (!doc || !(await mayReadDocumentOf(knex, user, Number(doc.processId))))
          throw unreachable(user, 'document');
        ctx.body = await issues.listIssues(knex, user, documentId, Number(doc.processId));
      },
    ),

    route(
      {
        method: 'POST',
        path: '/api/issues',
        access: onProcess('WRITE', inBody('docId', 'document')),
        body: { schema: issueSchema, object: 'issue' },
        response: issueDto,
        status: 201,
      },
      async (ctx, { body }) => {
        const user = currentUser(ctx);
        const docId = bodyId(ctx, 'docId', 'issue');
        const doc = await documentById(knex, docId);
        if (!doc) throw unreachable(user, 'document');
        assertProcessMode(user, Number(doc.processId), 'WRITE');
        const input = body() as IssueInput;
        ctx.status = 201;
        ctx.body = await issues.createIssue(
          knex,
          user,
          { id: docId, processId: Number(doc.processId) },
          input,
        );
      },
    ),

    route(
      {
        method: 'PUT',
        path: '/api/issues',
        access: onProcess('WRITE', inBody('id', 'issue')),
        body: { schema: updateSchema, object: 'issue' },
        response: issueDto,
      },
      async (ctx, { body }) => {
        const user = currentUser(ctx);
        const ref = await issueFor(ctx, user, bodyId(ctx, 'id', 'issue'), 'WRITE');
        const input = body();
        ctx.body = await issues.updateIssue(knex, user, ref, input);
      },
    ),

    route(
      {
        method: 'PUT',
        path: '/api/issues/:id/status',
        access: onProcess('WRITE', param('id', 'issue')),
        body: { schema: statusBody, object: 'issue' },
        response: issueDto,
      },
      async (ctx, { body }) => {
        const user = currentUser(ctx);
        const ref = await issueFor(ctx, user, idParam(ctx.params.id), 'WRITE');
        const { status } = body();
        ctx.body = await issues.changeStatus(knex, user, ref, status);
      },
    ),

    route(
      {
        method: 'POST',
        path: '/api/issues/:id/replies',
        access: onProcess('WRITE', param('id', 'issue')),
        body: { schema: replyBody, object: 'issueReply' },
        response: issueDto,
        status: 201,
      },
      async (ctx, { body }) => {
        const user = currentUser(ctx);
        const ref = await issueFor(ctx, user, idParam(ctx.params.id), 'WRITE');
        const input = body();
        ctx.status = 201;
        ctx.body = await issues.addReply(knex, user, ref, input.text);
      },
    ),

    // editing or deleting a comment: process admins only (spec 2 section 6)
    route(
      {
        method: 'PUT',
        path: '/api/issues/:id/replies/:replyId',
        access: onProcess('ADMIN', param('id', 'issue')),
        body: { schema: replyBody, object: 'issueReply' },
        response: issueDto,
      },
      async (ctx, { body }) => {
        const user = currentUser(ctx);
        const ref = await issueFor(ctx, user, idParam(ctx.params.id), 'ADMIN');
        const replyId = idParam(ctx.params.replyId, 'replyId');
        const input = body();
        ctx.body = await issues.changeReply(knex, user, ref, replyId, input.text);
      },
    ),

    route(
      {
        method: 'DELETE',
        path: '/api/issues/:id/replies/:replyId',
        access: onProcess('ADMIN', param('id', 'issue')),
        response: issueDto,
      },
      async (ctx) => {
        const user = currentUser(ctx);
        const ref = await issueFor(ctx, user, idParam(ctx.params.id), 'ADMIN');
        ctx.body = await issues.changeReply(knex, user, ref, idParam(ctx.params.replyId, 'replyId'), null);
      },
    ),
  ];
}
