/**
 * Watching the system (issue 15 section 2, except audits): the management routes of administrators,
 * secrets masked, the Prometheus exposition, loggers changed at run time, the HTTP log paged, the activity
 * tracker websocket (JWT, revocation, 'logout' entries dropped, reconnection after a server restart with the
 * browser's own reconnecting client, domain/tracker-client.ts), and the request id.
 */
import WebSocket from 'ws';
import {
  applyTrackerMessage,
  TrackerConnection,
  TRACKER_WS_PATH,
  type TrackerActivityDTO,
  type TrackerServerMessage,
  type TrackerSocket,
} from '../../domain/tracker-client';
import { freePort } from '../../scripts/lib/ports';
import { MASK } from '../../server/masking';
import { insertObligatoryUploadNode } from '../../db/queries/nodes';
import {
  buildProcess,
  buildUser,
  call,
  setupSuite,
  startTestApi,
  unique,
  type TestApi,
} from '../support/harness';
import { eventually } from '../support/eventually';
import { signToken } from '../../api/auth';

const ADMIN_ROUTES: [string, string][] = [
  ['GET', '/management/prometheus'],
  ['GET', '/management/jhimetrics'],
  ['GET', '/management/threaddump'],
  ['GET', '/management/loggers'],
  ['POST', '/management/loggers/api.http'],
  ['GET', '/management/configprops'],
  ['GET', '/management/env'],
  ['GET', '/management/http-logs'],
];

const wsUrl = (baseUrl: string, token?: string) =>
  `${baseUrl.replace(/^http/, 'ws')}${TRACKER_WS_PATH}${token ? `?access_token=${encodeURIComponent(token)}` : ''}`;

/** A tracker client of the test: the browser's TrackerConnection over `ws`, recording what it receives. */
function trackerClient(url: () => string | null) {
  const received: TrackerServerMessage[] = [];
  let sessions: TrackerActivityDTO[] = [];
  let connected = false;
  const connection = new TrackerConnection({
    url,
    create: (u) => new WebSocket(u) as unknown as TrackerSocket,
    onMessage: (m) => {
      received.push(m);
      sessions = applyTrackerMessage(sessions, m);
    },
    onStatus: (c) => (connected = c),
    initialDelayMs: 200,
    maxDelayMs: 1000,
  });
  return {
    connection,
    received,
    sessions: () => sessions,
    connected: () => connected,
  };
}

/** Opens a raw websocket; resolves with it once open, or with the handshake's refusal status. */
function openRaw(url: string): Promise<{ ws?: WebSocket; refused?: number }> {
  return new Promise((resolve) => {
    const ws = new WebSocket(url);
    ws.once('open', () => resolve({ ws }));
    ws.once('unexpected-response', (_req, res) => {
      resolve({ refused: res.statusCode });
      ws.terminate();
    });
    ws.once('error', () => resolve({ refused: 0 }));
  });
}

describe('watching the system: management routes and the activity tracker', () => {
  const suite = setupSuite({
    config: {
      // Secrets in the configuration the masking must hide.
      smtp: {
        host: '127.0.0.1',
        port: 1,
        secure: false,
        user: 'mailer',
        pass: 'smtp-password-value',
        from: 'w@localhost',
      },
      temporalUiUrl: 'http://temporal-ui.example:8233',
    },
  });
  let user: string;
  const clients: { connection: TrackerConnection }[] = [];

  beforeAll(async () => {
    user = await suite.signIn(await buildUser(suite.knex));
  });
  afterAll(() => {
    for (const c of clients) c.connection.stop();
  });

  it('refuses every administrator route to a user (403) and to an anonymous caller (401)', async () => {
    for (const [method, path] of ADMIN_ROUTES) {
      const json = method === 'POST' ? { configuredLevel: 'DEBUG' } : undefined;
      const anonymous = await suite.call(path, { method, json });
      const asUser = await suite.call(path, { method, json, token: user });
      expect([method, path, anonymous.status, asUser.status]).toEqual([method, path, 401, 403]);
    }
  });

  it('answers every administrator route to an administrator', async () => {
    for (const [method, path] of ADMIN_ROUTES) {
      const json = method === 'POST' ? { configuredLevel: null } : undefined;
      const res = await suite.call(path, { method, json, token: suite.admin });
      expect([method, path, res.status]).toEqual([method, path, method === 'POST' ? 204 : 200]);
    }
  });

  it('masks every secret of the environment and the configuration', async () => {
    const secretValues = {
      WATCH_TEST_PASSWORD: 'env-password-value',
      WATCH_TEST_API_KEY: 'env-api-key-value',
      WATCH_TEST_TOKEN: 'env-token-value',
      WATCH_TEST_URL: 'postgres://someone:url-password-value@db.example:5432/x',
    };
    Object.assign(process.env, secretValues);
    try {
      const env = await suite.get('/management/env', suite.admin);
      const props = env.body.propertySources[0].properties;
      expect(props.WATCH_TEST_PASSWORD.value).toBe(MASK);
      expect(props.WATCH_TEST_API_KEY.value).toBe(MASK);
      expect(props.WATCH_TEST_TOKEN.value).toBe(MASK);
      expect(props.WATCH_TEST_URL.value).toBe(`postgres://someone:${MASK}@db.example:5432/x`);
      // The database URL of this run carries a password (embedded PostgreSQL) or at least a user.
      expect(props.DATABASE_URL.value).not.toBe(process.env.DATABASE_URL);
      const text = JSON.stringify(env.body);
      for (const v of ['env-password-value', 'env-api-key-value', 'env-token-value', 'url-password-value'])
        expect(text).not.toContain(v);

      const conf = await suite.get('/management/configprops', suite.admin);
      const p = conf.body.contexts.application.beans.appConfig.properties;
      expect(p.jwtSecret).toBe(MASK);
      expect(p.smtp.pass).toBe(MASK);
      expect(p.smtp.host).toBe('127.0.0.1');
      expect(p.port).toBe(suite.api.config.port);
      const confText = JSON.stringify(conf.body);
      expect(confText).not.toContain(suite.api.config.jwtSecret);
      expect(confText).not.toContain('smtp-password-value');
      const dbPassword = new URL(suite.api.config.databaseUrl).password;
      if (dbPassword) expect(confText).not.toContain(`:${dbPassword}@`);
    } finally {
      for (const k of Object.keys(secretValues)) delete process.env[k];
    }
  });

  it('exposes the histogram of a route by its pattern, not its URL, after a request', async () => {
    expect((await suite.get('/api/processes', suite.admin)).status).toBe(200);
    await suite.get('/api/processes/987654321', suite.admin);
    const res = await suite.get('/management/prometheus', suite.admin);
    expect(res.headers.get('content-type')).toContain('text/plain');
    expect(res.body).toMatch(
      /http_server_requests_seconds_count\{[^}]*method="GET",route="\/api\/processes\/:id",status="404"[^}]*\} [1-9]/,
    );
    expect(res.body).toMatch(/http_server_requests_seconds_bucket\{[^}]*route="\/api\/processes"/);
    expect(res.body).not.toContain('987654321');
    expect(res.body).toMatch(/db_pool_connections\{[^}]*state="used"/);
    expect(res.body).toContain('nodejs_eventloop_lag_seconds');

    const json = await suite.get('/management/jhimetrics', suite.admin);
    expect(json.body.services['/api/processes/:id'].GET.count).toBeGreaterThanOrEqual(1);
    expect(json.body['http.server.requests'].all.count).toBeGreaterThanOrEqual(2);
    expect(json.body.databases.pool.max).toBeGreaterThan(0);
  });

  it('counts workflows by status from Temporal', async () => {
    // a document of its own: its workflow exists (running, or done) whatever else the shared server holds
    const process = await buildProcess(suite.knex);
    await insertObligatoryUploadNode(suite.knex, process.id);
    const created = await suite.send('POST', '/api/documents', suite.admin, {
      processId: process.id,
      filename: 'counted.txt',
      content: 'counted',
    });
    expect(created.status).toBe(201);
    // the counts are cached 15 s: wait until they include at least one document workflow
    const json = await eventually(
      'a document workflow counted',
      async () => {
        const r = await suite.get('/management/jhimetrics', suite.admin);
        const counts = r.body.workflows.documentWorkflow as Record<string, number>;
        return Object.values(counts).reduce((a, b) => a + b, 0) > 0 ? r.body : undefined;
      },
      60_000,
    );
    expect(json.workflows.documentWorkflow).toHaveProperty('Running');
    expect(json.workflows.documentWorkflow).toHaveProperty('Completed');
  });

  it('shows the event loop and the active handles in place of a thread dump', async () => {
    const res = await suite.get('/management/threaddump', suite.admin);
    expect(res.body.eventLoop).toHaveProperty('delayP99Ms');
    expect(Object.keys(res.body.activeResources).length).toBeGreaterThan(0);
    expect(Array.isArray(res.body.javascriptStack)).toBe(true);
    // No environment in the dump (the process report holds it).
    expect(JSON.stringify(res.body)).not.toContain(suite.api.config.jwtSecret);
  });

  it('lists loggers and changes a level at run time', async () => {
    const name = `watch.${unique('l').toLowerCase()}`;
    const before = await suite.get('/management/loggers', suite.admin);
    expect(before.body.levels).toEqual(['TRACE', 'DEBUG', 'INFO', 'WARN', 'ERROR', 'OFF']);
    expect(before.body.loggers.ROOT.effectiveLevel).toBeDefined();
    const set = await suite.send('POST', `/management/loggers/${name}`, suite.admin, {
      configuredLevel: 'TRACE',
    });
    expect(set.status).toBe(204);
    const after = await suite.get('/management/loggers', suite.admin);
    expect(after.body.loggers[name]).toEqual({ configuredLevel: 'TRACE', effectiveLevel: 'TRACE' });
    // A child without its own level takes it.
    await suite.send('POST', `/management/loggers/${name}.child`, suite.admin, { configuredLevel: null });
    const child = await suite.get('/management/loggers', suite.admin);
    expect(child.body.loggers[`${name}.child`]).toEqual({ configuredLevel: null, effectiveLevel: 'TRACE' });
    const bad = await suite.send('POST', `/management/loggers/${name}`, suite.admin, {
      configuredLevel: 'LOUD',
    });
    expect(bad.status).toBe(400);
    await suite.send('POST', `/management/loggers/${name}`, suite.admin, { configuredLevel: null });
  });

  it('pages the HTTP log, 25 newest first, with the total, and answers the request id', async () => {
    const requestId = unique('req');
    const tagged = await suite.call('/api/processes', {
      token: suite.admin,
      headers: { 'X-Request-Id': requestId },
    });
    expect(tagged.headers.get('x-request-id')).toBe(requestId);
    for (let i = 0; i < 30; i += 1) await suite.get('/management/app-name');
    const first = await suite.get('/management/http-logs?page=0&size=25', suite.admin);
    expect(first.body).toHaveLength(25);
    const total = Number(first.headers.get('x-total-count'));
    expect(total).toBeGreaterThanOrEqual(31);
    const second = await suite.get('/management/http-logs?page=1&size=25', suite.admin);
    // Newest first within a page; the next page goes on below (the page-0 call's own entry, logged
    // meanwhile, may push the last entry of page 0 to the top of page 1).
    const idsOf = (rows: { id: number }[]) => rows.map((r) => r.id);
    for (const page of [first.body, second.body])
      expect(idsOf(page)).toEqual(idsOf(page).sort((a: number, b: number) => b - a));
    expect(second.body[0].id).toBeLessThanOrEqual(first.body[24].id);
    expect(second.body).toHaveLength(25);
    const all = await suite.get(`/management/http-logs?size=100`, suite.admin);
    const entry = all.body.find((r: { requestId: string }) => r.requestId === requestId);
    expect(entry).toMatchObject({
      method: 'GET',
      path: '/api/processes',
      route: '/api/processes',
      status: 200,
    });
    expect(entry.principal).toBe('admin');
    // Default size is 25.
    expect((await suite.get('/management/http-logs', suite.admin)).body).toHaveLength(25);
  });

  it('gives the Temporal UI address to administrators only', async () => {
    const admin = await suite.get('/management/info', suite.admin);
    expect(admin.body.temporalUi).toEqual({
      url: 'http://temporal-ui.example:8233',
      namespace: suite.api.config.temporalNamespace,
    });
    expect((await suite.get('/management/info', user)).body).not.toHaveProperty('temporalUi');
    expect((await suite.get('/management/info')).body).not.toHaveProperty('temporalUi');
  });

  it('reports disk and mail on the health page', async () => {
    const res = await suite.get('/management/health', suite.admin);
    expect(res.body.components.diskSpace.status).toBe('UP');
    expect(res.body.components.diskSpace.details.free).toBeGreaterThan(0);
    // Nothing listens on port 1: the mail server is DOWN, which leaves the overall status UP.
    expect(res.body.components.mail).toMatchObject({
      status: 'DOWN',
      details: { host: '127.0.0.1', port: 1 },
    });
    expect(res.body.status).toBe('UP');
  });

  describe('the tracker websocket', () => {
    it('refuses a handshake without a token or with a bad one', async () => {
      expect(await openRaw(wsUrl(suite.api.baseUrl))).toEqual({ refused: 401 });
      expect(await openRaw(wsUrl(suite.api.baseUrl, 'not-a-token'))).toEqual({ refused: 401 });
    });

    it('lists a signed-in client with its page to a subscribed admin, live; drops it on logout', async () => {
      const someone = await buildUser(suite.knex);
      const token = await suite.signIn(someone);
      const admin = trackerClient(() => wsUrl(suite.api.baseUrl, suite.admin));
      const browser = trackerClient(() => wsUrl(suite.api.baseUrl, token));
      clients.push(admin, browser);
      admin.connection.subscribe();
      admin.connection.start();
      browser.connection.setPage('/entity/process');
      browser.connection.start();
      const mine = () => admin.sessions().find((s) => s.userLogin === someone.login);
      const seen = await eventually(
        'the user listed',
        async () => mine()?.page === '/entity/process' && mine(),
      );
      expect(seen.ipAddress).toMatch(/127\.0\.0\.1/);
      browser.connection.setPage('/account/settings');
      await eventually('the new page', async () => mine()?.page === '/account/settings');
      // A user may not subscribe.
      browser.connection.subscribe();
      await eventually('refusal', async () => browser.received.some((m) => m.type === 'error'));
      expect(browser.received.some((m) => m.type === 'sessions')).toBe(false);
      // 'logout' entries are dropped.
      browser.connection.setPage('logout');
      await eventually('the entry dropped', async () => !mine());
      expect(suite.api.observability.tracker.sessions().some((s) => s.userLogin === someone.login)).toBe(
        false,
      );
      browser.connection.stop();
    });

    it('handles quick reports in the order sent: the last page stays (each waits for its session check)', async () => {
      const someone = await buildUser(suite.knex);
      const token = await suite.signIn(someone);
      const admin = trackerClient(() => wsUrl(suite.api.baseUrl, suite.admin));
      clients.push(admin);
      admin.connection.subscribe();
      admin.connection.start();
      await eventually('subscribed', async () => admin.received.some((m) => m.type === 'sessions'));
      const { ws } = await openRaw(wsUrl(suite.api.baseUrl, token));
      const pages = Array.from({ length: 40 }, (_, i) => `/page/${i}`);
      // Sent in one go, as a router does on a redirect: each report checks the session with its own query.
      for (const page of pages) ws!.send(JSON.stringify({ type: 'activity', page }));
      const seenPages = () =>
        admin.received.flatMap((m) =>
          m.type === 'activity' && m.activity.userLogin === someone.login ? [m.activity.page] : [],
        );
      await eventually('every report broadcast', async () => seenPages().length === pages.length);
      expect(seenPages()).toEqual(pages);
      expect(suite.api.observability.tracker.sessions().find((s) => s.userLogin === someone.login)?.page).toBe(
        '/page/39',
      );
      ws!.close();
    });

    it('closes the session of a revoked token at its next report', async () => {
      const someone = await buildUser(suite.knex);
      const token = await suite.signIn(someone);
      const browser = trackerClient(() => wsUrl(suite.api.baseUrl, token));
      clients.push(browser);
      browser.connection.start();
      await eventually('connected', async () => browser.connected());
      expect((await suite.send('POST', '/api/logout', token)).status).toBeLessThan(300);
      browser.connection.setPage('/entity/process');
      await eventually('closed', async () => !browser.connected());
      expect(await openRaw(wsUrl(suite.api.baseUrl, token))).toEqual({ refused: 401 });
    });

    it('closes a session when its token expires (4401), with no report needed (issue 25)', async () => {
      const someone = await buildUser(suite.knex);
      const { token_version: tokenVersion } = await suite
        .knex('users')
        .where('id', someone.id)
        .first('token_version');
      // valid for a few seconds: enough for the handshake on a busy machine
      const token = signToken(
        suite.api.config.jwtSecret,
        { id: someone.id, login: someone.login, roles: ['ROLE_USER'], tokenVersion },
        8,
      );
      const { ws } = await openRaw(wsUrl(suite.api.baseUrl, token));
      expect(ws).toBeDefined();
      const code = await new Promise<number>((resolve, reject) => {
        // generous bound, no timing asserted: without the expiry check nothing closes it (the minute's sweep
        // looked at revocation only)
        const timer = setTimeout(() => reject(new Error('still open 90 s after the handshake')), 90_000);
        ws!.once('close', (c) => {
          clearTimeout(timer);
          resolve(c);
        });
      });
      expect(code).toBe(4401);
      expect(await openRaw(wsUrl(suite.api.baseUrl, token))).toEqual({ refused: 401 });
    }, 120_000);

    it('is reconnected by the client after a server restart, and lists the page again', async () => {
      const port = await freePort();
      let api: TestApi | null = await startTestApi({ port });
      const base = `http://127.0.0.1:${port}`;
      const someone = await buildUser(suite.knex);
      const token = await suite.signIn(someone);
      const browser = trackerClient(() => wsUrl(base, token));
      clients.push(browser);
      try {
        browser.connection.setPage('/entity/process/1/documents');
        browser.connection.start();
        const listedWithPage = (a: TestApi) =>
          a.observability.tracker
            .sessions()
            .find((s) => s.userLogin === someone.login && s.page === '/entity/process/1/documents');
        await eventually('listed', async () => listedWithPage(api!));
        await api.close();
        api = null;
        await eventually('disconnected', async () => !browser.connected());
        api = await startTestApi({ port });
        const restarted = api;
        // The page is reported again by the reconnected client.
        await eventually('listed again with its page', async () => listedWithPage(restarted), 60_000);
        const admin = await call(base, '/management/jhimetrics', { token: suite.admin });
        expect(admin.body.tracker.sessions).toBeGreaterThanOrEqual(1);
      } finally {
        browser.connection.stop();
        await api?.close();
      }
    }, 120_000);
  });
});
