/** A process tag as a coloured badge, with a text colour readable on the tag's background. */
import type { ReactNode } from 'react';

export interface TagLike {
  id: number;
  name: string;
  color: string;
  predefined?: boolean;
}

/** Black or white, whichever reads better on a #RRGGBB background. */
export function readableTextColor(hex: string): string {
  const m = /^#?([0-9a-f]{2})([0-9a-f]{2})([0-9a-f]{2})$/i.exec(hex ?? '');
  if (!m) return '#fff';
  const [r, g, b] = m.slice(1).map((h) => parseInt(h, 16) / 255);
  const lin = (c: number) => (c <= 0.03928 ? c / 12.92 : ((c + 0.055) / 1.055) ** 2.4);
  const luminance = 0.2126 * lin(r) + 0.7152 * lin(g) + 0.0722 * lin(b);
  return luminance > 0.45 ? '#1f2328' : '#fff';
}

export function TagBadge({ tag, children }: { tag: TagLike; children?: ReactNode }) {
  const bg = tag.color || '#6c757d';
  return (
    <span
      className="badge tag-badge"
      style={{ backgroundColor: bg, color: readableTextColor(bg) }}
      title={tag.name}
      data-testid="tag-badge"
      data-tag-id={tag.id}
    >
      {tag.name}
      {children}
    </span>
  );
}
