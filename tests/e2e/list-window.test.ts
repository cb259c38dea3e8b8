/**
 * The pagers of the document lists under the result window (domain/paging.ts; issue 13 section 2) in
 * Chromium: 1,500 documents seeded in SQL (an estimated total, "about N"), served by an API of this suite's
 * own with the window lowered to 100 rows (5 pages of 20). On the documents dashboard the pager numbers only
 * the pages inside the window, goes on beyond it by cursor with Next and back with Previous, and reaches the
 * end with Last (read from the end) and the page before it; the document list does the same from its Last
 * button. Every page shown holds the rows the database orders there, and no request of the browser is
 * refused (the pagers never ask for a page out of the window). Screenshots go to tests/artifacts/.
 */
import knexFactory, { type Knex } from 'knex';
import type { Browser, BrowserContext, Page } from 'playwright-core';
import { seedListsDataset, type ListsDataset } from '../../scripts/lib/seed-lists';
import { startTestApi, type TestApi } from '../support/harness';
import { launch, shot } from './support';

const WINDOW = 100;

describe('document list pagers under the result window in Chromium', () => {
  let knex: Knex;
  let api: TestApi;
  let browser: Browser;
  let context: BrowserContext;
  let data: ListsDataset;
  /** the process's document ids, newest first */
  let ids: number[];
  /** the list requests the API refused */
  const refused: string[] = [];

  beforeAll(async () => {
    knex = knexFactory({ client: 'pg', connection: process.env.DATABASE_URL, pool: { min: 0, max: 2 } });
    data = await seedListsDataset(knex, {
      documents: 1_500,
      users: 3,
      name: `List window E2E ${Date.now()}`,
    });
    ids = (await knex('documents').where('process_id', data.processId).orderBy('id', 'desc').pluck('id')).map(
      Number,
    );
    api = await startTestApi({ listResultWindow: WINDOW });
    browser = await launch();
    context = await browser.newContext({ viewport: { width: 1440, height: 900 } });
  }, 300_000);

  afterAll(async () => {
    await context?.close();
    await browser?.close();
    await api?.close();
    await knex?.destroy();
  });

  async function signedIn(): Promise<Page> {
    const page = await context.newPage();
    page.setDefaultTimeout(20000);
    page.on('response', (res) => {
      const list = /\/api\/(v2\/document-info|documents\/_search\/document)/.test(res.url());
      if (list && res.status() >= 400) refused.push(`${res.status()} ${res.url()}`);
    });
    await page.goto(`${api.baseUrl}/lp/login`);
    await page.getByTestId('login-username').fill('admin');
    await page.getByTestId('login-password').fill('admin');
    await page.getByTestId('login-submit').click();
    await page.waitForURL(/\/entity\/process$/);
    return page;
  }

  /** The ids of the rows once they are `expected` (the previous page stays while the next loads). */
  async function rowsOf(page: Page, testId: string, expected: number[]): Promise<number[]> {
    const read = () =>
      page
        .getByTestId(testId)
        .evaluateAll((els) => els.map((el) => Number(el.getAttribute('data-document-id'))));
    const until = Date.now() + 20000;
    let seen = await read();
    while (JSON.stringify(seen) !== JSON.stringify(expected) && Date.now() < until) {
      await new Promise((r) => setTimeout(r, 100));
      seen = await read();
    }
    return seen;
  }
  const current = (page: Page, pager: string) =>
    page.getByTestId(pager).locator('[aria-current="page"]').innerText();

  it('numbers the pages inside the window on the dashboard, then pages by cursor and from the end', async () => {
    const page = await signedIn();
    await page.goto(`${api.baseUrl}/entity/process/${data.processId}/dashboard/documents`);
    const P = 'documents-pagination';
    expect(await rowsOf(page, 'documents-row', ids.slice(0, 20))).toEqual(ids.slice(0, 20));
    const total = page.getByTestId(`${P}-total`);
    expect(await total.getAttribute('data-exact')).toBe('false');
    expect(await total.innerText()).toMatch(/^Total: about [\d,]+$/);
    // pages 1..5 have numbers (100 rows), none beyond; a Last button
    await page.getByTestId(`${P}-5`).waitFor();
    expect(await page.getByTestId(`${P}-6`).count()).toBe(0);
    await page.getByTestId(`${P}-last`).waitFor();

    await page.getByTestId(`${P}-5`).click();
    expect(await rowsOf(page, 'documents-row', ids.slice(80, 100))).toEqual(ids.slice(80, 100));
    await page.getByTestId(`${P}-next`).click();
    expect(await rowsOf(page, 'documents-row', ids.slice(100, 120))).toEqual(ids.slice(100, 120));
    expect(await current(page, P)).toBe('6');
    await page.getByTestId(`${P}-next`).click();
    expect(await rowsOf(page, 'documents-row', ids.slice(120, 140))).toEqual(ids.slice(120, 140));
    expect(await current(page, P)).toBe('7');
    await shot(page, 'list-window-dashboard-beyond');
    await page.getByTestId(`${P}-previous`).click();
    expect(await rowsOf(page, 'documents-row', ids.slice(100, 120))).toEqual(ids.slice(100, 120));
    await page.getByTestId(`${P}-previous`).click();
    expect(await rowsOf(page, 'documents-row', ids.slice(80, 100))).toEqual(ids.slice(80, 100));
    expect(await current(page, P)).toBe('5');

    await page.getByTestId(`${P}-last`).click();
    expect(await rowsOf(page, 'documents-row', ids.slice(-20))).toEqual(ids.slice(-20));
    expect(await page.getByTestId(`${P}-next`).isDisabled()).toBe(true);
    expect(await page.getByTestId(`${P}-last`).getAttribute('aria-current')).toBe('page');
    await shot(page, 'list-window-dashboard-last');
    await page.getByTestId(`${P}-previous`).click();
    expect(await rowsOf(page, 'documents-row', ids.slice(-40, -20))).toEqual(ids.slice(-40, -20));
    expect(await current(page, P)).toMatch(/^≈ [\d,]+$/);
    await shot(page, 'list-window-dashboard-before-last');
    expect(refused).toEqual([]);
  });

  it('reaches the end of the document list with Last and goes back by page', async () => {
    const page = await signedIn();
    await page.goto(`${api.baseUrl}/entity/process/${data.processId}/documents`);
    const P = 'document-list-pagination';
    const ascending = [...ids].reverse();
    expect(await rowsOf(page, 'document-list-row', ascending.slice(0, 20))).toEqual(ascending.slice(0, 20));
    expect(await page.getByTestId(`${P}-total`).getAttribute('data-exact')).toBe('false');
    expect(await page.getByTestId(`${P}-6`).count()).toBe(0);
    await page.getByTestId(`${P}-last`).click();
    expect(await rowsOf(page, 'document-list-row', ascending.slice(-20))).toEqual(ascending.slice(-20));
    await page.getByTestId(`${P}-previous`).click();
    expect(await rowsOf(page, 'document-list-row', ascending.slice(-40, -20))).toEqual(
      ascending.slice(-40, -20),
    );
    await shot(page, 'list-window-document-list');
    expect(refused).toEqual([]);
  });
});
