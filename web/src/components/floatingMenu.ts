/**
 * The one floating menu of the workspaces (labelling, relation, speech editing and hints menus, the issue
 * form): where it stands (`placeMenu`, pure) and how it goes away (a press outside it, Escape).
 *
 * Placement: below the anchor (the pointer, or the box of the word or selection it belongs to), flipped above
 * it when there is no room below; kept inside the window; never over the anchor itself. When neither side
 * holds the whole menu it takes the roomier side with a max-height and scrolls. The menu is placed again
 * when its size changes (options or hints arriving after it opened).
 */
import { useEffect, useLayoutEffect, useRef, useState, type CSSProperties, type RefObject } from 'react';
import { useOutsideClick } from './hooks';

/** What a menu opens beside, in viewport pixels (a DOMRect fits). */
export interface Anchor {
  left: number;
  top: number;
  right: number;
  bottom: number;
}

export interface Size {
  width: number;
  height: number;
}

export interface Placement {
  left: number;
  top: number;
  /** set only when the menu is taller than the room on either side of the anchor */
  maxHeight?: number;
}

/** Distance kept from the window's edges. */
export const VIEWPORT_MARGIN = 4;

/** The pointer as an anchor. */
export const pointAnchor = (x: number, y: number): Anchor => ({ left: x, top: y, right: x, bottom: y });

const clamp = (value: number, min: number, max: number) => Math.max(min, Math.min(value, max));

/** Where a menu of `size` opens by `anchor` in a window of `viewport`, `gap` pixels off the anchor. */
export function placeMenu(anchor: Anchor, size: Size, viewport: Size, gap = 0): Placement {
  const m = VIEWPORT_MARGIN;
  const left = clamp(anchor.left, m, viewport.width - size.width - m);
  const below = anchor.bottom + gap;
  const roomBelow = viewport.height - m - below;
  const roomAbove = anchor.top - gap - m;
  // An anchor scrolled out of the window: the menu still stands inside it.
  const inside = (top: number) => clamp(top, m, viewport.height - size.height - m);
  if (size.height <= roomBelow) return { left, top: inside(below) };
  if (size.height <= roomAbove) return { left, top: inside(anchor.top - gap - size.height) };
  if (roomBelow >= roomAbove) return { left, top: below, maxHeight: Math.max(roomBelow, 0) };
  return { left, top: m, maxHeight: Math.max(roomAbove, 0) };
}

export interface FloatingMenuOptions {
  anchor: Anchor;
  /** pixels between the anchor and the menu */
  gap?: number;
  onClose: () => void;
  /** a press outside the menu closes it (default); the issue form keeps its typed text instead */
  closeOnOutsidePress?: boolean;
  /** Escape closes the menu when the focus is 'inside' it (default), or from 'anywhere' */
  escape?: 'inside' | 'anywhere';
  /** a dialog of the menu is open: presses and Escape belong to the dialog */
  paused?: boolean;
}

const samePlacement = (a: Placement, b: Placement) =>
  a.left === b.left && a.top === b.top && a.maxHeight === b.maxHeight;

/** Positions the element of `ref` by `anchor` (spread `style` on it) and closes it on an outside press or Escape. */
export function useFloatingMenu<E extends HTMLElement = HTMLDivElement>(
  options: FloatingMenuOptions,
): { ref: RefObject<E | null>; style: CSSProperties } {
  const { gap = 0, closeOnOutsidePress = true, escape = 'inside' } = options;
  const { left, top, right, bottom } = options.anchor;
  const ref = useRef<E>(null);
  const [placement, setPlacement] = useState<Placement>({ left, top: bottom + gap });
  // Read by the listeners: the press that closes a dialog must already see the menu unpaused.
  const latest = useRef(options);
  latest.current = options;

  useLayoutEffect(() => {
    const el = ref.current;
    if (!el) return;
    const place = () => {
      const box = el.getBoundingClientRect();
      // While a max-height cuts the menu, its whole height is the scrolled content's.
      const height = el.style.maxHeight ? el.scrollHeight + el.offsetHeight - el.clientHeight : box.height;
      const next = placeMenu(
        { left, top, right, bottom },
        { width: box.width, height },
        { width: window.innerWidth, height: window.innerHeight },
        gap,
      );
      setPlacement((old) => (samePlacement(old, next) ? old : next));
    };
    place();
    const observer = new ResizeObserver(place);
    observer.observe(el);
    return () => observer.disconnect();
  }, [left, top, right, bottom, gap]);

  useOutsideClick(ref, closeOnOutsidePress, (e) => {
    // A press on what the press itself removed (a dialog's backdrop) was not outside the menu.
    if (!latest.current.paused && (e.target as Node).isConnected) latest.current.onClose();
  });

  useEffect(() => {
    const onKey = (e: KeyboardEvent) => {
      if (e.key !== 'Escape' || latest.current.paused) return;
      if (escape === 'inside' && !ref.current?.contains(e.target as Node)) return;
      e.preventDefault();
      e.stopPropagation();
      latest.current.onClose();
    };
    window.addEventListener('keydown', onKey, true);
    return () => window.removeEventListener('keydown', onKey, true);
  }, [escape]);

  const style: CSSProperties = { left: placement.left, top: placement.top };
  if (placement.maxHeight !== undefined)
    Object.assign(style, { maxHeight: placement.maxHeight, overflowY: 'auto' });
  return { ref, style };
}
