/**
 * Issue 13 "Done when": the documents journey in Chromium, once in English and once in Polish (each language
 * with its own process Upload -> Parser (FILE_PARSER, done automatically) -> Entities (SPAN: Person) and
 * Kind (CLF: Invoice, Letter)):
 * - an admin opens Upload from the process row and drops four files of different types (txt, pdf, docx, eml)
 *   and a fifth the upload rule refuses (a .json that is not JSON): the refused one is listed apart, the four
 *   are sent and link to their documents;
 * - the admin watches the four appear on the documents dashboard and the real parser finish each one;
 *   meanwhile an annotator classifies the e-mail as an Invoice and completes its Kind step, and the admin
 *   tags "Anna Kowalska" as a Person in the text file (both through the API);
 * - on the dashboard the admin filters by the Kind step's status (Done, then Waiting), assigns the annotator
 *   to the pdf from its assignee cell and filters by that assignee (found by a first-name prefix);
 * - in the document list the admin finds the pdf by its content, the text file by its NER tag and the
 *   e-mail by its classifier tag, opens the pdf in the workspace, renames the text file on its edit page,
 *   and deletes the docx and the e-mail with Delete selected (confirmed; gone through the API too);
 * - a READ user, in a second browser context, gets the dashboard without the All tab (starting on My
 *   documents) and a list without Delete, Delete selected or Edit.
 * Screenshots go to tests/artifacts/ (90-documents-journey-*).
 */
import crypto from 'node:crypto';
import type { Knex } from 'knex';
import type { Browser, BrowserContext, Page } from 'playwright-core';
import { eventuallyMatches } from '../support/eventually';
import type { BuiltUser } from '../support/harness';
import { eml, textPdf } from '../support/media';
import { docxOf } from '../support/zip';
import {
  addEdges,
  addNode,
  api,
  BASE_URL,
  chooseLanguage,
  closeAll,
  e2eWorld,
  launch,
  settledCount,
  settledValue,
  shot,
  signedInPage,
  tokenFor,
  uploadFile,
  uploadNodeOf,
  userOnProcess,
} from './support';

interface StateView {
  steps: { id: number; status: string; nodeId: number }[];
}

const TEXTS = {
  txt: 'Anna Kowalska signed the lease in Krakow.\nThe keys are with the porter.\n',
  pdf: ['Quarterly report', 'The lighthouse budget grew by seven percent.'],
  docx: 'Anna Nowak drafted the contract in Gdansk.',
  eml: 'Please pay invoice 4711 by Friday.',
};
type Key = keyof typeof TEXTS;
const KEYS: Key[] = ['txt', 'pdf', 'docx', 'eml'];

const STRINGS = {
  en: {
    upload: 'Upload',
    uploadTitle: 'Upload documents',
    rejectedTitle: 'Not accepted (1)',
    invalidJson: (f: string) => `The file ${f} is not valid JSON.`,
    summary: '4 uploaded, 0 waiting, 0 failed',
    tabs: { my: 'My documents', unassigned: 'Unassigned', done: 'Done', all: 'All' },
    filters: 'Filters',
    total: (n: number) => `Total: ${n}`,
    done: 'Done',
    waiting: 'Waiting',
    noAssignees: 'no assignees',
    listTitle: 'Documents',
    sphere: 'Sphere',
    byNer: 'By NER tag',
    view: 'View',
    edit: 'Edit',
    editTitle: 'Edit document',
    deleteSelected: 'Delete selected (2)',
    confirmSelected: 'Are you sure you want to delete the 2 selected documents?',
    noResults: 'No results',
  },
  pl: {
    upload: 'Wgraj',
    uploadTitle: 'Wgrywanie dokumentów',
    rejectedTitle: 'Nieprzyjęte pliki (1)',
    invalidJson: (f: string) => `Plik ${f} nie jest poprawnym JSON-em.`,
    summary: 'wgrane: 4, oczekujące: 0, nieudane: 0',
    tabs: { my: 'Moje dokumenty', unassigned: 'Nieprzypisane', done: 'Zakończone', all: 'Wszystkie' },
    filters: 'Filtry',
    total: (n: number) => `Razem: ${n}`,
    done: 'Wykonany',
    waiting: 'Oczekuje',
    noAssignees: 'brak przypisanych',
    listTitle: 'Dokumenty',
    sphere: 'Sfera',
    byNer: 'Według tagu NER',
    view: 'Podgląd',
    edit: 'Edytuj',
    editTitle: 'Edycja dokumentu',
    deleteSelected: 'Usuń zaznaczone (2)',
    confirmSelected: 'Czy na pewno chcesz usunąć zaznaczone dokumenty (2)?',
    noResults: 'Brak wyników',
  },
} as const;

/** Parsing runs LibreOffice for the docx on a loaded machine: generous. */
const PARSED_MS = 240_000;
/** Each part of the journey may wait that long (and the deletion up to its 120 s budget). */
const PART_MS = PARSED_MS + 60_000;

describe.each(['en', 'pl'] as const)('documents journey in Chromium (%s)', (lang) => {
  const s = STRINGS[lang];
  let knex: Knex;
  let browser: Browser;
  let token: string;
  let processId: number;
  let admin: BuiltUser;
  let annotator: BuiltUser;
  let reader: BuiltUser;
  let page: Page;
  const contexts: BrowserContext[] = [];
  const suffix = crypto.randomBytes(3).toString('hex');
  const processName = `Documents journey ${lang} ${suffix}`;
  const ids = { parser: 0, span: 0, kind: 0, person: 0, invoice: 0 };
  const docs = {} as Record<Key, number>;
  const filenames: Record<Key, string> = {
    txt: `notes-${suffix}.txt`,
    pdf: `report-${suffix}.pdf`,
    docx: `contract-${suffix}.docx`,
    eml: `invoice-${suffix}.eml`,
  };
  const renamed = `lease-${suffix}.txt`;

  const dashboardUrl = () => `${BASE_URL}/entity/process/${processId}/dashboard/documents`;
  const listUrl = () => `${BASE_URL}/entity/process/${processId}/documents`;
  const state = (id: number) => api<StateView>(token, `/api/v2/document/${id}/state`);
  const keyOf = (filename: string) =>
    filename === renamed ? 'txt' : (KEYS.find((k) => filenames[k] === filename) ?? filename);

  // --- the dashboard ---
  const dashRow = (p: Page, key: Key) =>
    p.locator(`[data-testid="documents-row"][data-document-id="${docs[key]}"]`);
  const badge = (p: Page, key: Key, nodeId: number, status: string) =>
    dashRow(p, key).locator(
      `[data-testid="documents-step"][data-node-id="${nodeId}"][data-status="${status}"]`,
    );
  /** The documents the dashboard lists once they are `expected` (by key, sorted). */
  const dashboard = (p: Page, expected: string[]) =>
    settledValue(
      async () => (await p.getByTestId('documents-filename').allTextContents()).map(keyOf).sort(),
      [...expected].sort(),
      30_000,
    );
  const kindFilter = (p: Page) =>
    p.locator(`[data-testid="documents-node-filter"][data-node-id="${ids.kind}"]`);
  const kindStatus = (p: Page, status: string) =>
    kindFilter(p).locator(`[data-testid="documents-status-check"][data-status="${status}"]`);

  // --- the document list ---
  const listRow = (p: Page, key: Key) =>
    p.locator(`[data-testid="document-list-row"][data-document-id="${docs[key]}"]`);
  /** The documents the list shows once they are `expected` (by key, in the list's order: id ascending). */
  const listed = (p: Page, expected: string[]) =>
    settledValue(
      async () => (await p.getByTestId('document-list-filename').allTextContents()).map(keyOf),
      expected,
      30_000,
    );

  beforeAll(async () => {
    ({ knex, admin, token, processId } = await e2eWorld(processName));
    annotator = await userOnProcess(knex, processId, 'WRITE', {
      firstName: 'Wanda',
      lastName: `Writer${suffix}`,
    });
    reader = await userOnProcess(knex, processId, 'READ', { firstName: 'Rita', lastName: `Reader${suffix}` });
    const upload = await uploadNodeOf(token, processId);
    ids.parser = await addNode(token, processId, {
      name: 'Parser',
      activityType: 'FILE_PARSER',
      autoStepStatus: 'DONE',
    });
    ids.span = await addNode(token, processId, { name: 'Entities', activityType: 'SPAN' });
    ids.kind = await addNode(token, processId, {
      name: 'Kind',
      activityType: 'CLF',
      requiresAcceptance: false,
    });
    await addEdges(token, [upload, ids.parser], [ids.parser, ids.span], [ids.parser, ids.kind]);
    const post = async (path: string, body: Record<string, unknown>) =>
      (await api<{ id: number }>(token, path, { method: 'POST', body: JSON.stringify(body) })).id;
    ids.person = await post(`/api/node/${ids.span}/ner-tag-type`, {
      name: 'Person',
      backgroundColor: '#f8d7da',
      textColor: '#000000',
      mandatory: false,
      selectable: true,
      disabled: false,
    });
    ids.invoice = await post(`/api/node/${ids.kind}/classifier-types`, {
      name: 'Invoice',
      backgroundColor: '#e67e22',
    });
    await post(`/api/node/${ids.kind}/classifier-types`, { name: 'Letter', backgroundColor: '#2980b9' });
    browser = await launch();
    page = await signedInPage(browser, contexts, admin);
    await page.setViewportSize({ width: 1280, height: 900 });
    if (lang === 'pl') await chooseLanguage(page, 'pl');
  });

  afterAll(() => closeAll(contexts, browser, knex));

  it(
    'uploads four files of different types and lists a refused fifth apart',
    async () => {
      const row = page.getByTestId('process-row').filter({ hasText: processName });
      expect(await row.getByTestId('process-action-upload').getAttribute('aria-label')).toBe(s.upload);
      await row.getByTestId('process-action-upload').click();
      await page.waitForURL(`${BASE_URL}/entity/process/${processId}/upload`);
      await page.getByRole('heading', { name: s.uploadTitle }).waitFor();
      await page.getByTestId('upload-target').waitFor();
      const broken = `broken-${suffix}.json`;
      await page.getByTestId('upload-input').setInputFiles([
        uploadFile(filenames.txt, Buffer.from(TEXTS.txt), 'text/plain'),
        uploadFile(filenames.pdf, textPdf([TEXTS.pdf]), 'application/pdf'),
        uploadFile(
          filenames.docx,
          docxOf(TEXTS.docx),
          'application/vnd.openxmlformats-officedocument.wordprocessingml.document',
        ),
        uploadFile(
          filenames.eml,
          eml({
            subject: 'Invoice 4711',
            from: 'billing@example.test',
            to: 'lead@example.test',
            body: TEXTS.eml,
          }),
          'message/rfc822',
        ),
        uploadFile(broken, Buffer.from('{"total": 4711,'), 'application/json'),
      ]);

      // The refused file is listed apart with the rule's reason, before anything is sent.
      const rejected = page.getByTestId('upload-rejected-item');
      expect(await settledCount(rejected, 1)).toBe(1);
      expect(await rejected.getByTestId('upload-rejected-reason').textContent()).toBe(s.invalidJson(broken));
      await page.getByRole('heading', { name: s.rejectedTitle }).waitFor();

      // The four go one at a time and each links to its document.
      expect(await settledCount(page.getByTestId('upload-item'), 4)).toBe(4);
      await page
        .locator('[data-testid="upload-item"][data-status="done"]')
        .nth(3)
        .waitFor({ timeout: 120_000 });
      expect(await page.getByTestId('upload-summary').textContent()).toBe(s.summary);
      for (const key of KEYS) {
        const item = page.locator(`[data-testid="upload-item"][data-filename="${filenames[key]}"]`);
        docs[key] = Number(await item.getAttribute('data-document-id'));
        expect(await item.getByTestId('upload-item-open').getAttribute('href')).toBe(
          `/entity/process/${processId}/document/${docs[key]}`,
        );
      }
      // sent one at a time in the order dropped
      expect(KEYS.map((k) => docs[k])).toEqual(KEYS.map((k) => docs[k]).sort((a, b) => a - b));
      await shot(page, `90-documents-journey-${lang}-upload`);
      await page.getByTestId('upload-discard-all').click();
      expect(await settledCount(rejected, 0)).toBe(0);
    },
    PART_MS,
  );

  it(
    'watches the documents arrive and get parsed on the dashboard',
    async () => {
      await page.goto(`${BASE_URL}/entity/process`);
      await page
        .getByTestId('process-row')
        .filter({ hasText: processName })
        .getByTestId('process-action-dashboard')
        .click();
      await page.waitForURL(dashboardUrl());
      await page.locator('[data-testid="documents-dashboard"][data-tab="all"]').waitFor();
      await page.getByTestId('documents-tab-all').getByText(s.tabs.all).waitFor();
      expect(await dashboard(page, KEYS)).toEqual([...KEYS].sort());
      await page.getByTestId('documents-pagination-total').getByText(s.total(4)).waitFor();
      // The parser runs for real, and the dashboard follows it without a reload: each document's Parser step
      // ends Done, then Entities and Kind wait.
      for (const key of KEYS) {
        await badge(page, key, ids.kind, 'WAITING').getByText(s.waiting).waitFor({ timeout: PARSED_MS });
        await badge(page, key, ids.parser, 'DONE').waitFor();
        await badge(page, key, ids.span, 'WAITING').waitFor();
        await dashRow(page, key).getByTestId('documents-assignees').getByText(s.noAssignees).waitFor();
      }
      await shot(page, `90-documents-journey-${lang}-dashboard`);

      // The parsed texts: what the list's content search will find.
      const content = async (key: Key) =>
        (await api<{ content: { content: string } | null }>(token, `/api/documents/${docs[key]}`)).content
          ?.content ?? '';
      expect(await content('txt')).toContain('Anna Kowalska signed the lease');
      expect(await content('pdf')).toContain('lighthouse budget');
      expect(await content('docx')).toContain('Anna Nowak drafted the contract');
      expect(await content('eml')).toContain('Please pay invoice 4711');
    },
    PART_MS,
  );

  it(
    'filters by step status, assigns a user from the assignee cell and filters by that assignee',
    async () => {
      // Meanwhile, through the API: the annotator classifies the e-mail and completes its Kind step (and so
      // becomes its assignee); the admin tags the person in the text file.
      const annotatorToken = await tokenFor(annotator.login, annotator.password);
      await api(annotatorToken, `/api/step/assign?docId=${docs.eml}&nodeId=${ids.kind}`, { method: 'POST' });
      await api(annotatorToken, '/api/classifier-tags', {
        method: 'POST',
        body: JSON.stringify({ documentId: docs.eml, classifierTypeId: ids.invoice }),
      });
      const kindStep = (await state(docs.eml)).steps.find((x) => x.nodeId === ids.kind)!;
      await api(annotatorToken, `/api/steps/${kindStep.id}/complete`, { method: 'PUT' });
      await eventuallyMatches(
        () => state(docs.eml),
        (st) => st.steps.some((x) => x.nodeId === ids.kind && x.status === 'DONE'),
        'the e-mail is classified',
      );
      const text = (await api<{ content: { content: string } }>(token, `/api/documents/${docs.txt}`)).content
        .content;
      await api(token, '/api/ner-tags', {
        method: 'POST',
        body: JSON.stringify({
          documentId: docs.txt,
          nerTagTypeId: ids.person,
          startOffset: text.indexOf('Anna Kowalska'),
          endOffset: text.indexOf('Anna Kowalska') + 'Anna Kowalska'.length,
        }),
      });

      await page.reload();
      await badge(page, 'eml', ids.kind, 'DONE').getByText(s.done).waitFor();
      await dashRow(page, 'eml')
        .getByTestId('documents-assignees')
        .getByText(`Wanda Writer${suffix}`)
        .waitFor();

      // By step status: Kind Done is the e-mail; Kind Waiting the other three.
      await page.getByTestId('documents-filters-toggle').getByText(s.filters).click();
      await kindStatus(page, 'DONE').check();
      await kindFilter(page).and(page.locator('[data-state="indeterminate"]')).waitFor();
      expect(await dashboard(page, ['eml'])).toEqual(['eml']);
      await page.getByTestId('documents-pagination-total').getByText(s.total(1)).waitFor();
      await shot(page, `90-documents-journey-${lang}-step-filter`);
      await kindStatus(page, 'DONE').uncheck();
      await kindStatus(page, 'WAITING').check();
      expect(await dashboard(page, ['txt', 'pdf', 'docx'])).toEqual(['docx', 'pdf', 'txt']);
      await page.getByTestId('documents-filters-clear').click();
      expect(await dashboard(page, KEYS)).toEqual([...KEYS].sort());

      // Assign the annotator to the pdf from its assignee cell.
      await dashRow(page, 'pdf').getByTestId('assignees-toggle').click();
      await dashRow(page, 'pdf').getByTestId('edit-assignees').click();
      await page.getByTestId('assignees-search').fill(`Writer${suffix}`);
      await page
        .getByTestId('assignees-group-others')
        .locator(`input[data-user-id="${annotator.id}"]`)
        .check();
      await shot(page, `90-documents-journey-${lang}-assign`);
      await page.getByTestId('assignees-save').click();
      await page.getByTestId('assignees-menu').waitFor({ state: 'detached' });
      await dashRow(page, 'pdf')
        .getByTestId('documents-assignees')
        .getByText(`Wanda Writer${suffix}`)
        .waitFor();
      const pdf = await api<{ assignees: { id: number }[] }>(token, `/api/documents/${docs.pdf}`);
      expect(pdf.assignees.map((a) => a.id)).toEqual([annotator.id]);

      // By assignee, found by a first-name prefix: the pdf and the e-mail.
      await page.getByTestId('documents-filter-assignee').fill('wan');
      await page.locator(`[data-testid="documents-assignee-option"][data-user-id="${annotator.id}"]`).click();
      await page.locator(`[data-testid="documents-assignee-chip"][data-user-id="${annotator.id}"]`).waitFor();
      expect(await dashboard(page, ['pdf', 'eml'])).toEqual(['eml', 'pdf']);
      await page.getByTestId('documents-filters-count').getByText('1').waitFor();
      await shot(page, `90-documents-journey-${lang}-assignee-filter`);
      // Unassigned: the two nobody was given.
      await page.getByTestId('documents-tab-unassigned').getByText(s.tabs.unassigned).click();
      expect(await dashboard(page, ['txt', 'docx'])).toEqual(['docx', 'txt']);
    },
    PART_MS,
  );

  it(
    'finds documents by content, NER tag and classifier tag, opens, renames and deletes them in the list',
    async () => {
      await page.goto(listUrl());
      await page.getByText(s.listTitle, { exact: true }).waitFor();
      // the same word for uploading as the process row's action
      expect(await page.getByTestId('document-list-upload').textContent()).toBe(s.upload);
      // a process is shown to users as a Sphere
      await page.getByTestId('document-list-table').getByRole('columnheader', { name: s.sphere }).waitFor();
      expect(await listRow(page, 'pdf').getByTestId('document-list-process').getAttribute('href')).toBe(
        `/entity/process/${processId}/graph`,
      );
      expect(await listed(page, KEYS)).toEqual(KEYS);
      await page.getByTestId('document-list-pagination-total').getByText(s.total(4)).waitFor();

      // By content: the word is only in the pdf's text, which the parser extracted.
      await page.getByTestId('document-search-content').fill('lighthouse');
      await page.getByTestId('document-search-submit').click();
      expect(await listed(page, ['pdf'])).toEqual(['pdf']);
      // "Anna" is in two texts, but only one has her tagged as a Person.
      await page.getByTestId('document-search-content').fill('anna');
      await page.getByTestId('document-search-submit').click();
      expect(await listed(page, ['txt', 'docx'])).toEqual(['txt', 'docx']);
      await page.getByTestId('document-search-mode-BY_NER_TAG').getByText(s.byNer).click();
      await page.getByTestId('document-search-ner-type').selectOption({ label: 'Person' });
      await page.getByTestId('document-search-ner-values').fill('anna');
      await page.getByTestId('document-search-submit').click();
      expect(await listed(page, ['txt'])).toEqual(['txt']);
      await shot(page, `90-documents-journey-${lang}-list-ner`);
      // By classifier tag: the e-mail the annotator classified.
      await page.getByTestId('document-search-mode-BY_CLASSIFIER_TAG').click();
      await page.locator('[data-testid="document-search-classifier-type"][data-type-name="Invoice"]').check();
      await page.getByTestId('document-search-submit').click();
      expect(await listed(page, ['eml'])).toEqual(['eml']);
      await page
        .locator('[data-testid="document-search-classifier-type"][data-type-name="Invoice"]')
        .uncheck();
      await page.locator('[data-testid="document-search-classifier-type"][data-type-name="Letter"]').check();
      await page.getByTestId('document-search-submit').click();
      await page.getByTestId('document-list-empty').getByText(s.noResults).waitFor();

      // Open the pdf in the workspace: its parsed text.
      await page.getByTestId('document-search-mode-BY_CONTENT').click();
      expect(await listed(page, KEYS)).toEqual(KEYS);
      await listRow(page, 'pdf').getByTestId('document-list-view').getByText(s.view).click();
      await page.waitForURL(`${BASE_URL}/entity/process/${processId}/document/${docs.pdf}`);
      await page.locator(`[data-testid="workspace"][data-document-id="${docs.pdf}"]`).waitFor();
      await page.getByTestId('document-text').getByText('lighthouse budget', { exact: false }).waitFor();
      await shot(page, `90-documents-journey-${lang}-workspace`);

      // Rename the text file on its edit page.
      await page.goto(listUrl());
      await listRow(page, 'txt').getByTestId('document-list-edit').getByText(s.edit).click();
      await page.waitForURL(`${BASE_URL}/entity/process/${processId}/documents/${docs.txt}/edit`);
      await page.getByRole('heading', { name: s.editTitle }).waitFor();
      expect(await page.getByTestId('document-edit-filename').inputValue()).toBe(filenames.txt);
      await page.getByTestId('document-edit-filename').fill(renamed);
      await shot(page, `90-documents-journey-${lang}-edit`);
      await page.getByTestId('document-edit-save').click();
      await page.waitForURL(`${BASE_URL}/entity/process/${processId}/documents/${docs.txt}`);
      await page.getByTestId('document-detail-filename').getByText(renamed).waitFor();

      // Delete the docx and the e-mail with Delete selected.
      await page.goto(listUrl());
      await listRow(page, 'txt').getByTestId('document-list-filename').getByText(renamed).waitFor();
      expect(await listed(page, KEYS)).toEqual(KEYS);
      await listRow(page, 'docx').getByTestId('document-list-select').check();
      await listRow(page, 'eml').getByTestId('document-list-select').check();
      await page.getByTestId('document-list-delete-selected').getByText(s.deleteSelected).click();
      await page.getByTestId('document-list-confirm').getByText(s.confirmSelected).waitFor();
      await shot(page, `90-documents-journey-${lang}-confirm`);
      await page.getByTestId('document-list-confirm-confirm').click();
      await page
        .getByTestId('document-list-pagination-total')
        .getByText(s.total(2))
        .waitFor({ timeout: 120_000 });
      expect(await listed(page, ['txt', 'pdf'])).toEqual(['txt', 'pdf']);
      for (const key of ['docx', 'eml'] as const) {
        const res = await fetch(`${BASE_URL}/api/documents/${docs[key]}`, {
          headers: { Authorization: token },
        });
        expect(res.status).toBe(404);
      }
      await shot(page, `90-documents-journey-${lang}-after-delete`);
    },
    PART_MS,
  );

  it(
    'gives a READ user the dashboard without All and a list without delete',
    async () => {
      const readerPage = await signedInPage(browser, contexts, reader);
      await readerPage.setViewportSize({ width: 1280, height: 900 });
      if (lang === 'pl') await chooseLanguage(readerPage, 'pl');
      await readerPage.goto(dashboardUrl());
      await readerPage.locator('[data-testid="documents-dashboard"][data-tab="my"]').waitFor();
      await readerPage.getByTestId('documents-tab-my').getByText(s.tabs.my).waitFor();
      await readerPage.getByTestId('documents-tab-done').getByText(s.tabs.done).waitFor();
      expect(await readerPage.getByTestId('documents-tab-all').count()).toBe(0);
      await readerPage.getByTestId('documents-empty').getByText(s.noResults).waitFor();
      await readerPage.getByTestId('documents-tab-unassigned').getByText(s.tabs.unassigned).click();
      expect(await dashboard(readerPage, ['txt'])).toEqual(['txt']);
      await shot(readerPage, `90-documents-journey-${lang}-reader-dashboard`);

      await readerPage.goto(listUrl());
      expect(await listed(readerPage, ['txt', 'pdf'])).toEqual(['txt', 'pdf']);
      expect(await listRow(readerPage, 'pdf').getByTestId('document-list-view').textContent()).toBe(s.view);
      // the upload button follows the process's nodes: absent only means something once they are in
      await readerPage.locator('[data-testid="document-list"][data-nodes="loaded"]').waitFor();
      for (const id of [
        'document-list-delete',
        'document-list-delete-selected',
        'document-list-delete-all',
        'document-list-edit',
        'document-list-upload',
        'document-list-master',
        'document-list-select',
      ])
        expect(await readerPage.getByTestId(id).count()).toBe(0);
      await shot(readerPage, `90-documents-journey-${lang}-reader-list`);
      // The process link leads a reader to the dashboard (the graph is for process admins).
      await listRow(readerPage, 'pdf').getByTestId('document-list-process').getByText(processName).click();
      await readerPage.waitForURL(dashboardUrl());
      await readerPage.locator('[data-testid="documents-dashboard"][data-tab="my"]').waitFor();
    },
    PART_MS,
  );
});
