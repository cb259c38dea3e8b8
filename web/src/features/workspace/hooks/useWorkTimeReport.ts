/**
 * Reports the user's active work on the selected step to `POST api/work-time` (issue 16 section 1; rules in
 * ../workTime.ts `advanceStretch`): every REPORT_INTERVAL_MS while the stretch lasts, and when it closes
 * (idle, another step, leaving the document, the page hidden). Sent with `fetch(..., {keepalive: true})` so
 * a report made while the page goes away still leaves (sendBeacon cannot carry the bearer header). A refused
 * or lost report is dropped: statistics must never disturb the work (and a 403 here must not sign out).
 */
import { useEffect, useRef, type MutableRefObject } from 'react';
import type { WorkTimeReport } from '@domain/statistics-types';
import { buildUrl, getAuthToken } from '../../../api/client';
import {
  advanceStretch,
  IDLE_TIMEOUT_MS,
  REPORT_INTERVAL_MS,
  reportable,
  type Stretch,
  type WorkClock,
} from '../workTime';

const CHECK_MS = 5_000;

function send(s: Stretch): void {
  const token = getAuthToken();
  if (!token) return;
  const body: WorkTimeReport = {
    clientId: s.clientId,
    stepId: s.stepId,
    startTime: new Date(s.start).toISOString(),
    endTime: new Date(s.end).toISOString(),
  };
  fetch(buildUrl('api/work-time'), {
    method: 'POST',
    keepalive: true,
    headers: { 'Content-Type': 'application/json', Authorization: `Bearer ${token}` },
    body: JSON.stringify(body),
  }).catch(() => undefined);
}

export function useWorkTimeReport(
  clock: MutableRefObject<WorkClock | null>,
  stepId: number | null,
  timeoutMs = IDLE_TIMEOUT_MS,
): void {
  const open = useRef<Stretch | null>(null);

  useEffect(() => {
    let lastSent = Date.now();
    const advance = (step: number | null) => {
      if (!clock.current) return;
      const now = Date.now();
      const next = advanceStretch(
        open.current,
        step,
        clock.current,
        now,
        () => crypto.randomUUID(),
        timeoutMs,
      );
      open.current = next.open;
      if (reportable(next.closed)) send(next.closed);
      if (reportable(next.open) && now - lastSent >= REPORT_INTERVAL_MS) {
        send(next.open);
        lastSent = now;
      }
    };
    const onHide = () => {
      if (document.visibilityState === 'hidden') advance(null);
    };
    advance(stepId);
    const timer = window.setInterval(() => advance(stepId), CHECK_MS);
    document.addEventListener('visibilitychange', onHide);
    window.addEventListener('pagehide', onHide);
    return () => {
      window.clearInterval(timer);
      document.removeEventListener('visibilitychange', onHide);
      window.removeEventListener('pagehide', onHide);
      // another step or leaving the document: the stretch ends here
      advance(null);
    };
  }, [clock, stepId, timeoutMs]);
}
