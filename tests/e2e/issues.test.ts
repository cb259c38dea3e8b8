/**
 * Issue 12 section 2, issues in the workspace in a real browser: a WRITE user raises a TEXT issue through the
 * labelling menu's 'Problem with labelling' entry (the description form's Submit is off while empty), the new
 * issue opens in the issues panel with its range highlighted in the text; comments (Shift+Enter breaks the
 * line, Enter sends, an empty comment cannot be sent; dated HH:mm - DD.MM.YYYY) and the status dropdown (an
 * automatic comment); back to the list: sorting, the text filter from 2 characters, the status filter and the
 * groups by status. Markup in a description or comment shows as text and never runs. A READ user reads
 * without form or status change; a process ADMIN edits and deletes comments. Screenshots go to
 * tests/artifacts/.
 */
import crypto from 'node:crypto';
import knexFactory, { type Knex } from 'knex';
import type { Browser, BrowserContext, Page } from 'playwright-core';
import { eventuallyMatches } from '../support/eventually';
import { buildUser, type BuiltUser } from '../support/harness';
import { api, BASE_URL, createProcess, launch, shot, signedInPage, tokenFor } from './support';
import { textRangeBox } from './text-range';

interface StateView {
  steps: { id: number; status: string; nodeId: number }[];
}
interface IssueView {
  id: number;
  title: string;
  status: string;
  text: string;
  replies: { id: number; text: string; automatic: boolean }[];
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
  CSS: { highlights?: { get(name: string): Iterable<{ toString(): string }> | undefined } };
  __xss?: number;
}

const TEXT = 'Anna Kowalska met Jan Nowak in Warsaw.\nWarsaw is big.\n';
const MARKUP = '<script>window.__xss = 1</script><img src=x onerror="window.__xss = 2"> & <b>bold</b>';
const DATE = /^\d{2}:\d{2} - \d{2}\.\d{2}\.\d{4}$/;

describe('issues in the workspace in Chromium', () => {
  let knex: Knex;
  let browser: Browser;
  let token: string;
  let processId: number;
  let documentId: number;
  let spanNode: number;
  let personType: number;
  let writer: BuiltUser;
  let reader: BuiltUser;
  let processAdmin: BuiltUser;
  let page: Page;
  let issueId = 0;
  const contexts: BrowserContext[] = [];
  const suffix = crypto.randomBytes(3).toString('hex');

  const state = () => api<StateView>(token, `/api/v2/document/${documentId}/state`);
  const issues = () => api<IssueView[]>(token, `/api/document/${documentId}/issues`);
  const workspaceUrl = (query = '') =>
    `${BASE_URL}/entity/process/${processId}/document/${documentId}${query}`;

  /** The screen box of the text range [start, end). */
  const rangeBox = textRangeBox;

  async function mouseSelect(start: number, end: number) {
    await page.evaluate(() => (globalThis as unknown as PageWindow).getSelection().removeAllRanges());
    const box = await rangeBox(page, start, end);
    const y = (box.top + box.bottom) / 2;
    await page.mouse.move(box.left + 1, y);
    await page.mouse.down();
    await page.mouse.move((box.left + box.right) / 2, y, { steps: 3 });
    await page.mouse.move(box.right - 1, y, { steps: 3 });
    await page.mouse.up();
    return { x: box.right - 2, y };
  }

  /** The texts the issue-anchor highlight paints. */
  const highlighted = (p: Page) =>
    p.evaluate(() => {
      const h = (globalThis as unknown as PageWindow).CSS.highlights?.get('ws-issue-anchor');
      return h ? Array.from(h).map((r) => r.toString()) : [];
    });
  const xss = (p: Page) => p.evaluate(() => (globalThis as unknown as PageWindow).__xss ?? null);

  beforeAll(async () => {
    knex = knexFactory({ client: 'pg', connection: process.env.DATABASE_URL, pool: { min: 0, max: 2 } });
    const admin = await buildUser(knex, { roles: ['ROLE_ADMIN', 'ROLE_USER'] });
    token = await tokenFor(admin.login, admin.password);
    processId = await createProcess(token, `Issues E2E ${suffix}`);
    const grant = (mode: string) =>
      buildUser(knex, { authorities: [{ componentId: processId, type: 'PROCESS', mode: mode as 'READ' }] });
    writer = await grant('WRITE');
    reader = await grant('READ');
    processAdmin = await grant('ADMIN');
    const nodes = await api<{ id: number; activityType: string }[]>(
      token,
      `/api/nodes?processId=${processId}`,
    );
    const upload = nodes.find((n) => n.activityType === 'HUP')!;
    spanNode = (
      await api<{ id: number }>(token, '/api/nodes', {
        method: 'POST',
        body: JSON.stringify({ processId, name: 'Entities', activityType: 'SPAN' }),
      })
    ).id;
    personType = (
      await api<{ id: number }>(token, `/api/node/${spanNode}/ner-tag-type`, {
        method: 'POST',
        body: JSON.stringify({
          name: 'Person',
          backgroundColor: '#f8d7da',
          textColor: '#58151c',
          mandatory: false,
          selectable: true,
          disabled: false,
        }),
      })
    ).id;
    await api(token, '/api/edges', {
      method: 'POST',
      body: JSON.stringify({ fromId: upload.id, toId: spanNode }),
    });
    documentId = (
      await api<{ id: number }>(token, '/api/documents', {
        method: 'POST',
        body: JSON.stringify({ processId, filename: `issues-${suffix}.txt`, content: TEXT }),
      })
    ).id;
    await eventuallyMatches(
      state,
      (v) => v.steps.some((x) => x.nodeId === spanNode && x.status === 'WAITING'),
      'the span step waits',
    );
    browser = await launch();
    page = await signedInPage(browser, contexts, writer);
  });

  afterAll(async () => {
    for (const c of contexts) await c.close().catch(() => undefined);
    await browser?.close();
    await knex?.destroy();
  });

  it('raises a TEXT issue from the labelling menu; it opens in the panel with its range highlighted', async () => {
    await page.goto(workspaceUrl());
    await page.locator('[data-testid="workspace-mode"][data-mode="LABELING"]').waitFor();
    // Before the writer works on the step (not editable) a right-click on a selection opens the issue form
    // at once (process WRITE raises issues; the labelling menu needs an editable step).
    await page.locator('[data-testid="document-text"]').waitFor();
    const anna = await mouseSelect(0, 4);
    await page.mouse.click(anna.x, anna.y, { button: 'right' });
    await page.getByTestId('issue-form').waitFor();
    expect(await page.getByTestId('label-menu').count()).toBe(0);
    expect(await page.getByTestId('issue-form-subject').textContent()).toBe('“Anna”');
    await page.keyboard.press('Escape');
    await page.getByTestId('issue-form').waitFor({ state: 'detached' });
    await page
      .locator('[data-testid="step-row"][data-selected="true"]')
      .getByTestId('step-action-startWorking')
      .click();
    await page.getByTestId('labeling-undo').waitFor({ timeout: 30000 });

    const start = TEXT.indexOf('Kowalska');
    const at = await mouseSelect(start, start + 'Kowalska'.length);
    await page.mouse.click(at.x, at.y, { button: 'right' });
    await page.getByTestId('label-menu').waitFor();
    const entry = page.getByTestId('label-menu-issue');
    expect(await entry.isEnabled()).toBe(true);
    expect(await entry.textContent()).toContain('Problem with labelling');
    await entry.click();
    const form = page.getByTestId('issue-form');
    await form.waitFor();
    expect(await page.getByTestId('issue-form-subject').textContent()).toBe('“Kowalska”');
    expect(await page.getByTestId('issue-form-submit').isDisabled()).toBe(true);
    await page.getByTestId('issue-form-text').fill('   ');
    expect(await page.getByTestId('issue-form-submit').isDisabled()).toBe(true);
    await page.getByTestId('issue-form-text').fill(MARKUP);
    await page.getByTestId('issue-form-submit').click();
    await form.waitFor({ state: 'detached' });

    // The panel opens on the new issue.
    const detail = page.getByTestId('issue-detail');
    await detail.waitFor();
    expect(await page.getByTestId('tools-panel').getAttribute('data-tool')).toBe('issues');
    expect(await page.getByTestId('issue-title').textContent()).toBe('Kowalska');
    expect(await page.getByTestId('issue-status').inputValue()).toBe('ACTIVE');
    issueId = Number(await detail.getAttribute('data-issue-id'));
    const saved = (await issues()).find((i) => i.id === issueId)!;
    expect(saved).toMatchObject({ title: 'Kowalska', status: 'ACTIVE', text: MARKUP, replies: [] });

    // The markup shows as text and never ran.
    expect(await page.getByTestId('issue-text').locator('.ws-comment-text').textContent()).toBe(MARKUP);
    expect(await detail.locator('img, script, b').count()).toBe(0);
    expect(await xss(page)).toBeNull();

    // Its range is highlighted in the text.
    await eventuallyMatches(
      () => highlighted(page),
      (h) => h.join('|') === 'Kowalska',
      'the anchor is highlighted',
    );
    await shot(page, 'issues-detail-highlight');
  });

  it('comments with Enter and Shift+Enter, refuses an empty comment, and changes the status', async () => {
    const box = page.getByTestId('issue-comment-form-text');
    const submit = page.getByTestId('issue-comment-form-submit');
    expect(await submit.isDisabled()).toBe(true);
    expect(await page.getByTestId('issue-comment-form-cancel').isDisabled()).toBe(true);
    await box.click();
    await page.keyboard.press('Enter');
    await box.fill('  ');
    await page.keyboard.press('Enter');
    expect(await submit.isDisabled()).toBe(true);

    await box.fill('');
    await box.type('First line');
    await page.keyboard.press('Shift+Enter');
    await box.type('second <img src=x onerror="window.__xss = 3">');
    expect(await box.inputValue()).toBe('First line\nsecond <img src=x onerror="window.__xss = 3">');
    await page.keyboard.press('Enter');
    const comments = page.getByTestId('issue-comment');
    await comments.first().waitFor();
    expect(await comments.count()).toBe(1);
    expect(await comments.first().getByTestId('issue-comment-text').textContent()).toBe(
      'First line\nsecond <img src=x onerror="window.__xss = 3">',
    );
    expect(await comments.first().getByTestId('issue-comment-date').textContent()).toMatch(DATE);
    await eventuallyMatches(
      () => box.inputValue(),
      (v) => v === '',
      'the form is emptied after sending',
    );
    expect(await page.getByTestId('issue-detail').locator('img').count()).toBe(0);
    expect(await xss(page)).toBeNull();
    // A writer has no edit or delete icons.
    expect(await page.getByTestId('issue-comment-edit').count()).toBe(0);

    await page.getByTestId('issue-status').selectOption('RESOLVED');
    await page.locator('[data-testid="issue-comment"]:nth-child(2)').waitFor();
    expect(await comments.nth(1).getByTestId('issue-comment-text').textContent()).toBe(
      'Status changed from Active to Resolved',
    );
    const saved = (await issues()).find((i) => i.id === issueId)!;
    expect(saved.status).toBe('RESOLVED');
    expect(saved.replies.map((r) => r.automatic)).toEqual([false, true]);
    await shot(page, 'issues-comments');
  });

  it('lists the issues grouped by status with sorting, a text filter from 2 characters and a status filter', async () => {
    const warsaw = TEXT.indexOf('Warsaw');
    await api(token, '/api/issues', {
      method: 'POST',
      body: JSON.stringify({
        docId: documentId,
        type: 'TEXT',
        startOffset: warsaw,
        endOffset: warsaw + 6,
        text: 'City name form',
      }),
    });
    await page.getByTestId('issue-back').click();
    await page.getByTestId('issues-panel').waitFor();
    const rows = page.getByTestId('issue-row');
    await eventuallyMatches(
      () => rows.count(),
      (n) => n === 2,
      'both issues listed',
    );
    expect(await page.getByTestId('issues-group-ACTIVE').getByTestId('issue-row').textContent()).toContain(
      'Warsaw',
    );
    expect(await page.getByTestId('issues-group-RESOLVED').getByTestId('issue-row').textContent()).toContain(
      'Kowalska',
    );
    // the group headings come in status order: Active first
    const headings = await page.locator('.ws-issues-group').allTextContents();
    expect(headings).toEqual(['Active (1)', 'Resolved (1)']);

    const filter = page.getByTestId('issues-filter');
    await filter.fill('k'); // one character: no filter
    expect(await rows.count()).toBe(2);
    await filter.fill('CITY'); // the text, case-insensitive
    await eventuallyMatches(
      () => rows.count(),
      (n) => n === 1,
      'filtered by text',
    );
    expect(await rows.textContent()).toContain('Warsaw');
    await filter.fill('kowal'); // the title
    await eventuallyMatches(
      () => rows.textContent(),
      (t) => (t ?? '').includes('Kowalska'),
      'filtered by title',
    );
    await filter.fill('zzz');
    await page.getByTestId('issues-no-results').waitFor();
    await filter.fill('');

    await page.getByTestId('issues-status-filter').selectOption('ACTIVE');
    await eventuallyMatches(
      () => rows.count(),
      (n) => n === 1,
      'active only',
    );
    expect(await rows.textContent()).toContain('Warsaw');
    await page.getByTestId('issues-status-filter').selectOption('ALL');
    await page.getByTestId('issues-sort').selectOption('title');
    await eventuallyMatches(
      () => rows.count(),
      (n) => n === 2,
      'both again',
    );
    await shot(page, 'issues-list');
  });

  it('raises a TAG issue on the selected tag from its menu', async () => {
    const nowak = TEXT.indexOf('Jan Nowak');
    const tag = await api<{ id: number }>(await tokenFor(writer.login, writer.password), '/api/ner-tags', {
      method: 'POST',
      body: JSON.stringify({
        documentId,
        nerTagTypeId: personType,
        startOffset: nowak,
        endOffset: nowak + 9,
      }),
    });
    await page.reload();
    await page.locator('[data-testid="document-text"][data-tag-count="1"]').waitFor();
    const segment = page.locator(`[data-tag-start~="${tag.id}"]`);
    await segment.click();
    await page.locator(`[data-testid="selected-tag"][data-tag-id="${tag.id}"]`).waitFor();
    await segment.click({ button: 'right' });
    await page.getByTestId('label-menu').waitFor();
    await page.getByTestId('label-menu-issue').click();
    expect(await page.getByTestId('issue-form-subject').textContent()).toBe('“Jan Nowak”');
    await page.getByTestId('issue-form-text').fill('Wrong type?');
    await page.keyboard.press('Enter'); // a textarea: Enter is a new line here, not a submit
    await page.getByTestId('issue-form-submit').click();
    await page.getByTestId('issue-form').waitFor({ state: 'detached' });
    await page.getByTestId('issue-detail').waitFor();
    expect(await page.getByTestId('issue-title').textContent()).toBe('Jan Nowak');
    const saved = (await issues()).find((i) => i.title === 'Jan Nowak')!;
    expect(saved).toMatchObject({ status: 'ACTIVE', text: 'Wrong type?\n' });
    await eventuallyMatches(
      () => highlighted(page),
      (h) => h.join('|') === 'Jan Nowak',
      'the tag is highlighted',
    );
    await page.getByTestId('issue-back').click();
    const rows = page.getByTestId('issue-row');
    await eventuallyMatches(
      () => rows.count(),
      (n) => n === 3,
      'three issues listed',
    );

    // The issue goes with its tag: deleting the tag refetches the issues.
    await segment.click();
    await page.locator(`[data-testid="selected-tag"][data-tag-id="${tag.id}"]`).waitFor();
    await page.keyboard.press('Delete');
    await page.locator('[data-testid="document-text"][data-tag-count="0"]').waitFor();
    await eventuallyMatches(
      () => rows.count(),
      (n) => n === 2,
      'the tag issue is gone from the list',
    );
    expect((await rows.allTextContents()).some((t) => t.includes('Jan Nowak'))).toBe(false);
  });

  it('lets a READ user read an issue without the comment form or a status change', async () => {
    const readerPage = await signedInPage(browser, contexts, reader);
    await readerPage.goto(workspaceUrl(`?tool=issues&issue=${issueId}`));
    const detail = readerPage.getByTestId('issue-detail');
    await detail.waitFor();
    expect(await readerPage.getByTestId('issue-title').textContent()).toBe('Kowalska');
    expect(await readerPage.getByTestId('issue-status').isDisabled()).toBe(true);
    await readerPage.getByTestId('issue-read-only').waitFor();
    expect(await readerPage.getByTestId('issue-comment-form').count()).toBe(0);
    expect(await readerPage.getByTestId('issue-comment-edit').count()).toBe(0);
    expect(await readerPage.getByTestId('issue-text').locator('.ws-comment-text').textContent()).toBe(MARKUP);
    expect(await xss(readerPage)).toBeNull();
    await eventuallyMatches(
      () => highlighted(readerPage),
      (h) => h.join('|') === 'Kowalska',
      'highlighted',
    );
  });

  it('lets a process ADMIN edit and delete comments', async () => {
    const adminPage = await signedInPage(browser, contexts, processAdmin);
    await adminPage.goto(workspaceUrl(`?tool=issues&issue=${issueId}`));
    await adminPage.getByTestId('issue-detail').waitFor();
    const first = adminPage.getByTestId('issue-comment').first();
    await first.getByTestId('issue-comment-edit').click();
    const editor = adminPage.getByTestId('issue-comment-editor-text');
    await editor.fill('Corrected');
    await adminPage.keyboard.press('Enter');
    await eventuallyMatches(
      () => first.getByTestId('issue-comment-text').textContent(),
      (t) => t === 'Corrected',
      'the comment is edited',
    );
    await first.getByTestId('issue-comment-remove').click();
    await adminPage.getByTestId('issue-comment-delete-confirm').click();
    await eventuallyMatches(
      () => adminPage.getByTestId('issue-comment').count(),
      (n) => n === 1,
      'deleted',
    );
    const saved = (await issues()).find((i) => i.id === issueId)!;
    expect(saved.replies.map((r) => r.text)).toEqual(['Status changed from Active to Resolved']);
    await shot(adminPage, 'issues-admin');
  });
});
