/**
 * The issues dashboard (issue 12 section 2) in Chromium, over the issue view of POST api/v2/document-info:
 * a process Upload -> Classifier with three documents and issues inserted directly (the issues API is not
 * what this suite tests). A process admin starts on Without replies, switches to All, sorts by comment
 * count both ways, filters by status and file name, toggles to the documents dashboard and back, and opens
 * a document's workspace with the issues panel open. A writer has no Without replies tab, starts on My
 * issues, and reads the page in Polish. The workspace header's dashboard menu leads to it. Screenshots go
 * to tests/artifacts/.
 */
import crypto from 'node:crypto';
import knexFactory, { type Knex } from 'knex';
import type { Browser, BrowserContext, Page } from 'playwright-core';
import { insertIssue } from '../support/documents';
import { eventuallyMatches } from '../support/eventually';
import { buildUser, type BuiltUser } from '../support/harness';
import { api, BASE_URL, createProcess, launch, settledCount, shot, signedInPage, tokenFor } from './support';

interface StateView {
  steps: { status: string; nodeDTO: { activityType: string } }[];
}

describe('issues dashboard in Chromium', () => {
  let knex: Knex;
  let browser: Browser;
  let token: string;
  let processId: number;
  let writer: BuiltUser;
  let processAdmin: BuiltUser;
  const docs: Record<string, number> = {};
  const contexts: BrowserContext[] = [];
  const suffix = crypto.randomBytes(3).toString('hex');
  const file = (name: string) => `${name}-${suffix}.txt`;

  const dashboardUrl = () => `${BASE_URL}/entity/process/${processId}/dashboard/issues`;
  const rows = (page: Page) => page.getByTestId('issues-row');
  /** [file name, issues, resolved, comments] of the rows, once `count` rows show. */
  async function table(page: Page, count: number): Promise<[string, number, number, number][]> {
    expect(await settledCount(rows(page), count)).toBe(count);
    return rows(page).evaluateAll((els) =>
      els.map((el) => {
        const cell = (id: string) => el.querySelector(`[data-testid="${id}"]`)?.textContent ?? '';
        return [
          cell('issues-filename').replace(/-[0-9a-f]{6}\.txt$/, ''),
          Number(cell('issues-count')),
          Number(cell('issues-resolved')),
          Number(cell('issues-comments')),
        ] as [string, number, number, number];
      }),
    );
  }
  /** The file names listed once the first one is `first` (a new query replaced the old rows). */
  async function names(page: Page, first: string, count: number): Promise<string[]> {
    await page
      .locator(`[data-testid="issues-row"]:first-child [data-testid="issues-filename"]`)
      .getByText(file(first), { exact: true })
      .waitFor();
    return (await table(page, count)).map((r) => r[0]);
  }

  beforeAll(async () => {
    knex = knexFactory({ client: 'pg', connection: process.env.DATABASE_URL, pool: { min: 0, max: 2 } });
    const admin = await buildUser(knex, { roles: ['ROLE_ADMIN', 'ROLE_USER'] });
    token = await tokenFor(admin.login, admin.password);
    processId = await createProcess(token, `Issues dashboard E2E ${suffix}`);
    const grant = (mode: 'WRITE' | 'ADMIN') =>
      buildUser(knex, { authorities: [{ componentId: processId, type: 'PROCESS', mode }] });
    [writer, processAdmin] = await Promise.all([grant('WRITE'), grant('ADMIN')]);
    const nodes = await api<{ id: number; activityType: string }[]>(
      token,
      `/api/nodes?processId=${processId}`,
    );
    const upload = nodes.find((n) => n.activityType === 'HUP')!;
    const clf = await api<{ id: number }>(token, '/api/nodes', {
      method: 'POST',
      body: JSON.stringify({ processId, name: 'Classify', activityType: 'CLF', requiresAcceptance: false }),
    });
    await api(token, '/api/edges', {
      method: 'POST',
      body: JSON.stringify({ fromId: upload.id, toId: clf.id }),
    });
    for (const name of ['alpha', 'beta', 'gamma', 'delta']) {
      const created = await api<{ id: number }>(token, '/api/documents', {
        method: 'POST',
        body: JSON.stringify({ processId, filename: file(name), content: `The ${name} text.` }),
      });
      docs[name] = created.id;
    }
    for (const id of Object.values(docs))
      await eventuallyMatches(
        () => api<StateView>(token, `/api/v2/document/${id}/state`),
        (s) => s.steps.some((x) => x.nodeDTO.activityType === 'CLF' && x.status === 'WAITING'),
        'the classifier step waits',
      );
    // alpha: the writer's unanswered issue, and a resolved one the writer commented on
    await insertIssue(knex, docs.alpha, { userId: writer.id, title: 'alpha one' });
    await insertIssue(knex, docs.alpha, {
      userId: processAdmin.id,
      status: 'RESOLVED',
      replies: [{ userId: writer.id }, { userId: processAdmin.id, automatic: true }],
    });
    // beta: one issue with two comments, one without; gamma: one with one comment; delta: none
    await insertIssue(knex, docs.beta, {
      userId: processAdmin.id,
      replies: [{ userId: writer.id }, { userId: processAdmin.id }],
    });
    await insertIssue(knex, docs.beta, { userId: processAdmin.id });
    await insertIssue(knex, docs.gamma, { userId: processAdmin.id, replies: [{ userId: processAdmin.id }] });
    browser = await launch();
  });

  afterAll(async () => {
    for (const c of contexts) await c.close().catch(() => undefined);
    await browser?.close();
    await knex?.destroy();
  });

  it('shows a process admin Without replies first, then All, sorted, filtered and linked to the workspace', async () => {
    const page = await signedInPage(browser, contexts, processAdmin);
    await page.goto(dashboardUrl());
    await page.locator('[data-testid="issues-dashboard"][data-tab="withoutReplies"]').waitFor();
    expect(await page.getByTestId('issues-tab-withoutReplies').getAttribute('aria-selected')).toBe('true');
    // active issues without a comment: alpha's and beta's second one
    expect(await table(page, 2)).toEqual([
      ['alpha', 1, 0, 0],
      ['beta', 1, 0, 0],
    ]);
    expect(await page.getByTestId('issues-filter-status').isDisabled()).toBe(true);
    await shot(page, '60-issues-dashboard-without-replies');

    await page.getByTestId('issues-tab-all').click();
    await page.locator('[data-testid="issues-dashboard"][data-tab="all"]').waitFor();
    expect(await settledCount(rows(page), 3)).toBe(3);
    expect(await table(page, 3)).toEqual([
      ['alpha', 2, 1, 1],
      ['beta', 2, 0, 2],
      ['gamma', 1, 0, 1],
    ]);
    await page.getByTestId('issues-pagination-total').getByText('Total: 3').waitFor();
    // comment count ascending (alpha and gamma tie: by id), then descending
    await page.getByTestId('issues-sort-commentCount').click();
    // alpha was first by file name too: wait for the new order itself (the old rows stay until it comes)
    await eventuallyMatches(
      async () => (await table(page, 3)).map((r) => r[0]).join(','),
      (order) => order === 'alpha,gamma,beta',
      'sorted by comment count ascending',
    );
    await page.getByTestId('issues-sort-commentCount').click();
    expect(await names(page, 'beta', 3)).toEqual(['beta', 'gamma', 'alpha']);
    expect(await page.getByTestId('issues-sort-commentCount').getAttribute('data-sort')).toBe('desc');
    await shot(page, '61-issues-dashboard-all-by-comments');
    await page.getByTestId('issues-filter-status').selectOption('RESOLVED');
    expect(await names(page, 'alpha', 1)).toEqual(['alpha']);
    expect(await table(page, 1)).toEqual([['alpha', 1, 1, 1]]);
    await page.getByTestId('issues-filter-status').selectOption('');
    await page.getByTestId('issues-filter-name').fill('gam');
    expect(await names(page, 'gamma', 1)).toEqual(['gamma']);
    await page.getByTestId('issues-filter-name').fill('no such file');
    await page.getByTestId('issues-empty').getByText('No results').waitFor();
    await page.getByTestId('issues-filter-name').fill('');
    expect(await names(page, 'beta', 3)).toHaveLength(3);

    // the header toggles between the dashboards
    await page.getByTestId('dashboard-toggle-documents').click();
    await page.waitForURL(`${BASE_URL}/entity/process/${processId}/dashboard/documents`);
    await page.getByTestId('dashboard-toggle-issues').click();
    await page.waitForURL(dashboardUrl());
    await page.locator('[data-testid="issues-dashboard"][data-tab="withoutReplies"]').waitFor();

    // Go to document: the workspace with the issues panel open
    await page.getByTestId('issues-tab-all').click();
    await page
      .locator(`[data-testid="issues-row"][data-document-id="${docs.beta}"]`)
      .getByTestId('issues-open')
      .click();
    await page.waitForURL(`${BASE_URL}/entity/process/${processId}/document/${docs.beta}`);
    await page.locator(`[data-testid="workspace"][data-document-id="${docs.beta}"]`).waitFor();
    await page.locator('[data-testid="tools-panel"][data-tool="issues"]').waitFor();
    expect(await page.getByTestId('tool-issues').getAttribute('aria-pressed')).toBe('true');
    await shot(page, '62-issues-dashboard-to-workspace');

    // and the workspace header's dashboard menu leads back to it
    await page.getByTestId('dashboard-menu').click();
    await page.getByTestId('dashboard-issues').click();
    await page.waitForURL(dashboardUrl());
    await page.getByTestId('issues-dashboard').waitFor();
  });

  it('gives a writer My issues and All (no Without replies), in Polish', async () => {
    const page = await signedInPage(browser, contexts, writer);
    await page.getByTestId('language-menu').click();
    await page.getByTestId('language-pl').click();
    await page.locator('html[lang="pl"]').waitFor({ state: 'attached' });
    await page.goto(dashboardUrl());
    await page.locator('[data-testid="issues-dashboard"][data-tab="my"]').waitFor();
    expect(await page.getByTestId('issues-tab-withoutReplies').count()).toBe(0);
    // raised alpha's first issue, commented on alpha's second and beta's first
    expect(await table(page, 2)).toEqual([
      ['alpha', 2, 1, 1],
      ['beta', 1, 0, 2],
    ]);
    await page.getByTestId('issues-tab-my').getByText('Moje zgłoszenia').waitFor();
    await page.getByTestId('issues-tab-all').getByText('Wszystkie').waitFor();
    await page.getByTestId('issues-sort-commentCount').getByText('Komentarze').waitFor();
    await page.getByTestId('dashboard-toggle-issues').getByText('Zgłoszenia').waitFor();
    expect(await page.getByTestId('issues-open').first().textContent()).toBe('Przejdź do dokumentu');
    await page.getByTestId('issues-pagination-total').getByText('Razem: 2').waitFor();
    await page.getByTestId('issues-tab-all').click();
    expect(await table(page, 3)).toHaveLength(3);
    await shot(page, '63-issues-dashboard-writer-polish');
  });
});
