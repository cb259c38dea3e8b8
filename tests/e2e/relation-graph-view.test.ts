/**
 * Issue 12 section 1, the relation graph view in a real browser, in the world of ./relations-world.ts (Person,
 * Place, Org; "lives in" Person -> Place, "works at" Person -> Org). A WRITE user starts the step and saves
 * two graphs through the API, then:
 * - the relations panel's Graph toggle shows the first graph above the list: its tags as cards (type and
 *   text), its relations as arrows labelled by type; the chooser shows the other graph; a card selects its
 *   tag in the text, a label marks its relation in the list;
 * - an unsaved candidate shows in the graph it edits, dashed; a drag from a card to another links the tags;
 * - full screen shows the graph beside the list;
 * - the 800x600 window shows the same graph, list and buttons; a relation removed there (after the
 *   confirmation) is gone from the workspace that opened it, and a card chosen there selects the tag in the
 *   workspace; 'Failed to open new window!' when the browser opens none;
 * - the 'cannot remove tag' modal opens the graph view on the tag's graph; the view speaks Polish.
 * Screenshots (1280 wide, and the 800x600 window) go to tests/artifacts/.
 */
import crypto from 'node:crypto';
import knexFactory, { type Knex } from 'knex';
import type { Browser, BrowserContext, Page } from 'playwright-core';
import { eventuallyMatches } from '../support/eventually';
import { buildUser, type BuiltUser } from '../support/harness';
import {
  buildRelationsWorld,
  RELATIONS_TEXT,
  startWorking,
  type GraphView,
  type RelationsWorld,
} from './relations-world';
import {
  api,
  BASE_URL,
  chooseLanguage,
  launch,
  shot,
  signedInPage,
  tokenFor,
  watchWindowOpen,
  clickOpening800x600,
} from './support';

const TEXT = RELATIONS_TEXT;

describe('the relation graph view in Chromium', () => {
  let knex: Knex;
  let browser: Browser;
  let adminToken: string;
  let writerToken: string;
  let processId: number;
  let documentId: number;
  let stepId: number;
  let writer: BuiltUser;
  let page: Page;
  const contexts: BrowserContext[] = [];
  const suffix = crypto.randomBytes(3).toString('hex');
  let ids: RelationsWorld['ids'];
  let tag: RelationsWorld['tag'];
  const graph = { first: 0, second: 0 };

  const eventually = eventuallyMatches;
  const workspaceUrl = () => `${BASE_URL}/entity/process/${processId}/document/${documentId}`;
  const graphs = () => api<GraphView[]>(adminToken, `/api/ner-tag-relation-graphs?documentId=${documentId}`);
  const view = (p: Page) => p.getByTestId('relation-graph-view');
  const nodes = (p: Page) => view(p).getByTestId('relation-graph-node');
  const edges = (p: Page) => view(p).getByTestId('relation-graph-edge');
  const labels = async (p: Page) => (await edges(p).allTextContents()).sort();
  const cardTexts = async (p: Page) => (await nodes(p).allTextContents()).sort();

  beforeAll(async () => {
    knex = knexFactory({ client: 'pg', connection: process.env.DATABASE_URL, pool: { min: 0, max: 2 } });
    const world = await buildRelationsWorld(knex, {
      processName: `Relation graph view E2E ${suffix}`,
      filename: `relation-graph-${suffix}.txt`,
      text: TEXT,
    });
    ({ token: adminToken, processId, documentId, stepId, ids, tag } = world);
    writer = await buildUser(knex, {
      authorities: [{ componentId: processId, type: 'PROCESS', mode: 'WRITE' }],
    });
    writerToken = await tokenFor(writer.login, writer.password);
    const post = async (path: string, body: Record<string, unknown>, token: string) =>
      (await api<{ id: number }>(token, path, { method: 'POST', body: JSON.stringify(body) })).id;
    browser = await launch();
    page = await signedInPage(browser, contexts, writer);
    await page.setViewportSize({ width: 1280, height: 800 });

    // The writer starts the step in the workspace, then saves two graphs through the API.
    await page.goto(workspaceUrl());
    await startWorking(page);
    const rel = (fromId: number, toId: number, relationTypeId: number) => ({ fromId, toId, relationTypeId });
    graph.first = await post(
      '/api/ner-tag-relation-graphs',
      {
        documentId,
        relations: [rel(tag.anna, tag.warsaw, ids.livesIn), rel(tag.anna, tag.acme, ids.worksAt)],
      },
      writerToken,
    );
    graph.second = await post(
      '/api/ner-tag-relation-graphs',
      { documentId, relations: [rel(tag.jan, tag.krakow, ids.livesIn)] },
      writerToken,
    );
    await page.reload();
    await page.locator('[data-testid="document-text"][data-tag-count="6"]').waitFor();
    await page.getByTestId('relation-row').nth(2).waitFor();
  });

  afterAll(async () => {
    for (const c of contexts) await c.close().catch(() => undefined);
    await browser?.close();
    await knex?.destroy();
  });

  it('shows the first graph above the list: tags as cards, relations as labelled arrows', async () => {
    expect(await page.getByTestId('relation-graph-view').count()).toBe(0);
    await page.getByTestId('relation-graph-toggle').click();
    await view(page).waitFor();
    expect(await view(page).getAttribute('data-choice')).toBe(String(graph.first));
    await eventually(
      () => nodes(page).count(),
      (n) => n === 3,
      'three tags drawn',
    );
    expect(await cardTexts(page)).toEqual(['OrgAcme', 'PersonAnna Kowalska', 'PlaceWarsaw']);
    await eventually(
      () => labels(page),
      (l) => l.join() === 'lives in,works at',
      'two labelled relations',
    );
    const livesIn = edges(page).filter({ hasText: 'lives in' });
    expect(await livesIn.getAttribute('data-from')).toBe(String(tag.anna));
    expect(await livesIn.getAttribute('data-to')).toBe(String(tag.warsaw));
    expect(await livesIn.getAttribute('data-pending')).toBe('false');
    // each relation is drawn as a path with an arrow
    expect(await view(page).locator('.react-flow__edge path[marker-end]').count()).toBe(2);
    // left to right: Anna (the source) stands left of Warsaw and Acme
    const box = async (id: number) =>
      (await view(page).locator(`[data-testid="relation-graph-node"][data-tag-id="${id}"]`).boundingBox())!;
    expect((await box(tag.anna)).x + (await box(tag.anna)).width).toBeLessThan((await box(tag.warsaw)).x);
    await shot(page, 'relation-graph-01-embedded');

    // the chooser shows the other graph
    await view(page).getByTestId('relation-graph-choose').selectOption(String(graph.second));
    await eventually(
      () => cardTexts(page),
      (c) => c.join() === 'PersonJan Nowak,PlaceKrakow',
      'graph 2',
    );
    expect(await labels(page)).toEqual(['lives in']);

    // a card selects its tag in the text; a label marks its relation in the list
    await nodes(page).filter({ hasText: 'Jan Nowak' }).click();
    await page.locator(`[data-testid="selected-tag"][data-tag-id="${tag.jan}"]`).waitFor();
    await view(page)
      .locator(`[data-testid="relation-graph-node"][data-tag-id="${tag.jan}"][aria-pressed="true"]`)
      .waitFor();
    await edges(page).first().click();
    const [jan] = (await graphs()).filter((g) => g.id === graph.second);
    await page
      .locator(`[data-testid="relation-row"][data-relation-id="${jan.relations[0].id}"].is-selected`)
      .waitFor();
  });

  it('reaches the cards and labels with the keyboard', async () => {
    const card = view(page).locator(`[data-testid="relation-graph-node"][data-tag-id="${tag.krakow}"]`);
    await card.focus();
    await page.keyboard.press('Enter');
    await page.locator(`[data-testid="selected-tag"][data-tag-id="${tag.krakow}"]`).waitFor();
    const focused = () =>
      page.evaluate(`(() => {
        const el = document.activeElement;
        return [el?.getAttribute('data-testid'), el?.getAttribute('data-tag-id') ?? el?.getAttribute('data-key')];
      })()`) as Promise<[string | null, string | null]>;
    await page.keyboard.press('Shift+Tab');
    expect(await focused()).toEqual(['relation-graph-node', String(tag.jan)]);
    await page.keyboard.press('Shift+Tab');
    const [testId, key] = await focused();
    expect(testId).toBe('relation-graph-edge');
    await page.keyboard.press('Enter');
    await page.locator(`[data-testid="relation-row"][data-arc-key="${key}"].is-selected`).waitFor();
  });

  it('shows an unsaved candidate dashed in the graph it edits', async () => {
    // Nobody (Person) -> Krakow (Place): "lives in", the only candidate, into an edit of graph 2
    await page.locator(`[data-tag-start~="${tag.nobody}"]`).first().click();
    await page.locator(`[data-testid="selected-tag"][data-tag-id="${tag.nobody}"]`).waitFor();
    await page
      .locator(`[data-tag-start~="${tag.krakow}"]`)
      .first()
      .click({ modifiers: ['Alt'] });
    await page.locator(`[data-testid="relation-draft"][data-graph-id="${graph.second}"]`).waitFor();
    expect(await view(page).getAttribute('data-choice')).toBe(String(graph.second));
    const pending = view(page).locator(
      `[data-testid="relation-graph-edge"][data-from="${tag.nobody}"][data-to="${tag.krakow}"]`,
    );
    await pending.waitFor();
    expect(await pending.getAttribute('data-pending')).toBe('true');
    expect(await view(page).locator('.react-flow__edge path[style*="dasharray"]').count()).toBe(1);
    await shot(page, 'relation-graph-02-draft');
    await page.getByTestId('relation-cancel').click();
    await page.getByTestId('relation-draft').waitFor({ state: 'detached' });
    await eventually(
      () => edges(page).count(),
      (n) => n === 1,
      'the candidate is gone',
    );
  });

  it('links two tags by a drag between their cards (the relation menu, as Alt+click in the text)', async () => {
    // Krakow (Place) -> Jan Nowak (Person): no relation type fits, the menu says so
    const card = (id: number) => view(page).locator(`.react-flow__node[data-id="${id}"]`);
    const from = (await card(tag.krakow).locator('.react-flow__handle.source').boundingBox())!;
    const to = (await card(tag.jan).locator('.react-flow__handle.target').boundingBox())!;
    await page.mouse.move(from.x + from.width / 2, from.y + from.height / 2);
    await page.mouse.down();
    await page.mouse.move((from.x + to.x) / 2, (from.y + to.y) / 2, { steps: 5 });
    await page.mouse.move(to.x + to.width / 2, to.y + to.height / 2, { steps: 5 });
    await page.mouse.up();
    await page.getByTestId('relation-menu-empty').waitFor();
    await page.keyboard.press('Escape');
    await page.getByTestId('relation-menu').waitFor({ state: 'detached' });
    expect(await page.getByTestId('relation-draft').count()).toBe(0);
  });

  it('shows the graph full screen beside the list', async () => {
    await page.getByTestId('relation-graph-full').click();
    const panel = page.getByTestId('relations-panel');
    await page.locator('[data-testid="relations-panel"][data-full="true"]').waitFor();
    const area = (await panel.boundingBox())!;
    expect(area.width).toBeGreaterThanOrEqual(1270);
    const canvas = (await view(page).getByTestId('relation-graph-canvas').boundingBox())!;
    expect(canvas.height).toBeGreaterThan(500);
    await shot(page, 'relation-graph-03-full-screen');
    await page.getByTestId('relation-graph-exit-full').click();
    await page.locator('[data-testid="relations-panel"][data-full="false"]').waitFor();
  });

  it("says 'Failed to open new window!' when the browser opens none", async () => {
    const windows = await watchWindowOpen(page);
    await windows.blocked(true);
    await page.getByTestId('relation-graph-window').click();
    await page.getByText('Failed to open new window!').waitFor();
    await windows.blocked(false);
  });

  it('opens the graph in an 800x600 window, edits there, and the workspace follows', async () => {
    await view(page).getByTestId('relation-graph-choose').selectOption(String(graph.first));
    await eventually(
      () => nodes(page).count(),
      (n) => n === 3,
      'graph 1 again',
    );
    const popup = await clickOpening800x600(page, page.getByTestId('relation-graph-window'));
    await popup.setViewportSize({ width: 800, height: 600 });
    await popup.waitForURL(
      new RegExp(
        `/entity/process/${processId}/document/${documentId}/relations\\?step=${stepId}&graph=${graph.first}$`,
      ),
    );
    await popup.getByTestId('relations-window').waitFor();
    await eventually(
      () => nodes(popup).count(),
      (n) => n === 3,
      'the window draws graph 1',
    );
    await eventually(
      () => labels(popup),
      (l) => l.join() === 'lives in,works at',
      'with its labels',
    );
    expect(await popup.getByTestId('relation-row').count()).toBe(3);
    await popup.getByTestId('relation-search').waitFor();
    await shot(popup, 'relation-graph-04-window');

    // a card chosen in the window selects the tag in the workspace
    await nodes(popup).filter({ hasText: 'Acme' }).click();
    await page.locator(`[data-testid="selected-tag"][data-tag-id="${tag.acme}"]`).waitFor();

    // remove "works at" there, after the confirmation
    const [first] = (await graphs()).filter((g) => g.id === graph.first);
    const worksAt = first.relations.find((r) => r.relationTypeId === ids.worksAt)!;
    await popup
      .locator(`[data-testid="relation-row"][data-relation-id="${worksAt.id}"]`)
      .getByTestId('relation-remove')
      .click();
    await popup.locator('[data-testid="relation-confirm-text"][data-kind="relation"]').waitFor();
    await popup.getByTestId('relation-confirm-confirm').click();
    await eventually(
      () => labels(popup),
      (l) => l.join() === 'lives in',
      'the window drops it',
    );
    await eventually(
      async () => (await graphs()).find((g) => g.id === graph.first)!.relations.length,
      (n) => n === 1,
      'saved',
    );
    // the workspace that opened the window follows without a reload
    await eventually(
      () => labels(page),
      (l) => l.join() === 'lives in',
      'the workspace graph follows',
    );
    await page
      .locator(`[data-testid="relation-row"][data-relation-id="${worksAt.id}"]`)
      .waitFor({ state: 'detached' });
    expect(await page.getByTestId('relation-row').count()).toBe(2);
    await popup.close();
  });

  it("opens the graph view on the tag's graph from the 'cannot remove tag' modal", async () => {
    await page.getByTestId('relation-graph-toggle').click();
    await page.locator('[data-testid="relations-panel"][data-graph-shown="false"]').waitFor();
    await page.locator(`[data-tag-start~="${tag.krakow}"]`).first().click();
    await page.locator(`[data-testid="selected-tag"][data-tag-id="${tag.krakow}"]`).waitFor();
    await page.getByTestId('labeling-delete').click();
    await page.getByTestId('cannot-remove-tag').waitFor();
    await page.getByTestId('cannot-remove-tag-graph').click();
    await view(page).waitFor();
    expect(await view(page).getAttribute('data-choice')).toBe(String(graph.second));
    await eventually(
      () => cardTexts(page),
      (c) => c.join() === 'PersonJan Nowak,PlaceKrakow',
      'graph 2 shown',
    );
  });

  it('speaks Polish', async () => {
    await chooseLanguage(page, 'pl');
    expect((await page.getByTestId('relation-graph-toggle').textContent())?.trim()).toBe('Graf');
    expect(await page.getByTestId('relation-graph-full').getAttribute('title')).toBe('Pełny ekran');
    expect(await page.getByTestId('relation-graph-window').getAttribute('title')).toBe(
      'Otwórz graf w osobnym oknie',
    );
    await chooseLanguage(page, 'en');
  });
});
