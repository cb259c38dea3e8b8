/**
 * Issue 17 around the shell and forms, in a real browser: menus stay inside the window, toasts keep clear of
 * the main buttons, one message per error, no 'required' after a successful password change nor on a new
 * mail receiver row, nothing sticking out sideways on the top-level pages at 1280, 1920 and 390 px; and the
 * screenshots of the graph page, a node panel and the process list at 1280 and 390 px, English and Polish.
 */
import crypto from 'node:crypto';
import knexFactory from 'knex';
import type { Browser, BrowserContext, Locator, Page } from 'playwright-core';
import { buildUser } from '../support/harness';
import {
  BASE_URL,
  api,
  apiToken,
  createProcess,
  horizontalOverflow,
  launch,
  settledCount,
  shot,
  signedInPage,
} from './support';

type Box = { x: number; y: number; width: number; height: number };
const intersects = (a: Box, b: Box) =>
  a.x < b.x + b.width && b.x < a.x + a.width && a.y < b.y + b.height && b.y < a.y + a.height;

async function box(locator: Locator): Promise<Box> {
  const b = await locator.boundingBox();
  if (!b) throw new Error('not visible');
  return b;
}

describe('shell, forms and messages in Chromium', () => {
  let browser: Browser;
  const contexts: BrowserContext[] = [];
  let page: Page;
  let token: string;
  let processId: number;
  const suffix = crypto.randomBytes(3).toString('hex');
  let user: { login: string; password: string };
  let plainUser: { login: string; password: string };
  let sorterId: number;
  /** a text document of the process, for the document pages and the workspace */
  let documentId: number;

  const node = (name: string) => page.getByTestId('graph-node').filter({ hasText: name });
  const panel = () => page.getByTestId('node-panel');

  /** A fresh page of its own window size, signed in as admin unless `signedOut`. */
  async function pageAt(width: number, height: number, signedOut = false): Promise<Page> {
    const context = await browser.newContext({ viewport: { width, height } });
    contexts.push(context);
    const p = await context.newPage();
    p.setDefaultTimeout(15000);
    if (!signedOut) {
      await p.goto(`${BASE_URL}/lp/login`);
      await p.getByTestId('login-username').fill('admin');
      await p.getByTestId('login-password').fill('admin');
      await p.getByTestId('login-submit').click();
      await p.waitForURL(/\/entity\/process$/);
    }
    return p;
  }

  beforeAll(async () => {
    token = await apiToken();
    processId = await createProcess(token, `Shell UX ${suffix}`);
    const nodes = await api<{ id: number; activityType: string }[]>(
      token,
      `/api/nodes?processId=${processId}`,
    );
    const upload = nodes.find((n) => n.activityType === 'HUP')!;
    const form = new FormData();
    form.append('nodeId', String(upload.id));
    form.append(
      'file',
      new Blob(['A short text for the page checks.\n'], { type: 'text/plain' }),
      'pages.txt',
    );
    const res = await fetch(`${BASE_URL}/api/file-upload`, {
      method: 'POST',
      body: form,
      headers: { Authorization: token },
    });
    if (res.status !== 201) throw new Error(`upload: ${res.status} ${await res.text()}`);
    documentId = ((await res.json()) as { id: number }).id;
    const parser = await api<{ id: number }>(token, '/api/nodes', {
      method: 'POST',
      body: JSON.stringify({ processId, activityType: 'FILE_PARSER', name: 'Parser' }),
    });
    await api(token, '/api/edges', {
      method: 'POST',
      body: JSON.stringify({ fromId: upload.id, toId: parser.id }),
    });
    const notify = await api<{ id: number }>(token, '/api/nodes', {
      method: 'POST',
      body: JSON.stringify({ processId, activityType: 'SEND_MAIL', name: 'Notify' }),
    });
    const sorter = await api<{ id: number }>(token, '/api/nodes', {
      method: 'POST',
      body: JSON.stringify({ processId, activityType: 'CLF', name: 'Sorter' }),
    });
    sorterId = sorter.id;
    await api(token, '/api/edges', {
      method: 'POST',
      body: JSON.stringify({ fromId: parser.id, toId: sorter.id }),
    });
    await api(token, '/api/edges', {
      method: 'POST',
      body: JSON.stringify({ fromId: sorter.id, toId: notify.id }),
    });
    const knex = knexFactory({
      client: 'pg',
      connection: process.env.DATABASE_URL,
      pool: { min: 0, max: 1 },
    });
    user = await buildUser(knex);
    plainUser = await buildUser(knex).finally(() => knex.destroy());
    browser = await launch();
    page = await signedInPage(browser, contexts, { login: 'admin', password: 'admin' });
  });

  afterAll(async () => {
    for (const c of contexts) await c.close().catch(() => undefined);
    await browser?.close();
  });

  it.each([
    [1280, 800],
    [1920, 1080],
  ])('keeps the account and language menus inside the window at %i px', async (width, height) => {
    const p = await pageAt(width, height);
    for (const menu of ['account-menu', 'language-menu']) {
      await p.getByTestId(menu).click();
      const list = p.locator('.dropdown-menu.show');
      await list.waitFor();
      const b = await box(list);
      expect(b.x + b.width).toBeLessThanOrEqual(width);
      expect(b.x).toBeGreaterThanOrEqual(0);
      expect(await horizontalOverflow(p)).toEqual([]);
      if (menu === 'account-menu') await shot(p, `17-account-menu-${width}`);
      await p.getByTestId(menu).click();
      await list.waitFor({ state: 'detached' });
    }
    await p.context().close();
  });

  it('shows toasts clear of the header actions and of the node panel buttons', async () => {
    await page.setViewportSize({ width: 1280, height: 800 });
    await page.goto(`${BASE_URL}/entity/process/${processId}/graph`);
    await node('Notify').click();
    await panel().getByTestId('mail-subject').fill('Hello');
    await panel().getByTestId('node-save').click();
    const toast = page.getByTestId('toast').first();
    await toast.waitFor();
    const t = await box(toast);
    for (const id of [
      'graph-add-node',
      'account-menu',
      'graph-back',
      'node-panel-close',
      'node-save',
      'node-delete',
    ]) {
      expect({ id, covered: intersects(t, await box(page.getByTestId(id))) }).toEqual({ id, covered: false });
    }
    await shot(page, '17-toast-graph');
    await page.setViewportSize({ width: 1440, height: 900 });
  });

  it('reports a failed sign-in once, inline, without a toast', async () => {
    const p = await pageAt(1280, 800, true);
    await p.goto(`${BASE_URL}/lp/login`);
    await p.getByTestId('login-username').fill('admin');
    await p.getByTestId('login-password').fill('wrong-password');
    await p.getByTestId('login-submit').click();
    await p.getByTestId('login-error').waitFor();
    expect(await settledCount(p.getByTestId('toast'), 0, 1500)).toBe(0);
    await p.context().close();
  });

  it('reports a refused reset key and a refused activation key once, inline', async () => {
    const p = await pageAt(1280, 800, true);
    await p.goto(`${BASE_URL}/lp/reset/finish?key=notAValidKey123`);
    await p.getByTestId('reset-new-password').fill('Another-pass-42');
    await p.getByTestId('reset-confirm-password').fill('Another-pass-42');
    await p.getByTestId('reset-finish-submit').click();
    await p.getByTestId('reset-finish-error').waitFor();
    expect(await settledCount(p.getByTestId('toast'), 0, 1500)).toBe(0);

    await p.goto(`${BASE_URL}/lp/verify/notAValidKey123`);
    await p.getByTestId('verify-error').waitFor();
    expect(await settledCount(p.getByTestId('toast'), 0, 1500)).toBe(0);
    await p.context().close();
  });

  it('empties the password form after a change without marking its fields as missing', async () => {
    const context = await browser.newContext({ viewport: { width: 1280, height: 800 } });
    contexts.push(context);
    const p = await context.newPage();
    p.setDefaultTimeout(15000);
    await p.goto(`${BASE_URL}/lp/login`);
    await p.getByTestId('login-username').fill(user.login);
    await p.getByTestId('login-password').fill(user.password);
    await p.getByTestId('login-submit').click();
    await p.waitForURL(/\/entity\/process$/);
    await p.goto(`${BASE_URL}/account/password`);
    await p.getByTestId('password-current').fill(user.password);
    await p.getByTestId('password-new').fill('Brand-new-pass-42');
    await p.getByTestId('password-confirm').fill('Brand-new-pass-42');
    await p.getByTestId('password-submit').click();
    await p.getByTestId('password-success').waitFor();
    expect(await p.getByTestId('password-current').inputValue()).toBe('');
    expect(await settledCount(p.locator('form .is-invalid'), 0)).toBe(0);
    expect(await settledCount(p.locator('form .invalid-feedback:visible'), 0)).toBe(0);
    await shot(p, '17-password-changed');
    await context.close();
  });

  it('shows no message on a new mail receiver row before anything is typed in it', async () => {
    await page.goto(`${BASE_URL}/entity/process/${processId}/graph`);
    await node('Notify').click();
    await panel().getByTestId('mail-receiver-add').click();
    const email = panel().getByTestId('mail-receiver-email').last();
    await email.waitFor();
    expect(await email.getAttribute('class')).not.toContain('is-invalid');
    expect(
      await settledCount(panel().getByTestId('mail-receiver').last().locator('.invalid-feedback'), 0),
    ).toBe(0);
    // Typing a wrong address and clearing it does show the message of that row.
    await email.fill('x');
    await email.fill('');
    await panel().getByTestId('mail-receiver').last().locator('.invalid-feedback').first().waitFor();
    // A second new row stays quiet meanwhile.
    await panel().getByTestId('mail-receiver-add').click();
    expect(await panel().getByTestId('mail-receiver-email').last().getAttribute('class')).not.toContain(
      'is-invalid',
    );
    await page.getByTestId('node-panel-close').click();
    await page.getByTestId('discard-confirm').click();
    await panel().waitFor({ state: 'detached' });
  });

  it('says why a new Sphere cannot be saved yet instead of a silently disabled Save', async () => {
    await page.goto(`${BASE_URL}/entity/process/new`);
    await page.getByTestId('process-tags-help').waitFor();
    expect(await page.getByTestId('process-save').isEnabled()).toBe(true);
    await page.getByTestId('process-save').click();
    await page.getByTestId('process-tags-error').waitFor();
    await page.getByTestId('process-name-error').waitFor();
    expect(page.url()).toMatch(/\/entity\/process\/new$/);
  });

  it("changes an existing Sphere's tags from the list", async () => {
    await page.goto(`${BASE_URL}/entity/process`);
    const row = page.locator(`[data-testid="process-row"][data-process-id="${processId}"]`);
    const before = await row.getByTestId('process-system-tags').innerText();
    await row.getByTestId('process-action-tags').click();
    const modal = page.getByTestId('tag-modal');
    await modal.waitFor();
    expect(await modal.innerText()).toContain(`Shell UX ${suffix}`);
    const other = modal.locator('[data-testid="tag-system-radio"]:not(:checked)').first();
    const name = (await other.getAttribute('data-tag-name'))!;
    expect(before).not.toContain(name);
    await other.check();
    await page.getByTestId('tag-modal-save').click();
    await modal.waitFor({ state: 'detached' });
    await row.getByTestId('process-system-tags').getByTestId('tag-badge').filter({ hasText: name }).waitFor();
    const stored = await api<{ processTags: { name: string }[] }>(token, `/api/processes/${processId}`);
    expect(stored.processTags.map((t) => t.name)).toContain(name);
  });

  it('gives new labels different colours and names wildcards by node and label names', async () => {
    await page.goto(`${BASE_URL}/entity/process/${processId}/graph`);
    await node('Sorter').click();
    for (const label of ['Invoice', 'Letter']) {
      await panel().getByTestId('clf-label-create').click();
      await page.getByTestId('clf-label-name').fill(label);
      await page.getByTestId('clf-label-save').click();
      await panel().getByTestId('clf-label-row').filter({ hasText: label }).waitFor();
    }
    const types = await api<{ name: string; backgroundColor: string }[]>(
      token,
      `/api/node/${sorterId}/classifier-types`,
    );
    expect(types).toHaveLength(2);
    expect(types[0].backgroundColor.toLowerCase()).not.toBe(types[1].backgroundColor.toLowerCase());
    await page.getByTestId('node-panel-close').click();
    await panel().waitFor({ state: 'detached' });

    await node('Notify').click();
    await panel().getByTestId('wildcards-toggle').first().click();
    const chips = panel().getByTestId('wildcard');
    await chips.filter({ hasText: 'Sorter: label "Invoice" selected' }).waitFor();
    for (const text of await chips.allInnerTexts()) expect(text).not.toMatch(/\$\{|node\.\d/);
    const invoice = types.find((t) => t.name === 'Invoice')!;
    expect(invoice).toBeDefined();
    // The token itself is still what goes into the template.
    await chips.filter({ hasText: 'Sorter: selected labels' }).click();
    expect(await panel().getByTestId('mail-subject').inputValue()).toBe('');
    expect(await panel().locator('textarea[data-testid="mail-template"]').inputValue()).toBe(
      `\${node.${sorterId}.clftagtypes.selected}`,
    );
    await shot(page, '17-wildcards');
    await page.getByTestId('node-panel-close').click();
    await page.getByTestId('discard-confirm').click();
    await panel().waitFor({ state: 'detached' });
  });

  it('offers a way back from the not-authorized page', async () => {
    const context = await browser.newContext({ viewport: { width: 1280, height: 800 } });
    contexts.push(context);
    const p = await context.newPage();
    p.setDefaultTimeout(15000);
    await p.goto(`${BASE_URL}/lp/login`);
    await p.getByTestId('login-username').fill(plainUser.login);
    await p.getByTestId('login-password').fill(plainUser.password);
    await p.getByTestId('login-submit').click();
    await p.waitForURL(/\/entity\/process$/);
    await p.goto(`${BASE_URL}/entity/process/${processId}/graph`);
    await p.getByTestId('not-authorized').waitFor();
    await p.getByTestId('status-home').click();
    await p.waitForURL(/\/entity\/process$/);
    await context.close();
  });

  const signedInPages = (id: number) => [
    '/entity/process',
    '/entity/process/new',
    `/entity/process/${id}/graph`,
    `/entity/process/${id}/secrets`,
    `/entity/process/${id}/dashboard/documents`,
    `/entity/process/${id}/dashboard/issues`,
    `/entity/process/${id}/documents`,
    `/entity/process/${id}/upload`,
    `/entity/process/${id}/documents/${documentId}`,
    `/entity/process/${id}/documents/${documentId}/edit`,
    `/entity/process/${id}/document/${documentId}`,
    '/account/settings',
    '/account/password',
  ];
  const signedOutPages = ['/lp/login', '/lp/register', '/lp/reset/request'];

  it.each([
    [1280, 800],
    [1920, 1080],
    [390, 844],
  ])('has nothing sticking out sideways on the top-level pages at %i px', async (width, height) => {
    const p = await pageAt(width, height);
    for (const path of signedInPages(processId)) {
      await p.goto(`${BASE_URL}${path}`);
      await p.locator('main, .graph-page, .container, .container-fluid, .ws-page').first().waitFor();
      await p.waitForLoadState('networkidle');
      expect({ path, overflow: await horizontalOverflow(p) }).toEqual({ path, overflow: [] });
    }
    const out = await pageAt(width, height, true);
    for (const path of signedOutPages) {
      await out.goto(`${BASE_URL}${path}`);
      await out.locator('form').first().waitFor();
      expect({ path, overflow: await horizontalOverflow(out) }).toEqual({ path, overflow: [] });
    }
    await p.context().close();
    await out.context().close();
  });

  it.each([
    ['en', 1280, 800],
    ['en', 390, 844],
    ['pl', 1280, 800],
    ['pl', 390, 844],
  ] as const)('screens in %s at %i px: process list, graph, node panel', async (locale, width, height) => {
    const p = await pageAt(width, height);
    await p.evaluate(`sessionStorage.setItem('locale', '${locale}')`);
    await p.goto(`${BASE_URL}/entity/process`);
    await p.getByText(`Shell UX ${suffix}`).first().waitFor();
    await p.waitForFunction(`document.documentElement.lang === '${locale}'`);
    await shot(p, `17-process-list-${locale}-${width}`);
    await p.goto(`${BASE_URL}/entity/process/${processId}/graph`);
    const notify = p.getByTestId('graph-node').filter({ hasText: 'Notify' });
    await notify.waitFor();
    // Readable at every width: a card keeps at least 75 % of its size, and the graph's start is in view.
    const canvas = await box(p.getByTestId('graph-canvas'));
    const upload = p.getByTestId('graph-node').filter({ hasText: 'Upload' });
    let card = await box(upload);
    for (let i = 0; i < 50 && (card.width < 111 || card.x < canvas.x); i++) {
      await new Promise((r) => setTimeout(r, 100));
      card = await box(upload);
    }
    expect(card.width).toBeGreaterThanOrEqual(111);
    expect(card.x).toBeGreaterThanOrEqual(canvas.x);
    expect(card.x + card.width).toBeLessThanOrEqual(canvas.x + canvas.width);
    await shot(p, `17-graph-${locale}-${width}`);
    // At phone width the graph keeps its cards readable and shows its start: Notify may lie beyond the right
    // edge, so the user drags the canvas to the left until it is in view, then taps it.
    const viewport = p.viewportSize()!;
    for (let i = 0; i < 10; i++) {
      const card = await box(notify);
      if (card.x + card.width <= viewport.width - 8 && card.x >= 0) break;
      const y = canvas.y + 40;
      await p.mouse.move(canvas.x + canvas.width - 30, y);
      await p.mouse.down();
      await p.mouse.move(canvas.x + canvas.width - 230, y, { steps: 8 });
      await p.mouse.up();
    }
    await notify.click();
    await p.getByTestId('node-panel').getByTestId('mail-subject').waitFor();
    await shot(p, `17-node-panel-${locale}-${width}`);
    expect(await horizontalOverflow(p)).toEqual([]);
    await p.context().close();
  });
});
