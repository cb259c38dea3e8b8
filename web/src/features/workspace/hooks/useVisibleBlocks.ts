/**
 * The blocks within a margin of the viewport of a scrolled element (an IntersectionObserver on the block
 * elements): by default the starts of the LABELING text's blocks (`[data-block-s]`, drawn with their tags,
 * the others as one plain span each); the speech workspace's utterance windows use it with
 * `attribute: 'window'` (`[data-window]`). Until the observer answers, the first block counts as visible.
 */
import { useEffect, useState, type RefObject } from 'react';

/** Blocks near the viewport are drawn with their tags; the others as one plain span each. */
const NEAR_VIEWPORT = '1500px 0px';

export interface VisibleBlocksOptions {
  /** The data attribute (dataset name) naming a block by a number; 'blockS' by default. */
  attribute?: string;
  /** How near the viewport counts as visible (IntersectionObserver rootMargin). */
  rootMargin?: string;
  /** The block counted as visible before the observer answers; 0 by default. */
  first?: number;
}

export function useVisibleBlocks(
  root: RefObject<HTMLDivElement | null>,
  blockCount: number,
  { attribute = 'blockS', rootMargin = NEAR_VIEWPORT, first = 0 }: VisibleBlocksOptions = {},
): Set<number> {
  const [visible, setVisible] = useState<Set<number>>(() => new Set([first]));
  useEffect(() => {
    const el = root.current;
    if (!el || typeof IntersectionObserver === 'undefined') return;
    const observer = new IntersectionObserver(
      (entries) =>
        setVisible((prev) => {
          const next = new Set(prev);
          for (const e of entries) {
            const start = Number((e.target as HTMLElement).dataset[attribute]);
            if (e.isIntersecting) next.add(start);
            else next.delete(start);
          }
          return next;
        }),
      { root: el, rootMargin },
    );
    const selector = `[data-${attribute.replace(/[A-Z]/g, (c) => `-${c.toLowerCase()}`)}]`;
    el.querySelectorAll(selector).forEach((b) => observer.observe(b));
    return () => observer.disconnect();
  }, [root, blockCount, attribute, rootMargin]);
  return visible;
}
