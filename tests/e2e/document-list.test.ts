/**
 * The document list (issue 13 section 1, spec 2 section 2 "Document list page") in Chromium: a process with
 * five text documents created through the API, a span node with NER tag types Person and Place and a
 * classifier node with types Invoice and Letter, the tags inserted directly (the tag APIs are not what this
 * suite tests). A global admin sees the Upload button, finds documents by content, by NER tag and by
 * classifier tag, sorts the id column both ways, and deletes two with Delete selected (confirmed, gone from
 * the database); Delete all shows only while the master checkbox is checked. A READ user reads the page in
 * Polish without Edit, Delete or Upload, and a search matching nothing says 'Brak wyników'. Screenshots go
 * to tests/artifacts/.
 */
import crypto from 'node:crypto';
import type { Knex } from 'knex';
import type { Browser, BrowserContext, Page } from 'playwright-core';
import { eventually, eventuallyMatches } from '../support/eventually';
import { insertNerTagType, type BuiltUser } from '../support/harness';
import {
  addNode,
  addTextDocument,
  api,
  BASE_URL,
  chooseLanguage,
  closeAll,
  e2eWorld,
  launch,
  settledCount,
  shot,
  signedInPage,
  tokenFor,
  userOnProcess,
} from './support';

describe('document list in Chromium', () => {
  let knex: Knex;
  let browser: Browser;
  let token: string;
  let processId: number;
  let admin: BuiltUser;
  let reader: BuiltUser;
  const docs: Record<string, number> = {};
  const contexts: BrowserContext[] = [];
  const suffix = crypto.randomBytes(3).toString('hex');
  const file = (name: string) => `${name}-${suffix}.txt`;
  const texts: Record<string, string> = {
    alpha: 'Anna Kowalska signed the lease in Krakow.',
    beta: 'Jan Nowak paid the invoice in Gdansk.',
    gamma: 'A zebracorn was seen near Warsaw.',
    delta: 'Anna Nowak moved to Warsaw.',
    epsilon: 'Nothing to see here.',
  };

  const listUrl = () => `${BASE_URL}/entity/process/${processId}/documents`;
  const rows = (page: Page) => page.getByTestId('document-list-row');
  /** The listed file names (without the suffix), once `count` rows show and the first is `first`. */
  async function names(page: Page, count: number, first?: string): Promise<string[]> {
    if (first)
      await page
        .locator('[data-testid="document-list-row"]:first-child [data-testid="document-list-filename"]')
        .getByText(file(first), { exact: true })
        .waitFor();
    expect(await settledCount(rows(page), count)).toBe(count);
    return (await page.getByTestId('document-list-filename').allTextContents()).map((t) =>
      t.replace(`-${suffix}.txt`, ''),
    );
  }

  beforeAll(async () => {
    ({ knex, admin, token, processId } = await e2eWorld(`Document list E2E ${suffix}`));
    reader = await userOnProcess(knex, processId, 'READ');
    const span = await addNode(token, processId, { name: 'Entities', activityType: 'SPAN' });
    const clf = await addNode(token, processId, { name: 'Kind', activityType: 'CLF' });
    const person = await insertNerTagType(knex, span, 'Person');
    const place = await insertNerTagType(knex, span, 'Place');
    const clfType = async (name: string, color: string) =>
      Number(
        (
          await knex('classifier_types')
            .insert({ node_id: clf, name, background_color: color })
            .returning('id')
        )[0].id,
      );
    const invoice = await clfType('Invoice', '#e67e22');
    const letter = await clfType('Letter', '#2980b9');
    for (const [name, content] of Object.entries(texts)) {
      docs[name] = await addTextDocument(token, processId, file(name), content);
      await eventuallyMatches(
        () => api<{ content: { content: string } | null }>(token, `/api/documents/${docs[name]}`),
        (d) => d.content?.content === content,
        `the content of ${name}`,
      );
    }
    // span tags without a step (no step of the span node: the documents have no edge to it)
    const tag = async (name: string, typeId: number, text: string) => {
      const start = texts[name].indexOf(text);
      await knex('ner_tags').insert({
        document_id: docs[name],
        ner_tag_type_id: typeId,
        type: 'SPAN_TAG',
        start_offset: start,
        end_offset: start + text.length,
      });
    };
    await tag('alpha', person.id, 'Anna Kowalska');
    await tag('beta', person.id, 'Jan Nowak');
    await tag('delta', person.id, 'Anna Nowak');
    await tag('delta', place.id, 'Warsaw');
    await tag('gamma', place.id, 'Warsaw');
    for (const [name, type] of [
      ['beta', invoice],
      ['epsilon', invoice],
      ['gamma', letter],
    ] as [string, number][])
      await knex('classifier_tags').insert({
        document_id: docs[name],
        node_id: clf,
        classifier_type_id: type,
      });
    browser = await launch();
  });

  afterAll(() => closeAll(contexts, browser, knex));

  it('finds documents by content, NER tag and classifier tag, sorts by id, and deletes two selected', async () => {
    const page = await signedInPage(browser, contexts, admin);
    await page.goto(listUrl());
    expect(await names(page, 5, 'alpha')).toEqual(['alpha', 'beta', 'gamma', 'delta', 'epsilon']);
    await page.getByTestId('document-list-upload').waitFor();
    await page.getByTestId('document-list-pagination-total').getByText('Total: 5').waitFor();
    // an exact total (no "about"), no Last button: every page has its number
    expect(await page.getByTestId('document-list-pagination-total').getAttribute('data-exact')).toBe('true');
    expect(await page.getByTestId('document-list-pagination-last').count()).toBe(0);
    expect(await page.getByTestId('document-list-id').first().getAttribute('href')).toBe(
      `/entity/process/${processId}/documents/${docs.alpha}`,
    );
    expect(await page.getByTestId('document-list-view').first().getAttribute('href')).toBe(
      `/entity/process/${processId}/document/${docs.alpha}`,
    );
    await shot(page, '70-document-list');

    // by content (two characters are too few: said before sending)
    await page.getByTestId('document-search-content').fill('ze');
    await page
      .getByTestId('document-search-content-error')
      .getByText('Enter at least 3 characters.')
      .waitFor();
    expect(await page.getByTestId('document-search-submit').isDisabled()).toBe(true);
    await page.getByTestId('document-search-content').fill('ZEBRACORN');
    await page.getByTestId('document-search-submit').click();
    expect(await names(page, 1, 'gamma')).toEqual(['gamma']);

    // by NER tag: Person containing "anna"; then also Place "warsaw" (types ANDed)
    await page.getByTestId('document-search-mode-BY_NER_TAG').click();
    expect(await page.getByTestId('document-search-content').count()).toBe(0);
    expect(await names(page, 5, 'alpha')).toHaveLength(5);
    await page.getByTestId('document-search-ner-type').selectOption({ label: 'Person' });
    await page.getByTestId('document-search-ner-values').fill('anna');
    await page.getByTestId('document-search-submit').click();
    expect(await names(page, 2, 'alpha')).toEqual(['alpha', 'delta']);
    await page.getByTestId('document-search-ner-add').click();
    await page.getByTestId('document-search-ner-type').nth(1).selectOption({ label: 'Place' });
    await page.getByTestId('document-search-ner-values').nth(1).fill('Warsaw');
    await page.getByTestId('document-search-submit').click();
    expect(await names(page, 1, 'delta')).toEqual(['delta']);
    await shot(page, '71-document-list-ner');

    // by classifier tag
    await page.getByTestId('document-search-mode-BY_CLASSIFIER_TAG').click();
    await page.locator('[data-testid="document-search-classifier-type"][data-type-name="Invoice"]').check();
    await page.getByTestId('document-search-submit').click();
    expect(await names(page, 2, 'beta')).toEqual(['beta', 'epsilon']);
    await page.getByTestId('document-list-sort-id').click();
    expect(await names(page, 2, 'epsilon')).toEqual(['epsilon', 'beta']);
    await shot(page, '72-document-list-classifier');

    // back to the whole list (ascending again), Delete all only while the master is checked
    await page.getByTestId('document-search-mode-BY_CONTENT').click();
    await page.getByTestId('document-list-sort-id').click();
    expect(await names(page, 5, 'alpha')).toHaveLength(5);
    expect(await page.getByTestId('document-list-delete-all').count()).toBe(0);
    await page.getByTestId('document-list-master').check();
    await page.getByTestId('document-list-delete-all').waitFor();
    await page.getByTestId('document-list-master').uncheck();
    expect(await page.getByTestId('document-list-delete-all').count()).toBe(0);

    // Delete selected: beta and delta
    const select = (name: string) =>
      page.locator(
        `[data-testid="document-list-row"][data-document-id="${docs[name]}"] [data-testid="document-list-select"]`,
      );
    await select('beta').check();
    await select('delta').check();
    await page.getByTestId('document-list-delete-selected').getByText('Delete selected (2)').waitFor();
    await page.getByTestId('document-list-delete-selected').click();
    await page.getByTestId('document-list-confirm').getByText('delete the 2 selected documents').waitFor();
    await shot(page, '73-document-list-confirm');
    await page.getByTestId('document-list-confirm-confirm').click();
    await page
      .getByTestId('document-list-pagination-total')
      .getByText('Total: 3')
      .waitFor({ timeout: 120_000 });
    expect(await names(page, 3, 'alpha')).toEqual(['alpha', 'gamma', 'epsilon']);
    await eventually('the two documents are gone', async () => {
      const left = await knex('documents')
        .whereIn('id', [docs.beta, docs.delta])
        .count<{ count: string }[]>('* as count');
      return Number(left[0].count) === 0;
    });
    await shot(page, '74-document-list-after-delete');
  });

  it('lets a READ user search but not edit, delete or upload, in Polish', async () => {
    const page = await signedInPage(browser, contexts, reader);
    await chooseLanguage(page, 'pl');
    await page.goto(listUrl());
    await page.getByTestId('document-list-table').waitFor();
    expect(await settledCount(rows(page), 3)).toBe(3);
    await page.getByText('Dokumenty', { exact: true }).waitFor();
    await page.getByTestId('document-search-mode-BY_NER_TAG').getByText('Według tagu NER').waitFor();
    expect(await page.getByTestId('document-list-view').first().textContent()).toBe('Podgląd');
    await page.locator('[data-testid="document-list"][data-nodes="loaded"]').waitFor();
    for (const id of [
      'document-list-delete',
      'document-list-edit',
      'document-list-delete-selected',
      'document-list-upload',
    ])
      expect(await page.getByTestId(id).count()).toBe(0);
    await page.getByTestId('document-search-content').fill('kowalska');
    await page.getByTestId('document-search-submit').click();
    expect(await settledCount(rows(page), 1)).toBe(1);
    await shot(page, '75-document-list-reader-polish');
    await page.getByTestId('document-search-content').fill('no such text anywhere');
    await page.getByTestId('document-search-submit').click();
    await page.getByTestId('document-list-empty').getByText('Brak wyników').waitFor();
    // the API refuses the reader's delete too
    const readerToken = await tokenFor(reader.login, reader.password);
    const res = await fetch(`${BASE_URL}/api/documents/${docs.alpha}`, {
      method: 'DELETE',
      headers: { Authorization: readerToken },
    });
    expect(res.status).toBe(403);
  });
});
