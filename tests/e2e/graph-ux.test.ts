/**
 * Issue 17 on the graph page, in a real browser: a node panel with unsaved edits asks before they are lost
 * (another node, its close button, Back to Spheres, Escape); nodes added from the header's menu never overlap
 * each other, the others or the minimap, and the view shows them all; the graph works from the keyboard and
 * announces edges by the nodes' names; node type names are not cut.
 */
import crypto from 'node:crypto';
import type { Browser, BrowserContext, Locator, Page } from 'playwright-core';
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

describe('graph page usability in Chromium', () => {
  let browser: Browser;
  const contexts: BrowserContext[] = [];
  let page: Page;
  let token: string;
  let processId: number;
  const suffix = crypto.randomBytes(3).toString('hex');

  const node = (name: string) => page.getByTestId('graph-node').filter({ hasText: name });
  const panel = () => page.getByTestId('node-panel');
  const panelOf = async (name: string) =>
    page.locator(
      `[data-testid="node-panel"][data-node-id="${await node(name).getAttribute('data-node-id')}"]`,
    );

  async function box(locator: Locator): Promise<Box> {
    const b = await locator.boundingBox();
    if (!b) throw new Error('not visible');
    return b;
  }

  beforeAll(async () => {
    token = await apiToken();
    processId = await createProcess(token, `Graph UX ${suffix}`);
    const nodes = await api<{ id: number; activityType: string }[]>(
      token,
      `/api/nodes?processId=${processId}`,
    );
    const upload = nodes.find((n) => n.activityType === 'HUP')!;
    const parser = await api<{ id: number }>(token, '/api/nodes', {
      method: 'POST',
      body: JSON.stringify({ processId, activityType: 'FILE_PARSER', name: 'Parser' }),
    });
    await api(token, '/api/edges', {
      method: 'POST',
      body: JSON.stringify({ fromId: upload.id, toId: parser.id }),
    });
    for (const name of ['Mail A', 'Mail B']) {
      await api(token, '/api/nodes', {
        method: 'POST',
        body: JSON.stringify({ processId, activityType: 'SEND_MAIL', name }),
      });
    }
    browser = await launch();
    page = await signedInPage(browser, contexts, { login: 'admin', password: 'admin' });
  });

  afterAll(async () => {
    for (const c of contexts) await c.close().catch(() => undefined);
    await browser?.close();
  });

  async function openGraph(): Promise<void> {
    await page.goto(`${BASE_URL}/entity/process/${processId}/graph`);
    await node('Mail B').waitFor();
  }

  it('asks before unsaved edits of a node panel are lost, and loses them only on Discard', async () => {
    await openGraph();
    await node('Mail A').click();
    await (await panelOf('Mail A')).waitFor();
    await panel().getByTestId('mail-subject').fill('Half-written subject');
    await panel().getByTestId('node-unsaved').waitFor();

    // Another node: Keep editing stays on Mail A with the edit.
    await node('Mail B').click();
    const modal = page.getByTestId('discard-modal');
    await modal.waitFor();
    expect(await modal.innerText()).toContain('Mail A');
    await shot(page, '17-discard-dialog');
    await page.getByTestId('discard-keep').click();
    await modal.waitFor({ state: 'detached' });
    await (await panelOf('Mail A')).waitFor();
    expect(await panel().getByTestId('mail-subject').inputValue()).toBe('Half-written subject');

    // The close button and Escape ask too.
    await page.getByTestId('node-panel-close').click();
    await modal.waitFor();
    await page.getByTestId('discard-keep').click();
    await modal.waitFor({ state: 'detached' });
    await panel().getByTestId('mail-subject').focus();
    await page.keyboard.press('Escape');
    await modal.waitFor();
    await page.getByTestId('discard-keep').click();
    await modal.waitFor({ state: 'detached' });

    // Back to Spheres: Keep editing stays on the graph page.
    await page.getByTestId('graph-back').click();
    await modal.waitFor();
    await page.getByTestId('discard-keep').click();
    await modal.waitFor({ state: 'detached' });
    expect(page.url()).toMatch(/\/graph$/);
    expect(await panel().getByTestId('mail-subject').inputValue()).toBe('Half-written subject');

    // Discard opens the other node; the edit is gone when coming back.
    await node('Mail B').click();
    await page.getByTestId('discard-confirm').click();
    await (await panelOf('Mail B')).waitFor();
    await node('Mail A').click();
    await (await panelOf('Mail A')).waitFor();
    expect(await panel().getByTestId('mail-subject').inputValue()).toBe('');
    expect(await settledCount(panel().getByTestId('node-unsaved'), 0)).toBe(0);

    // A saved panel closes without a question; an edited one leaves the page only after Discard.
    await page.getByTestId('node-panel-close').click();
    await panel().waitFor({ state: 'detached' });
    expect(await settledCount(modal, 0)).toBe(0);
    await node('Mail A').click();
    await panel().getByTestId('mail-subject').fill('Another draft');
    await page.getByTestId('graph-back').click();
    await page.getByTestId('discard-confirm').click();
    await page.waitForURL(/\/entity\/process$/);
  });

  it('asks in Polish too', async () => {
    await page.evaluate(`sessionStorage.setItem('locale', 'pl')`);
    await openGraph();
    await node('Mail A').click();
    await panel().getByTestId('mail-subject').fill('Szkic');
    await page.getByTestId('node-panel-close').click();
    const modal = page.getByTestId('discard-modal');
    await modal.waitFor();
    expect(await modal.innerText()).toContain('Odrzucić niezapisane zmiany?');
    expect(await page.getByTestId('discard-keep').innerText()).toBe('Kontynuuj edycję');
    expect(await page.getByTestId('discard-confirm').innerText()).toBe('Odrzuć');
    await page.getByTestId('discard-confirm').click();
    await panel().waitFor({ state: 'detached' });
    await page.evaluate(`sessionStorage.setItem('locale', 'en')`);
  });

  it('places nodes added from the header menu apart, clear of the minimap, and fits them into view', async () => {
    await openGraph();
    const types = ['CLF', 'SPAN', 'LEXICON', 'LLM_PROMPT', 'SEND_REQUEST', 'SEND_TO_SFTP'];
    for (const [i, type] of types.entries()) {
      await page.getByTestId('graph-add-node').click();
      await page.locator(`.graph-header [data-testid="node-type-option"][data-type="${type}"]`).click();
      await page.getByTestId('add-node-modal').waitFor();
      await page.getByTestId('add-node-name').fill(`Added ${i + 1}`);
      await page.getByTestId('add-node-submit').click();
      await node(`Added ${i + 1}`).waitFor();
    }
    expect(await settledCount(page.getByTestId('graph-node'), 10)).toBe(10);
    // The view is fitted once the last node is in: every card inside the canvas, none under another.
    const canvas = await box(page.getByTestId('graph-canvas'));
    const minimap = page.locator('.react-flow__minimap');
    await minimap.waitFor();
    let boxes: Box[];
    const until = Date.now() + 15000;
    for (;;) {
      boxes = [];
      for (const card of await page.getByTestId('graph-node').all()) boxes.push(await box(card));
      const inside = boxes.every(
        (b) =>
          b.x >= canvas.x &&
          b.y >= canvas.y &&
          b.x + b.width <= canvas.x + canvas.width &&
          b.y + b.height <= canvas.y + canvas.height,
      );
      if (inside || Date.now() > until) break;
      await new Promise((r) => setTimeout(r, 200));
    }
    for (const b of boxes) {
      expect(b.x).toBeGreaterThanOrEqual(canvas.x);
      expect(b.y).toBeGreaterThanOrEqual(canvas.y);
      expect(b.x + b.width).toBeLessThanOrEqual(canvas.x + canvas.width);
      expect(b.y + b.height).toBeLessThanOrEqual(canvas.y + canvas.height);
    }
    for (let i = 0; i < boxes.length; i++)
      for (let j = i + 1; j < boxes.length; j++) expect(intersects(boxes[i], boxes[j])).toBe(false);
    const map = await box(minimap);
    expect(map.width).toBeLessThanOrEqual(160);
    for (const b of boxes) expect(intersects(b, map)).toBe(false);
    await shot(page, '17-graph-added-nodes');

    // The minimap can be hidden and shown again.
    await page.getByTestId('minimap-toggle').click();
    expect(await settledCount(minimap, 0)).toBe(0);
    await page.getByTestId('minimap-toggle').click();
    await minimap.waitFor();
  });

  it('is usable from the keyboard and names edges by their nodes', async () => {
    await openGraph();
    const edge = page.locator('.react-flow__edge').first();
    // A straight edge has no height: attached is all that can be waited for.
    await edge.waitFor({ state: 'attached' });
    expect(await edge.getAttribute('aria-label')).toBe('Edge from Upload to Parser');

    // Tab from the header's menu button until a node has the focus.
    await page.getByTestId('graph-add-node').focus();
    let focused = '';
    for (let i = 0; i < 40; i++) {
      await page.keyboard.press('Tab');
      focused = await page.evaluate<string>(`(() => {
        const el = document.activeElement;
        return el && el.classList.contains('react-flow__node') ? el.getAttribute('aria-label') || '?' : '';
      })()`);
      if (focused.endsWith(': Mail B')) break;
    }
    expect(focused).toBe('Send mail: Mail B');
    await page.keyboard.press('Enter');
    await (await panelOf('Mail B')).waitFor();
    expect(await page.evaluate(`!!document.activeElement.closest('[data-testid="graph-side"]')`)).toBe(true);
    await page.keyboard.press('Escape');
    await panel().waitFor({ state: 'detached' });
    expect(await page.evaluate(`document.activeElement.getAttribute('aria-label')`)).toBe(
      'Send mail: Mail B',
    );
    // Space opens it as well.
    await page.keyboard.press(' ');
    await (await panelOf('Mail B')).waitFor();
    await page.keyboard.press('Escape');
    await panel().waitFor({ state: 'detached' });
  });

  it('shows node type names whole', async () => {
    await api(token, '/api/nodes', {
      method: 'POST',
      body: JSON.stringify({ processId, activityType: 'SEND_TO_GOOGLE_DRIVE', name: 'Drive out' }),
    });
    await openGraph();
    await node('Drive out').waitFor();
    for (const label of await page.getByTestId('graph-node-type').all()) {
      type Measured = {
        scrollHeight: number;
        clientHeight: number;
        scrollWidth: number;
        clientWidth: number;
        innerText: string;
        getAttribute(name: string): string | null;
      };
      const { cut, title, text } = await label.evaluate((el: Measured) => ({
        cut: el.scrollHeight > el.clientHeight + 1 || el.scrollWidth > el.clientWidth + 1,
        title: el.getAttribute('title'),
        text: el.innerText,
      }));
      expect({ text, cut }).toEqual({ text: title, cut: false });
    }
    expect(await node('Drive out').getByTestId('graph-node-type').innerText()).toBe('Send to cloud drive');
  });

  it.each([
    [1280, 800],
    [1920, 1080],
    [390, 844],
  ])('has nothing sticking out sideways at %i px, graph and panel', async (width, height) => {
    await page.setViewportSize({ width, height });
    await openGraph();
    expect(await horizontalOverflow(page)).toEqual([]);
    await node('Mail A').click();
    await panel().getByTestId('mail-subject').waitFor();
    expect(await horizontalOverflow(page)).toEqual([]);
    await page.getByTestId('node-panel-close').click();
    await panel().waitFor({ state: 'detached' });
    await page.setViewportSize({ width: 1440, height: 900 });
  });
});
