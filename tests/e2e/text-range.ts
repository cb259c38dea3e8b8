/**
 * Where a range of a document's text is on the screen, for the e2e suites that select text with the mouse:
 * the workspace draws the text as segments carrying their offsets (`data-s`, `data-e`), so an offset maps to
 * a text node and a position in it.
 */
import type { Page } from 'playwright-core';

/** What the function run in the page reads of its window (the tests' TypeScript has no DOM library). */
interface RangeWindow {
  document: {
    querySelectorAll(s: string): ArrayLike<{
      dataset: Record<string, string>;
      childNodes: ArrayLike<{ nodeType: number }>;
    }>;
    createRange(): {
      setStart(n: unknown, o: number): void;
      setEnd(n: unknown, o: number): void;
      getBoundingClientRect(): { left: number; right: number; top: number; bottom: number };
    };
  };
}

/** The screen box of the text range [start, end) (offsets into the document's text). */
export function textRangeBox(
  p: Page,
  start: number,
  end: number,
): Promise<{ left: number; right: number; top: number; bottom: number }> {
  return p.evaluate(
    ([s, e]) => {
      const w = globalThis as unknown as RangeWindow;
      const point = (offset: number) => {
        for (const seg of Array.from(w.document.querySelectorAll('[data-s]'))) {
          const a = Number(seg.dataset.s);
          const b = Number(seg.dataset.e);
          if (offset >= a && offset <= b && !(offset === b && offset !== e)) {
            const node = Array.from(seg.childNodes).find((c) => c.nodeType === 3);
            return { node, offset: offset - a };
          }
        }
        throw new Error(`no segment at ${offset}`);
      };
      const range = w.document.createRange();
      const from = point(s);
      const to = point(e);
      range.setStart(from.node, from.offset);
      range.setEnd(to.node, to.offset);
      const r = range.getBoundingClientRect();
      return { left: r.left, right: r.right, top: r.top, bottom: r.bottom };
    },
    [start, end] as const,
  );
}
