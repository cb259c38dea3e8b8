/** Small shared hooks. */
import { useEffect, useRef, useState, type RefObject } from 'react';

type Refs = RefObject<HTMLElement | null> | readonly RefObject<HTMLElement | null>[];

/** Calls `onOutside` on a mouse-down outside the element(s) of `refs` while `active`. */
export function useOutsideClick(refs: Refs, active: boolean, onOutside: (e: MouseEvent) => void): void {
  const callback = useRef(onOutside);
  useEffect(() => {
    callback.current = onOutside;
  });
  useEffect(() => {
    if (!active) return;
    const list = Array.isArray(refs) ? refs : [refs as RefObject<HTMLElement | null>];
    const handler = (e: MouseEvent) => {
      const inside = list.some((r) => r.current && r.current.contains(e.target as Node));
      if (!inside) callback.current(e);
    };
    document.addEventListener('mousedown', handler);
    return () => document.removeEventListener('mousedown', handler);
  }, [refs, active]);
}

/** `value` once it has not changed for `ms` milliseconds (the filename filters' 400 ms, spec 2 section 9). */
export function useDebounced<T>(value: T, ms: number): T {
  const [debounced, setDebounced] = useState(value);
  useEffect(() => {
    const timer = setTimeout(() => setDebounced(value), ms);
    return () => clearTimeout(timer);
  }, [value, ms]);
  return debounced;
}
