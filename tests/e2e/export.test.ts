/**
 * Step-result export in Chromium (issue 16 section 2): a process admin opens a SPAN node's panel on the graph
 * page and downloads its results as CSV, JSON and CoNLL-2003 from the Export section (the browser's download
 * event gives the file and its name from content-disposition); then the section in Polish. The document, its
 * finished step and its tags are inserted directly. Screenshots in tests/artifacts/.
 */
import type { Browser, BrowserContext, Page } from 'playwright-core';
import { insertNerTagType } from '../support/harness';
import { insertDocument, insertTag, stepOf } from '../support/documents';
import { downloadExport, exportSection as sectionOf } from './insights-support';
import {
  addNode,
  BASE_URL,
  chooseLanguage,
  closeAll,
  e2eWorld,
  launch,
  shot,
  signedInPage,
  uploadNodeOf,
  userOnProcess,
  type E2eWorld,
} from './support';

describe('step-result export in Chromium', () => {
  let world: E2eWorld;
  let browser: Browser;
  let page: Page;
  let spanId: number;
  let documentId: number;
  const contexts: BrowserContext[] = [];
  const CONTENT = 'Jan Kowalski lives in Kraków.';

  beforeAll(async () => {
    world = await e2eWorld(`Export E2E ${Date.now()}`);
    const { knex, token, processId } = world;
    const upload = await uploadNodeOf(token, processId);
    spanId = await addNode(token, processId, { name: 'Entities', activityType: 'SPAN', x: 300, y: 100 });
    const per = await insertNerTagType(knex, spanId, 'PER');
    const loc = await insertNerTagType(knex, spanId, 'LOC');
    documentId = await insertDocument(knex, processId, upload, 'letter.txt', {
      steps: [
        [upload, 'DONE'],
        [spanId, 'DONE'],
      ],
    });
    await knex('document_contents').insert({ document_id: documentId, content: CONTENT });
    const step = await stepOf(knex, documentId, spanId);
    await knex('steps').where({ id: step }).update({ last_modified_date: new Date() });
    await insertTag(knex, documentId, step, per.id, [0, 12]);
    await insertTag(knex, documentId, step, loc.id, [22, 28]);
    browser = await launch();
    const processAdmin = await userOnProcess(knex, processId, 'ADMIN');
    page = await signedInPage(browser, contexts, processAdmin);
  });

  afterAll(() => closeAll(contexts, browser, world?.knex));

  const exportSection = () => sectionOf(page);
  const download = (format: string, delimiter?: string) => downloadExport(page, format, delimiter);

  it('downloads the SPAN node’s results as CSV, JSON and CoNLL from the panel', async () => {
    await page.goto(`${BASE_URL}/entity/process/${world.processId}/graph`);
    const node = page.getByTestId('graph-node').filter({ hasText: 'Entities' });
    await node.click();
    await page.locator(`[data-testid="node-panel"][data-node-id="${spanId}"]`).waitFor();
    await exportSection().getByTestId('step-result-export').scrollIntoViewIfNeeded();
    await shot(page, 'export-01-span-panel');

    const today = new Date().toISOString().slice(0, 10);
    const csv = await download('csv', ';');
    expect(csv.name).toMatch(new RegExp(`^step-results-node-${spanId}-\\d{4}-\\d{2}-\\d{2}_${today}\\.csv$`));
    const lines = csv.text.split('\r\n');
    expect(lines[0]).toBe('stepId;documentId;filename;status;finishedAt;tags;relations');
    expect(lines[1].split(';').slice(1, 4)).toEqual([String(documentId), 'letter.txt', 'DONE']);
    expect(lines[1]).toContain('""text"":""Jan Kowalski""');

    const json = await download('json');
    expect(json.name.endsWith('.json')).toBe(true);
    const rows = JSON.parse(json.text) as { documentId: number; tags: { label: string; text: string }[] }[];
    expect(rows.map((r) => [r.documentId, r.tags.map((t) => [t.label, t.text])])).toEqual([
      [
        documentId,
        [
          ['PER', 'Jan Kowalski'],
          ['LOC', 'Kraków'],
        ],
      ],
    ]);

    const conll = await download('conll');
    expect(conll.name.endsWith('.conll')).toBe(true);
    expect(conll.text).toContain(
      'Jan _ _ B-PER\nKowalski _ _ I-PER\nlives _ _ O\nin _ _ O\nKraków _ _ B-LOC\n. _ _ O\n',
    );

    // a quote as the delimiter is refused in the form
    await exportSection().getByTestId('step-result-export-format').selectOption('csv');
    await exportSection().getByTestId('step-result-export-delimiter').fill('"');
    expect(await exportSection().getByTestId('step-result-export-download').isDisabled()).toBe(true);
    await exportSection().getByText('The delimiter cannot be a double quote.').waitFor();
    await shot(page, 'export-02-delimiter-error');
    await exportSection().getByTestId('step-result-export-delimiter').fill(',');
  });

  it('shows the Export section in Polish and still downloads', async () => {
    await chooseLanguage(page, 'pl');
    await exportSection().getByText('Pobierz wyniki', { exact: true }).waitFor();
    await exportSection().getByText('Separator CSV', { exact: true }).waitFor();
    const csv = await download('csv');
    expect(csv.text.split('\r\n')[1].split(',').slice(1, 3)).toEqual([String(documentId), 'letter.txt']);
    await shot(page, 'export-03-polish');
  });
});
