/**
 * The tools sidebar's width in percent of the workspace (min 20, default 25), dragged on its handle or
 * moved with the arrow keys, and kept in local storage when a drag or key press ends.
 */
import { useCallback, useRef, useState, type KeyboardEvent, type PointerEvent, type RefObject } from 'react';
import { SIDEBAR_SIZE_KEY, clampSidebarSize, loadSidebarSize } from '../settings';

export function useSidebarResize(
  container: RefObject<HTMLElement | null>,
  startEdge: RefObject<HTMLElement | null>,
) {
  const [size, setSize] = useState(() => loadSidebarSize(localStorage));
  const dragging = useRef(false);
  const latest = useRef(size);

  const store = (n: number) => {
    latest.current = n;
    setSize(n);
  };
  const persist = () => localStorage.setItem(SIDEBAR_SIZE_KEY, String(latest.current));

  const sizeAt = (clientX: number): number | null => {
    const box = container.current?.getBoundingClientRect();
    const left = startEdge.current?.getBoundingClientRect().left ?? box?.left;
    if (!box || left === undefined || box.width <= 0) return null;
    return clampSidebarSize(((clientX - left) / box.width) * 100);
  };

  const onPointerDown = useCallback((e: PointerEvent<HTMLElement>) => {
    dragging.current = true;
    e.currentTarget.setPointerCapture(e.pointerId);
    e.preventDefault();
  }, []);
  const onPointerMove = (e: PointerEvent<HTMLElement>) => {
    if (!dragging.current) return;
    const n = sizeAt(e.clientX);
    if (n !== null) store(n);
  };
  const onPointerUp = (e: PointerEvent<HTMLElement>) => {
    if (!dragging.current) return;
    dragging.current = false;
    e.currentTarget.releasePointerCapture(e.pointerId);
    persist();
  };
  const onKeyDown = (e: KeyboardEvent<HTMLElement>) => {
    const delta = e.key === 'ArrowLeft' ? -1 : e.key === 'ArrowRight' ? 1 : 0;
    if (!delta) return;
    e.preventDefault();
    store(clampSidebarSize(latest.current + delta));
    persist();
  };

  return { size, handleProps: { onPointerDown, onPointerMove, onPointerUp, onKeyDown } };
}
