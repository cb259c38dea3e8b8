/**
 * Spring-style paging parameters of the administration lists (users, audits): `page` (from 0), `size`,
 * `sort=property,asc|desc` (repeatable), with the total in `X-Total-Count`. Unknown sort properties and
 * out-of-range numbers are a 400, never a database error.
 */
import type { Context } from 'koa';
import { badRequest } from './errors';
import { pageQuery } from './validate';

export const MAX_PAGE_SIZE = 1000;

export interface PageRequest {
  page: number;
  size: number;
  sort: { column: string; desc: boolean }[];
}

const values = (v: string | string[] | undefined): string[] =>
  v === undefined ? [] : Array.isArray(v) ? v : [v];

/**
 * Reads page, size and sort from the query. `sorts` maps the accepted property names to their columns;
 * `defaultSort` is used when the query names none (e.g. `id,asc`).
 */
export function pageRequest(
  query: Context['query'],
  opts: { defaultSize: number; sorts: Readonly<Record<string, string>>; defaultSort: string },
): PageRequest {
  const { page, size } = pageQuery({ query }, opts.defaultSize, MAX_PAGE_SIZE);
  const given = values(query.sort).filter((s) => s.trim() !== '');
  const sort = (given.length ? given : [opts.defaultSort]).map((s) => {
    const [property, direction = 'asc'] = s.split(',').map((p) => p.trim());
    const column = opts.sorts[property];
    if (!column || !['asc', 'desc'].includes(direction.toLowerCase()))
      throw badRequest(`sort must be one of ${Object.keys(opts.sorts).join(', ')}, then asc or desc`);
    return { column, desc: direction.toLowerCase() === 'desc' };
  });
  return { page, size, sort };
}

/** Sets the total of a paged list (and exposes it to the browser). */
export function setTotal(ctx: Context, total: number): void {
  ctx.set('X-Total-Count', String(total));
  ctx.set('Access-Control-Expose-Headers', 'X-Total-Count');
}

/** A page of `content` in Spring's shape (`{content, page: {size, totalElements, totalPages, number}}`). */
export const springPage = <T>(content: T[], total: number, number: number, size: number) => ({
  content,
  page: { size, totalElements: total, totalPages: Math.ceil(total / size), number },
});
