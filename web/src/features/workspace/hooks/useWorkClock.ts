/**
 * The idle timer and work-time counter of the open document (rules in ../workTime.ts). Input events only
 * touch a ref; the displayed values change once a second, and at once when an input ends an idle spell.
 * The counted time is kept in session storage per document, so a reload goes on counting.
 */
import { useEffect, useRef, useState, type MutableRefObject } from 'react';
import { IDLE_TIMEOUT_MS, input, isIdle, startClock, tick, type WorkClock } from '../workTime';

const INPUT_EVENTS = ['pointermove', 'pointerdown', 'keydown', 'wheel', 'touchstart', 'scroll'] as const;
const TICK_MS = 1000;
const storageKey = (documentId: number) => `workspace.workTime.${documentId}`;

export interface WorkClockView {
  idle: boolean;
  workedMs: number;
}

/** The view and the clock itself (read by the work-time reports, ./useWorkTimeReport.ts). */
export type WorkClockHandle = WorkClockView & { clock: MutableRefObject<WorkClock | null> };

function storedMs(documentId: number): number {
  const n = Number(sessionStorage.getItem(storageKey(documentId)) ?? 0);
  return Number.isFinite(n) && n > 0 ? n : 0;
}

export function useWorkClock(documentId: number, timeoutMs = IDLE_TIMEOUT_MS): WorkClockHandle {
  const clock = useRef<WorkClock | null>(null);
  const [view, setView] = useState<WorkClockView>({ idle: false, workedMs: 0 });

  useEffect(() => {
    clock.current = startClock(Date.now(), storedMs(documentId));
    const publish = () => {
      const c = clock.current!;
      const now = Date.now();
      clock.current = tick(c, now, timeoutMs);
      sessionStorage.setItem(storageKey(documentId), String(Math.round(clock.current.workedMs)));
      setView({ idle: isIdle(clock.current, now, timeoutMs), workedMs: clock.current.workedMs });
    };
    const onInput = () => {
      const now = Date.now();
      const wasIdle = isIdle(clock.current!, now, timeoutMs);
      clock.current = input(clock.current!, now, timeoutMs);
      if (wasIdle) publish();
    };
    for (const e of INPUT_EVENTS) window.addEventListener(e, onInput, { capture: true, passive: true });
    const timer = window.setInterval(publish, TICK_MS);
    publish();
    return () => {
      window.clearInterval(timer);
      for (const e of INPUT_EVENTS) window.removeEventListener(e, onInput, { capture: true });
      publish();
    };
  }, [documentId, timeoutMs]);

  return { ...view, clock };
}
