/**
 * Paints an open issue's anchor (text ranges: its range, or the spans of its tags), or the range the address
 * names (a RAG chunk's, ../textRange.ts), over the document text with the CSS Custom Highlight API (no DOM
 * change, so the text views need not know about issues), and scrolls the first range into view. The text views redraw their segments as the user
 * scrolls; a MutationObserver paints the ranges again on the new nodes.
 */
import { useEffect } from 'react';

export const ISSUE_HIGHLIGHT = 'ws-issue-anchor';
/** The highlight of the range named on the workspace address. */
export const ADDRESS_HIGHLIGHT = 'ws-address-range';

export interface OffsetRange {
  start: number;
  end: number;
}

/** The text root of the workspace (LABELING, CLASSIFYING and read-only views share its test id). */
const textRoot = () => document.querySelector<HTMLElement>('[data-testid="document-text"]');

/**
 * DOM ranges for text offsets: text nodes in document order, each at its segment's `data-s` offset when it
 * has one (the labelling view), else right after the previous one.
 */
export function domRanges(root: HTMLElement, ranges: readonly OffsetRange[]): Range[] {
  const walker = document.createTreeWalker(root, NodeFilter.SHOW_TEXT);
  const points: { node: Text; start: number }[] = [];
  let at = 0;
  for (let n = walker.nextNode(); n; n = walker.nextNode()) {
    const seg = (n.parentElement as HTMLElement | null)?.closest<HTMLElement>('[data-s]');
    const first = seg && [...seg.childNodes].find((c) => c.nodeType === Node.TEXT_NODE) === n;
    if (first && seg && root.contains(seg)) at = Number(seg.dataset.s);
    points.push({ node: n as Text, start: at });
    at += (n as Text).length;
  }
  const locate = (offset: number, isEnd: boolean) => {
    for (const p of points) {
      const end = p.start + p.node.length;
      if (offset >= p.start && (offset < end || (isEnd && offset === end)))
        return { node: p.node, offset: offset - p.start };
    }
    return null;
  };
  const out: Range[] = [];
  for (const r of ranges) {
    const a = locate(r.start, false);
    const b = locate(r.end, true);
    if (!a || !b) continue;
    const range = document.createRange();
    range.setStart(a.node, a.offset);
    range.setEnd(b.node, b.offset);
    out.push(range);
  }
  return out;
}

/**
 * Scrolls the range itself (not its text node's element, which in the read-only view is the whole text) to the
 * middle of its scrolling box, or its top when it is taller than the box.
 */
function scrollToRange(range: Range) {
  let box = range.startContainer.parentElement;
  while (box && !(box.scrollHeight > box.clientHeight && /auto|scroll/.test(getComputedStyle(box).overflowY)))
    box = box.parentElement;
  const rect = range.getBoundingClientRect();
  if (!box) {
    window.scrollBy(0, rect.top - Math.max(0, (window.innerHeight - rect.height) / 2));
    return;
  }
  const top = box.getBoundingClientRect().top;
  box.scrollTop += rect.top - top - Math.max(0, (box.clientHeight - rect.height) / 2);
}

const highlights = () =>
  (globalThis as { CSS?: { highlights?: Map<string, unknown> } }).CSS?.highlights ?? null;

export function useAnchorHighlight(ranges: readonly OffsetRange[] | null, name = ISSUE_HIGHLIGHT) {
  const key = ranges ? ranges.map((r) => `${r.start}-${r.end}`).join(',') : '';
  useEffect(() => {
    const registry = highlights();
    const HighlightCtor = (globalThis as { Highlight?: new (...r: Range[]) => unknown }).Highlight;
    if (!ranges || !ranges.length) return;
    let observer: MutationObserver | null = null;
    let observed: HTMLElement | null = null;
    let frame = 0;
    const paint = () => {
      frame = 0;
      const root = textRoot();
      if (!root) return;
      if (root !== observed) {
        observer?.disconnect();
        observer = new MutationObserver(() => {
          if (!frame) frame = requestAnimationFrame(paint);
        });
        observer.observe(root, { childList: true, subtree: true, characterData: true });
        observed = root;
      }
      const dom = domRanges(root, ranges);
      if (registry && HighlightCtor) registry.set(name, new HighlightCtor(...dom));
      return dom;
    };
    const first = paint()?.[0];
    if (first) scrollToRange(first);
    // The text may be drawn after the panel (a document switch): try again once it is there.
    const retry = window.setTimeout(paint, 300);
    return () => {
      window.clearTimeout(retry);
      if (frame) cancelAnimationFrame(frame);
      observer?.disconnect();
      registry?.delete(name);
    };
    // ranges are compared by value through `key`
    // eslint-disable-next-line react-hooks/exhaustive-deps
  }, [key, name]);
}
