/**
 * The activity tracker (spec 1 sections 3, 4, 7): a websocket at `/websocket/tracker` on the API's HTTP
 * server. The browser opens it when a session starts (token in the `access_token` query: a browser cannot
 * send an Authorization header on a websocket handshake) and closes it when the session ends; it reports
 * the page it shows on each navigation. Administrators who subscribe get every session (user, address,
 * page, time) and then each change, live. A report of the page 'logout' drops the session's entry.
 *
 * Authentication is the API's: the same JWT verification and session revocation (the token's version
 * against users.token_version) at the handshake and again on every report, so a session revoked by a
 * logout or a password change is closed (code 4401) at its next report, and swept each minute. A session
 * also ends (4401) when its token expires: a timer at the token's `exp`, and the same check on every
 * report and sweep. The browser's client does not reconnect after a 4401 (domain/tracker-client.ts).
 *
 * Protocol (JSON text frames):
 * - client -> server: `{"type":"activity","page":"/entity/process"}`; `{"type":"subscribe"}` (admins only);
 * - server -> subscriber: `{"type":"sessions","sessions":[...]}` once, then `{"type":"activity","activity":{...}}`
 *   and `{"type":"disconnected","sessionId":"..."}`.
 *
 * Each API process tracks its own connections (docs/architecture.md: with several API processes an
 * administrator sees the sessions of the process their own websocket reached).
 */
import crypto from 'node:crypto';
import type { IncomingMessage, Server } from 'node:http';
import type { Duplex } from 'node:stream';
import type { Knex } from 'knex';
import { WebSocket, WebSocketServer } from 'ws';
import { isAdmin } from '../../domain/access';
import { getLogger } from '../../server/logger';
import { userOfToken, type AuthUser } from '../auth';
import { userById } from '../../db/queries/users';

export const TRACKER_PATH = '/websocket/tracker';
/** Close codes: the token is missing, invalid or revoked; the message was not understood. */
export const CLOSE_UNAUTHORIZED = 4401;
export const CLOSE_BAD_MESSAGE = 4400;
const MAX_PAGE = 500;
/** setTimeout's longest delay (about 24.8 days): a longer wait (remember-me tokens) is taken in steps. */
const MAX_TIMER_MS = 2 ** 31 - 1;

const log = getLogger('api.tracker');

export interface TrackerActivity {
  sessionId: string;
  userLogin: string;
  ipAddress: string;
  page: string;
  /** ISO time of the last report (or of the connection). */
  time: string;
}

interface Connection {
  socket: WebSocket;
  user: AuthUser;
  tokenVersion: number;
  /** The token's `exp` (seconds since the epoch). */
  expiresAt?: number;
  /** Closes the session at expiresAt. */
  expiry?: NodeJS.Timeout;
  activity: TrackerActivity;
  subscribed: boolean;
  /** The session reported 'logout': not listed any more. */
  dropped: boolean;
  /** Reports are handled one after the other, in the order they came (each waits for its session check). */
  queue: Promise<void>;
}

export interface TrackerHub {
  /** Handles an HTTP upgrade; false when the path is not the tracker's (another handler may take it). */
  attach(server: Server): void;
  /** Sessions as an administrator sees them (not the dropped ones), oldest connection first. */
  sessions(): TrackerActivity[];
  count(): number;
  close(): Promise<void>;
}

/** The client address the way Koa gives it (X-Forwarded-For only behind trusted proxies). */
function clientAddress(req: IncomingMessage, trustProxy: number): string {
  const forwarded = trustProxy > 0 ? String(req.headers['x-forwarded-for'] ?? '') : '';
  const chain = forwarded
    .split(',')
    .map((s) => s.trim())
    .filter(Boolean);
  if (chain.length) return chain[Math.max(0, chain.length - trustProxy)] ?? chain[0];
  return req.socket.remoteAddress ?? '';
}

export function createTrackerHub(deps: { knex: Knex; jwtSecret: string; trustProxy: number }): TrackerHub {
  const wss = new WebSocketServer({ noServer: true, maxPayload: 4096 });
  const connections = new Map<string, Connection>();

  const verify = async (token: string | null) =>
    token ? await userOfToken(deps.knex, deps.jwtSecret, token) : null;

  const expired = (c: Connection) => c.expiresAt !== undefined && Date.now() >= c.expiresAt * 1000;

  /** Still the same session? (its token not expired, its user activated and not revoked since the handshake) */
  async function stillValid(c: Connection): Promise<boolean> {
    if (expired(c)) return false;
    const row = await userById(deps.knex, c.user.id);
    return !!row && row.activated && Number(row.token_version) === c.tokenVersion && !expired(c);
  }

  /** Closes the session when its token expires (in steps when the expiry is past setTimeout's reach). */
  function closeAtExpiry(c: Connection): void {
    if (c.expiresAt === undefined) return;
    if (expired(c)) {
      c.socket.close(CLOSE_UNAUTHORIZED, 'token expired');
      return;
    }
    const wait = Math.min(c.expiresAt * 1000 - Date.now(), MAX_TIMER_MS);
    c.expiry = setTimeout(() => closeAtExpiry(c), wait);
    c.expiry.unref();
  }

  const listed = () => [...connections.values()].filter((c) => !c.dropped).map((c) => ({ ...c.activity }));

  function broadcast(message: unknown): void {
    const text = JSON.stringify(message);
    for (const c of connections.values())
      if (c.subscribed && c.socket.readyState === WebSocket.OPEN) c.socket.send(text);
  }

  function onMessage(c: Connection, raw: string): void {
    let msg: { type?: unknown; page?: unknown };
    try {
      msg = JSON.parse(raw) as typeof msg;
    } catch {
      c.socket.close(CLOSE_BAD_MESSAGE, 'bad message');
      return;
    }
    // One report at a time: two quick navigations each check the session with a query of their own, and
    // the later page must not be overwritten by the earlier one whose check happened to finish last.
    c.queue = c.queue.then(() => handle(c, msg));
  }

  async function handle(c: Connection, msg: { type?: unknown; page?: unknown }): Promise<void> {
    await stillValid(c).then(
      (valid) => {
        if (!valid) {
          c.socket.close(CLOSE_UNAUTHORIZED, 'session ended');
          return;
        }
        if (msg.type === 'subscribe') {
          if (!isAdmin(c.user)) {
            c.socket.send(JSON.stringify({ type: 'error', message: 'error.http.403' }));
            return;
          }
          c.subscribed = true;
          c.socket.send(JSON.stringify({ type: 'sessions', sessions: listed() }));
          return;
        }
        if (msg.type === 'activity' && typeof msg.page === 'string') {
          const page = msg.page.slice(0, MAX_PAGE);
          c.activity = { ...c.activity, page, time: new Date().toISOString() };
          if (page === 'logout') {
            // 'logout' entries are dropped (spec 1 section 3): the session leaves the list.
            if (!c.dropped) broadcast({ type: 'disconnected', sessionId: c.activity.sessionId });
            c.dropped = true;
            return;
          }
          c.dropped = false;
          broadcast({ type: 'activity', activity: c.activity });
          return;
        }
        c.socket.close(CLOSE_BAD_MESSAGE, 'bad message');
      },
      (err) => log.warn('tracker session check failed', { error: err as Error }),
    );
  }

  function onConnection(
    socket: WebSocket,
    req: IncomingMessage,
    { user, expiresAt }: { user: AuthUser; expiresAt?: number },
  ): void {
    const sessionId = crypto.randomUUID();
    const c: Connection = {
      socket,
      user,
      tokenVersion: user.tokenVersion,
      expiresAt,
      subscribed: false,
      dropped: false,
      queue: Promise.resolve(),
      activity: {
        sessionId,
        userLogin: user.login,
        ipAddress: clientAddress(req, deps.trustProxy),
        page: '',
        time: new Date().toISOString(),
      },
    };
    connections.set(sessionId, c);
    log.debug('tracker session opened', { sessionId, user: user.login });
    socket.on('message', (data) => onMessage(c, data.toString()));
    socket.on('error', () => socket.terminate());
    closeAtExpiry(c);
    socket.on('close', () => {
      clearTimeout(c.expiry);
      connections.delete(sessionId);
      if (!c.dropped) broadcast({ type: 'disconnected', sessionId });
      log.debug('tracker session closed', { sessionId, user: user.login });
    });
  }

  // Sessions revoked without a report since (logout elsewhere, password change, deactivation).
  const sweep = setInterval(() => {
    for (const c of connections.values())
      void stillValid(c).then(
        (valid) => valid || c.socket.close(CLOSE_UNAUTHORIZED, 'session ended'),
        () => undefined,
      );
  }, 60_000);
  sweep.unref();

  function refuse(socket: Duplex, status: number, reason: string): void {
    socket.end(`HTTP/1.1 ${status} ${reason}\r\nConnection: close\r\nContent-Length: 0\r\n\r\n`);
  }

  return {
    attach(server) {
      server.on('upgrade', (req: IncomingMessage, socket: Duplex, head: Buffer) => {
        const url = new URL(req.url ?? '/', 'http://localhost');
        if (url.pathname !== TRACKER_PATH) {
          refuse(socket, 404, 'Not Found');
          return;
        }
        verify(url.searchParams.get('access_token')).then(
          (found) => {
            if (!found) return refuse(socket, 401, 'Unauthorized');
            wss.handleUpgrade(req, socket, head, (ws) => onConnection(ws, req, found));
          },
          (err) => {
            log.error('tracker handshake failed', { error: err as Error });
            refuse(socket, 503, 'Service Unavailable');
          },
        );
      });
    },
    sessions: listed,
    count: () => connections.size,
    async close() {
      clearInterval(sweep);
      for (const c of connections.values()) c.socket.close(1001, 'server shutting down');
      await new Promise<void>((resolve) => wss.close(() => resolve()));
      for (const c of connections.values()) c.socket.terminate();
    },
  };
}
