/**
 * Relations between token tags in the speech workspace (issue 14 with issue 12 section 1), in Chromium. The
 * process: Upload -> Parse (FILE_PARSER, accepted on its own) -> Entities (SPAN, handles relations; tag types
 * Person and Place, relation type "lives in" Person -> Place). An AUDIOFILE document made from an imported
 * JSON transcript, with the token tags "Anna Kowalska" (Person), "Warsaw" (Place, in the next utterance) and
 * "Krakow" (Place). A WRITE user starts Entities, then:
 * - selects Anna's words and Alt+clicks Warsaw: the one candidate goes into the draft (a dashed arc over the
 *   transcript), Create saves the graph; after a reload the arc, the relations panel's row and the graph
 *   view's cards (the tags' words) are there, the list's search finds the words; the relation graph window
 *   shows the same, and a card chosen there selects the words in the workspace;
 * - Delete on Warsaw's tag opens the 'cannot remove tag' modal, which leads to the graph; the tag stays;
 * - 'Highlight tags without relation' outlines Krakow only;
 * - a RELATION issue raised from the relation's row is named by the tags' words;
 * - the panel speaks Polish;
 * - removing the relation (the only one of its graph: the graph goes) asks first, then the tag can go.
 * Screenshots go to tests/artifacts/ (68-...).
 */
import crypto from 'node:crypto';
import type { Page } from 'playwright-core';
import { eventuallyMatches } from '../support/eventually';
import { buildUser, type BuiltUser } from '../support/harness';
import {
  addEdges,
  addNerTagType,
  addNode,
  api,
  BASE_URL,
  browserSuite,
  chooseLanguage,
  clickOpening800x600,
  createProcess,
  shot,
  signedInPage,
  tokenFor,
  uploadNodeOf,
  uploadThrough,
} from './support';

interface UtteranceView {
  id: number;
  tokens: { id: number; value: string }[];
}
interface GraphView {
  id: number;
  relations: { id: number; fromId: number; toId: number; relationTypeId: number }[];
}

const TRANSCRIPT = {
  utterances: [
    {
      actor: 'SPEAKER1',
      tokens: [
        { value: 'Anna', tsStart: 0, tsEnd: 400 },
        { value: 'Kowalska', tsStart: 450, tsEnd: 900 },
        { value: 'moved', tsStart: 950, tsEnd: 1300 },
        { value: 'last', tsStart: 1350, tsEnd: 1600 },
        { value: 'year', tsStart: 1650, tsEnd: 1900 },
      ],
    },
    {
      actor: 'SPEAKER2',
      tokens: [
        { value: 'She', tsStart: 2500, tsEnd: 2700 },
        { value: 'lives', tsStart: 2750, tsEnd: 3000 },
        { value: 'in', tsStart: 3050, tsEnd: 3150 },
        { value: 'Warsaw', tsStart: 3200, tsEnd: 3700 },
        { value: 'not', tsStart: 3750, tsEnd: 3900 },
        { value: 'Krakow', tsStart: 3950, tsEnd: 4400 },
      ],
    },
  ],
};

describe('relations between token tags in the speech workspace', () => {
  const suite = browserSuite();
  const eventually = eventuallyMatches;
  const suffix = crypto.randomBytes(3).toString('hex');
  let token: string;
  let writerToken: string;
  let writer: BuiltUser;
  let page: Page;
  let processId: number;
  let documentId: number;
  const ids = { entities: 0, person: 0, place: 0, livesIn: 0 };
  const tag = { anna: 0, warsaw: 0, krakow: 0 };

  const graphs = () => api<GraphView[]>(token, `/api/ner-tag-relation-graphs?documentId=${documentId}`);
  const word = (value: string) =>
    page.locator('[data-testid="token"]').filter({ hasText: new RegExp(`^${value}$`) });
  const workspaceUrl = () => `${BASE_URL}/entity/process/${processId}/document/${documentId}`;

  beforeAll(async () => {
    const admin = await buildUser(suite.knex, { roles: ['ROLE_ADMIN', 'ROLE_USER'] });
    token = await tokenFor(admin.login, admin.password);
    processId = await createProcess(token, `Speech relations ${suffix}`);
    writer = await buildUser(suite.knex, {
      authorities: [{ componentId: processId, type: 'PROCESS', mode: 'WRITE' }],
    });
    writerToken = await tokenFor(writer.login, writer.password);
    const upload = await uploadNodeOf(token, processId);
    const parse = await addNode(token, processId, {
      name: 'Parse',
      activityType: 'FILE_PARSER',
      autoStepStatus: 'ACCEPTED',
    });
    ids.entities = await addNode(token, processId, {
      name: 'Entities',
      activityType: 'SPAN',
      handlesRelations: true,
    });
    const post = async (path: string, body: Record<string, unknown>) =>
      (await api<{ id: number }>(token, path, { method: 'POST', body: JSON.stringify(body) })).id;
    ids.person = await addNerTagType(token, ids.entities, {
      name: 'Person',
      backgroundColor: '#f8d7da',
      textColor: '#000000',
    });
    ids.place = await addNerTagType(token, ids.entities, {
      name: 'Place',
      backgroundColor: '#cfe2ff',
      textColor: '#000000',
    });
    ids.livesIn = await post('/api/ner-tag-relation-types', {
      nodeId: ids.entities,
      name: 'lives in',
      color: '#0d6efd',
      fromId: ids.person,
      toId: ids.place,
      priority: 3,
    });
    await addEdges(token, [upload, parse], [parse, ids.entities]);

    const created = await uploadThrough(token, upload, `talk-${suffix}.json`, JSON.stringify(TRANSCRIPT));
    // a transcript of the JSON import format is typed as a recording's (domain/upload-check.ts)
    expect(created.documentType).toBe('AUDIOFILE');
    documentId = created.id;
    await eventually(
      () =>
        api<{ steps: { nodeId: number; status: string }[] }>(token, `/api/v2/document/${documentId}/state`),
      (s) => s.steps.some((x) => x.nodeId === ids.entities && x.status === 'WAITING'),
      'the entities step waits',
    );
    page = await signedInPage(suite.browser, suite.contexts, writer);
  });

  it('starts the step; the token tags are drawn', async () => {
    await page.goto(workspaceUrl());
    await page.getByTestId('speech-workspace').waitFor();
    await page
      .locator('[data-testid="step-row"][data-selected="true"]')
      .getByTestId('step-action-startWorking')
      .click();
    await page.locator('[data-testid="speech-workspace"][data-editable="true"]').waitFor();
    // the tags, written through the API as the writer (who holds the step now)
    const us = await api<UtteranceView[]>(token, `/api/asr-documents/${documentId}/utterances`);
    const tokensOf = (...values: string[]) =>
      us.flatMap((u) => u.tokens).filter((t) => values.includes(t.value));
    const tagOf = async (nerTagTypeId: number, ...values: string[]) =>
      (
        await api<{ id: number }>(writerToken, '/api/ner-tags', {
          method: 'POST',
          body: JSON.stringify({
            documentId,
            nerTagTypeId,
            type: 'ASR_NER_TAG',
            utteranceTokens: tokensOf(...values).map((t) => ({ id: t.id })),
          }),
        })
      ).id;
    tag.anna = await tagOf(ids.person, 'Anna', 'Kowalska');
    tag.warsaw = await tagOf(ids.place, 'Warsaw');
    tag.krakow = await tagOf(ids.place, 'Krakow');
    await page.reload();
    await page.locator(`[data-testid="token"][data-tag-start~="${tag.anna}"]`).waitFor();
    expect(await page.locator(`[data-testid="token"][data-tags~="${tag.anna}"]`).allTextContents()).toEqual([
      'Anna',
      'Kowalska',
    ]);
  });

  it('relates two token tags: Alt+click, the candidate in the draft, Create', async () => {
    await word('Kowalska').click();
    await page
      .locator(`[data-testid="token"][data-tags~="${tag.anna}"].sp-token-tag-selected`)
      .first()
      .waitFor();
    await word('Warsaw').click({ modifiers: ['Alt'] });
    // one candidate: into the draft at once, drawn dashed across the two utterances
    await page.getByTestId('relation-draft').waitFor();
    await page
      .locator(
        `[data-testid="relation-arc"][data-from="${tag.anna}"][data-to="${tag.warsaw}"][data-pending="true"]`,
      )
      .waitFor();
    // the row names the tags by their words (then its remove button)
    expect(await page.getByTestId('draft-relation').textContent()).toBe('“Anna Kowalska”lives in“Warsaw”×');
    await page.locator('[data-testid="relation-validation"][data-valid="true"]').waitFor();
    await shot(page, '68-speech-relation-draft');
    await page.getByTestId('relation-create').click();
    const saved = await eventually(graphs, (g) => g.length === 1, 'the graph is saved');
    expect(saved[0].relations).toMatchObject([
      { fromId: tag.anna, toId: tag.warsaw, relationTypeId: ids.livesIn },
    ]);
    await page.getByTestId('relation-draft').waitFor({ state: 'detached' });
  });

  it('shows the saved relation after a reload: the arc, the panel row and the graph view', async () => {
    await page.reload();
    await page
      .locator(
        `[data-testid="relation-arc"][data-from="${tag.anna}"][data-to="${tag.warsaw}"][data-pending="false"]`,
      )
      .waitFor();
    expect(await page.getByTestId('relation-row').allTextContents()).toEqual([
      '“Anna Kowalska”lives in“Warsaw”×',
    ]);
    await page.getByTestId('relation-graph-toggle').click();
    await page.getByTestId('relation-graph-node').nth(1).waitFor();
    const cards = await page
      .getByTestId('relation-graph-node')
      .evaluateAll((els) => els.map((e) => (e as unknown as { textContent: string }).textContent));
    expect(cards.sort()).toEqual(['PersonAnna Kowalska', 'PlaceWarsaw']);
    // a card selects its tag's words in the transcript
    await page.locator(`[data-testid="relation-graph-node"][data-tag-id="${tag.warsaw}"]`).click();
    await page.locator(`[data-testid="token"][data-tags~="${tag.warsaw}"].sp-token-tag-selected`).waitFor();
    await shot(page, '69-speech-relation-graph');
    // the list's search looks in the tags' words
    await page.getByTestId('relation-search').fill('KOWAL');
    await page.getByTestId('relation-row').waitFor();
    await page.getByTestId('relation-search').fill('Krakow');
    await page.getByTestId('relation-row').waitFor({ state: 'detached' });
    await page.getByTestId('relation-search').fill('');
    await page.getByTestId('relation-row').waitFor();
  });

  it('raises a RELATION issue from the relation row, named by the tags words', async () => {
    await page.getByTestId('relation-row').getByTestId('relation-report-issue').click();
    await page.getByTestId('issue-form').waitFor();
    expect(await page.getByTestId('issue-form-subject').textContent()).toBe(
      '“Anna Kowalska → Warsaw (lives in)”',
    );
    await page.getByTestId('issue-form-text').fill('Lives there, or was born there?');
    await page.getByTestId('issue-form-submit').click();
    await page.getByTestId('issue-form').waitFor({ state: 'detached' });
    const issues = await eventually(
      () => api<{ type: string; title: string }[]>(token, `/api/document/${documentId}/issues`),
      (list) => list.length === 1,
      'the issue is saved',
    );
    expect(issues[0]).toMatchObject({ type: 'RELATION', title: 'Anna Kowalska - Warsaw' });
  });

  it('opens the graph in its own window, which reads the transcript; a card there selects the words here', async () => {
    const popup = await clickOpening800x600(page, page.getByTestId('relation-graph-window'));
    await popup.getByTestId('relations-window').waitFor();
    await popup.getByTestId('relation-graph-node').nth(1).waitFor();
    expect(await popup.getByTestId('relation-row').allTextContents()).toEqual([
      '“Anna Kowalska”lives in“Warsaw”×',
    ]);
    await popup.getByTestId('relation-graph-node').filter({ hasText: 'Anna Kowalska' }).click();
    await page
      .locator(`[data-testid="token"][data-tags~="${tag.anna}"].sp-token-tag-selected`)
      .first()
      .waitFor();
    await shot(popup, '69-speech-relation-window');
    await popup.close();
  });

  it('refuses to delete a related tag with the cannot-remove-tag modal, which leads to the graph', async () => {
    await word('Warsaw').click();
    await page.locator(`[data-testid="token"][data-tags~="${tag.warsaw}"].sp-token-tag-selected`).waitFor();
    await page.keyboard.press('Delete');
    const modal = page.getByTestId('cannot-remove-tag');
    await modal.waitFor();
    expect(await modal.textContent()).toContain('Warsaw');
    await shot(page, '70-speech-relation-cannot-remove');
    await page.getByTestId('cannot-remove-tag-graph').click();
    await modal.waitFor({ state: 'detached' });
    await page.locator('[data-testid="relation-graph"].is-focused').waitFor();
    const still = await api<{ id: number }[]>(token, `/api/ner-tags?documentId=${documentId}`);
    expect(still.map((t) => t.id)).toContain(tag.warsaw);
  });

  it('highlights the token tags without relation', async () => {
    await page.getByTestId('highlight-unrelated').check();
    await eventually(
      () => page.getByTestId('unrelated-outline').count(),
      (n) => n === 1,
      'Krakow outlined',
    );
    await shot(page, '71-speech-relation-unrelated');
    await page.getByTestId('highlight-unrelated').uncheck();
    await eventually(
      () => page.getByTestId('unrelated-outline').count(),
      (n) => n === 0,
      'no outline',
    );
  });

  it('speaks Polish', async () => {
    await chooseLanguage(page, 'pl');
    await page.getByTestId('relations-panel').getByText('Relacje').first().waitFor();
    expect(await page.locator('label[for="ws-highlight-unrelated"]').textContent()).toBe(
      'Podświetl tagi bez relacji',
    );
    await page.getByTestId('speech-mode').getByText('Alt+klik').waitFor();
    await page.getByTestId('relation-remove').click();
    const confirm = page.locator('[data-testid="relation-confirm-text"][data-kind="lastRelation"]');
    await confirm.waitFor();
    expect(await confirm.textContent()).toContain('zostanie usunięty cały graf');
    await shot(page, '72-speech-relations-pl');
    await page.keyboard.press('Escape');
    await confirm.waitFor({ state: 'detached' });
    await chooseLanguage(page, 'en');
  });

  it('removes the relation after a confirmation (the graph goes with it); then the tag can go', async () => {
    await page.getByTestId('relation-remove').click();
    const confirm = page.locator('[data-testid="relation-confirm-text"][data-kind="lastRelation"]');
    await confirm.waitFor();
    expect(await confirm.textContent()).toContain('the whole graph will be removed');
    await page.getByTestId('relation-confirm-confirm').click();
    await eventually(graphs, (g) => g.length === 0, 'no graph left');
    await page.getByTestId('relations-panel').waitFor({ state: 'detached' });
    expect(await page.getByTestId('relation-arc').count()).toBe(0);
    await word('Warsaw').click();
    await page.keyboard.press('Delete');
    await eventually(
      () => api<{ id: number }[]>(token, `/api/ner-tags?documentId=${documentId}`),
      (tags) => !tags.some((t) => t.id === tag.warsaw),
      'the tag is deleted',
    );
  });
});
