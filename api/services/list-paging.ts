/**
 * The paging of the document lists (`POST api/v2/document-info`, `POST api/documents/_search/document`;
 * the rule in domain/paging.ts): `?page&size` and one anchor at most, `after` or `before` (a cursor an
 * answer gave in X-Next-Cursor / X-Prev-Cursor) or `last=true` (from the end); `page` counts from the anchor
 * in its direction. A page beyond the result window (the first `window` rows from the start or an anchor)
 * is refused with `entity.validation.pageWindow`. The answer's headers: the total, its exactness, the
 * window, and the cursors of the rows that precede and follow the page when there are any.
 */
import { firstValue as first } from '../validate';
import { z } from 'zod';
import type { BoundedCount } from '../../db/queries/bounded-count';
import type { SettledPage } from '../../db/queries/list-page';
import { pageInWindow } from '../../domain/paging';
import { LIMITS, pageSizeRule } from '../../domain/validation';
import type { FieldErrorCollector } from '../errors';
import { MAX_ID } from '../validate';

/** The sort key of a row: its id, and its filename for the filename sorts. */
export interface ListCursor {
  id: number;
  filename?: string;
}

export interface ListPageRequest {
  page: number;
  size: number;
  /** the page after this row */
  after?: ListCursor;
  /** the page before this row */
  before?: ListCursor;
  /** from the end: `page` pages back from the last one */
  last?: boolean;
}

type Query = Record<string, string | string[] | undefined>;
const PATTERN = { code: 'Pattern', key: 'entity.validation.pattern' } as const;

/**
 * `?page&size&after&before&last` onto `errors` (the caller adds its own fields, then throws): a page number
 * beyond `window` rows is an error of field `page`.
 */
export function listPageRequest(
  query: Query,
  errors: FieldErrorCollector,
  defaultSize: number,
  window: number,
): ListPageRequest {
  const int = (raw: string | undefined, fallback: number) =>
    raw === undefined ? fallback : /^\d{1,9}$/.test(raw.trim()) ? Number(raw) : NaN;
  const page = int(first(query.page), 0);
  const size = int(first(query.size), defaultSize);
  const cursor = (name: string) => {
    const raw = first(query[name]);
    return raw === undefined || raw === '' ? undefined : parseCursor(raw);
  };
  const after = cursor('after');
  const before = cursor('before');
  const lastRaw = first(query.last);
  const last = lastRaw === 'true';
  const anchors = [after, before, last || undefined].filter((x) => x !== undefined).length;
  const sizeOk = !Number.isNaN(size) && pageSizeRule(size);
  errors
    .check('after', after === null ? PATTERN : null)
    .check('before', before === null ? PATTERN : null)
    .check('last', lastRaw === undefined || lastRaw === 'true' || lastRaw === 'false' ? null : PATTERN)
    .check('after', anchors > 1 ? { code: 'Pattern', key: 'entity.validation.pageAnchor' } : null)
    .check('page', Number.isNaN(page) ? { code: 'Pattern', key: 'entity.validation.number' } : null)
    .check(
      'page',
      !Number.isNaN(page) && sizeOk && !pageInWindow(page, size, window)
        ? { code: 'Size', key: 'entity.validation.pageWindow', params: { window } }
        : null,
    )
    .check(
      'size',
      sizeOk
        ? null
        : { code: 'Size', key: 'entity.validation.pageSize', params: { sizes: LIMITS.pageSizes.join(', ') } },
    );
  return {
    page,
    size,
    ...(after ? { after } : {}),
    ...(before ? { before } : {}),
    ...(last ? { last } : {}),
  };
}

/** The cursor (`?after=` / `?before=`) of a row: base64url of its sort key. */
export function cursorOf(row: { id: number; filename?: string }, withFilename: boolean): string {
  const key: ListCursor = withFilename ? { id: row.id, filename: row.filename } : { id: row.id };
  return Buffer.from(JSON.stringify(key)).toString('base64url');
}

const cursorSchema = z.object({
  id: z.number().int().min(1).max(MAX_ID),
  filename: z.string().max(255).optional(),
});

function parseCursor(raw: string): ListCursor | null {
  if (raw.length > 400) return null;
  try {
    const r = cursorSchema.safeParse(JSON.parse(Buffer.from(raw, 'base64url').toString('utf8')));
    return r.success ? r.data : null;
  } catch {
    return null;
  }
}

export interface ListAnswer<T> {
  rows: T[];
  total: number;
  /** false: `total` is the planner's estimate (more than EXACT_COUNT_LIMIT rows match) */
  exact: boolean;
  /** the `?after=` of the next page, when rows follow this one */
  next?: string;
  /** the `?before=` of the previous page, when rows precede this one */
  prev?: string;
}

/** The answer of a page read with db/queries/list-page.ts: its cursors from its first and last rows. */
export function listAnswer<T extends { id: number; filename?: string }>(
  page: { rows: T[]; hasBefore: boolean; hasAfter: boolean },
  count: { total: number; exact: boolean },
  withFilename: boolean,
): ListAnswer<T> {
  const { rows } = page;
  return {
    rows,
    ...count,
    ...(rows.length && page.hasAfter ? { next: cursorOf(rows[rows.length - 1], withFilename) } : {}),
    ...(rows.length && page.hasBefore ? { prev: cursorOf(rows[0], withFilename) } : {}),
  };
}

/**
 * A page and the list's count: at once for a first page or one by cursor; else the count first, so that an
 * exact total lines the last pages up and lets a page past the middle read from the other end.
 */
export async function pageAndCount<T extends { id: number; filename?: string }>(
  paging: ListPageRequest,
  read: (total?: number) => Promise<SettledPage<T>>,
  counted: () => Promise<BoundedCount>,
  withFilename: boolean,
): Promise<ListAnswer<T>> {
  if (paging.page === 0 && !paging.last) {
    const [rows, count] = await Promise.all([read(), counted()]);
    return listAnswer(rows, count, withFilename);
  }
  const count = await counted();
  return listAnswer(await read(count.exact ? count.total : undefined), count, withFilename);
}

/** The list headers of an answer (exposed to the browser). */
export function listHeaders(
  answer: Omit<ListAnswer<unknown>, 'rows'>,
  window: number,
): Record<string, string> {
  const headers: Record<string, string> = {
    'X-Total-Count': String(answer.total),
    'X-Total-Count-Exact': String(answer.exact),
    'X-Result-Window': String(window),
  };
  if (answer.next) headers['X-Next-Cursor'] = answer.next;
  if (answer.prev) headers['X-Prev-Cursor'] = answer.prev;
  return { ...headers, 'Access-Control-Expose-Headers': Object.keys(headers).join(', ') };
}
