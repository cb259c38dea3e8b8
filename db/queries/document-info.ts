/**
 * The document-info list (spec 2 section 7; domain/document-info.ts): one query for a page of a process's
 * documents with their assignees, blocker and steps (aggregated per row, so a page is one round trip), and
 * one count under the same filters. Both start from `documents (process_id, id)` (or `(process_id, status,
 * id)` with a status filter, migration 013); the assignee, unassigned and step filters are EXISTS probes on
 * `document_assignees`' primary key and `steps (document_id, node_id, status)`.
 */
import type { Knex } from 'knex';
import { boundedCount, type BoundedCount } from './bounded-count';
import { readPage, settle, type ListOrder, type ListPage, type SettledPage } from './list-page';
import type { DocumentInfoCriteria, DocumentInfoDTO, DocumentSort } from '../../domain/document-info';

/** `%`, `_` and `\` of a user's text are literal in LIKE. */
const likeLiteral = (text: string) => text.replace(/[\\%_]/g, (c) => `\\${c}`);

/** The documents the criteria's document filters select (alias `d`); the issue view adds its own conditions. */
export function filtered(knex: Knex, c: DocumentInfoCriteria): Knex.QueryBuilder {
  const q = knex('documents as d').where('d.process_id', c.processId);
  if (c.status) q.where('d.status', c.status);
  if (c.name) q.whereRaw(`d.filename ilike ? escape '\\'`, [`%${likeLiteral(c.name)}%`]);
  if (c.documentIds) q.whereIn('d.id', c.documentIds);
  if (c.assigneeIds)
    q.whereExists((s) =>
      s
        .select(knex.raw('1'))
        .from('document_assignees as a')
        .whereRaw('a.document_id = d.id')
        .whereIn('a.user_id', c.assigneeIds!),
    );
  if (c.mineOf !== undefined) {
    const userId = c.mineOf;
    q.where((w) =>
      w
        .where('d.created_by_id', userId)
        .orWhereExists((s) =>
          s
            .select(knex.raw('1'))
            .from('document_assignees as a')
            .whereRaw('a.document_id = d.id')
            .where('a.user_id', userId),
        ),
    );
  }
  if (c.unassigned)
    q.whereNotExists((s) =>
      s.select(knex.raw('1')).from('document_assignees as a').whereRaw('a.document_id = d.id'),
    );
  for (const step of c.steps)
    q.whereExists((s) =>
      s
        .select(knex.raw('1'))
        .from('steps as s')
        .whereRaw('s.document_id = d.id')
        .where('s.node_id', step.nodeId)
        .whereIn('s.status', step.statuses),
    );
  if (c.throughNodeIds)
    q.whereExists((s) =>
      s
        .select(knex.raw('1'))
        .from('steps as s')
        .whereRaw('s.document_id = d.id')
        .whereIn('s.node_id', c.throughNodeIds!),
    );
  return q;
}

const USER_JSON = (alias: string) =>
  `json_build_object('id', ${alias}.id, 'login', ${alias}.login, 'firstName', ${alias}.first_name,
     'lastName', ${alias}.last_name, 'email', ${alias}.email)`;

const ORDER: Record<DocumentSort, ListOrder> = {
  'id,desc': [['d.id', 'desc']],
  'id,asc': [['d.id', 'asc']],
  'filename,asc': [
    ['d.filename', 'asc'],
    ['d.id', 'asc'],
  ],
  'filename,desc': [
    ['d.filename', 'desc'],
    ['d.id', 'desc'],
  ],
};

/** Where a page starts (db/queries/list-page.ts): the cursors carry the sort key of a row. */
export interface DocumentInfoPaging extends Omit<ListPage, 'after' | 'before'> {
  sort: DocumentSort;
  /** the sort key of the last row of the page before (its id, and its filename for filename sorts) */
  after?: DocumentInfoCursor;
  /** the sort key of the first row of the page after */
  before?: DocumentInfoCursor;
}

export interface DocumentInfoCursor {
  id: number;
  filename?: string;
}

/** A cursor as the values of the sort's order columns. */
const keyOf = (sort: DocumentSort, cursor: DocumentInfoCursor | undefined) =>
  cursor && (sort.startsWith('filename') ? [cursor.filename ?? '', cursor.id] : [cursor.id]);

/** The ids of the page: an index-driven scan of `documents` that reads nothing else. */
function pageIds(knex: Knex, c: DocumentInfoCriteria, page: DocumentInfoPaging) {
  const q = filtered(knex, c).select('d.id');
  const read = readPage(q, ORDER[page.sort], {
    ...page,
    after: keyOf(page.sort, page.after),
    before: keyOf(page.sort, page.before),
  });
  return { q, read };
}

/**
 * A page of the list, in `sort` order: the page's ids first (index only: OFFSET skips index entries, not
 * aggregated rows, and at most the result window of them, domain/paging.ts), then the blocker, assignees and
 * steps of those rows alone.
 */
export async function documentInfoPage(
  knex: Knex,
  c: DocumentInfoCriteria,
  page: DocumentInfoPaging,
): Promise<SettledPage<DocumentInfoDTO>> {
  const ids = pageIds(knex, c, page);
  if (!ids.read) return settle([], null);
  const q = knex
    .with('page', ids.q)
    .from('page as p')
    .join('documents as d', 'd.id', 'p.id')
    .select(
      'd.id',
      'd.process_id as processId',
      'd.filename',
      'd.document_type as documentType',
      'd.status',
      knex.raw(`(select ${USER_JSON('b')} from users b where b.id = d.blocked_by_id) as "blockedBy"`),
      knex.raw(`coalesce((select json_agg(${USER_JSON('u')} order by u.id)
       from document_assignees a join users u on u.id = a.user_id where a.document_id = d.id), '[]') as assignees`),
      knex.raw(`coalesce((select json_agg(json_build_object('id', s.id, 'status', s.status, 'master', s.master,
         'rejected', s.rejected, 'order', s."order", 'nodeId', s.node_id, 'nodeName', n.name,
         'activityType', n.activity_type, 'userId', s.blocked_by_id, 'errorMessage', s.error_message)
         order by s."order", s.id)
       from steps s join nodes n on n.id = s.node_id where s.document_id = d.id), '[]') as steps`),
    );
  for (const [column, dir] of ORDER[page.sort]) q.orderBy(column, dir);
  const rows: (Omit<DocumentInfoDTO, 'id' | 'processId'> & { id: string; processId: string })[] = await q;
  return settle(
    rows.map((r) => ({
      ...r,
      id: Number(r.id),
      processId: Number(r.processId),
      blockedBy: r.blockedBy ?? null,
    })),
    ids.read,
  );
}

/** How many documents the filters match (db/queries/bounded-count.ts: exact up to the limit, else estimated). */
export function documentInfoCount(knex: Knex, c: DocumentInfoCriteria): Promise<BoundedCount> {
  return boundedCount(knex, () => filtered(knex, c));
}

/** The plan of the page query (EXPLAIN), for the benchmark and the index check. */
export async function explainDocumentInfo(
  knex: Knex,
  c: DocumentInfoCriteria,
  page: DocumentInfoPaging,
): Promise<string> {
  const { sql, bindings } = pageIds(knex, c, page).q.toSQL();
  const { rows } = await knex.raw(`explain ${sql}`, bindings as Knex.RawBinding[]);
  return (rows as { 'QUERY PLAN': string }[]).map((r) => r['QUERY PLAN']).join('\n');
}
