/**
 * The session's activity-tracker connection (domain/tracker-client.ts over the browser's WebSocket): one per
 * browser tab, opened when a session starts and closed when it ends (useTrackerSession in the root layout),
 * reporting each page the router shows. The tracker page subscribes to the sessions list through it.
 */
import { useEffect, useState } from 'react';
import { useLocation } from 'react-router-dom';
import {
  applyTrackerMessage,
  TrackerConnection,
  TRACKER_WS_PATH,
  type TrackerActivityDTO,
  type TrackerServerMessage,
  type TrackerSocket,
} from '@domain/tracker-client';
import { basePath } from '../../../config';
import { getAuthToken } from '../../../api/client';
import { useSession } from '../../account/session';

type Listener = (msg: TrackerServerMessage) => void;
const listeners = new Set<Listener>();
const statusListeners = new Set<(connected: boolean) => void>();

function trackerUrl(): string | null {
  const token = getAuthToken();
  if (!token) return null;
  const scheme = window.location.protocol === 'https:' ? 'wss' : 'ws';
  const path = `${basePath().replace(/\/$/, '')}${TRACKER_WS_PATH}`;
  return `${scheme}://${window.location.host}${path}?access_token=${encodeURIComponent(token)}`;
}

export const tracker = new TrackerConnection({
  url: trackerUrl,
  create: (url) => new WebSocket(url) as unknown as TrackerSocket,
  onMessage: (msg) => listeners.forEach((l) => l(msg)),
  onStatus: (c) => statusListeners.forEach((l) => l(c)),
});

/** Opens the tracker while signed in and reports the page on each navigation ('logout' on sign-out). */
export function useTrackerSession(): void {
  const { isAuthenticated } = useSession();
  const { pathname } = useLocation();
  useEffect(() => {
    if (!isAuthenticated) return;
    tracker.start();
    return () => tracker.stop();
  }, [isAuthenticated]);
  useEffect(() => {
    if (!isAuthenticated) return;
    tracker.setPage(pathname === '/lp/logout' ? 'logout' : pathname);
  }, [isAuthenticated, pathname]);
}

/** The sessions list, live (admins); and whether the socket is connected. */
export function useTrackedSessions(): { sessions: TrackerActivityDTO[]; connected: boolean } {
  const [sessions, setSessions] = useState<TrackerActivityDTO[]>([]);
  const [connected, setConnected] = useState(tracker.connected);
  useEffect(() => {
    const onMessage: Listener = (msg) => setSessions((s) => applyTrackerMessage(s, msg));
    listeners.add(onMessage);
    statusListeners.add(setConnected);
    tracker.subscribe();
    return () => {
      listeners.delete(onMessage);
      statusListeners.delete(setConnected);
      tracker.unsubscribe();
    };
  }, []);
  return { sessions, connected };
}
