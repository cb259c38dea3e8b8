/**
 * Where a page of a document list starts (domain/paging.ts), applied to a query of the page's ids in an
 * order of index columns, shared by the document-info list and the document search: `offset` rows into the
 * order; or after / before a row's sort key (keyset: the index is entered at the key); or from the end
 * (`last`: the reversed order). A page past the middle of an exactly counted list is read from the other
 * end. One row beyond the page is asked for on the side the read moves towards, so the answer says whether
 * rows follow (X-Next-Cursor) or precede (X-Prev-Cursor) without counting them. Rows come back in the order
 * (the caller's outer query orders them); `settle` drops the extra row.
 */
import type { Knex } from 'knex';
import { fromEnd } from '../../domain/paging';

export type ListOrder = [column: string, dir: 'asc' | 'desc'][];

export interface ListPage {
  /** rows to skip: from the start, or with `after`, `before` or `last` from that point in its direction */
  offset: number;
  limit: number;
  /** the sort key (one value per order column) of the row the page follows */
  after?: unknown[];
  /** the sort key of the row the page precedes */
  before?: unknown[];
  /** from the end: `offset` / `limit` pages back from the last one */
  last?: boolean;
  /** the exact number of rows when known (the last pages line up; a page past the middle reads backwards) */
  total?: number;
}

/** How the page was read, for `settle`. */
export interface PageRead {
  /** read in the reversed order (its extra row, if any, is the first of the ordered rows) */
  reversed: boolean;
  limit: number;
  /** one extra row was asked for (else the flags below are known) */
  probe: boolean;
  hasBefore: boolean;
  hasAfter: boolean;
}

export interface SettledPage<T> {
  rows: T[];
  /** rows precede the page (a `before` cursor of its first row finds them) */
  hasBefore: boolean;
  /** rows follow the page */
  hasAfter: boolean;
}

const flip = (dir: 'asc' | 'desc') => (dir === 'asc' ? 'desc' : 'asc');

/** Adds the keyset condition, the order, the limit and the offset to `q`; null: the page is empty. */
export function readPage(q: Knex.QueryBuilder, order: ListOrder, page: ListPage): PageRead | null {
  let reversed = false;
  let { offset, limit } = page;
  let probe = true;
  let hasBefore = offset > 0;
  let hasAfter = false;
  const key = page.after ?? page.before;
  if (key) {
    reversed = !!page.before;
    const dir = reversed ? flip(order[0][1]) : order[0][1];
    const columns = order.map(([column]) => column).join(', ');
    q.whereRaw(
      `(${columns}) ${dir === 'asc' ? '>' : '<'} (${key.map(() => '?').join(', ')})`,
      key as never[],
    );
    hasBefore = !reversed;
    hasAfter = reversed;
  } else if (page.last) {
    reversed = true;
    const back = Math.floor(page.offset / page.limit);
    ({ offset, limit } = fromEnd(back, page.limit, page.total));
    if (limit <= 0) return null;
    hasAfter = offset > 0;
  } else if (page.total !== undefined && offset > page.total / 2) {
    // From the other end: the rows [offset, offset + limit) are [total - offset - limit, total - offset) there.
    const end = page.total - offset;
    if (end <= 0) return null;
    reversed = true;
    hasAfter = page.offset + page.limit < page.total;
    offset = Math.max(0, end - limit);
    limit = end - offset;
    probe = false;
  }
  for (const [column, dir] of order) q.orderBy(column, reversed ? flip(dir) : dir);
  q.limit(probe ? limit + 1 : limit).offset(offset);
  return { reversed, limit, probe, hasBefore, hasAfter };
}

/** The page's rows (in the order) without the extra row, and whether rows precede and follow it. */
export function settle<T>(rows: T[], read: PageRead | null): SettledPage<T> {
  if (!read) return { rows: [], hasBefore: false, hasAfter: false };
  const extra = read.probe && rows.length > read.limit;
  if (!extra) return { rows, hasBefore: read.hasBefore, hasAfter: read.hasAfter };
  return read.reversed
    ? { rows: rows.slice(1), hasBefore: true, hasAfter: read.hasAfter }
    : { rows: rows.slice(0, read.limit), hasBefore: read.hasBefore, hasAfter: true };
}
