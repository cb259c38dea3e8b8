/**
 * The workspace's documents panel (issue 11 section 4) in Chromium, over POST api/v2/document-info: a
 * process Upload -> Classifier (manual, no acceptance) with four documents. A process admin opens one, the
 * panel lists the process's documents newest first (All documents), Next and Previous move through the
 * list and wrap at both ends, a step filter and an assignee filter narrow it ('No results' when nothing
 * matches), Clear filters restores it. A writer sees only My documents: their waiting document, a rule,
 * then their done one, and Next wraps. Screenshots go to tests/artifacts/.
 */
import crypto from 'node:crypto';
import knexFactory, { type Knex } from 'knex';
import type { Browser, BrowserContext, Page } from 'playwright-core';
import { eventuallyMatches } from '../support/eventually';
import { buildUser, type BuiltUser } from '../support/harness';
import { api, BASE_URL, createProcess, launch, settledCount, shot, signedInPage, tokenFor } from './support';

interface StateView {
  document: { status: string };
  steps: { id: number; status: string; nodeId: number; nodeDTO: { activityType: string } }[];
}

describe('documents panel in Chromium', () => {
  let knex: Knex;
  let browser: Browser;
  let token: string;
  let processId: number;
  let clfId: number;
  let writer: BuiltUser;
  let processAdmin: BuiltUser;
  /** ids in creation order: alpha, beta, gamma, delta */
  const docs: Record<string, number> = {};
  const contexts: BrowserContext[] = [];
  const suffix = crypto.randomBytes(3).toString('hex');

  const as = (user: BuiltUser): Promise<string> => tokenFor(user.login, user.password);

  const eventually = eventuallyMatches;
  const stateOf = (id: number) => api<StateView>(token, `/api/v2/document/${id}/state`);
  const clfStep = (s: StateView) => s.steps.find((x) => x.nodeDTO.activityType === 'CLF');

  const pageFor = (user: BuiltUser): Promise<Page> => signedInPage(browser, contexts, user);

  const url = (id: number) => `${BASE_URL}/entity/process/${processId}/document/${id}`;
  const items = (page: Page) => page.getByTestId('documents-item');
  /** The ids the panel lists, once it shows `count` of them. */
  async function listed(page: Page, count: number): Promise<number[]> {
    expect(await settledCount(items(page), count)).toBe(count);
    return (await items(page).evaluateAll((els) => els.map((e) => e.getAttribute('data-document-id')))).map(
      Number,
    );
  }
  /** Clicks Next or Previous and waits for the workspace of the expected document. */
  async function go(page: Page, button: 'documents-next' | 'documents-previous', id: number) {
    await page.getByTestId(button).click();
    await page.waitForURL(url(id));
    await page.locator(`[data-testid="workspace"][data-document-id="${id}"]`).waitFor();
    // the panel stays open across documents
    await page
      .locator(`[data-testid="documents-item"][aria-current="page"][data-document-id="${id}"]`)
      .waitFor();
  }

  beforeAll(async () => {
    knex = knexFactory({ client: 'pg', connection: process.env.DATABASE_URL, pool: { min: 0, max: 2 } });
    const admin = await buildUser(knex, { roles: ['ROLE_ADMIN', 'ROLE_USER'] });
    token = await as(admin);
    processId = await createProcess(token, `Documents panel E2E ${suffix}`);
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
    clfId = clf.id;
    await api(token, '/api/edges', {
      method: 'POST',
      body: JSON.stringify({ fromId: upload.id, toId: clf.id }),
    });
    for (const name of ['alpha', 'beta', 'gamma', 'delta']) {
      const created = await api<{ id: number }>(token, '/api/documents', {
        method: 'POST',
        body: JSON.stringify({ processId, filename: `${name}-${suffix}.txt`, content: `The ${name} text.` }),
      });
      docs[name] = created.id;
    }
    for (const id of Object.values(docs))
      await eventually(
        () => stateOf(id),
        (s) => clfStep(s)?.status === 'WAITING',
        'the classifier step waits',
      );
    // The writer works on alpha (completed: DONE) and is assigned gamma (waiting).
    const writerToken = await as(writer);
    const alphaStep = clfStep(await stateOf(docs.alpha))!;
    await api(writerToken, `/api/step/assign?docId=${docs.alpha}&nodeId=${clfId}&stepId=${alphaStep.id}`, {
      method: 'POST',
    });
    await api(writerToken, `/api/steps/${alphaStep.id}/complete`, { method: 'PUT' });
    await eventually(
      () => stateOf(docs.alpha),
      (s) => s.document.status === 'DONE',
      'alpha is done',
    );
    await api(token, `/api/v2/document/${docs.gamma}/assignees/${writer.id}`, { method: 'POST' });
    browser = await launch();
  });

  afterAll(async () => {
    for (const c of contexts) await c.close().catch(() => undefined);
    await browser?.close();
    await knex?.destroy();
  });

  it("lists a process admin the process's documents, moves with Next and Previous and wraps", async () => {
    const page = await pageFor(processAdmin);
    await page.goto(url(docs.delta));
    await page.getByTestId('workspace').waitFor();
    await page.getByTestId('tool-documents').click();
    await page.locator('[data-testid="documents-panel"][data-tab="all"]').waitFor();
    expect(await listed(page, 4)).toEqual([docs.delta, docs.gamma, docs.beta, docs.alpha]);
    expect(await page.getByTestId('documents-tab-2').getAttribute('aria-selected')).toBe('true');
    // a badge per step: the upload's and the classifier's
    const alpha = page.locator(`[data-testid="documents-item"][data-document-id="${docs.alpha}"]`);
    expect(await alpha.getByTestId('documents-item-step').count()).toBe(2);
    expect(await alpha.textContent()).toContain(`alpha-${suffix}.txt`);
    await shot(page, '40-documents-panel-admin');

    await go(page, 'documents-next', docs.gamma);
    await go(page, 'documents-previous', docs.delta);
    await go(page, 'documents-previous', docs.alpha); // wraps to the last
    await go(page, 'documents-next', docs.delta); // wraps to the first
  });

  it('narrows the list by step and by assignee, shows No results, and Clear filters restores it', async () => {
    const page = await pageFor(processAdmin);
    await page.goto(url(docs.beta));
    await page.getByTestId('tool-documents').click();
    expect(await listed(page, 4)).toHaveLength(4);
    await page.getByTestId('documents-filter-node').selectOption(String(clfId));
    await page.getByTestId('documents-filter-status').selectOption('DONE');
    expect(await listed(page, 1)).toEqual([docs.alpha]);
    await shot(page, '41-documents-panel-filtered');
    await page.getByTestId('documents-filter-status').selectOption('ERROR');
    await page.getByTestId('documents-empty').getByText('No results').waitFor();
    await page.getByTestId('documents-clear-filters').click();
    expect(await listed(page, 4)).toEqual([docs.delta, docs.gamma, docs.beta, docs.alpha]);
    await page.getByTestId('documents-filter-assignee').selectOption(String(writer.id));
    expect(await listed(page, 2)).toEqual([docs.gamma, docs.alpha]);
    await page.getByTestId('documents-filter-assignee').selectOption('none');
    expect(await listed(page, 2)).toEqual([docs.delta, docs.beta]);
    await page.getByTestId('documents-clear-filters').click();
    expect(await listed(page, 4)).toHaveLength(4);
    expect(await page.getByTestId('documents-clear-filters').isDisabled()).toBe(true);
  });

  it('shows a writer My documents only: waiting first, a rule, then the done ones; Next wraps', async () => {
    const page = await pageFor(writer);
    await page.goto(url(docs.gamma));
    await page.getByTestId('tool-documents').click();
    await page.locator('[data-testid="documents-panel"][data-tab="my"]').waitFor();
    expect(await listed(page, 2)).toEqual([docs.gamma, docs.alpha]);
    await page.getByTestId('documents-rule').waitFor();
    expect(await page.getByTestId('documents-tab-2').count()).toBe(0);
    expect(await page.getByTestId('documents-filters').count()).toBe(0);
    await shot(page, '42-documents-panel-writer');
    await go(page, 'documents-next', docs.alpha);
    await go(page, 'documents-next', docs.gamma);
    // clicking a document opens it
    await page.locator(`[data-testid="documents-item"][data-document-id="${docs.alpha}"]`).click();
    await page.waitForURL(url(docs.alpha));
  });

  it('loads the next page as the list scrolls, and Previous from the first wraps to the real last', async () => {
    // 25 documents of another process, inserted directly (no workflow: the panel only lists them)
    const bigProcess = await createProcess(token, `Documents panel E2E big ${suffix}`);
    const admin = await buildUser(knex, {
      authorities: [{ componentId: bigProcess, type: 'PROCESS', mode: 'ADMIN' }],
    });
    const upload = await knex('nodes').where({ process_id: bigProcess, activity_type: 'HUP' }).first('id');
    const ids: number[] = [];
    for (let i = 1; i <= 25; i++) {
      const hash = crypto.randomBytes(32).toString('hex');
      const [row] = await knex('documents')
        .insert({
          process_id: bigProcess,
          upload_node_id: upload.id,
          filename: `page-${String(i).padStart(2, '0')}.txt`,
          path: `${hash.slice(0, 2)}/${hash.slice(2, 4)}/${hash}`,
          content_hash: hash,
          mime_type: 'text/plain',
          size: 1,
          document_type: 'TEXTFILE',
        })
        .returning('id');
      await knex('document_contents').insert({ document_id: row.id, content: `page ${i}` });
      ids.push(Number(row.id));
    }
    const page = await pageFor(admin);
    const bigUrl = (id: number) => `${BASE_URL}/entity/process/${bigProcess}/document/${id}`;
    await page.goto(bigUrl(ids[24]));
    await page.getByTestId('tool-documents').click();
    // the first page of 20, then the rest once the end of the list scrolls into view
    const first = await listed(page, 20);
    expect(first[0]).toBe(ids[24]);
    await page.getByTestId('documents-sentinel').scrollIntoViewIfNeeded();
    expect(await listed(page, 25)).toEqual([...ids].reverse());
    await page.reload();
    await page.getByTestId('documents-panel').waitFor();
    expect(await listed(page, 20)).toHaveLength(20);
    await page.getByTestId('documents-previous').click();
    await page.waitForURL(bigUrl(ids[0]));
  });

  it('speaks Polish', async () => {
    const page = await pageFor(processAdmin);
    await page.getByTestId('language-menu').click();
    await page.getByTestId('language-pl').click();
    await page.locator('html[lang="pl"]').waitFor({ state: 'attached' });
    await page.goto(url(docs.beta));
    await page.getByTestId('tool-documents').click();
    expect(await listed(page, 4)).toHaveLength(4);
    expect(await page.getByTestId('documents-tab-1').textContent()).toBe('Moje dokumenty');
    expect(await page.getByTestId('documents-tab-2').textContent()).toBe('Wszystkie dokumenty');
    await page.getByTestId('documents-next').getByText('Następny').waitFor();
    await page.getByTestId('documents-clear-filters').getByText('Wyczyść filtry').waitFor();
    await page.getByTestId('documents-filter-node').selectOption(String(clfId));
    await page.getByTestId('documents-filter-status').selectOption('ERROR');
    await page.getByTestId('documents-empty').getByText('Brak wyników').waitFor();
    await shot(page, '43-documents-panel-polish');
  });
});
