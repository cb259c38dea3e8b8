/**
 * State kept in session storage under a key, so it outlives the workspace's remount on Previous / Next (the
 * open tool panel, the documents panel's tab and filters) for the browser tab's session.
 */
import { useState } from 'react';

function load<T>(key: string, initial: T): T {
  try {
    const raw = sessionStorage.getItem(key);
    return raw === null ? initial : (JSON.parse(raw) as T);
  } catch {
    return initial;
  }
}

export function useSessionState<T>(key: string, initial: T): [T, (next: T | ((prev: T) => T)) => void] {
  const [value, setValue] = useState<T>(() => load(key, initial));
  const set = (next: T | ((prev: T) => T)) =>
    setValue((prev) => {
      const v = typeof next === 'function' ? (next as (p: T) => T)(prev) : next;
      try {
        sessionStorage.setItem(key, JSON.stringify(v));
      } catch {
        // storage full or disabled: the state still works for this page
      }
      return v;
    });
  return [value, set];
}
