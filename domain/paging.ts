/**
 * The paging rule of the document lists (issue 13 section 2: "deep pages cost the same as the first"), shared
 * by the API (`POST api/v2/document-info`, `POST api/documents/_search/document`) and the pagers of the web
 * app. PostgreSQL cannot jump to the n-th entry of an index, so a page asked for by number costs an OFFSET
 * over n index entries; like Elasticsearch's `max_result_window`, a page is asked for by number only while
 * it lies inside the first RESULT_WINDOW rows ((page + 1) * size <= RESULT_WINDOW). Beyond the window a list
 * is walked by keyset cursor (`after` / `before`: the rows after or before a row's sort key, what the
 * previous answer gave in X-Next-Cursor / X-Prev-Cursor) or read from its end (`last`: the reversed order,
 * `page` counting pages back from the last one, inside the window too). Every reachable page then reads at
 * most RESULT_WINDOW index entries, whatever the list's length; a page number beyond the window without a
 * cursor is refused (400 `entity.validation.pageWindow`).
 *
 * The last page: with an exact total it holds `total - (pages - 1) * size` rows, so it is the page the
 * numbering gives; with an estimated total (more than EXACT_COUNT_LIMIT matches, db/queries/bounded-count.ts)
 * it is the last `size` rows, and the pages before it by `before` cursor line up from the end.
 */

/** Rows reachable by page number from either end of a list (the API's LIST_RESULT_WINDOW may lower it). */
export const RESULT_WINDOW = 10_000;

/** Whether the page `page` (zero-based, counted from the start, an anchor or the end) lies inside the window. */
export const pageInWindow = (page: number, size: number, window: number = RESULT_WINDOW): boolean =>
  (page + 1) * size <= window;

/** How many pages of `size` the window holds (pages 0 .. windowPages - 1 are reachable by number). */
export const windowPages = (size: number, window: number = RESULT_WINDOW): number =>
  Math.max(1, Math.floor(window / size));

/** Rows on the last page of an exactly counted list (0 for an empty one). */
export const lastPageRows = (total: number, size: number): number =>
  total <= 0 ? 0 : total - Math.floor((total - 1) / size) * size;

/**
 * The rows of the page `back` pages before the last one, in the reversed order: skip `offset`, read `limit`.
 * With an exact total the pages line up with the numbering from the start; without, the last page is the
 * last `size` rows.
 */
export function fromEnd(back: number, size: number, total?: number): { offset: number; limit: number } {
  if (total === undefined) return { offset: back * size, limit: size };
  const last = lastPageRows(total, size);
  return back === 0 ? { offset: 0, limit: last } : { offset: last + (back - 1) * size, limit: size };
}
