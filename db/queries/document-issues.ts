/**
 * The issue view of the document-info list (the issues dashboard; domain/document-info.ts "The issue
 * view"): documents of the filtered list that have at least one matching issue the caller may see, with
 * per document the number of matching issues, of resolved ones and of their comments (non-automatic
 * replies). One page query (documents joined to their matching issues, grouped per document) and one count
 * (documents with such an issue). Issues are found by `issues (document_id)`, replies by
 * `issue_replies (issue_id)` (migration 015).
 */
import type { Knex } from 'knex';
import type {
  DocumentInfoCriteria,
  DocumentInfoSort,
  IssueCriteria,
  IssueDocumentInfoDTO,
} from '../../domain/document-info';
import { fromEnd } from '../../domain/paging';
import { filtered } from './document-info';

/** The conditions on issue `i` (alias) of the issue criteria, the visibility rule included. */
function whereIssue(knex: Knex, q: Knex.QueryBuilder, ic: IssueCriteria): Knex.QueryBuilder {
  if (ic.status) q.where('i.status', ic.status);
  if (ic.userId !== undefined) {
    const userId = ic.userId;
    q.where((w) =>
      w
        .where('i.user_id', userId)
        .orWhereExists((s) =>
          s
            .select(knex.raw('1'))
            .from('issue_replies as r')
            .whereRaw('r.issue_id = i.id')
            .where('r.user_id', userId)
            .where('r.automatic', false),
        ),
    );
  }
  if (ic.emptyReplies)
    q.whereNotExists((s) =>
      s
        .select(knex.raw('1'))
        .from('issue_replies as r')
        .whereRaw('r.issue_id = i.id')
        .where('r.automatic', false),
    );
  if (ic.visibleNodeIds)
    // Hidden: a TAG or RELATION issue naming a tag of a step at a node the caller does not see.
    q.whereRaw(
      `not (i.type in ('TAG', 'RELATION') and exists (
         select 1 from ner_tags t join steps s on s.id = t.step_id
         where t.id in (i.from_tag_id, i.to_tag_id) and not (s.node_id = any(?::bigint[]))))`,
      [ic.visibleNodeIds],
    );
  return q;
}

const ORDER: Record<DocumentInfoSort, string> = {
  'id,desc': 'd.id desc',
  'id,asc': 'd.id asc',
  'filename,asc': 'd.filename asc, d.id asc',
  'filename,desc': 'd.filename desc, d.id desc',
  'commentCount,asc': '"commentCount" asc, d.id asc',
  'commentCount,desc': '"commentCount" desc, d.id desc',
};

/** The order read backwards. */
const reversed = (order: string) =>
  order.replace(/ (asc|desc)\b/g, (_, dir) => (dir === 'asc' ? ' desc' : ' asc'));

/**
 * A page of the issue view, in `sort` order: `offset` rows into the order, or with `last` the page
 * `offset / limit` pages back from the last one of the exact `total` (read in the reversed order,
 * domain/paging.ts fromEnd).
 */
export async function issueDocumentPage(
  knex: Knex,
  c: DocumentInfoCriteria,
  ic: IssueCriteria,
  page: { offset: number; limit: number; sort: DocumentInfoSort; last?: { total: number } },
): Promise<IssueDocumentInfoDTO[]> {
  const { offset, limit } = page.last
    ? fromEnd(Math.floor(page.offset / page.limit), page.limit, page.last.total)
    : page;
  if (limit <= 0) return [];
  const q = filtered(knex, c)
    .join('issues as i', 'i.document_id', 'd.id')
    .joinRaw(
      `cross join lateral (select count(*) as n from issue_replies r
         where r.issue_id = i.id and not r.automatic) rc`,
    )
    .select(
      'd.id',
      'd.process_id as processId',
      'd.filename',
      'd.document_type as documentType',
      'd.status',
      knex.raw('count(*)::int as "issueCount"'),
      knex.raw(`(count(*) filter (where i.status = 'RESOLVED'))::int as "resolvedCount"`),
      knex.raw('sum(rc.n)::int as "commentCount"'),
    )
    .groupBy('d.id');
  whereIssue(knex, q, ic);
  const rows: (Omit<IssueDocumentInfoDTO, 'id' | 'processId'> & { id: string; processId: string })[] = await q
    .orderByRaw(page.last ? reversed(ORDER[page.sort]) : ORDER[page.sort])
    .limit(limit)
    .offset(offset);
  if (page.last) rows.reverse();
  return rows.map((r) => ({ ...r, id: Number(r.id), processId: Number(r.processId) }));
}

/** How many documents have a matching issue the caller may see. */
export async function issueDocumentCount(
  knex: Knex,
  c: DocumentInfoCriteria,
  ic: IssueCriteria,
): Promise<number> {
  const row = await filtered(knex, c)
    .whereExists((s) =>
      whereIssue(knex, s.select(knex.raw('1')).from('issues as i').whereRaw('i.document_id = d.id'), ic),
    )
    .count<{ count: string }[]>('* as count')
    .first();
  return Number(row?.count ?? 0);
}
