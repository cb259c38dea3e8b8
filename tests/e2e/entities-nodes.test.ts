/**
 * The Entities menu's node list (/entity/node) and the debug panel (Ctrl+H / Ctrl+Q), issue 30 section 2, in
 * Chromium. A user who administers one process and reads another sees both processes' nodes by type; the
 * names of the administered one link to the node's panel in the flow graph, the others are named without a
 * link; the filter narrows the list. The debug panel opens with Ctrl+H, moves with Ctrl+Q and closes with
 * Ctrl+H. Screenshots go to tests/artifacts/ (94-...).
 */
import crypto from 'node:crypto';
import type { Page } from 'playwright-core';
import { buildUser } from '../support/harness';
import { addNode, BASE_URL, browserSuite, createProcess, shot, signedInPage, tokenFor } from './support';

describe('the node list and the debug panel', () => {
  const suite = browserSuite();
  const suffix = crypto.randomBytes(3).toString('hex');
  let page: Page;
  const ids = { owned: 0, read: 0, span: 0, clf: 0, otherSpan: 0 };

  beforeAll(async () => {
    const admin = await buildUser(suite.knex, { roles: ['ROLE_ADMIN', 'ROLE_USER'] });
    const token = await tokenFor(admin.login, admin.password);
    ids.owned = await createProcess(token, `Owned ${suffix}`);
    ids.read = await createProcess(token, `Read ${suffix}`);
    ids.span = await addNode(token, ids.owned, { name: 'Entities', activityType: 'SPAN' });
    ids.clf = await addNode(token, ids.owned, { name: 'Sort', activityType: 'CLF' });
    ids.otherSpan = await addNode(token, ids.read, { name: 'People', activityType: 'SPAN' });
    const user = await buildUser(suite.knex, {
      authorities: [
        { componentId: ids.owned, type: 'PROCESS', mode: 'ADMIN' },
        { componentId: ids.read, type: 'PROCESS', mode: 'READ' },
      ],
    });
    page = await signedInPage(suite.browser, suite.contexts, user);
  });

  it('lists the nodes of every process the user sees by type, linking to the panels it may open', async () => {
    await page.goto(`${BASE_URL}/entity/node`);
    await page.getByRole('heading', { name: 'Nodes', level: 1 }).waitFor();
    const owned = page.getByRole('region', { name: `Owned ${suffix}` });
    const read = page.getByRole('region', { name: `Read ${suffix}` });
    await owned.getByRole('link', { name: 'Entities' }).waitFor();
    expect(await owned.getByRole('heading', { level: 3 }).allTextContents()).toEqual([
      'HTTP upload',
      'Span',
      'Classifier',
    ]);
    expect(await owned.getByRole('link', { name: 'Sort' }).getAttribute('href')).toBe(
      `/entity/process/${ids.owned}/graph?node=${ids.clf}`,
    );
    await read.getByText('People').waitFor();
    expect(await read.getByRole('link').count()).toBe(0);
    await page.getByLabel('Filter by node or process name').fill('peop');
    await owned.waitFor({ state: 'detached' });
    await read.getByText('People').waitFor();
    await page.getByLabel('Filter by node or process name').fill(suffix);
    await owned.waitFor();
    await shot(page, '94-node-list');
    await owned.getByRole('link', { name: 'Entities' }).click();
    await page.locator(`[data-testid="node-panel"][data-node-id="${ids.span}"]`).waitFor();
    await page.getByTestId('node-panel-title').filter({ hasText: 'Entities' }).waitFor();
  });

  it('opens the debug panel with Ctrl+H, moves it with Ctrl+Q and hides it with Ctrl+H', async () => {
    await page.goto(`${BASE_URL}/entity/node`);
    await page.getByRole('heading', { name: 'Nodes', level: 1 }).waitFor();
    const panel = page.getByRole('complementary', { name: 'Debug panel' });
    expect(await panel.count()).toBe(0);
    await page.keyboard.press('Control+h');
    await panel.waitFor();
    expect(await panel.getAttribute('data-position')).toBe('bottom');
    await panel.getByText('/entity/node').waitFor();
    await panel
      .getByRole('cell', { name: /\["processes","list"\]/ })
      .first()
      .waitFor();
    await shot(page, '95-debug-panel');
    await page.keyboard.press('Control+q');
    await page.locator('[data-position="left"]').waitFor();
    await page.keyboard.press('Control+h');
    await panel.waitFor({ state: 'detached' });
  });
});
