/**
 * Issue 12 section 1, relations in a real browser: a process Upload -> Entities (SPAN, handles relations) with
 * the tag types Person, Place and Org and the relation types "lives in" (Person -> Place), "works at" and
 * "employed by" (Person -> Org, priorities medium and highest). A WRITE user starts the step, then:
 * - selects a tag and Alt+clicks a second one: one candidate goes into the draft at once (a dashed arc over
 *   the text), two open the relation menu (highest priority first), none shows 'No relations for these tags'
 *   ('Brak relacji dla tagów' in Polish);
 * - Create is enabled only when the API validates the draft; a disconnected draft shows the translated
 *   message above the buttons; the saved graph is drawn as labelled arcs;
 * - a click on an arc's label changes the relation's type through an Edit of its graph;
 * - deleting a related tag opens the 'cannot remove tag' modal, which leads to the graph;
 * - 'Highlight tags without relation' outlines the unrelated tags;
 * - removing a relation, the only relation of a graph, and a graph each ask for confirmation;
 * - a READ user sees the arcs and the panel with the controls disabled.
 * Screenshots go to tests/artifacts/.
 */
import crypto from 'node:crypto';
import knexFactory, { type Knex } from 'knex';
import type { Browser, BrowserContext, Page } from 'playwright-core';
import { eventuallyMatches } from '../support/eventually';
import { buildUser, type BuiltUser } from '../support/harness';
import { buildRelationsWorld, RELATIONS_TEXT, startWorking, type GraphView } from './relations-world';
import { api, BASE_URL, launch, shot, signedInPage } from './support';

interface StateView {
  steps: { id: number; status: string; nodeId: number }[];
}

const TEXT = RELATIONS_TEXT;

describe('relations in Chromium', () => {
  let knex: Knex;
  let browser: Browser;
  let token: string;
  let processId: number;
  let documentId: number;
  let writer: BuiltUser;
  let reader: BuiltUser;
  let page: Page;
  const contexts: BrowserContext[] = [];
  const suffix = crypto.randomBytes(3).toString('hex');
  const ids = { span: 0, person: 0, place: 0, org: 0, livesIn: 0, worksAt: 0, employedBy: 0 };
  const tag: Record<'anna' | 'warsaw' | 'acme' | 'jan' | 'krakow' | 'nobody', number> = {
    anna: 0,
    warsaw: 0,
    acme: 0,
    jan: 0,
    krakow: 0,
    nobody: 0,
  };

  const eventually = eventuallyMatches;
  const workspaceUrl = () => `${BASE_URL}/entity/process/${processId}/document/${documentId}`;
  const graphs = () => api<GraphView[]>(token, `/api/ner-tag-relation-graphs?documentId=${documentId}`);
  const segment = (p: Page, tagId: number) => p.locator(`[data-tag-start~="${tagId}"]`).first();
  /** Selects a tag (click) and Alt+clicks a second one. */
  async function link(fromId: number, toId: number) {
    await segment(page, fromId).click();
    await page.locator(`[data-testid="selected-tag"][data-tag-id="${fromId}"]`).waitFor();
    await segment(page, toId).click({ modifiers: ['Alt'] });
  }
  const arcs = (p: Page) => p.getByTestId('relation-arc');
  const validation = () => page.getByTestId('relation-validation');

  beforeAll(async () => {
    knex = knexFactory({ client: 'pg', connection: process.env.DATABASE_URL, pool: { min: 0, max: 2 } });
    const world = await buildRelationsWorld(knex, {
      processName: `Relations E2E ${suffix}`,
      filename: `relations-${suffix}.txt`,
      text: TEXT,
    });
    ({ token, processId, documentId } = world);
    Object.assign(ids, world.ids);
    Object.assign(tag, world.tag);
    writer = await buildUser(knex, {
      authorities: [{ componentId: processId, type: 'PROCESS', mode: 'WRITE' }],
    });
    reader = await buildUser(knex, {
      authorities: [{ componentId: processId, type: 'PROCESS', mode: 'READ' }],
    });
    browser = await launch();
    page = await signedInPage(browser, contexts, writer);
  });

  afterAll(async () => {
    for (const c of contexts) await c.close().catch(() => undefined);
    await browser?.close();
    await knex?.destroy();
  });

  it('adds the only candidate at once, opens the menu for several, and creates the graph', async () => {
    await page.goto(workspaceUrl());
    await startWorking(page);

    // Person -> Place: "lives in" only, straight into a new graph's draft, drawn dashed
    await link(tag.anna, tag.warsaw);
    await page.locator('[data-testid="relation-draft"][data-graph-id=""]').waitFor();
    expect(await page.getByTestId('draft-relation').count()).toBe(1);
    expect(await page.getByTestId('relation-menu').count()).toBe(0);
    const pending = page.locator(
      `[data-testid="relation-arc"][data-from="${tag.anna}"][data-to="${tag.warsaw}"]`,
    );
    await pending.waitFor();
    expect(await pending.getAttribute('data-pending')).toBe('true');
    expect(await pending.getByTestId('relation-arc-label').textContent()).toBe('lives in');
    await page.locator('[data-testid="relation-validation"][data-valid="true"]').waitFor();
    expect(await page.getByTestId('relation-create').isEnabled()).toBe(true);

    // Person -> Org: two candidates, the highest priority first
    await link(tag.anna, tag.acme);
    const menu = page.getByTestId('relation-menu');
    await menu.waitFor();
    expect(await menu.getByTestId('relation-option').allTextContents()).toEqual([
      'employed byhighest',
      'works atmedium',
    ]);
    await shot(page, 'relations-01-menu');
    await menu.getByTestId('relation-option').filter({ hasText: 'works at' }).click();
    await menu.waitFor({ state: 'detached' });
    await eventually(
      () => page.getByTestId('draft-relation').count(),
      (n) => n === 2,
      'two relations in the draft',
    );
    await page.locator('[data-testid="relation-validation"][data-valid="true"]').waitFor();
    await page.getByTestId('relation-create').click();
    await page.getByTestId('relation-draft').waitFor({ state: 'detached' });
    const saved = await eventually(graphs, (g) => g.length === 1, 'the graph is saved');
    expect(saved[0].relations.map((r) => [r.fromId, r.toId, r.relationTypeId])).toEqual([
      [tag.anna, tag.warsaw, ids.livesIn],
      [tag.anna, tag.acme, ids.worksAt],
    ]);
    await page.locator('[data-testid="relation-arc"][data-pending="false"]').nth(1).waitFor();
    expect(await arcs(page).count()).toBe(2);
    expect(await page.getByTestId('relation-row').count()).toBe(2);
    await shot(page, 'relations-02-graph');
  });

  it('shows why a draft is invalid above the buttons and keeps Create disabled', async () => {
    // Jan -> Krakow starts a new graph; Anna's tags are in the saved graph, but the open draft takes the
    // next link too: two unconnected relations
    await link(tag.jan, tag.krakow);
    await page.locator('[data-testid="relation-draft"][data-graph-id=""]').waitFor();
    await link(tag.nobody, tag.warsaw);
    await page.locator('[data-testid="relation-validation"][data-valid="false"]').waitFor();
    expect(await validation().textContent()).toBe('The relations do not form one connected graph.');
    expect(await page.getByTestId('relation-create').isDisabled()).toBe(true);
    await shot(page, 'relations-03-invalid');
    await page.getByTestId('draft-relation-remove').nth(1).click();
    await page.locator('[data-testid="relation-validation"][data-valid="true"]').waitFor();
    await page.getByTestId('relation-create').click();
    await eventually(graphs, (g) => g.length === 2, 'the second graph is saved');

    // no candidate: Place -> Person
    await link(tag.krakow, tag.jan);
    await page.getByTestId('relation-menu-empty').waitFor();
    expect(await page.getByTestId('relation-menu-empty').textContent()).toContain(
      'No relations for these tags',
    );
    await page.keyboard.press('Escape');
    await page.getByTestId('relation-menu').waitFor({ state: 'detached' });
  });

  it('changes a relation type from its arc through an Edit of the graph', async () => {
    const label = page
      .locator(`[data-testid="relation-arc"][data-from="${tag.anna}"][data-to="${tag.acme}"]`)
      .getByTestId('relation-arc-label');
    await label.click();
    const menu = page.getByTestId('relation-menu');
    await menu.waitFor();
    await menu.getByTestId('relation-option').filter({ hasText: 'employed by' }).click();
    await page.getByTestId('relation-edit').waitFor();
    await page.locator('[data-testid="relation-validation"][data-valid="true"]').waitFor();
    await page.getByTestId('relation-edit').click();
    await eventually(
      graphs,
      (g) =>
        g.some((x) => x.relations.some((r) => r.toId === tag.acme && r.relationTypeId === ids.employedBy)),
      'the type is changed',
    );
    await page
      .locator(
        `[data-testid="relation-arc"][data-from="${tag.anna}"][data-to="${tag.acme}"][data-type="${ids.employedBy}"]`,
      )
      .waitFor();
  });

  it('refuses to delete a related tag with the cannot-remove-tag modal, which leads to the graph', async () => {
    await segment(page, tag.acme).click();
    await page.locator(`[data-testid="selected-tag"][data-tag-id="${tag.acme}"]`).waitFor();
    await page.keyboard.press('Delete');
    const modal = page.getByTestId('cannot-remove-tag');
    await modal.waitFor();
    expect(await modal.textContent()).toContain('Cannot remove tag');
    await shot(page, 'relations-04-cannot-remove');
    await page.getByTestId('cannot-remove-tag-graph').click();
    await modal.waitFor({ state: 'detached' });
    await page.locator('[data-testid="relation-graph"].is-focused').waitFor();
    const still = await api<{ id: number }[]>(token, `/api/ner-tags?documentId=${documentId}`);
    expect(still.some((t) => t.id === tag.acme)).toBe(true);
  });

  it('highlights the tags without relation on demand', async () => {
    expect(await page.getByTestId('unrelated-outline').count()).toBe(0);
    await page.getByTestId('highlight-unrelated').check();
    // "Nobody" is the only tag without relation
    await eventually(
      () => page.getByTestId('unrelated-outline').count(),
      (n) => n === 1,
      'one tag outlined',
    );
    await shot(page, 'relations-05-highlight');
    await page.getByTestId('highlight-unrelated').uncheck();
    await eventually(
      () => page.getByTestId('unrelated-outline').count(),
      (n) => n === 0,
      'no outline',
    );
  });

  it('speaks Polish: the empty relation menu and the header toggle', async () => {
    await page.getByTestId('language-menu').click();
    await page.getByTestId('language-pl').click();
    await page.locator('html[lang="pl"]').waitFor({ state: 'attached' });
    expect(await page.locator('label[for="ws-highlight-unrelated"]').textContent()).toBe(
      'Podświetl tagi bez relacji',
    );
    await link(tag.krakow, tag.jan);
    await page.getByTestId('relation-menu-empty').waitFor();
    expect(await page.getByTestId('relation-menu-empty').textContent()).toContain('Brak relacji dla tagów');
    await page.keyboard.press('Escape');
    await page.getByTestId('language-menu').click();
    await page.getByTestId('language-en').click();
    await page.locator('html[lang="en"]').waitFor({ state: 'attached' });
  });

  it('searches the relation list by type or tag text', async () => {
    expect(await page.getByTestId('relation-row').count()).toBe(3);
    await page.getByTestId('relation-search').fill('KRAK');
    await eventually(
      () => page.getByTestId('relation-row').allTextContents(),
      (rows) => rows.length === 1 && rows[0].includes('Krakow'),
      'one row matches',
    );
    await page.getByTestId('relation-search').fill('employed');
    await eventually(
      () => page.getByTestId('relation-row').allTextContents(),
      (rows) => rows.length === 1 && rows[0].includes('Acme'),
      'one row matches',
    );
    await page.getByTestId('relation-search').fill('');
    await eventually(
      () => page.getByTestId('relation-row').count(),
      (n) => n === 3,
      'all rows again',
    );
  });

  it('lets a READ user see the relations with the controls disabled', async () => {
    const readerPage = await signedInPage(browser, contexts, reader);
    await readerPage.goto(workspaceUrl());
    await readerPage.locator('[data-testid="document-text"][data-tag-count="6"]').waitFor();
    await readerPage.getByTestId('relation-arc').nth(2).waitFor();
    expect(await readerPage.getByTestId('relation-graph').count()).toBe(2);
    expect(await readerPage.getByTestId('relation-graph-delete').first().isDisabled()).toBe(true);
    expect(await readerPage.getByTestId('relation-remove').first().isDisabled()).toBe(true);
    await readerPage.close();
  });

  it('asks before removing a relation, the only relation of a graph (the graph goes too) and a graph', async () => {
    const first = page.locator('[data-testid="relation-graph"]').first();
    // a relation of the two-relation graph
    await first.getByTestId('relation-remove').first().click();
    await page.locator('[data-testid="relation-confirm-text"][data-kind="relation"]').waitFor();
    await page.getByTestId('relation-confirm-confirm').click();
    await eventually(graphs, (g) => g.length === 2 && g[0].relations.length === 1, 'one relation left');
    // the only relation left: the whole graph goes
    await first.getByTestId('relation-row').nth(0).waitFor();
    await eventually(
      () => first.getByTestId('relation-row').count(),
      (n) => n === 1,
      'the panel shows one relation',
    );
    await first.getByTestId('relation-remove').click();
    const text = page.locator('[data-testid="relation-confirm-text"][data-kind="lastRelation"]');
    await text.waitFor();
    expect(await text.textContent()).toContain('the whole graph will be removed');
    await page.getByTestId('relation-confirm-confirm').click();
    await eventually(graphs, (g) => g.length === 1, 'that graph is gone');
    // the page refetches after the API answered: wait for the panel to show one graph
    await eventually(
      () => page.getByTestId('relation-graph').count(),
      (n) => n === 1,
      'the panel shows one graph',
    );
    // a whole graph
    await page.getByTestId('relation-graph-delete').click();
    await page.locator('[data-testid="relation-confirm-text"][data-kind="graph"]').waitFor();
    await page.getByTestId('relation-confirm-confirm').click();
    await eventually(graphs, (g) => g.length === 0, 'no graph left');
    await page.getByTestId('relations-panel').waitFor({ state: 'detached' });
    expect(await arcs(page).count()).toBe(0);
    // without relations, the tag can be deleted
    await segment(page, tag.acme).click();
    await page.keyboard.press('Delete');
    await page.locator('[data-testid="document-text"][data-tag-count="5"]').waitFor();

    // a relation this page does not know of yet (written meanwhile): the API refuses, the modal shows it
    const stepId = (await api<StateView>(token, `/api/v2/document/${documentId}/state`)).steps.find(
      (x) => x.nodeId === ids.span,
    )!.id;
    const [g] = await knex('ner_tag_relation_graphs')
      .insert({ document_id: documentId, step_id: stepId, node_id: ids.span })
      .returning('id');
    await knex('ner_tag_relations').insert({
      graph_id: g.id,
      from_id: tag.jan,
      to_id: tag.krakow,
      relation_type_id: ids.livesIn,
    });
    await segment(page, tag.jan).click();
    await page.locator(`[data-testid="selected-tag"][data-tag-id="${tag.jan}"]`).waitFor();
    await page.keyboard.press('Delete');
    await page.getByTestId('cannot-remove-tag').waitFor();
    await page.getByTestId('cannot-remove-tag-graph').click();
    await page.locator(`[data-testid="relation-graph"][data-graph-id="${g.id}"]`).waitFor();
    expect(await page.locator('[data-testid="document-text"][data-tag-count="5"]').count()).toBe(1);
  });

  it('raises a RELATION issue on an unsaved candidate from its row in the draft', async () => {
    await link(tag.nobody, tag.krakow);
    // Krakow is in a saved graph: the draft edits that graph and holds its relation too
    const row = page.getByTestId('draft-relation').filter({ hasText: 'Nobody' });
    await row.waitFor();
    await row.getByTestId('relation-report-issue').click();
    await page.getByTestId('issue-form').waitFor();
    expect(await page.getByTestId('issue-form-subject').textContent()).toBe('“Nobody → Krakow (lives in)”');
    await page.getByTestId('issue-form-text').fill('Not sure about this one');
    await page.getByTestId('issue-form-submit').click();
    await page.getByTestId('issue-form').waitFor({ state: 'detached' });
    await page.getByTestId('issue-detail').waitFor();
    const issues = await api<
      {
        type: string;
        text: string;
        relation: { fromId: number; toId: number; relationTypeId: number } | null;
      }[]
    >(token, `/api/document/${documentId}/issues`);
    expect(issues.filter((i) => i.type === 'RELATION')).toEqual([
      expect.objectContaining({
        text: 'Not sure about this one',
        relation: expect.objectContaining({
          fromId: tag.nobody,
          toId: tag.krakow,
          relationTypeId: ids.livesIn,
        }),
      }),
    ]);
    // the candidate is still unsaved
    expect(await row.count()).toBe(1);
    await page.getByTestId('relation-cancel').click();
    await page.getByTestId('relation-draft').waitFor({ state: 'detached' });
  });
});
