/**
 * The starts of the text blocks within NEAR_VIEWPORT of the scrolled LABELING text (an IntersectionObserver
 * on the block elements, `[data-block-s]`): those are drawn with their tags, the others as one plain span
 * each. Until the observer answers, the first block counts as visible.
 */
import { useEffect, useState, type RefObject } from 'react';

/** Blocks near the viewport are drawn with their tags; the others as one plain span each. */
const NEAR_VIEWPORT = '1500px 0px';

export function useVisibleBlocks(root: RefObject<HTMLDivElement | null>, blockCount: number): Set<number> {
  const [visible, setVisible] = useState<Set<number>>(() => new Set([0]));
  useEffect(() => {
    const el = root.current;
    if (!el || typeof IntersectionObserver === 'undefined') return;
    const observer = new IntersectionObserver(
      (entries) =>
        setVisible((prev) => {
          const next = new Set(prev);
          for (const e of entries) {
            const start = Number((e.target as HTMLElement).dataset.blockS);
            if (e.isIntersecting) next.add(start);
            else next.delete(start);
          }
          return next;
        }),
      { root: el, rootMargin: NEAR_VIEWPORT },
    );
    el.querySelectorAll('[data-block-s]').forEach((b) => observer.observe(b));
    return () => observer.disconnect();
  }, [root, blockCount]);
  return visible;
}
