/**
 * The RAG screens (issue 16 section 3) in Chromium, against the e2e app run with the rag profile and pointed
 * at the local OpenAI-compatible stand-in (which answers with an echo of the prompt it got, so the answer
 * shows what the template rendered). Ten documents of a Sphere without RAG walk to DONE through the real
 * engine; an administrator turns the Sphere's RAG on from the RAG screen's notice and they are indexed; the
 * administrator asks a question whose answer is in one of them, sees that document and its chunk first, follows the chunk into the workspace and
 * sees its range scrolled to and highlighted. The template modal (Programmer options) refuses a template
 * without the documents wildcard, saves a valid one (the next answer is built from it) and resets it to the
 * default. A READ user of the Sphere queries without Programmer options, in Polish; a refusal of the API is
 * shown in the danger alert. Screenshots in tests/artifacts/.
 */
import crypto from 'node:crypto';
import type { Page } from 'playwright-core';
import {
  addTextDocument,
  api,
  BASE_URL,
  browserSuite,
  chooseLanguage,
  createProcess,
  settledCount,
  shot,
  signedInPage,
  tokenFor,
  userOnProcess,
} from './support';
import { buildUser } from '../support/harness';
import {
  askRag,
  documentsDone,
  enableRagFromNotice,
  followChunk,
  RAG_ANSWER_TOPIC,
  RAG_QUESTION,
  RAG_TOPICS,
  ragTopicText,
} from './insights-support';

const QUESTION = RAG_QUESTION;
const TOPICS = RAG_TOPICS;
const ANSWER_TOPIC = RAG_ANSWER_TOPIC;
const documentText = ragTopicText;

describe('RAG query and template screens in Chromium', () => {
  const suite = browserSuite();
  const suffix = crypto.randomBytes(3).toString('hex');
  const processName = `RAG Sphere ${suffix}`;
  let token = '';
  let processId = 0;
  const docs: Record<string, number> = {};
  let admin: { login: string; password: string };

  const ragPage = (page: Page) => page.getByTestId('rag-page');
  const ask = askRag;

  it('an administrator enables RAG on a Sphere of ten documents, asks, and follows the matched chunk into the workspace', async () => {
    const built = await buildUser(suite.knex, { roles: ['ROLE_ADMIN', 'ROLE_USER'] });
    admin = built;
    token = await tokenFor(built.login, built.password);
    const page = await signedInPage(suite.browser, suite.contexts, built);

    // A Sphere without RAG whose ten documents walk to DONE through the engine.
    processId = await createProcess(token, processName);
    for (const topic of TOPICS)
      docs[topic] = await addTextDocument(token, processId, `${topic}.txt`, documentText(topic));
    await documentsDone(suite.knex, Object.values(docs));
    await page.reload();
    const row = page.getByTestId('process-row').filter({ hasText: processName });
    await row.waitFor();
    expect(await row.getByTestId('process-action-rag').count()).toBe(0);

    // The administrator turns RAG on from the screen's notice: the DONE documents are indexed.
    await enableRagFromNotice(
      page,
      suite.knex,
      processId,
      'RAG is not enabled for this Sphere.',
      TOPICS.length,
    );
    const enabled = await api<{ isRagEnabled: boolean }>(token, `/api/processes/${processId}`);
    expect(enabled.isRagEnabled).toBe(true);

    // The RAG row action is there (rag profile on, the Sphere's RAG on).
    await page.goto(`${BASE_URL}/entity/process`);
    await row.getByTestId('process-action-rag').click();
    await page.waitForURL(`${BASE_URL}/entity/process/${processId}/rag`);
    await ragPage(page).getByRole('heading', { name: 'RAG query' }).waitFor();
    expect(await page.getByTestId('rag-off').count()).toBe(0);

    // The model is required: no query leaves without one.
    await page.getByTestId('rag-query').fill(QUESTION);
    expect(await page.getByTestId('rag-submit').isDisabled()).toBe(true);
    await page.getByTestId('rag-llm-model').focus();
    await page.getByTestId('rag-query').focus();
    expect(await page.getByTestId('rag-llm-model-error').textContent()).toBe('This field is required.');
    // topK is clamped to 1..10 (empty becomes 1), the temperature has min/max messages.
    await page.getByTestId('rag-top-k').fill('');
    await page.getByTestId('rag-top-k').blur();
    expect(await page.getByTestId('rag-top-k').inputValue()).toBe('1');
    await page.getByTestId('rag-top-k').fill('25');
    await page.getByTestId('rag-top-k').blur();
    expect(await page.getByTestId('rag-top-k').inputValue()).toBe('10');
    await page.getByTestId('rag-top-k').fill('4');
    await page.getByTestId('rag-temperature').fill('2.5');
    await page.getByTestId('rag-temperature-error').waitFor();
    await page.getByTestId('rag-llm-model').selectOption({ label: 'gpt-4o-mini' });
    expect(await page.getByTestId('rag-submit').isDisabled()).toBe(true);
    await page.getByTestId('rag-temperature').fill('0.3');
    await page.getByTestId('rag-temperature-error').waitFor({ state: 'detached' });

    await page.getByTestId('rag-submit').click();
    const response = page.getByTestId('rag-response');
    await response.waitFor();
    // The stand-in echoes the prompt: the default template with the question and the matched passage.
    const answer = (await response.textContent()) ?? '';
    expect(answer).toContain('t=0.3');
    expect(answer).toContain(QUESTION);
    expect(answer).toContain('Wojciech Tarnowski');

    const first = page.getByTestId('rag-match').first();
    expect(await first.getAttribute('data-document-id')).toBe(String(docs[ANSWER_TOPIC]));
    expect(await first.getByTestId('rag-match-filename').textContent()).toBe(`${ANSWER_TOPIC}.txt`);
    const chunk = first.getByTestId('rag-chunk').first();
    expect(await chunk.getByTestId('rag-chunk-score').textContent()).toBe('score 1.00');
    // The passage shown starts where the query's words meet, and marks them.
    const passage = chunk.getByTestId('rag-chunk-text');
    expect(await passage.textContent()).toMatch(/^… .*The lighthouse keeper of Port Ellery is Wojciech/s);
    expect(await passage.locator('mark').allTextContents()).toEqual(
      expect.arrayContaining(['lighthouse', 'keeper', 'Port', 'Ellery']),
    );
    await shot(page, '110-rag-query');
    // The chunk holds the fact; it opens the workspace at its range, highlighted in view.
    await followChunk(page, chunk, processId, docs[ANSWER_TOPIC], documentText(ANSWER_TOPIC));
    await shot(page, '111-rag-chunk-in-workspace');
  });

  it('edits the template: refuses one without the documents wildcard, saves a valid one, resets it', async () => {
    const page = await signedInPage(suite.browser, suite.contexts, admin);
    await page.goto(`${BASE_URL}/entity/process/${processId}/rag`);
    await page.getByTestId('rag-programmer-options').click();
    const modal = page.getByTestId('rag-template-modal');
    const editor = modal.getByTestId('rag-template-text');
    await modal.getByText('Default template').waitFor();
    const defaultTemplate = await editor.inputValue();
    expect(defaultTemplate).toContain('${process.rag.input}');
    expect(defaultTemplate).toContain('${process.rag.documents}');
    // unchanged: nothing to save; the default: nothing to reset
    expect(await modal.getByTestId('rag-template-save').isDisabled()).toBe(true);
    expect(await modal.getByTestId('rag-template-reset').isDisabled()).toBe(true);
    // the RAG wildcards are offered (with the universal ones)
    await modal.locator('[data-wildcard="${process.rag.input}"]').waitFor();
    await modal.locator('[data-wildcard="${process.rag.documents}"]').waitFor();

    await editor.fill('Question: ${process.rag.input}');
    expect(await modal.getByTestId('rag-template-error').textContent()).toBe(
      'The template must contain the RAG query and the RAG matched documents wildcards.',
    );
    expect(await modal.getByTestId('rag-template-save').isDisabled()).toBe(true);
    await shot(page, '112-rag-template-refused');

    await editor.fill(`TEMPLATE-${suffix}\nQuestion: \${process.rag.input}\nSources:\n`);
    await modal.locator('[data-wildcard="${process.rag.documents}"]').click();
    await modal.getByTestId('rag-template-error').waitFor({ state: 'detached' });
    await modal.getByTestId('rag-template-save').click();
    await modal.waitFor({ state: 'detached' });
    const stored = await api<{ id: number | null; template: string }>(
      token,
      `/api/rag-templates?processId=${processId}`,
    );
    expect(stored.id).not.toBeNull();
    expect(stored.template).toBe(
      `TEMPLATE-${suffix}\nQuestion: \${process.rag.input}\nSources:\n\${process.rag.documents}`,
    );

    // The next answer is built from the saved template.
    await ask(page, QUESTION);
    await page
      .getByTestId('rag-response')
      .filter({ hasText: `TEMPLATE-${suffix}` })
      .waitFor();

    await page.getByTestId('rag-programmer-options').click();
    await modal.getByText("This Sphere's template").waitFor();
    expect(await editor.inputValue()).toBe(stored.template);
    await modal.getByTestId('rag-template-reset').click();
    await modal.getByText('Default template').waitFor();
    expect(await editor.inputValue()).toBe(defaultTemplate);
    const reset = await api<{ id: number | null; template: string }>(
      token,
      `/api/rag-templates?processId=${processId}`,
    );
    expect(reset).toMatchObject({ id: null, template: defaultTemplate });
  });

  it('a READ user queries in Polish without Programmer options; a refusal shows in the danger alert', async () => {
    const keyName = `llm-key-${suffix}`;
    const secretIds: number[] = [];
    for (const [name, active] of [
      [keyName, true],
      [`${keyName}-old`, false],
    ] as const) {
      const secret = await api<{ id: number }>(token, '/api/secrets', {
        method: 'POST',
        body: JSON.stringify({ name, value: `sk-${crypto.randomUUID()}`, processId }),
      });
      secretIds.push(secret.id);
      if (!active) {
        const res = await fetch(`${BASE_URL}/api/secrets/${secret.id}?active=false`, {
          method: 'PUT',
          headers: { Authorization: token },
        });
        expect(res.ok).toBe(true);
      }
    }
    const reader = await userOnProcess(suite.knex, processId, 'READ');
    const page = await signedInPage(suite.browser, suite.contexts, reader);
    await chooseLanguage(page, 'pl');
    const row = page.getByTestId('process-row').filter({ hasText: processName });
    await row.getByTestId('process-action-rag').click();
    await ragPage(page).getByRole('heading', { name: 'Zapytanie RAG' }).waitFor();
    expect(await page.getByTestId('rag-programmer-options').count()).toBe(0);
    // The Sphere's secrets are offered to its readers too (names only), the inactive one disabled.
    const secretOption = (id: number) => page.getByTestId('rag-secret').locator(`option[value="${id}"]`);
    await secretOption(secretIds[0]).waitFor({ state: 'attached' });
    expect(await secretOption(secretIds[0]).textContent()).toBe(keyName);
    expect(await secretOption(secretIds[0]).isDisabled()).toBe(false);
    expect(await secretOption(secretIds[1]).isDisabled()).toBe(true);
    await page.getByTestId('rag-secret').selectOption(String(secretIds[0]));
    await page.getByTestId('rag-matches').getByText('Dopasowane dokumenty').waitFor();

    await page.getByTestId('rag-temperature').fill('-1');
    expect(await page.getByTestId('rag-temperature-error').textContent()).toContain('0');
    await page.getByTestId('rag-temperature').fill('1');

    await ask(page, QUESTION);
    await page.getByTestId('rag-response').filter({ hasText: 'Wojciech Tarnowski' }).waitFor();
    expect(await page.getByTestId('rag-match').first().getAttribute('data-document-id')).toBe(
      String(docs[ANSWER_TOPIC]),
    );
    expect(await page.getByTestId('rag-chunk-score').first().textContent()).toBe('wynik 1.00');
    await shot(page, '113-rag-query-pl');

    // A Sphere without RAG: the screen says so and the API's refusal is shown in the danger alert.
    const plain = await createProcess(token, `No RAG ${suffix}`);
    const other = await userOnProcess(suite.knex, plain, 'READ');
    const otherPage = await signedInPage(suite.browser, suite.contexts, other);
    await otherPage.goto(`${BASE_URL}/entity/process/${plain}/rag`);
    await otherPage.getByTestId('rag-off').waitFor();
    // only the Sphere's administrators turn RAG on
    expect(await otherPage.getByTestId('rag-enable').count()).toBe(0);
    await ask(otherPage, QUESTION);
    await otherPage.getByTestId('rag-error').waitFor();
    expect(await settledCount(otherPage.getByTestId('rag-match'), 0)).toBe(0);
    // still signed in on the same screen
    expect(otherPage.url()).toBe(`${BASE_URL}/entity/process/${plain}/rag`);
    await shot(otherPage, '114-rag-refused');
  });
});
