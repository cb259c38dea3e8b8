/**
 * Issue 11 in a real browser: the document preview (pager and zoom, full screen, a separate 800x600 window
 * on the preview route at the current page, 'Failed to open new window!' when the browser opens none) and
 * the LLM prompt step's chat response in the selected step's work section. A two-page PDF goes through
 * Upload -> File parser (page images) -> LLM prompt; the LLM node has no prompt, so its step fails at once;
 * chat responses are first inserted as data, then a writer reruns the prompt from the work section against the
 * test stack's local chat API (scripts/test.ts: an echo of the request).
 * Screenshots go to tests/artifacts/.
 */
import crypto from 'node:crypto';
import knexFactory, { type Knex } from 'knex';
import type { Browser, BrowserContext, Page } from 'playwright-core';
import { eventuallyMatches } from '../support/eventually';
import { sealValue } from '../../db/crypto';
import { buildUser, type BuiltUser } from '../support/harness';
import { textPdf } from '../support/media';
import {
  api,
  BASE_URL,
  createProcess,
  launch,
  shot,
  signedInPage,
  tokenFor,
  watchWindowOpen,
  clickOpening800x600,
} from './support';

interface StateView {
  steps: { id: number; status: string; nodeId: number; nodeDTO: { activityType: string } }[];
}

describe('workspace preview and step work in Chromium', () => {
  let knex: Knex;
  let browser: Browser;
  let token: string;
  let processId: number;
  let documentId: number;
  let writer: BuiltUser;
  const contexts: BrowserContext[] = [];
  const suffix = crypto.randomBytes(3).toString('hex');

  const state = () => api<StateView>(token, `/api/v2/document/${documentId}/state`);
  const workspaceUrl = () => `${BASE_URL}/entity/process/${processId}/document/${documentId}`;
  const openWorkspace = async () => {
    const page = await signedInPage(browser, contexts, writer);
    await page.goto(workspaceUrl());
    await page.getByTestId('workspace').waitFor();
    return page;
  };
  const panel = (page: Page) => page.getByTestId('preview-panel');

  beforeAll(async () => {
    knex = knexFactory({ client: 'pg', connection: process.env.DATABASE_URL, pool: { min: 0, max: 2 } });
    const admin = await buildUser(knex, { roles: ['ROLE_ADMIN', 'ROLE_USER'] });
    token = await tokenFor(admin.login, admin.password);
    processId = await createProcess(token, `Work E2E ${suffix}`);
    writer = await buildUser(knex, {
      authorities: [{ componentId: processId, type: 'PROCESS', mode: 'WRITE' }],
    });

    const nodes = await api<{ id: number; activityType: string }[]>(
      token,
      `/api/nodes?processId=${processId}`,
    );
    const upload = nodes.find((n) => n.activityType === 'HUP')!;
    const node = (body: Record<string, unknown>) =>
      api<{ id: number }>(token, '/api/nodes', {
        method: 'POST',
        body: JSON.stringify({ processId, ...body }),
      });
    const parser = await node({ name: 'Parser', activityType: 'FILE_PARSER', autoStepStatus: 'DONE' });
    const llm = await node({ name: 'Summary', activityType: 'LLM_PROMPT' });
    for (const [fromId, toId] of [
      [upload.id, parser.id],
      [parser.id, llm.id],
    ])
      await api(token, '/api/edges', { method: 'POST', body: JSON.stringify({ fromId, toId }) });

    const form = new FormData();
    form.append('nodeId', String(upload.id));
    const pdf = textPdf([['First page of the report'], ['Second page of the report']]);
    form.append('file', new Blob([new Uint8Array(pdf)], { type: 'application/pdf' }), `report-${suffix}.pdf`);
    const res = await fetch(`${BASE_URL}/api/file-upload`, {
      method: 'POST',
      body: form,
      headers: { Authorization: token },
    });
    if (res.status !== 201) throw new Error(`upload: ${res.status} ${await res.text()}`);
    documentId = ((await res.json()) as { id: number }).id;
    await eventuallyMatches(
      state,
      (s) => s.steps.some((x) => x.nodeDTO.activityType === 'LLM_PROMPT' && x.status === 'ERROR'),
      'the LLM prompt step fails (no prompt)',
    );
    browser = await launch();
  }, 180000);

  afterAll(async () => {
    for (const c of contexts) await c.close().catch(() => undefined);
    await browser?.close();
    await knex?.destroy();
  });

  it('pages and zooms the preview, and shows it full screen keeping page and zoom', async () => {
    const page = await openWorkspace();
    await page.getByTestId('tool-preview').click();
    await panel(page).getByTestId('preview-page').getByText('Page 1 of 2').waitFor();
    await page.getByTestId('preview-next').click();
    await panel(page).getByTestId('preview-page').getByText('Page 2 of 2').waitFor();
    await page.getByTestId('preview-zoom-in').click();
    await page.locator('[data-testid="preview-panel"][data-zoom="1.25"]').waitFor();

    await page.getByTestId('preview-full').click();
    await page.locator('[data-testid="preview-panel"][data-full="true"]').waitFor();
    const box = await panel(page).boundingBox();
    const viewport = page.viewportSize()!;
    expect(Math.round(box!.width)).toBe(viewport.width);
    expect(Math.round(box!.height)).toBe(viewport.height);
    await shot(page, '45-preview-full-screen');
    await page.getByTestId('preview-exit-full').click();
    await page.locator('[data-testid="preview-panel"][data-full="false"]').waitFor();
    expect(await panel(page).getAttribute('data-page')).toBe('1');
    expect(await panel(page).getAttribute('data-zoom')).toBe('1.25');
  });

  it('opens the preview in a separate 800x600 window at the current page', async () => {
    const page = await openWorkspace();
    await page.getByTestId('tool-preview').click();
    await page.getByTestId('preview-next').click();
    await panel(page).getByTestId('preview-page').getByText('Page 2 of 2').waitFor();
    const popup = await clickOpening800x600(page, page.getByTestId('preview-window'));
    await popup.waitForURL(
      new RegExp(`/entity/process/${processId}/document/${documentId}/preview\\?page=1$`),
    );
    await popup.getByTestId('preview-window').getByText('Page 2 of 2').waitFor();
    await eventuallyMatches(
      () =>
        popup
          .getByTestId('preview-image')
          .evaluate((img) => (img as unknown as { naturalWidth: number }).naturalWidth),
      (w) => w > 0,
      'the page image loads in the window',
    );
    await popup.getByTestId('preview-previous').click();
    await popup.getByText('Page 1 of 2').waitFor();
    await shot(popup, '46-preview-window');
    await popup.close();
  });

  it("says 'Failed to open new window!' when the browser opens none", async () => {
    const page = await openWorkspace();
    await page.getByTestId('tool-preview').click();
    await panel(page).getByTestId('preview-page').waitFor();
    await (await watchWindowOpen(page)).blocked(true);
    await page.getByTestId('preview-window').click();
    await page.getByText('Failed to open new window!').waitFor();
  });

  it("shows the LLM prompt step's chat response in the step's work section", async () => {
    const llmStep = (await state()).steps.find((s) => s.nodeDTO.activityType === 'LLM_PROMPT')!;
    const page = await openWorkspace();
    const selected = page.locator('[data-testid="step-row"][data-selected="true"]');
    await page.locator('[data-testid="step-tab"][data-activity-type="LLM_PROMPT"]').click();
    await page
      .locator(`[data-testid="step-row"][data-selected="true"][data-step-id="${llmStep.id}"]`)
      .waitFor();
    await selected.getByTestId('llm-response-empty').getByText('No response yet.').waitFor();

    // What a rerun of the step stores (this suite has no chat API).
    const answer = `The report has two pages (${suffix}).\nBoth are short.`;
    await knex('llm_chat_responses').insert([
      {
        step_id: llmStep.id,
        node_id: llmStep.nodeId,
        document_id: documentId,
        prompt: 'Old prompt',
        response: 'An older answer',
        created_date: new Date(Date.now() - 60000),
      },
      {
        step_id: llmStep.id,
        node_id: llmStep.nodeId,
        document_id: documentId,
        prompt: `Summarise the report ${suffix}`,
        response: answer,
      },
    ]);
    await page.reload();
    await page.locator('[data-testid="step-tab"][data-activity-type="LLM_PROMPT"]').click();
    const text = selected.getByTestId('llm-response-text');
    await text.waitFor();
    expect(await text.textContent()).toBe(answer);
    await selected.getByTestId('llm-response').getByText('runs: 2').waitFor();
    await selected.getByTestId('llm-response').getByText('Prompt', { exact: true }).click();
    expect(await selected.getByTestId('llm-response-prompt').textContent()).toBe(
      `Summarise the report ${suffix}`,
    );
    await shot(page, '47-llm-response');
  });

  it('reruns the LLM prompt with an edited prompt from the work section (WRITE on the node)', async () => {
    const llmStep = (await state()).steps.find((s) => s.nodeDTO.activityType === 'LLM_PROMPT')!;
    // The node gets a chat model and an API key (its prompt stays empty: the step stays in ERROR).
    const model = await knex('llm_models').orderBy('id').first('id');
    const [secret] = await knex('secrets')
      .insert({
        process_id: processId,
        name: `llm-${suffix}`,
        value: sealValue('secrets', 'value', 'sk-e2e'),
        active: true,
      })
      .returning('id');
    await knex('nodes')
      .where('id', llmStep.nodeId)
      .update({ settings: JSON.stringify({ llmModel: { id: model.id }, secret: { id: secret.id } }) });
    const page = await openWorkspace();
    await page.locator('[data-testid="step-tab"][data-activity-type="LLM_PROMPT"]').click();
    const selected = page.locator(
      `[data-testid="step-row"][data-selected="true"][data-step-id="${llmStep.id}"]`,
    );
    await selected.getByTestId('llm-response-text').waitFor();
    await selected.getByTestId('llm-rerun-open').click();
    const prompt = selected.getByTestId('llm-rerun-prompt');
    expect(await prompt.inputValue()).toBe(`Summarise the report ${suffix}`);
    await prompt.fill(`In one line, \${document.filename} ${suffix}`);
    await selected.getByTestId('llm-rerun-send').click();
    // the local chat API echoes the rendered prompt: the answer is the step's newest response
    await selected
      .getByTestId('llm-response-text')
      .getByText(`In one line, report-${suffix}.pdf ${suffix}`, { exact: false })
      .waitFor({ timeout: 60000 });
    await selected.getByTestId('llm-response').getByText('runs: 3').waitFor();
    expect(await selected.getByTestId('llm-rerun-prompt').count()).toBe(0);
    // an empty prompt cannot be sent
    await selected.getByTestId('llm-rerun-open').click();
    await prompt.fill('   ');
    expect(await selected.getByTestId('llm-rerun-send').isDisabled()).toBe(true);
    await shot(page, '48-llm-rerun');
  });

  it('offers no rerun to a READ user', async () => {
    const reader = await buildUser(knex, {
      authorities: [{ componentId: processId, type: 'PROCESS', mode: 'READ' }],
    });
    const page = await signedInPage(browser, contexts, reader);
    await page.goto(workspaceUrl());
    await page.locator('[data-testid="step-tab"][data-activity-type="LLM_PROMPT"]').click();
    await page.getByTestId('llm-response-text').first().waitFor();
    expect(await page.getByTestId('llm-rerun-open').count()).toBe(0);
  });
});
