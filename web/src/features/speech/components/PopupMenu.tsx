/**
 * The speech workspace's popup menus (editing, hints): a titled floating menu (components/floatingMenu.ts)
 * at the pointer, or below the word it belongs to when `anchor` is given, closed by Escape or a press outside
 * it. One is open at a time (the workspace holds which).
 */
import type { ReactNode } from 'react';
import { pointAnchor, useFloatingMenu, type Anchor } from '../../../components/floatingMenu';

export function PopupMenu({
  x,
  y,
  anchor,
  title,
  testId,
  onClose,
  children,
}: {
  x: number;
  y: number;
  /** the word's box: the menu opens beside it, never over it */
  anchor?: Anchor;
  title: string;
  testId: string;
  onClose: () => void;
  children: ReactNode;
}) {
  const menu = useFloatingMenu({
    anchor: anchor ?? pointAnchor(x, y),
    gap: anchor ? 4 : 0,
    onClose,
    escape: 'anywhere',
  });
  return (
    <div
      ref={menu.ref}
      className="sp-menu shadow"
      style={menu.style}
      role="menu"
      aria-label={title}
      data-testid={testId}
      onContextMenu={(e) => e.preventDefault()}
    >
      <div className="sp-menu-title">{title}</div>
      {children}
    </div>
  );
}
