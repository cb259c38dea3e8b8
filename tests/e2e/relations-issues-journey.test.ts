/**
 * Issue 12 "Done when": the relations and issues journey in Chromium, once in English and once in Polish
 * (each language with its own process Upload -> Entities (SPAN, handles relations), tag types Person, Place,
 * Org and relation types "lives in" (Person -> Place), "works at" and "employed by" (Person -> Org)):
 * - an annotator (process WRITE) links three tags into a graph: Anna -> Warsaw has one candidate and goes
 *   into the draft at once, Anna -> Acme has two and goes through the relation menu; while the candidates
 *   are unsaved the labelling menu's issue entry asks to save first; Create draws the arcs;
 * - a disconnected draft is refused with the translated message and Create stays disabled;
 * - deleting the related tag Acme opens the 'cannot remove tag' modal;
 * - the annotator raises a TEXT issue from the labelling menu and a RELATION issue from the relations panel;
 * - a process admin finds the document under Without replies in the issues dashboard, opens it, answers the
 *   text issue and resolves the relation issue (the automatic comment appears); the document leaves Without
 *   replies;
 * - the annotator reloads and sees the graph, both issues, the reply and the resolution, in the same language.
 * Screenshots go to tests/artifacts/.
 */
import crypto from 'node:crypto';
import knexFactory, { type Knex } from 'knex';
import type { Browser, BrowserContext, Page } from 'playwright-core';
import { eventuallyMatches as eventually } from '../support/eventually';
import { buildUser, type BuiltUser } from '../support/harness';
import { api, BASE_URL, chooseLanguage, launch, settledCount, shot, signedInPage } from './support';
import { buildRelationsWorld, startWorking, type GraphView } from './relations-world';
interface IssueView {
  id: number;
  type: string;
  title: string;
  status: string;
  text: string;
  relation: { fromId: number; toId: number; relationTypeId: number } | null;
  replies: { text: string; automatic: boolean }[];
}

/** What the test reads of the page's window (the tests' TypeScript has no DOM library). */
interface PageWindow {
  document: {
    querySelectorAll(
      s: string,
    ): ArrayLike<{ dataset: Record<string, string>; childNodes: ArrayLike<{ nodeType: number }> }>;
    createRange(): {
      setStart(n: unknown, o: number): void;
      setEnd(n: unknown, o: number): void;
      getBoundingClientRect(): { left: number; right: number; top: number; bottom: number };
    };
  };
  getSelection(): { removeAllRanges(): void };
}

const TEXT =
  'Anna Kowalska lives in Warsaw and works at Acme.\n' +
  'Jan Nowak comes from Krakow.\n' +
  'Nobody else saw the river.\n';
const at = (needle: string) => TEXT.indexOf(needle);

const STRINGS = {
  en: {
    saveFirst: 'Save your changes to raise a new issue',
    noCohesive: 'The relations do not form one connected graph.',
    cannotRemove: 'Cannot remove tag',
    withoutReplies: 'Without replies',
    resolved: 'Status changed from Active to Resolved',
    report: 'Problem with labelling',
  },
  pl: {
    saveFirst: 'Zapisz zmiany aby dodać nowe zgłoszenie',
    noCohesive: 'Relacje nie tworzą jednego spójnego grafu.',
    cannotRemove: 'Nie można usunąć tagu',
    withoutReplies: 'Bez odpowiedzi',
    resolved: 'Zmieniono status z Aktywne na Rozwiązane',
    report: 'Problem z oznaczeniem',
  },
} as const;

describe.each(['en', 'pl'] as const)('relations and issues journey in Chromium (%s)', (lang) => {
  const s = STRINGS[lang];
  let knex: Knex;
  let browser: Browser;
  let token: string;
  let processId: number;
  let documentId: number;
  let writer: BuiltUser;
  let processAdmin: BuiltUser;
  let page: Page;
  let textIssue = 0;
  let relationIssue = 0;
  const contexts: BrowserContext[] = [];
  const suffix = crypto.randomBytes(3).toString('hex');
  const ids = { span: 0, person: 0, place: 0, org: 0, livesIn: 0, worksAt: 0, employedBy: 0 };
  const tag = { anna: 0, warsaw: 0, acme: 0, jan: 0, krakow: 0, nobody: 0 };

  const workspaceUrl = () => `${BASE_URL}/entity/process/${processId}/document/${documentId}`;
  const dashboardUrl = () => `${BASE_URL}/entity/process/${processId}/dashboard/issues`;
  const graphs = () => api<GraphView[]>(token, `/api/ner-tag-relation-graphs?documentId=${documentId}`);
  const issues = () => api<IssueView[]>(token, `/api/document/${documentId}/issues`);
  const segment = (p: Page, tagId: number) => p.locator(`[data-tag-start~="${tagId}"]`).first();
  const arc = (p: Page, from: number, to: number, more = '') =>
    p.locator(`[data-testid="relation-arc"][data-from="${from}"][data-to="${to}"]${more}`);
  async function link(fromId: number, toId: number) {
    await segment(page, fromId).click();
    await page.locator(`[data-testid="selected-tag"][data-tag-id="${fromId}"]`).waitFor();
    await segment(page, toId).click({ modifiers: ['Alt'] });
  }
  /** Selects the text range [start, end) with the mouse; returns a point at its end. */
  async function mouseSelect(start: number, end: number) {
    await page.evaluate(() => (globalThis as unknown as PageWindow).getSelection().removeAllRanges());
    const box = await page.evaluate(
      ([a0, b0]) => {
        const w = globalThis as unknown as PageWindow;
        const point = (offset: number) => {
          for (const seg of Array.from(w.document.querySelectorAll('[data-s]'))) {
            const a = Number(seg.dataset.s);
            const b = Number(seg.dataset.e);
            if (offset >= a && offset <= b && !(offset === b && offset !== b0)) {
              const node = Array.from(seg.childNodes).find((c) => c.nodeType === 3);
              return { node, offset: offset - a };
            }
          }
          throw new Error(`no segment at ${offset}`);
        };
        const range = w.document.createRange();
        const from = point(a0);
        const to = point(b0);
        range.setStart(from.node, from.offset);
        range.setEnd(to.node, to.offset);
        const r = range.getBoundingClientRect();
        return { left: r.left, right: r.right, top: r.top, bottom: r.bottom };
      },
      [start, end] as const,
    );
    const y = (box.top + box.bottom) / 2;
    await page.mouse.move(box.left + 1, y);
    await page.mouse.down();
    await page.mouse.move((box.left + box.right) / 2, y, { steps: 3 });
    await page.mouse.move(box.right - 1, y, { steps: 3 });
    await page.mouse.up();
    return { x: box.right - 2, y };
  }

  beforeAll(async () => {
    knex = knexFactory({ client: 'pg', connection: process.env.DATABASE_URL, pool: { min: 0, max: 2 } });
    const world = await buildRelationsWorld(knex, {
      processName: `Journey ${lang} ${suffix}`,
      filename: `journey-${lang}-${suffix}.txt`,
      text: TEXT,
    });
    ({ token, processId, documentId } = world);
    Object.assign(ids, world.ids);
    Object.assign(tag, world.tag);
    const grant = (mode: 'WRITE' | 'ADMIN') =>
      buildUser(knex, { authorities: [{ componentId: processId, type: 'PROCESS', mode }] });
    [writer, processAdmin] = await Promise.all([grant('WRITE'), grant('ADMIN')]);
    browser = await launch();
    page = await signedInPage(browser, contexts, writer);
    await chooseLanguage(page, lang);
  });

  afterAll(async () => {
    for (const c of contexts) await c.close().catch(() => undefined);
    await browser?.close();
    await knex?.destroy();
  });

  it('links three tags into a graph: one relation at once, one through the relation menu', async () => {
    await page.goto(workspaceUrl());
    await startWorking(page);

    // one candidate: straight into the draft of a new graph
    await link(tag.anna, tag.warsaw);
    await page.locator('[data-testid="relation-draft"][data-graph-id=""]').waitFor();
    expect(await page.getByTestId('relation-menu').count()).toBe(0);
    await arc(page, tag.anna, tag.warsaw).waitFor();
    expect(await arc(page, tag.anna, tag.warsaw).getAttribute('data-pending')).toBe('true');

    // two candidates: the relation menu, highest priority first
    await link(tag.anna, tag.acme);
    const menu = page.getByTestId('relation-menu');
    await menu.waitFor();
    expect(
      await menu.getByTestId('relation-option').evaluateAll((els) => els.map((e) => e.dataset.typeId)),
    ).toEqual([String(ids.employedBy), String(ids.worksAt)]);
    await menu.locator(`[data-testid="relation-option"][data-type-id="${ids.worksAt}"]`).click();
    await menu.waitFor({ state: 'detached' });
    expect(await settledCount(page.getByTestId('draft-relation'), 2)).toBe(2);
    await page.locator('[data-testid="relation-validation"][data-valid="true"]').waitFor();

    // while the candidates are unsaved, the labelling menu's issue entry asks to save first
    const river = at('river');
    const point = await mouseSelect(river, river + 5);
    await page.mouse.click(point.x, point.y, { button: 'right' });
    await page.getByTestId('label-menu').waitFor();
    expect(await page.getByTestId('label-menu-issue').count()).toBe(0);
    expect((await page.getByTestId('label-menu-issue-unsaved').textContent())?.trim()).toBe(s.saveFirst);
    await shot(page, `journey-${lang}-01-save-first`);
    await page.keyboard.press('Escape');
    await page.getByTestId('label-menu').waitFor({ state: 'detached' });

    await page.getByTestId('relation-create').click();
    await page.getByTestId('relation-draft').waitFor({ state: 'detached' });
    const saved = await eventually(graphs, (g) => g.length === 1, 'the graph is saved');
    expect(saved[0].relations.map((r) => [r.fromId, r.toId, r.relationTypeId])).toEqual([
      [tag.anna, tag.warsaw, ids.livesIn],
      [tag.anna, tag.acme, ids.worksAt],
    ]);
    // the arcs, drawn solid with their labels
    await arc(page, tag.anna, tag.acme, '[data-pending="false"]').waitFor();
    await arc(page, tag.anna, tag.warsaw, '[data-pending="false"]').waitFor();
    expect(await arc(page, tag.anna, tag.warsaw).getByTestId('relation-arc-label').textContent()).toBe(
      'lives in',
    );
    expect(await page.getByTestId('relation-arc').count()).toBe(2);
    await shot(page, `journey-${lang}-02-graph`);
  });

  it('refuses a disconnected graph with the translated message', async () => {
    await link(tag.jan, tag.krakow);
    await page.locator('[data-testid="relation-draft"][data-graph-id=""]').waitFor();
    await link(tag.nobody, tag.warsaw);
    await page.locator('[data-testid="relation-validation"][data-valid="false"]').waitFor();
    expect(await page.getByTestId('relation-validation').textContent()).toBe(s.noCohesive);
    expect(await page.getByTestId('relation-create').isDisabled()).toBe(true);
    await shot(page, `journey-${lang}-03-disconnected`);
    await page.getByTestId('relation-cancel').click();
    await page.getByTestId('relation-draft').waitFor({ state: 'detached' });
    expect((await graphs()).length).toBe(1);
  });

  it('refuses to delete a related tag with the cannot-remove-tag modal', async () => {
    await segment(page, tag.acme).click();
    await page.locator(`[data-testid="selected-tag"][data-tag-id="${tag.acme}"]`).waitFor();
    await page.keyboard.press('Delete');
    const modal = page.getByTestId('cannot-remove-tag');
    await modal.waitFor();
    expect(await modal.textContent()).toContain(s.cannotRemove);
    await shot(page, `journey-${lang}-04-cannot-remove`);
    await page.getByTestId('cannot-remove-tag-graph').click();
    await modal.waitFor({ state: 'detached' });
    const still = await api<{ id: number }[]>(token, `/api/ner-tags?documentId=${documentId}`);
    expect(still.some((t) => t.id === tag.acme)).toBe(true);
  });

  it('raises a TEXT issue from the labelling menu and a RELATION issue from the relations panel', async () => {
    const river = at('river');
    const point = await mouseSelect(river, river + 5);
    await page.mouse.click(point.x, point.y, { button: 'right' });
    await page.getByTestId('label-menu').waitFor();
    const entry = page.getByTestId('label-menu-issue');
    expect((await entry.textContent())?.trim()).toBe(s.report);
    await entry.click();
    await page.getByTestId('issue-form').waitFor();
    expect(await page.getByTestId('issue-form-subject').textContent()).toBe('“river”');
    await page.getByTestId('issue-form-text').fill('Is a river a place?');
    await page.getByTestId('issue-form-submit').click();
    await page.getByTestId('issue-form').waitFor({ state: 'detached' });
    await page.getByTestId('issue-detail').waitFor();
    textIssue = Number(await page.getByTestId('issue-detail').getAttribute('data-issue-id'));
    expect(await page.getByTestId('issue-title').textContent()).toBe('river');

    // a relation issue on Anna -> Warsaw, from the relation's row
    const saved = (await graphs())[0];
    const livesIn = saved.relations.find((r) => r.toId === tag.warsaw)!;
    await page
      .locator(`[data-testid="relation-row"][data-relation-id="${livesIn.id}"]`)
      .getByTestId('relation-report-issue')
      .click();
    await page.getByTestId('issue-form').waitFor();
    expect(await page.getByTestId('issue-form-subject').textContent()).toBe(
      '“Anna Kowalska → Warsaw (lives in)”',
    );
    await page.getByTestId('issue-form-text').fill('Born there, or lives there?');
    await page.getByTestId('issue-form-submit').click();
    await page.getByTestId('issue-form').waitFor({ state: 'detached' });
    await page.locator(`[data-testid="issue-detail"]:not([data-issue-id="${textIssue}"])`).waitFor();
    relationIssue = Number(await page.getByTestId('issue-detail').getAttribute('data-issue-id'));
    const all = await issues();
    expect(all.find((i) => i.id === relationIssue)).toMatchObject({
      type: 'RELATION',
      status: 'ACTIVE',
      text: 'Born there, or lives there?',
      relation: { fromId: tag.anna, toId: tag.warsaw, relationTypeId: ids.livesIn },
      replies: [],
    });
    expect(all.find((i) => i.id === textIssue)).toMatchObject({ type: 'TEXT', title: 'river', replies: [] });
    expect(await page.getByTestId('issue-title').textContent()).toBe(
      all.find((i) => i.id === relationIssue)!.title,
    );
    await shot(page, `journey-${lang}-05-relation-issue`);
  });

  it('lets a process admin find them under Without replies, answer one and resolve the other', async () => {
    const adminPage = await signedInPage(browser, contexts, processAdmin);
    await chooseLanguage(adminPage, lang);
    await adminPage.goto(dashboardUrl());
    await adminPage.locator('[data-testid="issues-dashboard"][data-tab="withoutReplies"]').waitFor();
    expect(await adminPage.getByTestId('issues-tab-withoutReplies').textContent()).toContain(
      s.withoutReplies,
    );
    const row = adminPage.locator(`[data-testid="issues-row"][data-document-id="${documentId}"]`);
    await row.waitFor();
    expect(await row.getByTestId('issues-count').textContent()).toBe('2');
    await shot(adminPage, `journey-${lang}-06-without-replies`);
    await row.getByTestId('issues-open').click();
    await adminPage.waitForURL(new RegExp(`/entity/process/${processId}/document/${documentId}`));
    await adminPage.locator('[data-testid="tools-panel"][data-tool="issues"]').waitFor();

    // answer the text issue
    await adminPage.locator(`[data-testid="issue-row"][data-issue-id="${textIssue}"]`).click();
    await adminPage.locator(`[data-testid="issue-detail"][data-issue-id="${textIssue}"]`).waitFor();
    await adminPage.getByTestId('issue-comment-form-text').fill('Yes, as a Place.');
    await adminPage.keyboard.press('Enter');
    await adminPage.getByTestId('issue-comment').first().waitFor();
    expect(await adminPage.getByTestId('issue-comment-text').textContent()).toBe('Yes, as a Place.');

    // resolve the relation issue: the automatic comment
    await adminPage.getByTestId('issue-back').click();
    await adminPage.locator(`[data-testid="issue-row"][data-issue-id="${relationIssue}"]`).click();
    await adminPage.locator(`[data-testid="issue-detail"][data-issue-id="${relationIssue}"]`).waitFor();
    await adminPage.getByTestId('issue-status').selectOption('RESOLVED');
    await adminPage.getByTestId('issue-comment').first().waitFor();
    expect(await adminPage.getByTestId('issue-comment-text').textContent()).toBe(s.resolved);
    await shot(adminPage, `journey-${lang}-07-resolved`);
    const all = await issues();
    expect(all.find((i) => i.id === relationIssue)).toMatchObject({ status: 'RESOLVED' });
    expect(all.find((i) => i.id === relationIssue)!.replies.map((r) => r.automatic)).toEqual([true]);
    expect(all.find((i) => i.id === textIssue)!.replies.map((r) => r.text)).toEqual(['Yes, as a Place.']);

    // both answered: the document leaves Without replies
    await adminPage.goto(dashboardUrl());
    await adminPage.locator('[data-testid="issues-dashboard"][data-tab="withoutReplies"]').waitFor();
    await adminPage.getByTestId('issues-empty').waitFor();
    expect(await row.count()).toBe(0);
    await adminPage.close();
  });

  it('shows the annotator the reply and everything after a reload, in the same language', async () => {
    await page.reload();
    await page.locator(`html[lang="${lang}"]`).waitFor({ state: 'attached' });
    await page.locator('[data-testid="document-text"][data-tag-count="6"]').waitFor();
    await arc(page, tag.anna, tag.warsaw).waitFor();
    await arc(page, tag.anna, tag.acme).waitFor();
    expect(await page.getByTestId('relation-arc').count()).toBe(2);
    expect(await page.getByTestId('relation-row').count()).toBe(2);

    if ((await page.locator('[data-testid="tools-panel"][data-tool="issues"]').count()) === 0)
      await page.getByTestId('tool-issues').click();
    await page.getByTestId('issue-back').or(page.getByTestId('issues-panel')).first().waitFor();
    if (await page.getByTestId('issue-back').isVisible()) await page.getByTestId('issue-back').click();
    await page.getByTestId('issues-panel').waitFor();
    expect(
      await page.getByTestId('issues-group-ACTIVE').locator(`[data-issue-id="${textIssue}"]`).count(),
    ).toBe(1);
    expect(
      await page.getByTestId('issues-group-RESOLVED').locator(`[data-issue-id="${relationIssue}"]`).count(),
    ).toBe(1);
    await page.locator(`[data-testid="issue-row"][data-issue-id="${textIssue}"]`).click();
    await page.locator(`[data-testid="issue-detail"][data-issue-id="${textIssue}"]`).waitFor();
    await page.getByTestId('issue-comment').first().waitFor();
    expect(await page.getByTestId('issue-comment-text').textContent()).toBe('Yes, as a Place.');
    await shot(page, `journey-${lang}-08-reply`);
    await page.getByTestId('issue-back').click();
    await page.locator(`[data-testid="issue-row"][data-issue-id="${relationIssue}"]`).click();
    await page.locator(`[data-testid="issue-detail"][data-issue-id="${relationIssue}"]`).waitFor();
    expect(await page.getByTestId('issue-comment-text').textContent()).toBe(s.resolved);
    expect(await page.getByTestId('issue-status').inputValue()).toBe('RESOLVED');
  });
});
