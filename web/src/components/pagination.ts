/**
 * The page buttons of a paged table (spec 2 section 9: about 5 page buttons, with ellipses beyond 5 pages):
 * every page up to 5 pages; beyond, the first and last pages, a window of 3 around the current one, and an
 * ellipsis for each gap.
 */
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
