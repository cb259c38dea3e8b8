/**
 * The documents dashboard (issue 13 section 1; spec 2 sections 2-6) in Chromium, over POST
 * api/v2/document-info: a process Upload -> Classifier with four documents, the classifier steps of two
 * moved to DONE and ERROR and one document locked by a writer directly in the database (the step actions
 * are not what this suite tests). A process admin starts on All, filters by step status through the
 * tri-state node checkbox, assigns a user from a row's assignee cell (the assignees menu), filters by that
 * assignee found by a name prefix, sees 'view' on the locked document, and opens another from 'go to
 * document'. A READ user has no All tab, starts on My documents, can open the menu only where a document
 * has an assignee, and reads the page in Polish. Screenshots at 1280 and 390 px go to tests/artifacts/.
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
  settledValue,
  shot,
  signedInPage,
  tokenFor,
  uploadNodeOf,
  userOnProcess,
} from './support';

interface StateView {
  steps: { status: string; nodeDTO: { activityType: string } }[];
}

describe('documents dashboard in Chromium', () => {
  let knex: Knex;
  let browser: Browser;
  let token: string;
  let processId: number;
  let clfId: number;
  let writer: BuiltUser;
  let reader: BuiltUser;
  let processAdmin: BuiltUser;
  const docs: Record<string, number> = {};
  const contexts: BrowserContext[] = [];
  const suffix = crypto.randomBytes(3).toString('hex');
  const file = (name: string) => `${name}-${suffix}.txt`;

  const dashboardUrl = () => `${BASE_URL}/entity/process/${processId}/dashboard/documents`;
  const row = (page: Page, name: string) =>
    page.locator(`[data-testid="documents-row"][data-document-id="${docs[name]}"]`);
  /** The file names listed (without the suffix, sorted). */
  const listed = async (page: Page): Promise<string[]> =>
    (await page.getByTestId('documents-filename').evaluateAll((els) => els.map((el) => el.textContent ?? '')))
      .map((n) => n.replace(/-[0-9a-f]{6}\.txt$/, ''))
      .sort();
  /** The file names listed once they are `expected` (see settledValue). */
  const names = (page: Page, expected: string[]) => settledValue(() => listed(page), expected);
  const ALL4 = ['alpha', 'beta', 'delta', 'gamma'];
  const clfFilter = (page: Page) =>
    page.locator(`[data-testid="documents-node-filter"][data-node-id="${clfId}"]`);

  beforeAll(async () => {
    ({ knex, token, processId } = await e2eWorld(`Documents dashboard E2E ${suffix}`));
    const grant = (mode: 'READ' | 'WRITE' | 'ADMIN', firstName: string, lastName: string) =>
      userOnProcess(knex, processId, mode, { firstName, lastName });
    writer = await grant('WRITE', 'Wanda', `Writer${suffix}`);
    reader = await grant('READ', 'Rita', `Reader${suffix}`);
    processAdmin = await grant('ADMIN', 'Paula', `Admin${suffix}`);
    const upload = await uploadNodeOf(token, processId);
    clfId = await addNode(token, processId, {
      name: 'Classify',
      activityType: 'CLF',
      requiresAcceptance: false,
    });
    await addEdges(token, [upload, clfId]);
    for (const name of ['alpha', 'beta', 'gamma', 'delta'])
      docs[name] = await addTextDocument(token, processId, file(name), `The ${name} text.`);
    for (const id of Object.values(docs))
      await eventuallyMatches(
        () => api<StateView>(token, `/api/v2/document/${id}/state`),
        (s) => s.steps.some((x) => x.nodeDTO.activityType === 'CLF' && x.status === 'WAITING'),
        'the classifier step waits',
      );
    await knex('steps').where({ document_id: docs.alpha, node_id: clfId }).update({ status: 'DONE' });
    await knex('steps').where({ document_id: docs.beta, node_id: clfId }).update({ status: 'ERROR' });
    // delta: locked by the writer (assigned and blocking); gamma: the reader's
    await api(token, `/api/v2/document/${docs.delta}/assignees/${writer.id}`, { method: 'POST' });
    await knex('documents').where('id', docs.delta).update({ blocked_by_id: writer.id });
    await api(token, `/api/v2/document/${docs.gamma}/assignees/${reader.id}`, { method: 'POST' });
    browser = await launch();
  });

  afterAll(() => closeAll(contexts, browser, knex));

  it('gives a process admin All first, filters by step status and assignee, assigns from the cell and opens a document', async () => {
    const page = await signedInPage(browser, contexts, processAdmin);
    await page.setViewportSize({ width: 1280, height: 900 });
    // other dashboard paths lead to the documents dashboard
    await page.goto(`${BASE_URL}/entity/process/${processId}/dashboard/nowhere`);
    await page.waitForURL(dashboardUrl());
    await page.locator('[data-testid="documents-dashboard"][data-tab="all"]').waitFor();
    expect(await page.getByTestId('documents-tab-all').getAttribute('aria-selected')).toBe('true');
    expect(await names(page, ['alpha', 'beta', 'delta', 'gamma'])).toEqual([
      'alpha',
      'beta',
      'delta',
      'gamma',
    ]);
    await page.getByTestId('documents-pagination-total').getByText('Total: 4').waitFor();
    // a badge per step with its status; 'no assignees'; 'view' on the document locked by another user
    await row(page, 'alpha')
      .locator(`[data-testid="documents-step"][data-node-id="${clfId}"][data-status="DONE"]`)
      .waitFor();
    await row(page, 'beta')
      .locator(`[data-testid="documents-step"][data-node-id="${clfId}"][data-status="ERROR"]`)
      .waitFor();
    await row(page, 'alpha').getByTestId('documents-assignees').getByText('no assignees').waitFor();
    await row(page, 'delta').getByTestId('documents-view').getByText('View').waitFor();
    expect(await row(page, 'delta').getByTestId('documents-go').count()).toBe(0);
    await row(page, 'gamma').getByTestId('documents-go').getByText('Go to document').waitFor();

    // the step filter: one status makes the node indeterminate; the node checkbox clears it, then takes all five
    await page.getByTestId('documents-filters-toggle').click();
    await clfFilter(page).waitFor();
    await clfFilter(page).locator('[data-testid="documents-status-check"][data-status="WAITING"]').check();
    await clfFilter(page).and(page.locator('[data-state="indeterminate"]')).waitFor();
    expect(await names(page, ['delta', 'gamma'])).toEqual(['delta', 'gamma']);
    await clfFilter(page).locator('[data-testid="documents-status-check"][data-status="ERROR"]').check();
    expect(await names(page, ['beta', 'delta', 'gamma'])).toEqual(['beta', 'delta', 'gamma']);
    await shot(page, '70-documents-dashboard-step-filter-1280');
    await clfFilter(page).getByTestId('documents-node-check').click();
    await clfFilter(page).and(page.locator('[data-state="unchecked"]')).waitFor();
    expect(await names(page, ALL4)).toEqual(ALL4);
    await clfFilter(page).getByTestId('documents-node-check').click();
    await clfFilter(page).and(page.locator('[data-state="checked"]')).waitFor();
    expect(await clfFilter(page).locator('[data-testid="documents-status-check"]:checked').count()).toBe(5);
    await clfFilter(page).locator('[data-testid="documents-status-check"][data-status="DONE"]').uncheck();
    expect(await names(page, ['beta', 'delta', 'gamma'])).toEqual(['beta', 'delta', 'gamma']);
    await clfFilter(page).getByTestId('documents-node-check').click();
    expect(await names(page, ALL4)).toEqual(ALL4);
    // the filename filter
    await page.getByTestId('documents-filter-name').fill('alp');
    expect(await names(page, ['alpha'])).toEqual(['alpha']);
    await page.getByTestId('documents-filter-name').fill('');
    expect(await names(page, ALL4)).toEqual(ALL4);
    // hiding accepted steps hides their badges
    const upload = (name: string) =>
      row(page, name).locator('[data-testid="documents-step"][data-status="ACCEPTED"]');
    await upload('alpha').waitFor();
    await page.getByTestId('documents-toggle-accepted').getByText('Hide accepted steps').click();
    await upload('alpha').waitFor({ state: 'detached' });
    expect(await page.locator('[data-testid="documents-step"][data-status="ACCEPTED"]').count()).toBe(0);
    await row(page, 'alpha').locator('[data-testid="documents-step"][data-status="DONE"]').waitFor();
    await page.getByTestId('documents-toggle-accepted').getByText('Show accepted steps').click();
    await upload('alpha').waitFor();

    // assign the writer to alpha from the assignee cell
    await row(page, 'alpha').getByTestId('assignees-toggle').click();
    await row(page, 'alpha').locator('[data-testid="assignees-menu"][data-view="list"]').waitFor();
    await row(page, 'alpha').getByTestId('edit-assignees').click();
    await page.getByTestId('assignees-search').fill(`writer${suffix}`);
    await page.getByTestId('assignees-group-others').locator(`input[data-user-id="${writer.id}"]`).check();
    await shot(page, '71-documents-dashboard-assign-1280');
    await page.getByTestId('assignees-save').click();
    await page.getByTestId('assignees-menu').waitFor({ state: 'detached' });
    await row(page, 'alpha').getByTestId('documents-assignees').getByText(`Wanda Writer${suffix}`).waitFor();
    const assigned = await api<{ assignees: { id: number }[] }>(token, `/api/documents/${docs.alpha}`);
    expect(assigned.assignees.map((a) => a.id)).toEqual([writer.id]);

    // the assignee filter: a prefix of the first name, any case
    await page.getByTestId('documents-filter-assignee').fill('WAN');
    await page.locator(`[data-testid="documents-assignee-option"][data-user-id="${writer.id}"]`).click();
    // the search is cleared and the chosen user leaves the options
    expect(await page.getByTestId('documents-filter-assignee').inputValue()).toBe('');
    await page.locator(`[data-testid="documents-assignee-option"][data-user-id="${reader.id}"]`).waitFor();
    expect(
      await page.locator(`[data-testid="documents-assignee-option"][data-user-id="${writer.id}"]`).count(),
    ).toBe(0);
    await page.locator(`[data-testid="documents-assignee-chip"][data-user-id="${writer.id}"]`).waitFor();
    expect(await names(page, ['alpha', 'delta'])).toEqual(['alpha', 'delta']);
    await page.getByTestId('documents-filters-count').getByText('1').waitFor();
    await shot(page, '72-documents-dashboard-assignee-filter-1280');
    // a tab change keeps the filter but it applies on All only
    await page.getByTestId('documents-tab-unassigned').click();
    await page.locator('[data-testid="documents-dashboard"][data-tab="unassigned"]').waitFor();
    expect(await names(page, ['beta'])).toEqual(['beta']);
    await page.getByTestId('documents-tab-all').click();
    expect(await names(page, ['alpha', 'delta'])).toEqual(['alpha', 'delta']);
    await page.getByTestId('documents-assignee-chip-remove').click();
    expect(await names(page, ALL4)).toEqual(ALL4);

    // removing the assignee who blocks delta asks first, then unblocks it: 'go to document' again
    await row(page, 'delta').getByTestId('assignees-toggle').click();
    const blocker = row(page, 'delta').locator(`[data-testid="assignee-entry"][data-user-id="${writer.id}"]`);
    expect(await blocker.getAttribute('data-blocker')).toBe('true');
    await blocker.getByTestId('assignee-remove').click();
    await row(page, 'delta').getByTestId('assignee-delete-approval').waitFor();
    await row(page, 'delta').getByTestId('assignee-delete-confirm').click();
    await row(page, 'delta').getByTestId('documents-go').waitFor();
    await row(page, 'delta').getByTestId('documents-assignee-names').getByText('no assignees').waitFor();
    const unblocked = await api<{ assignees: unknown[]; blockedBy: unknown }>(
      token,
      `/api/documents/${docs.delta}`,
    );
    expect(unblocked).toMatchObject({ assignees: [], blockedBy: null });
    await row(page, 'delta').getByTestId('assignees-toggle').click();
    await page.getByTestId('assignees-menu').waitFor({ state: 'detached' });

    // narrow screen
    await page.setViewportSize({ width: 390, height: 844 });
    await page.getByTestId('documents-filters-toggle').click();
    await page.getByTestId('documents-filters').waitFor({ state: 'detached' });
    await shot(page, '73-documents-dashboard-390');
    await page.setViewportSize({ width: 1280, height: 900 });

    // go to document: the workspace
    await row(page, 'gamma').getByTestId('documents-go').click();
    await page.waitForURL(`${BASE_URL}/entity/process/${processId}/document/${docs.gamma}`);
    await page.locator(`[data-testid="workspace"][data-document-id="${docs.gamma}"]`).waitFor();
  });

  it('gives a READ user My documents first, no All tab, and the page in Polish', async () => {
    const page = await signedInPage(browser, contexts, reader);
    await chooseLanguage(page, 'pl');
    await page.setViewportSize({ width: 390, height: 844 });
    await page.goto(dashboardUrl());
    await page.locator('[data-testid="documents-dashboard"][data-tab="my"]').waitFor();
    expect(await page.getByTestId('documents-tab-all').count()).toBe(0);
    expect(await names(page, ['gamma'])).toEqual(['gamma']);
    await page.getByTestId('documents-tab-my').getByText('Moje dokumenty').waitFor();
    await page.getByTestId('documents-tab-unassigned').getByText('Nieprzypisane').waitFor();
    await page.getByTestId('documents-tab-done').getByText('Zakończone').waitFor();
    await row(page, 'gamma').getByTestId('documents-go').getByText('Przejdź do dokumentu').waitFor();
    await page.getByTestId('documents-pagination-total').getByText('Razem: 1').waitFor();
    // the document has an assignee: the cell opens the menu (to read it)
    await row(page, 'gamma').getByTestId('assignees-toggle').click();
    await row(page, 'gamma').locator(`[data-testid="assignee-entry"][data-user-id="${reader.id}"]`).waitFor();
    expect(await row(page, 'gamma').getByTestId('edit-assignees').count()).toBe(0);
    await shot(page, '74-documents-dashboard-reader-polish-390');
    await row(page, 'gamma').getByTestId('assignees-toggle').click();
    await page.getByTestId('assignees-menu').waitFor({ state: 'detached' });
    // Unassigned: no assignee and READ, so the cell is plain text
    await page.getByTestId('documents-tab-unassigned').click();
    expect(await names(page, ['beta', 'delta'])).toEqual(['beta', 'delta']);
    await row(page, 'beta').getByTestId('documents-assignees').getByText('brak przypisanych').waitFor();
    expect(await row(page, 'beta').getByTestId('assignees-toggle').count()).toBe(0);
    // the filters panel has no assignee filter for a non-admin
    await page.getByTestId('documents-filters-toggle').getByText('Filtry').click();
    await clfFilter(page).getByText('Classify').waitFor();
    await clfFilter(page).getByText('Oczekuje').waitFor();
    expect(await page.getByTestId('documents-assignee-filter').count()).toBe(0);
    await page.getByTestId('documents-toggle-accepted').getByText('Ukryj zaakceptowane kroki').waitFor();
    await page.getByTestId('documents-tab-done').click();
    await page.getByTestId('documents-empty').getByText('Brak wyników').waitFor();
    await page.setViewportSize({ width: 1280, height: 900 });
    await page.getByTestId('documents-tab-my').click();
    expect(await names(page, ['gamma'])).toEqual(['gamma']);
    await shot(page, '75-documents-dashboard-reader-polish-1280');
  });

  it("puts a writer's new upload on their start tab, My documents (issue 30)", async () => {
    const writerToken = await tokenFor(writer.login, writer.password);
    docs.epsilon = await addTextDocument(writerToken, processId, file('epsilon'), 'The epsilon text.');
    const page = await signedInPage(browser, contexts, writer);
    await page.goto(dashboardUrl());
    await page.locator('[data-testid="documents-dashboard"][data-tab="my"]').waitFor();
    expect(await names(page, ['alpha', 'epsilon'])).toEqual(['alpha', 'epsilon']);
  });
});
