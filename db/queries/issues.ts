/**
 * Issues of documents, their tokens and replies (migration 015; rules in domain/issues.ts). Reads answer the
 * IssueDTO of the workspace with the visibility rule in the query: an issue on a tag whose step's node the
 * reader may not see is not returned. Writes are plain row writes; api/services/issues.ts decides them.
 */
import type { Knex } from 'knex';
import type { IssueDTO, IssueReplyDTO, IssueStatus, IssueTagDTO, IssueType } from '../../domain/issues';

/** Which tags' issues a reader sees: every one, or those whose step's node is among `nodeIds`. */
export type IssueVisibility = { all: true } | { all: false; nodeIds: readonly number[] };

const ISSUE_COLUMNS = [
  'i.id',
  'i.document_id as docId',
  'i.step_id as stepId',
  'i.type',
  'i.status',
  'i.title',
  'i.text',
  'i.start_offset as startOffset',
  'i.end_offset as endOffset',
  'i.from_tag_id as fromTagId',
  'i.to_tag_id as toTagId',
  'i.relation_type_id as relationTypeId',
  'i.user_id as userId',
  'i.created_date as createdDate',
  'i.last_modified_date as lastModifiedDate',
];

/** The node a tag's step belongs to (its tag type's node when it has no step). */
const TAG_NODE = 'coalesce(s.node_id, tt.node_id)';

const userName = (alias: string) =>
  `nullif(trim(concat_ws(' ', ${alias}.first_name, ${alias}.last_name)), '')`;

function issueQuery(knex: Knex, visibility: IssueVisibility) {
  const q = knex('issues as i')
    .leftJoin('users as u', 'u.id', 'i.user_id')
    .select([...ISSUE_COLUMNS, knex.raw(`coalesce(${userName('u')}, u.login) as "userName"`)]);
  if (!visibility.all)
    q.whereNotExists(
      knex('ner_tags as g')
        .join('ner_tag_types as tt', 'tt.id', 'g.ner_tag_type_id')
        .leftJoin('steps as s', 's.id', 'g.step_id')
        .whereRaw('g.id in (i.from_tag_id, i.to_tag_id)')
        .whereRaw(`not (${TAG_NODE} = any(?::bigint[]))`, [[...visibility.nodeIds]])
        .select(knex.raw('1')),
    );
  return q;
}

type Row = Record<string, any>;
const iso = (d: Date | string | null) => (d === null ? null : new Date(d).toISOString());

export interface TagRow {
  id: number;
  documentId: number;
  type: string;
  startOffset: number | null;
  endOffset: number | null;
  nerTagTypeId: number;
  nerTagTypeName: string;
  /** the node of the tag's step (of its type when it has none) */
  nodeId: number;
  /** the words of a token tag, in order */
  words: string[] | null;
}

/** Tags by id (of any document: the caller checks `documentId`), with what their label needs. */
export async function tagRows(knex: Knex, ids: readonly number[]): Promise<TagRow[]> {
  if (!ids.length) return [];
  const rows: Row[] = await knex('ner_tags as g')
    .join('ner_tag_types as tt', 'tt.id', 'g.ner_tag_type_id')
    .leftJoin('steps as s', 's.id', 'g.step_id')
    .whereIn('g.id', [...ids])
    .select(
      'g.id',
      'g.document_id as documentId',
      'g.type',
      'g.start_offset as startOffset',
      'g.end_offset as endOffset',
      'g.ner_tag_type_id as nerTagTypeId',
      'tt.name as nerTagTypeName',
      knex.raw(`${TAG_NODE} as "nodeId"`),
      knex.raw(`(select array_agg(w.value order by w.utterance_id, w.position)
        from ner_tag_tokens k join utterance_tokens w on w.id = k.utterance_token_id
        where k.ner_tag_id = g.id) as words`),
    );
  return rows.map(
    (r) => ({ ...r, id: Number(r.id), documentId: Number(r.documentId), nodeId: Number(r.nodeId) }) as TagRow,
  );
}

/** The label of a tag: the text it covers, or its words. */
export const tagLabel = (tag: TagRow, content: string): string =>
  tag.words?.length
    ? tag.words.join(' ')
    : tag.startOffset !== null && tag.endOffset !== null
      ? content.slice(tag.startOffset, tag.endOffset)
      : '';

/** Tokens by id with their document, in text order. */
export async function tokenRows(
  knex: Knex,
  ids: readonly number[],
): Promise<{ id: number; value: string; documentId: number }[]> {
  if (!ids.length) return [];
  const rows: Row[] = await knex('utterance_tokens as w')
    .join('utterances as t', 't.id', 'w.utterance_id')
    .whereIn('w.id', [...ids])
    .orderBy([{ column: 'w.utterance_id' }, { column: 'w.position' }, { column: 'w.id' }])
    .select('w.id', 'w.value', 't.document_id as documentId');
  return rows.map((r) => ({ id: Number(r.id), value: r.value, documentId: Number(r.documentId) }));
}

export async function relationTypeRow(
  knex: Knex,
  id: number,
): Promise<{ id: number; name: string; nodeId: number } | undefined> {
  const r = await knex('ner_relation_types').where('id', id).first('id', 'name', 'node_id as nodeId');
  return r && { id: Number(r.id), name: r.name, nodeId: Number(r.nodeId) };
}

export async function documentContent(knex: Knex, documentId: number): Promise<string> {
  const r = await knex('document_contents').where('document_id', documentId).first('content');
  return r?.content ?? '';
}

/** The issue's document and process (the access gate's resolver and the handlers' first look). */
export async function issueRef(
  knex: Knex,
  id: number,
): Promise<{ id: number; documentId: number; processId: number } | undefined> {
  const r = await knex('issues as i')
    .join('documents as d', 'd.id', 'i.document_id')
    .where('i.id', id)
    .first('i.id', 'i.document_id as documentId', 'd.process_id as processId');
  return r && { id: Number(r.id), documentId: Number(r.documentId), processId: Number(r.processId) };
}

async function withDetails(knex: Knex, rows: Row[]): Promise<IssueDTO[]> {
  if (!rows.length) return [];
  const ids = rows.map((r) => r.id);
  const tagIds = [...new Set(rows.flatMap((r) => [r.fromTagId, r.toTagId]).filter((x) => x !== null))];
  const relationTypeIds = [...new Set(rows.map((r) => r.relationTypeId).filter((x) => x !== null))];
  const documentIds = [...new Set(rows.map((r) => r.docId))];
  const [replies, tokens, tags, relationTypes, contents] = await Promise.all([
    knex('issue_replies as r')
      .leftJoin('users as u', 'u.id', 'r.user_id')
      .whereIn('r.issue_id', ids)
      .orderBy([{ column: 'r.created_date' }, { column: 'r.id' }])
      .select(
        'r.id',
        'r.issue_id as issueId',
        'r.text',
        'r.user_id as userId',
        'r.automatic',
        'r.created_date as createdDate',
        'r.last_modified_date as lastModifiedDate',
        knex.raw(`coalesce(${userName('u')}, u.login) as "userName"`),
      ) as Promise<Row[]>,
    knex('issue_tokens as k')
      .join('utterance_tokens as w', 'w.id', 'k.utterance_token_id')
      .whereIn('k.issue_id', ids)
      .orderBy([{ column: 'w.utterance_id' }, { column: 'w.position' }, { column: 'w.id' }])
      .select('k.issue_id as issueId', 'w.id', 'w.value') as Promise<Row[]>,
    tagRows(knex, tagIds),
    relationTypeIds.length
      ? (knex('ner_relation_types').whereIn('id', relationTypeIds).select('id', 'name') as Promise<Row[]>)
      : Promise.resolve([] as Row[]),
    tagIds.length
      ? (knex('document_contents')
          .whereIn('document_id', documentIds)
          .select('document_id as documentId', 'content') as Promise<Row[]>)
      : Promise.resolve([] as Row[]),
  ]);
  const contentOf = new Map(contents.map((c) => [Number(c.documentId), c.content as string]));
  const tagOf = new Map<number, IssueTagDTO>(
    tags.map((t) => [
      t.id,
      {
        id: t.id,
        label: tagLabel(t, contentOf.get(t.documentId) ?? ''),
        startOffset: t.startOffset,
        endOffset: t.endOffset,
        nerTagTypeId: Number(t.nerTagTypeId),
        nerTagTypeName: t.nerTagTypeName,
      },
    ]),
  );
  const relationName = new Map(relationTypes.map((r) => [Number(r.id), r.name as string]));
  const repliesOf = new Map<number, IssueReplyDTO[]>();
  for (const r of replies) {
    const list = repliesOf.get(Number(r.issueId)) ?? [];
    list.push({
      id: Number(r.id),
      text: r.text,
      userId: r.userId === null ? null : Number(r.userId),
      userName: r.userName ?? null,
      automatic: r.automatic,
      timestamp: iso(r.createdDate)!,
      lastModified: iso(r.lastModifiedDate),
    });
    repliesOf.set(Number(r.issueId), list);
  }
  const tokensOf = new Map<number, { id: number; value: string }[]>();
  for (const t of tokens) {
    const list = tokensOf.get(Number(t.issueId)) ?? [];
    list.push({ id: Number(t.id), value: t.value });
    tokensOf.set(Number(t.issueId), list);
  }
  return rows.map((r) => {
    const id = Number(r.id);
    const tagList = [r.fromTagId, r.toTagId]
      .filter((x) => x !== null)
      .map((x) => tagOf.get(Number(x)))
      .filter((x): x is IssueTagDTO => !!x);
    return {
      id,
      docId: Number(r.docId),
      stepId: r.stepId === null ? null : Number(r.stepId),
      type: r.type as IssueType,
      status: r.status as IssueStatus,
      title: r.title,
      text: r.text,
      userId: r.userId === null ? null : Number(r.userId),
      userName: r.userName ?? null,
      timestamp: iso(r.createdDate)!,
      lastModified: iso(r.lastModifiedDate),
      startOffset: r.startOffset,
      endOffset: r.endOffset,
      tokens: tokensOf.get(id) ?? [],
      tags: tagList,
      relation:
        r.type === 'RELATION' && r.relationTypeId !== null
          ? {
              fromId: Number(r.fromTagId),
              toId: Number(r.toTagId),
              relationTypeId: Number(r.relationTypeId),
              relationTypeName: relationName.get(Number(r.relationTypeId)) ?? '',
            }
          : null,
      replies: repliesOf.get(id) ?? [],
    };
  });
}

/** The document's issues the reader sees, newest first (over the issues(document_id) index). */
export async function documentIssues(
  knex: Knex,
  documentId: number,
  visibility: IssueVisibility,
): Promise<IssueDTO[]> {
  const rows = await issueQuery(knex, visibility)
    .where('i.document_id', documentId)
    .orderBy([
      { column: 'i.created_date', order: 'desc' },
      { column: 'i.id', order: 'desc' },
    ]);
  return withDetails(knex, rows);
}

/** One issue, if the reader sees it. */
export async function issueById(
  knex: Knex,
  id: number,
  visibility: IssueVisibility,
): Promise<IssueDTO | undefined> {
  const rows = await issueQuery(knex, visibility).where('i.id', id);
  return (await withDetails(knex, rows))[0];
}

export interface IssueRow {
  document_id: number;
  step_id: number | null;
  type: IssueType;
  title: string;
  text: string;
  start_offset?: number | null;
  end_offset?: number | null;
  from_tag_id?: number | null;
  to_tag_id?: number | null;
  relation_type_id?: number | null;
  user_id: number;
}

export async function insertIssue(knex: Knex, row: IssueRow, tokenIds: readonly number[]): Promise<number> {
  return knex.transaction(async (trx) => {
    const [{ id }] = await trx('issues')
      .insert({ ...row, status: 'ACTIVE' })
      .returning('id');
    if (tokenIds.length)
      await trx('issue_tokens').insert(tokenIds.map((t) => ({ issue_id: id, utterance_token_id: t })));
    return Number(id);
  });
}

export async function insertReply(
  knex: Knex,
  issueId: number,
  reply: { userId: number; text: string; automatic?: boolean },
): Promise<void> {
  await knex('issue_replies').insert({
    issue_id: issueId,
    user_id: reply.userId,
    text: reply.text,
    automatic: reply.automatic ?? false,
  });
}

/** The issue row under a lock, for a change (null when it is gone). */
export async function lockIssue(
  trx: Knex.Transaction,
  id: number,
): Promise<{ status: IssueStatus; text: string } | null> {
  const r = await trx('issues').where('id', id).forUpdate().first('status', 'text');
  return r ?? null;
}

export async function updateIssue(
  knex: Knex,
  id: number,
  change: { status?: IssueStatus; text?: string },
): Promise<void> {
  await knex('issues')
    .where('id', id)
    .update({ ...change, last_modified_date: knex.fn.now() });
}

export async function issueReplies(
  knex: Knex,
  issueId: number,
): Promise<{ id: number; text: string; automatic: boolean }[]> {
  const rows: Row[] = await knex('issue_replies')
    .where('issue_id', issueId)
    .select('id', 'text', 'automatic');
  return rows.map((r) => ({ id: Number(r.id), text: r.text, automatic: r.automatic }));
}

export async function updateReply(knex: Knex, issueId: number, id: number, text: string): Promise<number> {
  return knex('issue_replies')
    .where({ id, issue_id: issueId })
    .update({ text, last_modified_date: knex.fn.now() });
}

export async function deleteReplies(knex: Knex, issueId: number, ids: readonly number[]): Promise<number> {
  if (!ids.length) return 0;
  return knex('issue_replies')
    .where('issue_id', issueId)
    .whereIn('id', [...ids])
    .delete();
}
