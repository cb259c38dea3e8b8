/**
 * LLM models management (issue 15 section 4) in Chromium: a system administrator opens LLM models from the
 * Entities menu, adds a model with modalities (a duplicate name is refused in the form), edits it, sees it
 * offered where models are chosen (the list the node panels read), and deletes it after a confirmation. A
 * user with global process permission but without the admin role sees no menu entry and is not authorized
 * on the page. Polish labels. Screenshot in tests/artifacts/.
 */
import crypto from 'node:crypto';
import knexFactory, { type Knex } from 'knex';
import type { Browser, BrowserContext } from 'playwright-core';
import { buildUser } from '../support/harness';
import { api, BASE_URL, chooseLanguage, launch, shot, signedInPage, tokenFor } from './support';

describe('LLM models management in Chromium', () => {
  let knex: Knex;
  let browser: Browser;
  const contexts: BrowserContext[] = [];
  const name = `model-${crypto.randomBytes(3).toString('hex')}`;

  beforeAll(async () => {
    knex = knexFactory({ client: 'pg', connection: process.env.DATABASE_URL, pool: { min: 0, max: 2 } });
    browser = await launch();
  });

  afterAll(async () => {
    for (const c of contexts) await c.close().catch(() => undefined);
    await browser?.close();
    await knex?.destroy();
  });

  it('creates, edits and deletes a model; only administrators reach the page', async () => {
    const admin = await buildUser(knex, { roles: ['ROLE_ADMIN', 'ROLE_USER'] });
    const token = await tokenFor(admin.login, admin.password);
    const page = await signedInPage(browser, contexts, admin);
    await page.getByTestId('entities-menu').click();
    await page.getByTestId('menu-entity-llm-model').click();
    await page.waitForURL(`${BASE_URL}/entity/llm-model`);
    await page.getByTestId('llm-model-row').first().waitFor();

    // a seeded model's name is taken
    await page.getByTestId('llm-models-create').click();
    await page.getByTestId('llm-model-name').fill('gpt-4o-mini');
    await page.getByTestId('llm-model-save').click();
    await page.getByTestId('llm-model-name-error').waitFor();

    await page.getByTestId('llm-model-name').fill(name);
    await page.getByTestId('llm-model-suggest-image').click();
    await page.getByTestId('llm-model-save').click();
    await page.getByTestId('llm-model-dialog').waitFor({ state: 'detached' });
    const row = page.locator(`[data-testid="llm-model-row"][data-name="${name}"]`);
    await row.waitFor();
    expect(await row.textContent()).toContain('image');
    let models = await api<{ name: string; modalities: string[] }[]>(token, '/api/llm-models');
    expect(models.find((m) => m.name === name)?.modalities).toEqual(['text', 'image']);
    await shot(page, '95-llm-models');

    await row.getByTestId('llm-model-edit').click();
    await page.getByTestId('llm-model-modality').fill('audio');
    await page.getByTestId('llm-model-modality').press('Enter');
    await page.getByTestId('llm-model-save').click();
    await page.getByTestId('llm-model-dialog').waitFor({ state: 'detached' });
    await row.filter({ hasText: 'audio' }).waitFor();

    await row.getByTestId('llm-model-delete').click();
    await page.getByTestId('llm-model-delete-modal-confirm').click();
    await row.waitFor({ state: 'detached' });
    models = await api(token, '/api/llm-models');
    expect(models.find((m) => m.name === name)).toBeUndefined();

    await chooseLanguage(page, 'pl');
    await page.getByRole('heading', { name: 'Modele LLM' }).waitFor();

    const globalReader = await buildUser(knex, {
      authorities: [{ componentId: -1, type: 'PROCESS', mode: 'READ' }],
    });
    const other = await signedInPage(browser, contexts, globalReader);
    await other.getByTestId('entities-menu').click();
    expect(await other.getByTestId('menu-entity-llm-model').count()).toBe(0);
    await other.goto(`${BASE_URL}/entity/llm-model`);
    await other.getByTestId('not-authorized').waitFor();
  });
});
