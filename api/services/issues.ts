/**
 * Issues of a document (spec 2 sections 3 to 7, issue 12 section 2; rules in domain/issues.ts, contract in
 * docs/api-issues.md): raising one on a text range, words, tags or a relation (the anchor is checked against
 * the document and the title computed from it), the thread of replies, status changes (each adds an
 * automatic reply) and, for process admins, edits and deletions of replies. The routes have checked the
 * caller's mode on the document's process; this module applies what depends on the issue itself.
 */
import type { Knex } from 'knex';
import { grantedNodeIds, modeSatisfies, processMode } from '../../domain/access';
import {
  issueTextRule,
  issueTitle,
  statusChangeText,
  type IssueDTO,
  type IssueInput,
  type IssueMessageKey,
  type IssueStatus,
  type IssueUpdate,
} from '../../domain/issues';
import { spanProblem, spanViolations } from '../../domain/tags';
import * as q from '../../db/queries/issues';
import { stepById } from '../../db/queries/steps';
import type { AuthUser } from '../auth';
import { unreachable } from '../auth';
import { fieldErrors, HttpError } from '../errors';

const OBJECT = 'issue';

const fieldError = (field: string, key: IssueMessageKey, code: 'Match' | 'NotBlank' | 'Size' = 'Match') =>
  fieldErrors(OBJECT, [{ field, violation: { code, key } }]);

/** The tags' issues the caller sees in the process (domain/issues.ts, visibility). */
export function visibilityFor(user: AuthUser, processId: number): q.IssueVisibility {
  if (processMode(user, processId) !== null) return { all: true };
  return { all: false, nodeIds: grantedNodeIds(user) };
}

export const isProcessAdmin = (user: AuthUser, processId: number) =>
  modeSatisfies(processMode(user, processId), 'ADMIN');

export function checkText(field: string, text: string, emptyKey: IssueMessageKey): void {
  const v = issueTextRule(text, emptyKey);
  if (v) throw fieldErrors(OBJECT, [{ field, violation: v }]);
}

export const listIssues = (knex: Knex, user: AuthUser, documentId: number, processId: number) =>
  q.documentIssues(knex, documentId, visibilityFor(user, processId));

/** The issue if the caller sees it, else the answer for an unknown id. */
export async function visibleIssue(
  knex: Knex,
  user: AuthUser,
  ref: { id: number; processId: number },
): Promise<IssueDTO> {
  const issue = await q.issueById(knex, ref.id, visibilityFor(user, ref.processId));
  if (!issue) throw unreachable(user, 'issue');
  return issue;
}

/** Tags of the document the caller sees; anything else is a field error (no hint whether it exists). */
async function documentTags(
  knex: Knex,
  user: AuthUser,
  documentId: number,
  processId: number,
  ids: number[],
) {
  const rows = await q.tagRows(knex, ids);
  const visibility = visibilityFor(user, processId);
  const byId = new Map(rows.map((r) => [r.id, r]));
  return ids.map((id, i) => {
    const tag = byId.get(id);
    if (
      !tag ||
      tag.documentId !== documentId ||
      (!visibility.all && !visibility.nodeIds.includes(tag.nodeId))
    )
      throw fieldError(`tags.${i}.id`, 'soaApp.issue.tagNotInDocument');
    return tag;
  });
}

/** Raises an issue (status ACTIVE, no replies); the title comes from the anchor. */
export async function createIssue(
  knex: Knex,
  user: AuthUser,
  doc: { id: number; processId: number },
  input: IssueInput,
): Promise<IssueDTO> {
  checkText('text', input.text, 'soaApp.issue.textRequired');
  if (input.stepId != null) {
    const step = await stepById(knex, input.stepId);
    if (!step || step.documentId !== doc.id) throw fieldError('stepId', 'soaApp.issue.stepNotInDocument');
  }
  const base = {
    document_id: doc.id,
    step_id: input.stepId ?? null,
    type: input.type,
    text: input.text,
    user_id: user.id,
  };
  let id: number;
  switch (input.type) {
    case 'TEXT': {
      const content = await q.documentContent(knex, doc.id);
      const violations = spanViolations(input.startOffset, input.endOffset, content);
      if (violations.length) {
        const err = fieldErrors(OBJECT, violations);
        err.body.detail = spanProblem(input.startOffset, input.endOffset, content) ?? undefined;
        throw err;
      }
      id = await q.insertIssue(
        knex,
        {
          ...base,
          title: issueTitle({
            type: 'TEXT',
            content,
            startOffset: input.startOffset,
            endOffset: input.endOffset,
          }),
          start_offset: input.startOffset,
          end_offset: input.endOffset,
        },
        [],
      );
      break;
    }
    case 'TOKEN': {
      const wanted = [...new Set(input.tokens.map((t) => t.id))];
      const rows = await q.tokenRows(knex, wanted);
      const found = new Set(rows.filter((r) => r.documentId === doc.id).map((r) => r.id));
      const missing = input.tokens.findIndex((t) => !found.has(t.id));
      if (missing >= 0) throw fieldError(`tokens.${missing}.id`, 'soaApp.issue.tokenNotInDocument');
      const words = rows.map((r) => r.value);
      id = await q.insertIssue(knex, { ...base, title: issueTitle({ type: 'TOKEN', words }) }, wanted);
      break;
    }
    case 'TAG': {
      const tags = await documentTags(
        knex,
        user,
        doc.id,
        doc.processId,
        input.tags.map((t) => t.id),
      );
      if (tags.length === 2 && tags[0].id === tags[1].id)
        throw fieldError('tags.1.id', 'soaApp.issue.sameTag');
      const content = await q.documentContent(knex, doc.id);
      id = await q.insertIssue(
        knex,
        {
          ...base,
          title: issueTitle({ type: 'TAG', labels: tags.map((t) => q.tagLabel(t, content)) }),
          from_tag_id: tags[0].id,
          to_tag_id: tags[1]?.id ?? null,
        },
        [],
      );
      break;
    }
    case 'RELATION': {
      const { fromId, toId, relationTypeId } = input.relation;
      if (fromId === toId) throw fieldError('relation.toId', 'soaApp.issue.sameTag');
      const [from, to] = await documentTags(knex, user, doc.id, doc.processId, [fromId, toId]).catch(
        (e: HttpError) => {
          // name the relation's field, not the generic tags list
          const fe = e.body.fieldErrors?.[0];
          if (fe) fe.field = fe.field === 'tags.0.id' ? 'relation.fromId' : 'relation.toId';
          throw e;
        },
      );
      const type = await q.relationTypeRow(knex, relationTypeId);
      // a relation links two tags of one node with a type of that node (spec 2 section 4, Relations)
      if (!type || type.nodeId !== from.nodeId || to.nodeId !== from.nodeId)
        throw fieldError('relation.relationTypeId', 'soaApp.issue.relationType');
      const content = await q.documentContent(knex, doc.id);
      id = await q.insertIssue(
        knex,
        {
          ...base,
          title: issueTitle({
            type: 'RELATION',
            labels: [q.tagLabel(from, content), q.tagLabel(to, content)],
          }),
          from_tag_id: from.id,
          to_tag_id: to.id,
          relation_type_id: type.id,
        },
        [],
      );
      break;
    }
  }
  return (await q.issueById(knex, id, { all: true }))!;
}

/** Changes the status (with its automatic reply); the same status changes nothing. */
async function applyStatus(trx: Knex.Transaction, user: AuthUser, issueId: number, status: IssueStatus) {
  const row = await q.lockIssue(trx, issueId);
  if (!row) throw unreachable(user, 'issue');
  if (row.status === status) return;
  await q.updateIssue(trx, issueId, { status });
  await q.insertReply(trx, issueId, {
    userId: user.id,
    text: statusChangeText(row.status, status),
    automatic: true,
  });
}

export async function changeStatus(
  knex: Knex,
  user: AuthUser,
  ref: { id: number; processId: number },
  status: IssueStatus,
): Promise<IssueDTO> {
  await visibleIssue(knex, user, ref);
  await knex.transaction((trx) => applyStatus(trx, user, ref.id, status));
  return visibleIssue(knex, user, ref);
}

export async function addReply(
  knex: Knex,
  user: AuthUser,
  ref: { id: number; processId: number },
  text: string,
): Promise<IssueDTO> {
  checkText('text', text, 'soaApp.issue.replyRequired');
  await visibleIssue(knex, user, ref);
  await q.insertReply(knex, ref.id, { userId: user.id, text });
  return visibleIssue(knex, user, ref);
}

const adminOnly = () =>
  new HttpError(403, {
    message: 'soaApp.issue.adminOnly',
    detail: 'Only a process administrator may edit or delete comments',
  });

/** Edits (text) or deletes (null) a reply: process admins only. */
export async function changeReply(
  knex: Knex,
  user: AuthUser,
  ref: { id: number; processId: number },
  replyId: number,
  text: string | null,
): Promise<IssueDTO> {
  if (!isProcessAdmin(user, ref.processId)) throw adminOnly();
  if (text !== null) checkText('text', text, 'soaApp.issue.replyRequired');
  await visibleIssue(knex, user, ref);
  const changed =
    text === null
      ? await q.deleteReplies(knex, ref.id, [replyId])
      : await q.updateReply(knex, ref.id, replyId, text);
  if (!changed)
    throw new HttpError(404, { message: 'soaApp.issue.replyNotFound', params: { entity: 'issueReply' } });
  return visibleIssue(knex, user, ref);
}

/**
 * PUT api/issues: the whole issue as the client holds it. A new status is applied (automatic reply); replies
 * without an id are added (author: the caller, time: the server's); a known reply with another text is an
 * edit, a known reply left out a deletion, and so is a new description: process admins only. The anchor and
 * the title are the server's and are not read.
 */
export async function updateIssue(
  knex: Knex,
  user: AuthUser,
  ref: { id: number; processId: number },
  update: IssueUpdate,
): Promise<IssueDTO> {
  const current = await visibleIssue(knex, user, ref);
  update.replies.forEach((r, i) => checkText(`replies.${i}.text`, r.text, 'soaApp.issue.replyRequired'));
  if (update.text !== undefined && update.text !== current.text)
    checkText('text', update.text, 'soaApp.issue.textRequired');
  await knex.transaction(async (trx) => {
    await q.lockIssue(trx, ref.id);
    const stored = await q.issueReplies(trx, ref.id);
    const storedById = new Map(stored.map((r) => [r.id, r]));
    const sent = update.replies.filter((r) => r.id != null);
    const unknown = sent.findIndex((r) => !storedById.has(r.id!));
    if (unknown >= 0)
      throw new HttpError(404, { message: 'soaApp.issue.replyNotFound', params: { entity: 'issueReply' } });
    const kept = new Set(sent.map((r) => r.id!));
    const edits = sent.filter((r) => storedById.get(r.id!)!.text !== r.text);
    const deletions = stored.filter((r) => !kept.has(r.id)).map((r) => r.id);
    const newText = update.text !== undefined && update.text !== current.text ? update.text : undefined;
    if ((edits.length || deletions.length || newText !== undefined) && !isProcessAdmin(user, ref.processId))
      throw adminOnly();
    for (const e of edits) await q.updateReply(trx, ref.id, e.id!, e.text);
    await q.deleteReplies(trx, ref.id, deletions);
    if (newText !== undefined) await q.updateIssue(trx, ref.id, { text: newText });
    for (const r of update.replies.filter((x) => x.id == null))
      await q.insertReply(trx, ref.id, { userId: user.id, text: r.text });
    await applyStatus(trx, user, ref.id, update.status);
  });
  return visibleIssue(knex, user, ref);
}
