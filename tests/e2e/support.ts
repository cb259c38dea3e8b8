/** Chromium (Debian) driven by playwright-core against the app started by scripts/test.ts. */
import fs from 'node:fs';
import path from 'node:path';
import knexFactory, { type Knex } from 'knex';
import {
  chromium,
  type Browser,
  type BrowserContext,
  type BrowserContextOptions,
  type Locator,
  type Page,
} from 'playwright-core';
import { buildUser, type BuiltUser } from '../support/harness';
import { eventuallyMatches } from '../support/eventually';
import { createApiClient, type ApiClient } from '../../api/client';

export const BASE_URL = process.env.E2E_BASE_URL ?? 'http://localhost:8080';
const ARTIFACTS = process.env.ARTIFACTS_DIR ?? path.resolve(__dirname, '..', 'artifacts');

/**
 * Content-Security-Policy violations seen by any page of a browser from launch() since the last check.
 * Every context records them twice: the `securitypolicyviolation` event (reported through a binding, so it
 * survives navigations) and Chromium's "Refused to ..." console errors.
 */
const cspViolations: string[] = [];
const browsers = new Set<Browser>();
const watched = new WeakSet<BrowserContext>();

const REPORT_VIOLATIONS = `document.addEventListener('securitypolicyviolation', (e) => {
  window.__reportCspViolation(
    e.effectiveDirective + ' refused ' + (e.blockedURI || 'inline') + ' at ' + e.sourceFile + ':' + e.lineNumber +
      (e.sample ? ' (' + e.sample + ')' : ''),
  );
});`;

async function watchCsp(context: BrowserContext): Promise<void> {
  await context.exposeBinding('__reportCspViolation', ({ page }, text: string) => {
    cspViolations.push(`${page.url()}: ${text}`);
  });
  await context.addInitScript({ content: REPORT_VIOLATIONS });
  context.on('console', (msg) => {
    if (/Content Security Policy/i.test(msg.text()))
      cspViolations.push(`${msg.page()?.url()}: ${msg.text()}`);
  });
  watched.add(context);
}

/** Throws, listing them, if any page reported a Content-Security-Policy violation since the last call. */
export async function expectNoCspViolations(): Promise<void> {
  for (const browser of browsers) {
    if (!browser.isConnected()) {
      browsers.delete(browser);
      continue;
    }
    for (const context of browser.contexts()) {
      if (!watched.has(context)) throw new Error('a browser context was opened without the CSP watcher');
      // A violation of the test's last step is reported in a task of its own: let the pages run it.
      for (const page of context.pages()) {
        await page.evaluate(() => new Promise((r) => setTimeout(r, 50))).catch(() => undefined);
      }
    }
  }
  const seen = cspViolations.splice(0);
  if (seen.length) throw new Error(`Content-Security-Policy violations:\n${seen.join('\n')}`);
}

// Every test of a file that drives the browser through this module fails on a violation it caused.
afterEach(expectNoCspViolations);

/** Chromium whose every context (browser.newPage() makes one too) records CSP violations. */
export async function launch(): Promise<Browser> {
  const browser = await chromium.launch({
    executablePath: process.env.CHROMIUM_PATH ?? '/usr/bin/chromium',
    args: [
      '--headless',
      '--no-sandbox',
      '--disable-gpu',
      '--disable-quic',
      '--no-first-run',
      '--disable-background-networking',
      '--disable-component-update',
      '--disable-sync',
    ],
  });
  const newContext = browser.newContext.bind(browser);
  browser.newContext = async (options) => {
    const context = await newContext(options);
    await watchCsp(context);
    return context;
  };
  browsers.add(browser);
  return browser;
}

export async function shot(page: Page, name: string): Promise<void> {
  fs.mkdirSync(ARTIFACTS, { recursive: true });
  await page.screenshot({ path: path.join(ARTIFACTS, `${name}.png`), fullPage: true });
}

export async function signIn(page: Page, username: string, password: string): Promise<void> {
  await page.goto(`${BASE_URL}/lp/login`);
  await page.getByTestId('login-username').fill(username);
  await page.getByTestId('login-password').fill(password);
  await page.getByTestId('login-submit').click();
}

/**
 * What `read` answers once it equals `expected` (deep equality): screens answer a filter after a debounce and
 * a request, showing the previous rows meanwhile. Returns the last answer seen after `timeoutMs` otherwise,
 * for the test's expect to show.
 */
export async function settledValue<T>(read: () => Promise<T>, expected: T, timeoutMs = 15000): Promise<T> {
  const until = Date.now() + timeoutMs;
  const wanted = JSON.stringify(expected);
  let seen = await read();
  while (JSON.stringify(seen) !== wanted && Date.now() < until) {
    await new Promise((r) => setTimeout(r, 100));
    seen = await read();
  }
  return seen;
}

/**
 * The number of elements a locator finds once the page has settled on it: lists load in several queries,
 * so a count taken at once may see a partial page. Returns the last count seen after `timeoutMs`.
 */
export const settledCount = (locator: Locator, expected: number, timeoutMs = 10000): Promise<number> =>
  settledValue(() => locator.count(), expected, timeoutMs);

/**
 * The typed client of the app's API (api/client, generated from docs/openapi.json), signed with a token as
 * tokenFor() gives it (`Bearer ...`); none: anonymous.
 */
export const apiClient = (token?: string): ApiClient =>
  createApiClient(BASE_URL, token ? { token: token.replace(/^Bearer /, '') } : undefined);

/** The answer of a typed call; throws unless it succeeded. */
export async function ok<T>(
  call: Promise<{ data?: T; error?: unknown; response: Response }>,
): Promise<NonNullable<T>> {
  const { data, error, response } = await call;
  if (!response.ok || data === undefined)
    throw new Error(`${response.url}: ${response.status} ${JSON.stringify(error)}`);
  return data as NonNullable<T>;
}

/** A user's bearer token (empty when the sign-in is refused). */
export async function tokenFor(username: string, password: string): Promise<string> {
  const { response } = await apiClient().POST('/api/authenticate', { body: { username, password } });
  return response.headers.get('authorization') ?? '';
}

/** The seeded admin's bearer token, for setting up through the API. */
export const apiToken = (): Promise<string> => tokenFor('admin', 'admin');

/**
 * A page of a new browser context (1440x900 and `options`, kept in `contexts` for the suite to close) on which the
 * user has signed in and reached the process list.
 */
export async function signedInPage(
  browser: Browser,
  contexts: BrowserContext[],
  user: { login: string; password: string },
  options: BrowserContextOptions = {},
): Promise<Page> {
  const context = await browser.newContext({ viewport: { width: 1440, height: 900 }, ...options });
  contexts.push(context);
  const page = await context.newPage();
  page.setDefaultTimeout(15000);
  await signIn(page, user.login, user.password);
  await page.waitForURL(/\/entity\/process$/);
  return page;
}

/** A JSON call to the app's API by any path; throws unless it succeeded (apiClient() checks the types). */
export async function api<T>(token: string, path: string, init: RequestInit = {}): Promise<T> {
  const res = await fetch(`${BASE_URL}${path}`, {
    ...init,
    headers: { 'Content-Type': 'application/json', Authorization: token, ...(init.headers ?? {}) },
  });
  if (!res.ok) throw new Error(`${path}: ${res.status} ${await res.text()}`);
  return (await res.json()) as T;
}

/** A new process with the first predefined tag, created through the API; its id. */
export async function createProcess(token: string, name: string): Promise<number> {
  const client = apiClient(token);
  const tags = await ok(client.GET('/api/process-tags'));
  const created = await ok(
    client.POST('/api/processes', {
      body: {
        name,
        isRagEnabled: false,
        processTags: [{ id: tags.find((t) => t.predefined)!.id }],
        ragTextSplitter: null,
      },
    }),
  );
  return created.id;
}

/**
 * What most browser suites set up first: a handle on the run's database (for building users), a new global
 * admin's bearer token and a new process (with its upload node) created by that admin through the API.
 */
export interface E2eWorld {
  knex: Knex;
  admin: BuiltUser;
  token: string;
  processId: number;
}

export async function e2eWorld(processName: string): Promise<E2eWorld> {
  const knex = knexFactory({ client: 'pg', connection: process.env.DATABASE_URL, pool: { min: 0, max: 2 } });
  const admin = await buildUser(knex, { roles: ['ROLE_ADMIN', 'ROLE_USER'] });
  const token = await tokenFor(admin.login, admin.password);
  return { knex, admin, token, processId: await createProcess(token, processName) };
}

/** A new user with a mode on the process (and, when given, a first and last name the screens show). */
export async function userOnProcess(
  knex: Knex,
  processId: number,
  mode: 'READ' | 'WRITE' | 'ADMIN',
  name?: { firstName: string; lastName: string },
): Promise<BuiltUser> {
  const user = await buildUser(knex, { authorities: [{ componentId: processId, type: 'PROCESS', mode }] });
  if (name)
    await knex('users').where('id', user.id).update({ first_name: name.firstName, last_name: name.lastName });
  return user;
}

/** The id of the process's upload node (HUP, made with the process). */
export async function uploadNodeOf(token: string, processId: number): Promise<number> {
  const nodes = await ok(
    apiClient(token).GET('/api/nodes', { params: { query: { processId: String(processId) } } }),
  );
  return nodes.find((n) => n.activityType === 'HUP')!.id;
}

/** A node added to the process through the API (name, activityType and the type's settings); its id. */
export async function addNode(
  token: string,
  processId: number,
  body: Record<string, unknown>,
): Promise<number> {
  // the type's settings as the suite gives them
  const created = await ok(apiClient(token).POST('/api/nodes', { body: { processId, ...body } as never }));
  return created.id;
}

/** Edges added through the API, one [fromId, toId] pair each, in order. */
export async function addEdges(token: string, ...pairs: [number, number][]): Promise<void> {
  const client = apiClient(token);
  for (const [fromId, toId] of pairs) await ok(client.POST('/api/edges', { body: { fromId, toId } }));
}

/** A text document created through the API (it enters the process's workflow); its id. */
export async function addTextDocument(
  token: string,
  processId: number,
  filename: string,
  content: string,
): Promise<number> {
  const created = await api<{ id: number }>(token, '/api/documents', {
    method: 'POST',
    body: JSON.stringify({ processId, filename, content }),
  });
  return created.id;
}

/** A file as the upload page's input takes it. */
export const uploadFile = (name: string, buffer: Buffer, mimeType = 'application/octet-stream') => ({
  name,
  mimeType,
  buffer,
});

/** Closes what a suite opened: its browser contexts, the browser, the database handle. */
export async function closeAll(
  contexts: BrowserContext[],
  browser: Browser | undefined,
  knex: Knex | undefined,
): Promise<void> {
  for (const c of contexts) await c.close().catch(() => undefined);
  await browser?.close();
  await knex?.destroy();
}

/**
 * The usual frame of a small browser suite, to call inside describe(): its beforeAll opens a database handle
 * (for building users) and the browser, its afterAll closes them and every context in `contexts`.
 */
export function browserSuite(): {
  readonly knex: Knex;
  readonly browser: Browser;
  contexts: BrowserContext[];
} {
  let knex: Knex | undefined;
  let browser: Browser | undefined;
  const contexts: BrowserContext[] = [];
  beforeAll(async () => {
    knex = knexFactory({ client: 'pg', connection: process.env.DATABASE_URL, pool: { min: 0, max: 2 } });
    browser = await launch();
  });
  afterAll(() => closeAll(contexts, browser, knex));
  return {
    get knex() {
      return knex!;
    },
    get browser() {
      return browser!;
    },
    contexts,
  };
}

/**
 * Elements that stick out of the window sideways (a page that scrolls horizontally, a menu running off the
 * right edge), each described as `tag.class [testid] left..right`; empty when everything fits. Elements
 * inside a box that clips its overflow (the graph canvas, a scrolling table) count only through that box.
 */
export async function horizontalOverflow(page: Page): Promise<string[]> {
  return page.evaluate<string[]>(`(() => {
    const width = document.documentElement.clientWidth;
    const out = [];
    if (document.documentElement.scrollWidth > width + 1)
      out.push('document scrolls sideways: ' + document.documentElement.scrollWidth + ' > ' + width);
    const clipped = (el) => {
      for (let p = el.parentElement; p && p !== document.body; p = p.parentElement) {
        const style = getComputedStyle(p);
        if (style.overflowX !== 'visible' || style.clipPath !== 'none') return true;
      }
      return false;
    };
    for (const el of Array.from(document.body.querySelectorAll('*'))) {
      const r = el.getBoundingClientRect();
      if (r.width === 0 || r.height === 0) continue;
      if (r.right <= width + 1 && r.left >= -1) continue;
      const style = getComputedStyle(el);
      if (style.visibility === 'hidden' || style.clip !== 'auto' || clipped(el)) continue;
      const testId = el.getAttribute('data-testid');
      out.push(el.tagName.toLowerCase() + '.' + (el.getAttribute('class') || '').split(' ').join('.') +
        (testId ? ' [' + testId + ']' : '') + ' ' + Math.round(r.left) + '..' + Math.round(r.right) +
        ' (window ' + width + ')');
    }
    return out;
  })()`);
}

/** Switches the signed-in UI to a language through the navbar's language menu. */
export async function chooseLanguage(page: Page, locale: 'en' | 'pl'): Promise<void> {
  const toggler = page.locator('.navbar-toggler');
  if (await toggler.isVisible()) await toggler.click();
  await page.getByTestId('language-menu').click();
  await page.getByTestId(`language-${locale}`).click();
  // A locator, not waitForFunction: a string predicate is evaluated by eval, which the app's CSP refuses.
  await page.locator(`html[lang="${locale}"]`).waitFor({ state: 'attached' });
  if (await toggler.isVisible()) {
    const expanded = await toggler.getAttribute('aria-expanded');
    if (expanded === 'true') await toggler.click();
  }
}

/** The page's window as far as watchWindowOpen touches it (the tests' TypeScript has no DOM library). */
interface OpenWindow {
  open: (...args: unknown[]) => unknown;
  __opened?: unknown[][];
  __blocked?: boolean;
  __original?: (...args: unknown[]) => unknown;
}

/**
 * Records the page's window.open calls, still opening the windows: `opened()` answers their arguments so
 * far; `blocked(true)` makes the browser open none (window.open answers null, as under a popup blocker).
 */
export async function watchWindowOpen(page: Page) {
  await page.evaluate(() => {
    const w = globalThis as unknown as OpenWindow;
    // watched again: still around the browser's own window.open
    const original = (w.__original ??= w.open.bind(w));
    w.__opened = [];
    w.__blocked = false;
    w.open = (...args: unknown[]) => {
      w.__opened!.push(args);
      return w.__blocked ? null : original(...args);
    };
  });
  return {
    opened: () => page.evaluate(() => (globalThis as unknown as OpenWindow).__opened ?? []),
    blocked: (on: boolean) =>
      page.evaluate((value) => {
        (globalThis as unknown as OpenWindow).__blocked = value;
      }, on),
  };
}

/**
 * Clicks `button` of `page` and answers the window it opened, after checking that exactly one was asked for,
 * 800x600 (the workspace's separate windows, spec 2 section 9).
 */
export async function clickOpening800x600(page: Page, button: Locator): Promise<Page> {
  const windows = await watchWindowOpen(page);
  const [popup] = await Promise.all([page.context().waitForEvent('page'), button.click()]);
  const opened = await windows.opened();
  if (opened.length !== 1 || opened[0][2] !== 'width=800,height=600')
    throw new Error(`expected one 800x600 window, got ${JSON.stringify(opened)}`);
  popup.setDefaultTimeout(15000);
  return popup;
}

/** A tag type of a SPAN/LEXICON node (selectable, not mandatory), created through the API; its id. */
export async function addNerTagType(
  token: string,
  nodeId: number,
  tagType: {
    name: string;
    backgroundColor: string;
    textColor: string;
    prefixKey?: string | null;
    suffixKey?: string | null;
  },
): Promise<number> {
  const created = await api<{ id: number }>(token, `/api/node/${nodeId}/ner-tag-type`, {
    method: 'POST',
    body: JSON.stringify({ ...tagType, mandatory: false, selectable: true, disabled: false }),
  });
  return created.id;
}

/** A file uploaded through an upload node (`POST api/file-upload`, as the upload page sends it); the document. */
export async function uploadThrough(
  token: string,
  nodeId: number,
  filename: string,
  content: Uint8Array | string,
): Promise<{ id: number; documentType: string }> {
  const form = new FormData();
  form.append('nodeId', String(nodeId));
  form.append('file', new Blob([typeof content === 'string' ? content : new Uint8Array(content)]), filename);
  const res = await fetch(`${BASE_URL}/api/file-upload`, {
    method: 'POST',
    headers: { Authorization: token },
    body: form,
  });
  if (res.status !== 201) throw new Error(`upload of ${filename}: ${res.status} ${await res.text()}`);
  return (await res.json()) as { id: number; documentType: string };
}

/** Waits until the document's step of `nodeId` is WAITING (the workflow has brought the document there). */
export async function stepWaits(token: string, documentId: number, nodeId: number): Promise<void> {
  await stepReaches(token, documentId, nodeId, 'WAITING', `the step of node ${nodeId} waits`);
}

/** The document's step of a node as its state answers it (GET api/v2/document/{id}/state). */
export async function stepOfNode(
  token: string,
  documentId: number,
  nodeId: number,
): Promise<{ id: number; status: string } | undefined> {
  const state = await api<{ steps: { id: number; status: string; nodeDTO: { id: number } }[] }>(
    token,
    `/api/v2/document/${documentId}/state`,
  );
  return state.steps.find((s) => s.nodeDTO.id === nodeId);
}

/** Waits (up to a minute) until the document's step of the node is in `status`. */
export const stepReaches = (
  token: string,
  documentId: number,
  nodeId: number,
  status: string,
  what: string,
) =>
  eventuallyMatches(
    () => stepOfNode(token, documentId, nodeId),
    (s) => s?.status === status,
    what,
    60_000,
  );
