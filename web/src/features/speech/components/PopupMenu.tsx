/**
 * The speech workspace's popup menus (editing, hints): a titled box at the pointer, kept inside the window,
 * closed by Escape or a press outside it. One is open at a time (the workspace holds which).
 */
import { useEffect, useLayoutEffect, useRef, useState, type ReactNode } from 'react';

export function PopupMenu({
  x,
  y,
  title,
  testId,
  onClose,
  children,
}: {
  x: number;
  y: number;
  title: string;
  testId: string;
  onClose: () => void;
  children: ReactNode;
}) {
  const ref = useRef<HTMLDivElement>(null);
  const [pos, setPos] = useState({ left: x, top: y });
  useLayoutEffect(() => {
    const r = ref.current?.getBoundingClientRect();
    if (!r) return;
    setPos({
      left: Math.max(4, Math.min(x, window.innerWidth - r.width - 4)),
      top: Math.max(4, Math.min(y, window.innerHeight - r.height - 4)),
    });
  }, [x, y]);
  useEffect(() => {
    const onDown = (e: MouseEvent) => {
      if (ref.current && !ref.current.contains(e.target as Node) && (e.target as Node).isConnected) onClose();
    };
    const onKey = (e: KeyboardEvent) => {
      if (e.key === 'Escape') {
        e.stopPropagation();
        onClose();
      }
    };
    window.addEventListener('mousedown', onDown);
    window.addEventListener('keydown', onKey, true);
    return () => {
      window.removeEventListener('mousedown', onDown);
      window.removeEventListener('keydown', onKey, true);
    };
  }, [onClose]);
  return (
    <div
      ref={ref}
      className="sp-menu shadow"
      style={{ left: pos.left, top: pos.top }}
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
