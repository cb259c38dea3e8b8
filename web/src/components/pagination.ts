/**
 * The page buttons of a paged table (spec 2 section 9: about 5 page buttons, with ellipses beyond 5 pages):
 * every page up to 5 pages; beyond, the first and last pages, a window of 3 around the current one, and an
 * ellipsis for each gap.
 */
import { RESULT_WINDOW } from '@domain/paging';

export type PageItem = number | 'gap';

/** Zero-based pages to show for `page` of `totalPages`. */
export function pageItems(page: number, totalPages: number): PageItem[] {
  if (totalPages <= 5) return Array.from({ length: totalPages }, (_, i) => i);
  const from = Math.max(1, Math.min(page - 1, totalPages - 4));
  const to = Math.min(totalPages - 2, Math.max(page + 1, 3));
  const items: PageItem[] = [0];
  if (from > 1) items.push('gap');
  for (let i = from; i <= to; i++) items.push(i);
  if (to < totalPages - 2) items.push('gap');
  items.push(totalPages - 1);
  return items;
}

/** Number of pages of `total` rows by `size` (at least 1). */
export const pageCount = (total: number, size: number) => Math.max(1, Math.ceil(total / size));

/**
 * Where a pager stands in a list paged under the result window (domain/paging.ts): a page by number from the
 * start (inside the window), a page by number from the end (`last=true&page=back`, inside the window), or a
 * page by keyset cursor beyond the window (`after` / `before` the cursors of the page it was reached from),
 * which remembers its number from the start (`index`) or from the end (`back`) when known.
 */
export type PagePosition =
  | { kind: 'page'; page: number }
  | { kind: 'last'; back: number }
  | { kind: 'after' | 'before'; cursor: string; index?: number; back?: number };

export const FIRST_PAGE: PagePosition = { kind: 'page', page: 0 };

/** What the API said of the list beside the page's rows. */
export interface PageAnswer {
  total: number;
  /** false: `total` is an estimate */
  exact: boolean;
  /** X-Next-Cursor / X-Prev-Cursor: rows follow / precede the page (null: none, or a list without cursors) */
  next: string | null;
  prev: string | null;
  /** X-Result-Window */
  window: number;
}

/** The answer before the first one arrives. */
export const NO_ANSWER: PageAnswer = { total: 0, exact: true, next: null, prev: null, window: RESULT_WINDOW };

/** The answer of the list headers (api/services/list-paging.ts listHeaders). */
export const pageAnswerOf = (headers: Headers, rows: number): PageAnswer => ({
  total: Number(headers.get('X-Total-Count') ?? rows),
  exact: headers.get('X-Total-Count-Exact') !== 'false',
  next: headers.get('X-Next-Cursor'),
  prev: headers.get('X-Prev-Cursor'),
  window: Number(headers.get('X-Result-Window') ?? RESULT_WINDOW),
});

/** The query of a position: `page`, and `after`, `before` or `last`. */
export function positionQuery(pos: PagePosition): {
  page: number;
  after?: string;
  before?: string;
  last?: true;
} {
  switch (pos.kind) {
    case 'page':
      return { page: pos.page };
    case 'last':
      return { page: pos.back, last: true };
    case 'after':
      return { page: 0, after: pos.cursor };
    case 'before':
      return { page: 0, before: pos.cursor };
  }
}

/** A page button: a number (zero-based `index`, or about that many when the total is an estimate). */
export type PagerItem =
  { kind: 'page'; index: number; about: boolean; position: PagePosition; current: boolean } | { kind: 'gap' };

export interface PagerView {
  previous: PagePosition | null;
  next: PagePosition | null;
  items: PagerItem[];
  /** the Last button (a list whose last page has no number button: an estimated total) */
  last: PagePosition | null;
  /** the Last button's page is the current one */
  atLast: boolean;
}

/**
 * The pager of `pos` after `answer`: number buttons only for pages inside the window (from the start, and
 * with an exact total from the end), Next / Previous by the cursors of the page shown (by number inside the
 * window for a list without cursors, the issue view), and a Last button by reversed read when the total is
 * an estimate. No button leads out of the window.
 */
export function pagerView(pos: PagePosition, answer: PageAnswer, size: number): PagerView {
  const pages = pageCount(answer.total, size);
  const wp = Math.max(1, Math.floor(answer.window / size));
  const { exact } = answer;
  const known = (i: number | undefined, b: number | undefined) => ({
    index: i ?? (exact && b !== undefined ? pages - 1 - b : undefined),
    back: b ?? (exact && i !== undefined ? pages - 1 - i : undefined),
  });
  const at =
    pos.kind === 'page'
      ? known(pos.page, undefined)
      : pos.kind === 'last'
        ? known(undefined, pos.back)
        : known(pos.index, pos.back);
  /** The position of a page by number, when it is inside the window from either end. */
  const byNumber = (index: number): PagePosition | null =>
    index < wp
      ? { kind: 'page', page: index }
      : exact && pages - 1 - index < wp
        ? { kind: 'last', back: pages - 1 - index }
        : null;
  const step = (d: 1 | -1): PagePosition | null => {
    const index = at.index === undefined ? undefined : at.index + d;
    const back = at.back === undefined ? undefined : at.back - d;
    if ((index !== undefined && index < 0) || (back !== undefined && back < 0)) return null;
    if (index !== undefined && exact && index >= pages) return null;
    // the ends by number (the first page, the last: cheap, and the same as their buttons)
    if (index === 0) return FIRST_PAGE;
    if (back === 0) return { kind: 'last', back: 0 };
    // a neighbour by cursor where the API gave one (keyset: no OFFSET at all), else by number in the window
    const cursor = d === 1 ? answer.next : answer.prev;
    if (cursor) return { kind: d === 1 ? 'after' : 'before', cursor, index, back };
    if (index !== undefined && index < wp) return { kind: 'page', page: index };
    if (back !== undefined && back < wp) return { kind: 'last', back };
    return null;
  };
  // An estimated total may be wrong: the API's cursors say whether rows precede or follow the page.
  const previous = !exact && answer.prev === null ? null : step(-1);
  const next = !exact && answer.next === null ? null : step(1);
  const items: PagerItem[] = [];
  const push = (item: PagerItem) => {
    if (item.kind === 'gap' && items[items.length - 1]?.kind === 'gap') return;
    items.push(item);
  };
  const numbered = (i: number, current: boolean) => {
    const position = current ? pos : byNumber(i);
    push(position ? { kind: 'page', index: i, about: false, position, current } : { kind: 'gap' });
  };
  if (exact) {
    for (const p of pageItems(at.index ?? 0, pages))
      if (p === 'gap') push({ kind: 'gap' });
      else numbered(p, p === at.index);
  } else {
    const shown = Math.min(pages, wp);
    const inside = at.index !== undefined && at.index < shown;
    const around = inside ? at.index! : at.index !== undefined ? shown - 1 : 0;
    for (const p of pageItems(around, shown))
      if (p === 'gap') push({ kind: 'gap' });
      else numbered(p, inside && p === at.index);
    if (!inside && pos.kind !== 'page' && at.back !== 0) {
      // the current page beyond the window: its number, or about its number counted from the end
      const index = at.index ?? Math.max(shown, pages - 1 - (at.back ?? 0));
      if (index > shown) push({ kind: 'gap' });
      items.push({ kind: 'page', index, about: at.index === undefined, position: pos, current: true });
    }
    // pages between the numbers and the Last button (unless the current one is next to the last)
    if (pages > shown && at.back !== 1) push({ kind: 'gap' });
  }
  return {
    previous,
    next,
    items,
    last: exact ? null : { kind: 'last', back: 0 },
    atLast: !exact && at.back === 0,
  };
}
