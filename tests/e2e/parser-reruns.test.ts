/**
 * Issue 29 section 2 in Chromium: an administrator reruns three failed parses from the parser panel's rerun
 * list (asked once, what a rerun replaces said first; progress and each document's result shown), replaces
 * the file of a damaged PDF from the document's page and sees the document reach the annotators; in Polish,
 * the workspace says ERROR with the message in Polish on the badge's tooltip, and the failed step's
 * Replace file action fixes it.
 */
import crypto from 'node:crypto';
import type { Page } from 'playwright-core';
import {
  addEdges,
  addNode,
  browserSuite,
  chooseLanguage,
  e2eWorld,
  shot,
  signedInPage,
  uploadNodeOf,
  uploadThrough,
  BASE_URL,
  stepReaches,
  type E2eWorld,
} from './support';
import { eventuallyMatches } from '../support/eventually';
import { textPdf } from '../support/media';

jest.setTimeout(180_000);

describe('fixing failed parses in the browser', () => {
  const b = browserSuite();
  let world: E2eWorld;
  let parser: number;
  let annotate: number;
  const damaged: { id: number; name: string }[] = [];

  const damagedPdf = () => Buffer.concat([Buffer.from('%PDF-1.4\n'), crypto.randomBytes(3000)]);
  const reaches = (documentId: number, nodeId: number, status: string, what: string) =>
    stepReaches(world.token, documentId, nodeId, status, what);
  const withFile = (name: string, lines: string[]) => ({
    name,
    mimeType: 'application/pdf',
    buffer: textPdf([lines]),
  });

  beforeAll(async () => {
    world = await e2eWorld(`Parser reruns E2E ${Date.now()}`);
    const upload = await uploadNodeOf(world.token, world.processId);
    parser = await addNode(world.token, world.processId, {
      name: 'Parser',
      activityType: 'FILE_PARSER',
      autoStepStatus: 'DONE',
    });
    annotate = await addNode(world.token, world.processId, { name: 'Annotate', activityType: 'CLF' });
    await addEdges(world.token, [upload, parser], [parser, annotate]);
    for (const name of ['scan-1.pdf', 'scan-2.pdf', 'scan-3.pdf', 'scan-4.pdf']) {
      const doc = await uploadThrough(world.token, upload, name, damagedPdf());
      damaged.push({ id: doc.id, name });
    }
    for (const d of damaged) await reaches(d.id, parser, 'ERROR', `${d.name} fails to parse`);
  });

  afterAll(() => world?.knex.destroy());

  async function openParserPanel(page: Page) {
    await page.goto(`${BASE_URL}/entity/process/${world.processId}/graph`);
    await page.getByTestId('graph-node').filter({ hasText: 'Parser' }).click();
  }

  it('reruns three failed parses from the list and replaces a damaged PDF, in English', async () => {
    const page = await signedInPage(b.browser, b.contexts, world.admin);
    await openParserPanel(page);
    const table = page.getByRole('table', { name: 'Rerun list' });
    const rows = table.locator('tbody tr');
    await rows.nth(3).waitFor();
    expect(await rows.count()).toBe(4);
    const badge = rows.first().getByText('Error', { exact: true });
    expect(await badge.getAttribute('title')).toBe(
      'The PDF file is damaged and cannot be read: export it again and upload the new file.',
    );
    await page.getByLabel('Filter by status').selectOption({ label: 'Error' });
    for (const d of damaged.slice(0, 3)) await page.getByLabel(`Select ${d.name}`).check();
    await page.getByRole('button', { name: 'Rerun selected (3)' }).click();
    const dialog = page.getByRole('dialog');
    await dialog.getByText('Rerun the parser for the chosen documents (3)?').waitFor();
    await dialog.getByText(/replaces what the parser made: the document's text and page images/).waitFor();
    await dialog.getByRole('button', { name: 'Rerun' }).click();
    const results = page.getByRole('region', { name: 'Rerun results' });
    await results.getByText('Rerun finished for 3 documents').waitFor({ timeout: 60_000 });
    for (const d of damaged.slice(0, 3))
      await results.getByText(new RegExp(`^${d.name}: Error The PDF file is damaged`)).waitFor();
    expect(await results.locator('progress').getAttribute('value')).toBe('3');
    await shot(page, 'parser-rerun-list-en');

    // the fourth scan gets a new file from its page; its parse runs again and it reaches the annotators
    const fourth = damaged[3];
    await page.goto(`${BASE_URL}/entity/process/${world.processId}/documents/${fourth.id}`);
    await page.getByRole('button', { name: 'Replace file' }).click();
    const replace = page.getByRole('dialog');
    await replace.getByText(/keeps its id, its history and its other steps/).waitFor();
    await replace
      .getByLabel('New file')
      .setInputFiles(withFile('scan-4-fixed.pdf', ['Invoice 4 read again.']));
    await replace.getByRole('button', { name: 'Replace file' }).click();
    await replace.waitFor({ state: 'detached' });
    await reaches(fourth.id, annotate, 'WAITING', 'the fixed scan reaches the annotators');
    await page.reload();
    await page.getByTestId('document-content').getByText('Invoice 4 read again.').waitFor();
    const timeline = page.getByRole('list', { name: 'Timeline' });
    await timeline.getByText(`${world.admin.login} reran Parser`).waitFor();
    await timeline.getByText('Reached Annotate').waitFor();
    await shot(page, 'parser-replaced-file-en');
  });

  it('says ERROR in Polish in the workspace, and its Replace file action fixes the parse', async () => {
    const page = await signedInPage(b.browser, b.contexts, world.admin);
    await chooseLanguage(page, 'pl');
    const first = damaged[0];
    await page.goto(`${BASE_URL}/entity/process/${world.processId}/document/${first.id}`);
    const error = page.getByTestId('document-error');
    await error.waitFor();
    expect(await error.innerText()).toBe('Błąd');
    expect(await error.getAttribute('title')).toContain(
      'Plik PDF jest uszkodzony i nie da się go odczytać: wyeksportuj go ponownie i wgraj nowy plik.',
    );
    // the failed step's actions say what they do
    await page.getByRole('button', { name: 'Uruchom ponownie' }).waitFor();
    await page.getByRole('button', { name: 'Edytuj i zakończ' }).waitFor();
    expect(await page.getByRole('button', { name: 'Cofnij akceptację' }).count()).toBe(0);
    await shot(page, 'parser-error-workspace-pl');
    await page.getByRole('button', { name: 'Podmień plik' }).click();
    const replace = page.getByRole('dialog');
    await replace
      .getByLabel('Nowy plik')
      .setInputFiles(withFile('scan-1-fixed.pdf', ['Faktura 1 ponownie.']));
    await replace.getByRole('button', { name: 'Podmień plik' }).click();
    await reaches(first.id, annotate, 'WAITING', 'the fixed scan reaches the annotators');
    await page.getByTestId('document-error').waitFor({ state: 'detached' });

    // the rerun list in Polish: one failed parse left, its message in Polish
    await openParserPanel(page);
    const table = page.getByRole('table', { name: 'Lista ponownych uruchomień' });
    await eventuallyMatches(
      () => table.locator('tbody tr').count(),
      (n) => n === 2,
      'two failed scans left',
    );
    expect(await table.locator('tbody tr').first().getByText('Błąd').getAttribute('title')).toContain(
      'Plik PDF jest uszkodzony',
    );
    await shot(page, 'parser-rerun-list-pl');
  });
});
