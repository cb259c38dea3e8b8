/**
 * Issue 11, first slice, in a real browser: a process Upload -> File parser (automatic, ends WAITING) ->
 * Classifier (manual, acceptance required). A writer opens the waiting document by URL, edits and saves the
 * parsed text in EDITING mode, completes the parser step, meets a refusal (another user took the classifier
 * step), starts and completes the classifier step; a process admin accepts it (and backs out of the master
 * confirm dialog); after a reload everything is as saved; a READ user sees no action buttons; the settings
 * and the sidebar size persist; audio and unknown document types get their notices; the page in Polish.
 * Screenshots go to tests/artifacts/.
 */
import crypto from 'node:crypto';
import type { Knex } from 'knex';
import type { Browser, BrowserContext, Page } from 'playwright-core';
import { eventuallyMatches } from '../support/eventually';
import type { BuiltUser } from '../support/harness';
import {
  addEdges,
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
  uploadNodeOf,
  userOnProcess,
} from './support';

interface StepView {
  id: number;
  status: string;
  nodeId: number;
  blockedBy: { id: number } | null;
  nodeDTO: { activityType: string };
}
interface StateView {
  document: { status: string };
  steps: StepView[];
}

/** The page's window as far as the test reads it (the tests' TypeScript has no DOM library). */
interface CssWindow {
  getComputedStyle(el: unknown): { getPropertyValue(name: string): string };
}

const PARSED = 'Dear Sir,\nthe invoice is attached.\n';
const EDITED = 'Dear Madam,\nthe invoice no. 7 is attached.\n';

describe('document workspace in Chromium', () => {
  let knex: Knex;
  let browser: Browser;
  let token: string;
  let processId: number;
  let documentId: number;
  let writer: BuiltUser;
  let reader: BuiltUser;
  let processAdmin: BuiltUser;
  let thief: BuiltUser;
  const contexts: BrowserContext[] = [];
  const suffix = crypto.randomBytes(3).toString('hex');

  /** The bearer token (as the Authorization header) of a user signed in through the API. */
  const as = (user: BuiltUser): Promise<string> => tokenFor(user.login, user.password);
  const state = () => api<StateView>(token, `/api/v2/document/${documentId}/state`);
  const stepOf = (s: StateView, type: string) => s.steps.find((x) => x.nodeDTO.activityType === type);

  const eventually = eventuallyMatches;

  const pageFor = (user: BuiltUser): Promise<Page> => signedInPage(browser, contexts, user);

  const workspaceUrl = (id = documentId) => `${BASE_URL}/entity/process/${processId}/document/${id}`;
  const row = (page: Page, status?: string) =>
    page.locator(`[data-testid="step-row"]${status ? `[data-status="${status}"]` : ''}`);
  const selectedRow = (page: Page) => page.locator('[data-testid="step-row"][data-selected="true"]');

  beforeAll(async () => {
    ({ knex, token, processId } = await e2eWorld(`Workspace E2E ${suffix}`));
    const grant = (mode: 'READ' | 'WRITE' | 'ADMIN') => userOnProcess(knex, processId, mode);
    [writer, reader, processAdmin, thief] = await Promise.all([
      grant('WRITE'),
      grant('READ'),
      grant('ADMIN'),
      grant('ADMIN'),
    ]);
    const upload = await uploadNodeOf(token, processId);
    const parser = await addNode(token, processId, {
      name: 'Parser',
      activityType: 'FILE_PARSER',
      autoStepStatus: 'WAITING',
    });
    const classifier = await addNode(token, processId, {
      name: 'Classify',
      activityType: 'CLF',
      requiresAcceptance: true,
    });
    await addEdges(token, [upload, parser], [parser, classifier]);
    documentId = await addTextDocument(token, processId, `letter-${suffix}.txt`, PARSED);
    await eventually(state, (s) => stepOf(s, 'FILE_PARSER')?.status === 'WAITING', 'the parser step waits');
    browser = await launch();
  });

  afterAll(() => closeAll(contexts, browser, knex));

  it('shows a writer the waiting document in EDITING mode and saves edited text after Start working', async () => {
    const page = await pageFor(writer);
    await page.goto(workspaceUrl());
    await page.getByTestId('workspace').waitFor();
    await page.getByTestId('workspace-filename').getByText(`letter-${suffix}.txt`).waitFor();
    expect(await page.getByTestId('workspace-mode').getAttribute('data-mode')).toBe('EDITING');
    expect(await selectedRow(page).getAttribute('data-status')).toBe('WAITING');
    expect(await selectedRow(page).textContent()).toContain('Parser');
    const text = page.getByTestId('editing-text');
    expect(await text.inputValue()).toBe(PARSED);
    // Not editable before starting: read-only text, Edit disabled.
    expect(await text.getAttribute('readonly')).not.toBeNull();
    expect(await page.getByTestId('editing-submit').isDisabled()).toBe(true);
    // A writer has no block button to press.
    expect(await page.getByTestId('document-block').isDisabled()).toBe(true);

    await selectedRow(page).getByTestId('step-action-startWorking').click();
    // The parser node does not require acceptance: Complete is the main button, Accept in its split menu.
    await selectedRow(page).getByRole('button', { name: 'Complete', exact: true }).waitFor();
    expect(await selectedRow(page).getByTestId('step-accept-menu').count()).toBe(1);
    await page.locator('[data-testid="editing-text"]:not([readonly])').waitFor();
    expect(await page.getByTestId('editing-submit').isDisabled()).toBe(true);
    await text.fill(EDITED);
    await page.getByTestId('editing-submit').click();
    await page.getByText('The document text is saved').waitFor();
    await shot(page, '30-workspace-editing');
    // The idle timer's work-time counter runs while the user is active.
    await page.getByTestId('work-clock').filter({ hasNotText: '00:00' }).waitFor();
    const saved = await api<{ content: { content: string } }>(token, `/api/documents/${documentId}`);
    expect(saved.content.content).toBe(EDITED);
    expect(await page.getByTestId('editing-submit').isDisabled()).toBe(true);
  });

  it('completes the parser step and moves on to the classifier step in CLASSIFYING mode', async () => {
    const page = await pageFor(writer);
    await page.goto(workspaceUrl());
    await selectedRow(page).getByTestId('step-action-complete').click();
    await page.getByText('The step is completed').waitFor();
    await page.locator('[data-testid="workspace-mode"][data-mode="CLASSIFYING"]').waitFor();
    expect(await selectedRow(page).textContent()).toContain('Classify');
    expect(await page.getByTestId('document-text').textContent()).toBe(EDITED);
    await page.getByTestId('classifier-panel').waitFor();
    const tabs = page.getByTestId('step-tab');
    expect(await settledCount(tabs, 2)).toBe(2);
    expect(await tabs.allTextContents()).toEqual(['File parser', 'Classifier']);
  });

  it('shows the translated refusal when somebody else took the step first, then lets the writer work', async () => {
    const page = await pageFor(writer);
    await page.goto(workspaceUrl());
    const start = selectedRow(page).getByTestId('step-action-startWorking');
    await start.waitFor();
    // A process admin takes the classifier step behind the writer's back.
    const clf = stepOf(await state(), 'CLF')!;
    const thiefToken = await as(thief);
    await api(thiefToken, `/api/step/assign?docId=${documentId}&nodeId=${clf.nodeId}&stepId=${clf.id}`, {
      method: 'POST',
    });
    await start.click();
    await page.getByText('The step is assigned to another user').waitFor();
    // The state was refetched: the step shows its holder and the writer has nothing to press.
    await selectedRow(page).getByTestId('step-read-only').waitFor();
    await api(thiefToken, '/api/steps', {
      method: 'PUT',
      body: JSON.stringify({ id: clf.id, blockedBy: null }),
    });

    await page.reload();
    await selectedRow(page).getByTestId('step-action-startWorking').click();
    await selectedRow(page).getByTestId('step-action-complete').waitFor();
    // Acceptance is required: a writer gets Complete only, no Accept.
    expect(await selectedRow(page).getByTestId('step-action-accept').count()).toBe(0);
    await shot(page, '31-workspace-classifier-started');
    await selectedRow(page).getByTestId('step-action-complete').click();
    await page.getByText('The step is completed').waitFor();
    await eventually(state, (s) => stepOf(s, 'CLF')?.status === 'DONE', 'the classifier step is done');
    await row(page, 'DONE').filter({ hasText: 'Classify' }).waitFor();
    expect(await selectedRow(page).getByTestId('step-action-accept').count()).toBe(0);
    await selectedRow(page).getByTestId('step-action-activate').waitFor();
  });

  it('lets a process admin accept the done step, and confirms before cancelling the master acceptance', async () => {
    const page = await pageFor(processAdmin);
    await page.goto(workspaceUrl());
    expect(await selectedRow(page).getAttribute('data-status')).toBe('DONE');
    expect(await page.getByTestId('document-block').isDisabled()).toBe(false);
    await selectedRow(page).getByTestId('step-action-accept').click();
    await page.getByText('The step is accepted').waitFor();
    await page.locator('[data-testid="document-status"][data-status="DONE"]').waitFor();
    const accepted = await eventually(state, (s) => stepOf(s, 'CLF')?.status === 'ACCEPTED', 'accepted');
    expect(accepted.document.status).toBe('DONE');

    // The selection stays on the accepted step.
    await page.locator('[data-testid="step-row"][data-selected="true"][data-status="ACCEPTED"]').waitFor();
    await selectedRow(page).getByTestId('step-action-cancelAcceptance').click();
    const dialog = page.getByTestId('confirm-cancel-acceptance');
    await dialog.getByText('The document is done: it will move back to WAITING.').waitFor();
    await shot(page, '32-workspace-cancel-master');
    await dialog.getByRole('button', { name: 'Cancel', exact: true }).click();
    await dialog.waitFor({ state: 'detached' });
    expect(stepOf(await state(), 'CLF')!.status).toBe('ACCEPTED');
  });

  it('finds everything as saved after a reload', async () => {
    const page = await pageFor(writer);
    await page.goto(workspaceUrl());
    await page.reload();
    await page.locator('[data-testid="document-status"][data-status="DONE"]').waitFor();
    // Nothing waits: the last DONE step (the parser's) is selected on load, in EDITING mode, not editable.
    await page.locator('[data-testid="workspace-mode"][data-mode="EDITING"]').waitFor();
    expect(await selectedRow(page).getAttribute('data-status')).toBe('DONE');
    expect(await page.getByTestId('editing-text').inputValue()).toBe(EDITED);
    expect(await page.getByTestId('editing-submit').isDisabled()).toBe(true);
    await page.locator('[data-testid="step-tab"][data-activity-type="CLF"]').click();
    await page.locator('[data-testid="workspace-mode"][data-mode="CLASSIFYING"]').waitFor();
    expect(await selectedRow(page).getAttribute('data-status')).toBe('ACCEPTED');
    expect(await selectedRow(page).getByTestId('step-master').count()).toBe(1);
    expect(await page.getByTestId('document-text').textContent()).toBe(EDITED);
  });

  it('shows a READ user the document without any action button', async () => {
    const page = await pageFor(reader);
    await page.goto(workspaceUrl());
    await page.getByTestId('editing-text').waitFor();
    await selectedRow(page).getByTestId('step-read-only').waitFor();
    expect(await page.getByTestId('editing-text').getAttribute('readonly')).not.toBeNull();
    for (const tab of ['FILE_PARSER', 'CLF']) {
      await page.locator(`[data-testid="step-tab"][data-activity-type="${tab}"]`).click();
      await selectedRow(page).getByTestId('step-read-only').waitFor();
      expect(await page.getByTestId('step-actions').count()).toBe(0);
    }
    expect(await page.getByTestId('document-block').isDisabled()).toBe(true);
    await shot(page, '33-workspace-read-only');
  });

  it('keeps the settings and the tools sidebar size in this browser', async () => {
    const page = await pageFor(writer);
    await page.goto(workspaceUrl());
    await page.getByTestId('tool-settings').click();
    await page.getByTestId('settings-panel').waitFor();
    await page.getByTestId('setting-font-size').fill('21.5');
    await page.getByTestId('settings-save').click();
    const fontSize = () =>
      page
        .getByTestId('workspace')
        .evaluate((el) =>
          (globalThis as unknown as CssWindow).getComputedStyle(el).getPropertyValue('--ws-font-size').trim(),
        );
    await eventually(fontSize, (v) => v === '21.5px', 'the saved font size applies');
    const resizer = page.getByTestId('tools-resizer');
    expect(await page.getByTestId('tools-panel').getAttribute('data-size')).toBe('25');
    await resizer.focus();
    for (let i = 0; i < 5; i++) await page.keyboard.press('ArrowRight');
    await page.locator('[data-testid="tools-panel"][data-size="30"]').waitFor();
    await shot(page, '34-workspace-settings');

    await page.reload();
    await page.getByTestId('editing-text').waitFor();
    expect(await fontSize()).toBe('21.5px');
    await page.getByTestId('tool-documents').click();
    await page.getByTestId('documents-panel').getByText(`letter-${suffix}.txt`).waitFor();
    expect(await page.getByTestId('tools-panel').getAttribute('data-size')).toBe('30');
    await page.getByTestId('tools-panel-close').click();
    await page.getByTestId('tools-panel').waitFor({ state: 'detached' });
    // Clear puts the defaults back.
    await page.getByTestId('tool-settings').click();
    await page.getByTestId('settings-clear').click();
    await eventually(fontSize, (v) => v === '18px', 'the default font size applies');
  });

  it('opens an audio document in the speech workspace; notices for an unknown type and a non-numeric id', async () => {
    const page = await pageFor(writer);
    const other = async (type: string) => {
      const doc = await api<{ id: number }>(token, '/api/documents', {
        method: 'POST',
        body: JSON.stringify({ processId, filename: `other-${type}-${suffix}.txt`, content: 'x' }),
      });
      await knex('documents').where('id', doc.id).update({ document_type: type });
      return doc.id;
    };
    const audio = await other('AUDIOFILE');
    await page.goto(workspaceUrl(audio));
    await page.locator(`[data-testid="workspace"][data-document-id="${audio}"]`).waitFor();
    await page.goto(workspaceUrl(await other('VIDEO')));
    await page.getByTestId('invalid-document-type').getByText('Invalid document type').waitFor();
    await page.goto(`${BASE_URL}/entity/process/${processId}/document/abc`);
    await page.getByTestId('not-found').waitFor();
    await page.goto(`${BASE_URL}/entity/process/${processId}/document`);
    await page.getByTestId('workspace-no-document').waitFor();
  });

  it('shows a failed parser step with its error; a writer may reopen it, a process admin reruns it', async () => {
    const broken = await api<{ id: number }>(token, '/api/documents', {
      method: 'POST',
      body: JSON.stringify({ processId, filename: `broken-${suffix}.json`, content: '{"foo": 1}' }),
    });
    const brokenState = () => api<StateView>(token, `/api/v2/document/${broken.id}/state`);
    await eventually(brokenState, (s) => stepOf(s, 'FILE_PARSER')?.status === 'ERROR', 'the parser fails');

    const writerPage = await pageFor(writer);
    await writerPage.goto(workspaceUrl(broken.id));
    await selectedRow(writerPage).getByTestId('step-error').getByText('not a transcript').waitFor();
    await selectedRow(writerPage).getByTestId('step-action-cancelAcceptance').waitFor();
    expect(await selectedRow(writerPage).getByTestId('step-action-rerun').count()).toBe(0);

    const page = await pageFor(processAdmin);
    await page.goto(workspaceUrl(broken.id));
    expect(await selectedRow(page).getAttribute('data-status')).toBe('ERROR');
    await shot(page, '36-workspace-step-error');
    await selectedRow(page).getByTestId('step-action-rerun').click();
    await page.getByText('The step runs again').waitFor();
    await eventually(
      brokenState,
      (s) => stepOf(s, 'FILE_PARSER')?.status === 'ERROR',
      'the rerun fails again',
    );
    await page.locator('[data-testid="step-row"][data-selected="true"][data-status="ERROR"]').waitFor();
    await selectedRow(page).getByTestId('step-error').getByText('not a transcript').waitFor();
  });

  it('speaks Polish', async () => {
    const page = await pageFor(processAdmin);
    await chooseLanguage(page, 'pl');
    await page.goto(workspaceUrl());
    await page.getByTestId('step-sidebar').getByText('Kroki').waitFor();
    expect(await page.getByTestId('workspace-mode').textContent()).toBe('Edycja');
    expect(await selectedRow(page).getByTestId('step-status').textContent()).toBe('Wykonany');
    expect(await page.getByTestId('step-tab').allTextContents()).toEqual(['Parser plików', 'Klasyfikator']);
    await page.getByText('Pokaż ukryte tokeny').waitFor();
    await selectedRow(page).getByTestId('step-action-accept').getByText('Akceptuj').waitFor();
    await selectedRow(page).getByTestId('step-action-activate').getByText('Aktywuj').waitFor();
    await page.getByTestId('document-block').getByText('Zablokuj').waitFor();
    await page.getByTestId('editing-submit').getByText('Edytuj').waitFor();
    await shot(page, '35-workspace-polish');
    await page.locator('[data-testid="step-tab"][data-activity-type="CLF"]').click();
    await page.locator('[data-testid="step-row"][data-selected="true"][data-status="ACCEPTED"]').waitFor();
    expect(await selectedRow(page).getByTestId('step-status').textContent()).toBe('Zaakceptowany');
    await selectedRow(page)
      .getByTestId('step-action-cancelAcceptance')
      .getByText('Cofnij akceptację')
      .waitFor();
    expect(await page.getByTestId('workspace-mode').textContent()).toBe('Klasyfikacja');
  });
});
