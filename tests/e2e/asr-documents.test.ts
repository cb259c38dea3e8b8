/**
 * The asr-document entity screens (issue 14 section 4, spec 2 section 2) in Chromium: an AUDIOFILE document
 * with a three-utterance transcript inserted as the parser leaves it, and a text document that must not be
 * listed. A process admin chooses the process ('Choose a process'), sees the id, searches by filename and
 * resets, views the utterances in list order with their actors and tokens, renames the document in the edit
 * form (back to the list), creates one through /new, and deletes one through the /{id}/delete modal; a search
 * matching nothing says 'No Asr Documents found'; a process reader sees no edit or delete and reads the list
 * in Polish. Screenshots go to tests/artifacts/.
 */
import crypto from 'node:crypto';
import knexFactory, { type Knex } from 'knex';
import type { Browser, BrowserContext, Page } from 'playwright-core';
import { buildUser, type BuiltUser } from '../support/harness';
import { BASE_URL, createProcess, launch, settledCount, shot, signedInPage, tokenFor } from './support';

describe('asr-document screens in Chromium', () => {
  let knex: Knex;
  let browser: Browser;
  let processId: number;
  let admin: BuiltUser;
  let reader: BuiltUser;
  let audioId: number;
  const contexts: BrowserContext[] = [];
  const suffix = crypto.randomBytes(3).toString('hex');

  async function insertDocument(filename: string, documentType: 'AUDIOFILE' | 'TEXTFILE') {
    const hash = crypto.randomBytes(32).toString('hex');
    const [doc] = await knex('documents')
      .insert({
        process_id: processId,
        filename,
        path: `${hash.slice(0, 2)}/${hash.slice(2, 4)}/${hash}`,
        content_hash: hash,
        mime_type: documentType === 'AUDIOFILE' ? 'audio/wav' : 'text/plain',
        size: 1,
        document_type: documentType,
      })
      .returning('id');
    return Number(doc.id);
  }

  /** Three utterances linked 1 -> 2 -> 3, inserted in reverse so that id order is not list order. */
  async function insertTranscript(documentId: number) {
    const lines: [string, string[]][] = [
      ['SPEAKER1', ['Dzień', 'dobry']],
      ['SPEAKER2', ['Witam', 'serdecznie']],
      ['SPEAKER1', ['Do', 'widzenia']],
    ];
    const ids: number[] = [];
    for (let i = lines.length - 1; i >= 0; i--) {
      const [u] = await knex('utterances')
        .insert({ document_id: documentId, actor: lines[i][0] })
        .returning('id');
      ids[i] = Number(u.id);
    }
    for (let i = 0; i < lines.length; i++) {
      await knex('utterances')
        .where('id', ids[i])
        .update({ prev_id: ids[i - 1] ?? null, next_id: ids[i + 1] ?? null });
      await knex('utterance_tokens').insert(
        lines[i][1].map((value, position) => ({
          utterance_id: ids[i],
          position,
          value,
          ts_start: i * 2000 + position * 500,
          ts_end: i * 2000 + position * 500 + 400,
        })),
      );
    }
  }

  const rows = (page: Page) => page.getByTestId('asr-document-row');

  beforeAll(async () => {
    knex = knexFactory({ client: 'pg', connection: process.env.DATABASE_URL, pool: { min: 0, max: 2 } });
    const root = await buildUser(knex, { roles: ['ROLE_ADMIN', 'ROLE_USER'] });
    processId = await createProcess(await tokenFor(root.login, root.password), `Asr E2E ${suffix}`);
    admin = await buildUser(knex, {
      authorities: [{ componentId: processId, type: 'PROCESS', mode: 'ADMIN' }],
    });
    reader = await buildUser(knex, {
      authorities: [{ componentId: processId, type: 'PROCESS', mode: 'READ' }],
    });
    audioId = await insertDocument(`rozmowa-${suffix}.wav`, 'AUDIOFILE');
    await insertTranscript(audioId);
    await insertDocument(`tekst-${suffix}.txt`, 'TEXTFILE');
    browser = await launch();
  }, 60_000);

  afterAll(async () => {
    for (const c of contexts) await c.close();
    await browser?.close();
    await knex?.destroy();
  });

  it('lists, searches, shows, edits, creates and deletes asr documents of the chosen process', async () => {
    const page = await signedInPage(browser, contexts, admin);
    await page.goto(`${BASE_URL}/entity/asr-document`);
    await page.getByTestId('asr-document-empty').getByText('No Asr Documents found').waitFor();
    await page.getByTestId('asr-document-process').selectOption(String(processId));
    expect(await settledCount(rows(page), 1)).toBe(1);
    expect(await page.getByTestId('asr-document-id').allTextContents()).toEqual([String(audioId)]);
    await shot(page, 'asr-documents-list');

    await page.getByTestId('asr-document-search').fill('nothing-like-it');
    await page.getByTestId('asr-document-search-submit').click();
    await page.getByText('No Asr Documents found').waitFor();
    await page.getByTestId('asr-document-search').fill('ROZMOWA');
    await page.getByTestId('asr-document-search-submit').click();
    expect(await settledCount(rows(page), 1)).toBe(1);
    await page.getByTestId('asr-document-search-reset').click();
    await page.waitForURL((u) => !u.searchParams.has('query'));
    expect(await page.getByTestId('asr-document-search').inputValue()).toBe('');

    await page.getByTestId('asr-document-view').click();
    await page.waitForURL(`${BASE_URL}/entity/asr-document/${audioId}`);
    const utterances = page.getByTestId('asr-utterance');
    expect(await settledCount(utterances, 3)).toBe(3);
    // actors by their names in the process (the code when the process has no such actor)
    const actors = new Map<string, string>(
      (await knex('process_actors').where('process_id', processId).select('actor', 'name')).map((a) => [
        a.actor,
        a.name,
      ]),
    );
    const name = (code: string) => actors.get(code) ?? code;
    expect(await page.getByTestId('asr-utterance-actor').allTextContents()).toEqual([
      name('SPEAKER1'),
      name('SPEAKER2'),
      name('SPEAKER1'),
    ]);
    expect(await page.getByTestId('asr-utterance-tokens').allTextContents()).toEqual([
      'Dzień dobry',
      'Witam serdecznie',
      'Do widzenia',
    ]);
    await shot(page, 'asr-documents-detail');

    await page.goto(`${BASE_URL}/entity/asr-document/${audioId}/edit`);
    await page.getByTestId('asr-document-form-filename').fill(`wywiad-${suffix}.wav`);
    await page.getByTestId('asr-document-form-save').click();
    await page.waitForURL(/\/entity\/asr-document\?processId=/);
    expect((await knex('documents').where('id', audioId).first('filename')).filename).toBe(
      `wywiad-${suffix}.wav`,
    );

    await page.getByTestId('asr-document-create').click();
    await page.getByTestId('asr-document-form-filename').fill(`nowe-${suffix}`);
    await shot(page, 'asr-documents-new');
    await page.getByTestId('asr-document-form-save').click();
    await page.waitForURL(/\/entity\/asr-document\?processId=/);
    expect(await settledCount(rows(page), 2)).toBe(2);
    const created = await knex('documents')
      .where({ process_id: processId, filename: `nowe-${suffix}.wav` })
      .first('id', 'document_type');
    expect(created.document_type).toBe('AUDIOFILE');

    await page
      .locator(
        `[data-testid="asr-document-row"]:has-text("nowe-${suffix}") [data-testid="asr-document-delete"]`,
      )
      .click();
    await page.getByTestId('asr-document-delete-modal').waitFor();
    await shot(page, 'asr-documents-delete');
    await page.getByTestId('delete-confirm-submit').click();
    await page.getByTestId('asr-document-delete-modal').waitFor({ state: 'detached' });
    expect(await settledCount(rows(page), 1)).toBe(1);
    expect(await knex('documents').where('id', created.id).first('id')).toBeUndefined();
  }, 120_000);

  it('shows a reader the list without edit or delete, in Polish', async () => {
    const page = await signedInPage(browser, contexts, reader);
    await page.getByTestId('language-menu').click();
    await page.getByTestId('language-pl').click();
    await page.locator('html[lang="pl"]').waitFor({ state: 'attached' });
    await page.goto(`${BASE_URL}/entity/asr-document?processId=${processId}`);
    expect(await settledCount(rows(page), 1)).toBe(1);
    expect(await page.getByTestId('asr-document-edit').count()).toBe(0);
    expect(await page.getByTestId('asr-document-delete').count()).toBe(0);
    expect(await page.getByTestId('asr-document-create').count()).toBe(0);
    await page.getByRole('button', { name: 'Szukaj' }).waitFor();
    await page.getByTestId('asr-document-search').fill('nic-takiego');
    await page.getByTestId('asr-document-search-submit').click();
    await page.getByText('Nie znaleziono dokumentów ASR').waitFor();
    await shot(page, 'asr-documents-reader-pl');
  }, 60_000);
});
