/**
 * The browser side of the activity tracker (api/services/tracker.ts), free of the DOM so the integration
 * tests run the very same code under Node with `ws`: one websocket per session, the current page reported
 * on each change and again after each reconnect, an optional subscription to the sessions list (admins),
 * and reconnection with exponential backoff (1 s doubling to 30 s, with jitter) after a server restart or a
 * network cut, until `stop()` (session end) or a close with 4401 (the session was revoked).
 */

export const TRACKER_WS_PATH = '/websocket/tracker';
export const TRACKER_CLOSE_UNAUTHORIZED = 4401;

export interface TrackerActivityDTO {
  sessionId: string;
  userLogin: string;
  ipAddress: string;
  page: string;
  time: string;
}

export type TrackerServerMessage =
  | { type: 'sessions'; sessions: TrackerActivityDTO[] }
  | { type: 'activity'; activity: TrackerActivityDTO }
  | { type: 'disconnected'; sessionId: string }
  | { type: 'error'; message: string };

/** What the tracker needs of a WebSocket (the browser's, or `ws`'s in tests). */
export interface TrackerSocket {
  readonly readyState: number;
  send(data: string): void;
  close(code?: number, reason?: string): void;
  onopen: ((ev: unknown) => void) | null;
  onclose: ((ev: { code: number }) => void) | null;
  onmessage: ((ev: { data: unknown }) => void) | null;
  onerror: ((ev: unknown) => void) | null;
}

export interface TrackerOptions {
  /** The websocket URL with the current token, or null when signed out (no connection then). */
  url: () => string | null;
  create: (url: string) => TrackerSocket;
  onMessage?: (msg: TrackerServerMessage) => void;
  /** Connected (true) or not (false): the tracker page shows it. */
  onStatus?: (connected: boolean) => void;
  initialDelayMs?: number;
  maxDelayMs?: number;
}

const OPEN = 1;

/** The sessions list an administrator sees, updated from the server's messages. */
export function applyTrackerMessage(
  sessions: TrackerActivityDTO[],
  msg: TrackerServerMessage,
): TrackerActivityDTO[] {
  switch (msg.type) {
    case 'sessions':
      return msg.sessions.filter((s) => s.page !== 'logout');
    case 'activity': {
      if (msg.activity.page === 'logout')
        return sessions.filter((s) => s.sessionId !== msg.activity.sessionId);
      const i = sessions.findIndex((s) => s.sessionId === msg.activity.sessionId);
      if (i < 0) return [...sessions, msg.activity];
      const next = sessions.slice();
      next[i] = msg.activity;
      return next;
    }
    case 'disconnected':
      return sessions.filter((s) => s.sessionId !== msg.sessionId);
    default:
      return sessions;
  }
}

export class TrackerConnection {
  private socket: TrackerSocket | null = null;
  private page: string | null = null;
  private subscribed = false;
  private stopped = true;
  private delay: number;
  private timer: ReturnType<typeof setTimeout> | null = null;

  constructor(private readonly opts: TrackerOptions) {
    this.delay = opts.initialDelayMs ?? 1000;
  }

  get connected(): boolean {
    return this.socket?.readyState === OPEN;
  }

  start(): void {
    if (!this.stopped) return;
    this.stopped = false;
    this.connect();
  }

  /** Session end: closes the socket and stops reconnecting. */
  stop(): void {
    this.stopped = true;
    if (this.timer) clearTimeout(this.timer);
    this.timer = null;
    const s = this.socket;
    this.socket = null;
    if (s) {
      s.onclose = null;
      s.onmessage = null;
      s.close(1000, 'session ended');
    }
    this.opts.onStatus?.(false);
  }

  /** Reports the page now (when connected) and after every reconnection. */
  setPage(page: string): void {
    this.page = page;
    this.send({ type: 'activity', page });
  }

  /** Asks for the sessions list and its changes (the server refuses non-admins). */
  subscribe(): void {
    this.subscribed = true;
    this.send({ type: 'subscribe' });
  }

  unsubscribe(): void {
    // The server has no unsubscribe: the next connection simply does not ask again.
    this.subscribed = false;
  }

  private send(msg: unknown): void {
    if (this.socket?.readyState === OPEN) this.socket.send(JSON.stringify(msg));
  }

  private connect(): void {
    if (this.stopped) return;
    const url = this.opts.url();
    if (!url) return;
    let socket: TrackerSocket;
    try {
      socket = this.opts.create(url);
    } catch {
      this.retry();
      return;
    }
    this.socket = socket;
    socket.onopen = () => {
      this.delay = this.opts.initialDelayMs ?? 1000;
      this.opts.onStatus?.(true);
      if (this.subscribed) this.send({ type: 'subscribe' });
      if (this.page !== null) this.send({ type: 'activity', page: this.page });
    };
    socket.onmessage = (ev) => {
      try {
        this.opts.onMessage?.(JSON.parse(String(ev.data)) as TrackerServerMessage);
      } catch {
        // not ours
      }
    };
    socket.onerror = () => undefined;
    socket.onclose = (ev) => {
      if (this.socket !== socket) return;
      this.socket = null;
      this.opts.onStatus?.(false);
      if (ev.code === TRACKER_CLOSE_UNAUTHORIZED) {
        this.stopped = true;
        return;
      }
      this.retry();
    };
  }

  private retry(): void {
    if (this.stopped || this.timer) return;
    const wait = this.delay * (0.75 + Math.random() * 0.5);
    this.delay = Math.min(this.delay * 2, this.opts.maxDelayMs ?? 30_000);
    this.timer = setTimeout(() => {
      this.timer = null;
      this.connect();
    }, wait);
  }
}
