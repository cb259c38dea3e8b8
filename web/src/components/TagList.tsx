/**
 * A row of tag badges that fits its cell: badges that do not fit (keeping 80 px for the counter) collapse
 * into a '+N' button opening a popover with the rest. The popover lives in a portal so that no scrolling
 * container clips it.
 */
import { useLayoutEffect, useMemo, useRef, useState } from 'react';
import { createPortal } from 'react-dom';
import { useOutsideClick } from './hooks';
import { TagBadge, type TagLike } from './TagBadge';

const RESERVED_PX = 80;
const GAP_PX = 4;

/** How many badges of these widths fit in `available` px (all, or as many as leave RESERVED_PX free; at least one). */
export function visibleTagCount(widths: readonly number[], available: number): number {
  const total = widths.reduce((a, b) => a + b, 0);
  if (total <= available || available === 0) return widths.length;
  let used = 0;
  let count = 0;
  for (const w of widths) {
    if (used + w > available - RESERVED_PX) break;
    used += w;
    count += 1;
  }
  return Math.max(1, count);
}

export function TagList({ tags, testId }: { tags: readonly TagLike[]; testId?: string }) {
  const containerRef = useRef<HTMLDivElement>(null);
  const measureRef = useRef<HTMLDivElement>(null);
  const toggleRef = useRef<HTMLButtonElement>(null);
  const popoverRef = useRef<HTMLDivElement>(null);
  const [visible, setVisible] = useState(tags.length);
  const [anchor, setAnchor] = useState<{ top: number; left: number } | null>(null);
  const refs = useMemo(() => [toggleRef, popoverRef], []);
  // Re-measure when the tags change, not whenever the parent hands over a new array of the same tags.
  const signature = tags.map((tag) => `${tag.id}:${tag.name}`).join('|');
  useOutsideClick(refs, !!anchor, () => setAnchor(null));

  useLayoutEffect(() => {
    const container = containerRef.current;
    const measure = measureRef.current;
    if (!container || !measure) return;
    const compute = () => {
      const widths = Array.from(measure.children).map((c) => (c as HTMLElement).offsetWidth + GAP_PX);
      setVisible(visibleTagCount(widths, container.clientWidth));
    };
    compute();
    const observer = new ResizeObserver(compute);
    observer.observe(container);
    return () => observer.disconnect();
  }, [signature]);

  useLayoutEffect(() => {
    if (!anchor) return;
    const close = () => setAnchor(null);
    window.addEventListener('scroll', close, true);
    window.addEventListener('resize', close);
    return () => {
      window.removeEventListener('scroll', close, true);
      window.removeEventListener('resize', close);
    };
  }, [anchor]);

  const shown = tags.slice(0, visible);
  const hidden = tags.slice(visible);

  const toggle = () => {
    if (anchor) return setAnchor(null);
    const rect = toggleRef.current?.getBoundingClientRect();
    if (rect) setAnchor({ top: rect.bottom + 6, left: rect.left + rect.width / 2 });
  };

  return (
    <div className="tag-list" ref={containerRef} data-testid={testId}>
      <div className="tag-list-measure" ref={measureRef} aria-hidden="true">
        {tags.map((tag) => (
          <span key={tag.id} className="badge tag-badge">
            {tag.name}
          </span>
        ))}
      </div>
      {shown.map((tag) => (
        <TagBadge key={tag.id} tag={tag} />
      ))}
      {hidden.length > 0 && (
        <button
          type="button"
          ref={toggleRef}
          className="badge rounded-pill text-bg-light border tag-more-toggle"
          onClick={toggle}
          aria-expanded={!!anchor}
          data-testid="tag-more"
        >
          +{hidden.length}
        </button>
      )}
      {anchor &&
        hidden.length > 0 &&
        createPortal(
          <div
            ref={popoverRef}
            className="popover bs-popover-bottom show tag-popover"
            role="tooltip"
            style={{ top: anchor.top, left: anchor.left }}
            data-testid="tag-popover"
          >
            <div className="popover-body d-flex flex-wrap gap-1">
              {hidden.map((tag) => (
                <TagBadge key={tag.id} tag={tag} />
              ))}
            </div>
          </div>,
          document.body,
        )}
    </div>
  );
}
