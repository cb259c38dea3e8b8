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
import { speech } from '../support/media';
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

/**
 * Saves the relation draft once the API finds it valid (Create for a new graph, Edit for the graph it edits;
 * a screenshot first when named): the saved graphs once `done` holds of them, the draft gone.
 */
async function saveDraft(
  page: Page,
  button: 'relation-create' | 'relation-edit',
  graphs: () => Promise<GraphView[]>,
  done: (g: GraphView[]) => boolean,
  screenshot?: string,
): Promise<GraphView[]> {
  await page.locator('[data-testid="relation-validation"][data-valid="true"]').waitFor();
  if (screenshot) await shot(page, screenshot);
  await page.getByTestId(button).click();
  const saved = await eventuallyMatches(graphs, done, 'the draft is saved');
  await page.getByTestId('relation-draft').waitFor({ state: 'detached' });
  return saved;
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
    const saved = await saveDraft(
      page,
      'relation-create',
      graphs,
      (g) => g.length === 1,
      '68-speech-relation-draft',
    );
    expect(saved[0].relations).toMatchObject([
      { fromId: tag.anna, toId: tag.warsaw, relationTypeId: ids.livesIn },
    ]);
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

/**
 * Relations of time-span tags (issue 14), in Chromium, on an espeak-ng recording (peaks and a stream: the
 * regions are drawn) uploaded into Upload -> Spans (SPAN, handles relations; tag types Person and Laughter;
 * relation types "laughs at" Laughter -> Person, "hears" Person -> Laughter, "echoes" and "answers"
 * Laughter -> Laughter). Its words are written to the database with known times; the token tag "weather"
 * (Person) and four time spans A, B, C, D (Laughter) through the API. A WRITE user starts the step, then:
 * - selects region A and Alt+clicks "weather": one candidate into the draft (A's badge counts it), Create;
 * - selects "weather" and Ctrl+clicks region B: one candidate into the draft editing that graph, Edit;
 * - selects region B and Alt+clicks region C: two candidates, the relation menu, "answers", Edit;
 * - after a reload: the rows name the spans by their ranges, the badges count the relations, no arc is drawn
 *   for them; a region's card in the graph view selects the region and moves the player to its start;
 * - 'Highlight tags without relation' outlines region D only; the badge's tooltip and the hint speak Polish.
 * Screenshots go to tests/artifacts/ (73-...).
 */
describe('relations of time-span tags in the speech workspace', () => {
  const suite = browserSuite();
  const suffix = crypto.randomBytes(3).toString('hex');
  let token: string;
  let writerToken: string;
  let page: Page;
  let processId: number;
  let documentId: number;
  let spans: number;
  const ids = { person: 0, laughter: 0, laughsAt: 0, hears: 0, echoes: 0, answers: 0 };
  const tag = { weather: 0, a: 0, b: 0, c: 0, d: 0 };

  const graphs = () => api<GraphView[]>(token, `/api/ner-tag-relation-graphs?documentId=${documentId}`);
  const word = (value: string) =>
    page.locator('[data-testid="token"]').filter({ hasText: new RegExp(`^${value}$`) });
  const region = (id: number) =>
    page.locator(`[data-testid="audio-player-waveform"] [data-region-id="${id}"]`);
  const outline = (id: number) =>
    region(id).evaluate((el) => (el as unknown as { style: { outline: string } }).style.outline);
  const selected = (id: number) =>
    eventuallyMatches(
      () => outline(id),
      (o) => o.includes('solid'),
      `region ${id} selected`,
    );
  const badge = (id: number) => region(id).getByTestId('region-badge');
  /** Clicks the middle of a region (below its label), with the modifier given. */
  const clickRegion = async (id: number, modifiers: ('Alt' | 'Control')[] = []) => {
    const box = (await region(id).boundingBox())!;
    await page.mouse.move(box.x + box.width / 2, box.y + box.height * 0.7);
    for (const m of modifiers) await page.keyboard.down(m);
    await page.mouse.down();
    await page.mouse.up();
    for (const m of modifiers) await page.keyboard.up(m);
  };

  beforeAll(async () => {
    const admin = await buildUser(suite.knex, { roles: ['ROLE_ADMIN', 'ROLE_USER'] });
    token = await tokenFor(admin.login, admin.password);
    processId = await createProcess(token, `Speech span relations ${suffix}`);
    const writer = await buildUser(suite.knex, {
      authorities: [{ componentId: processId, type: 'PROCESS', mode: 'WRITE' }],
    });
    writerToken = await tokenFor(writer.login, writer.password);
    const upload = await uploadNodeOf(token, processId);
    spans = await addNode(token, processId, { name: 'Spans', activityType: 'SPAN', handlesRelations: true });
    ids.person = await addNerTagType(token, spans, {
      name: 'Person',
      backgroundColor: '#f8d7da',
      textColor: '#000000',
    });
    ids.laughter = await addNerTagType(token, spans, {
      name: 'Laughter',
      backgroundColor: '#cfe2ff',
      textColor: '#000000',
    });
    const relationType = async (name: string, color: string, fromId: number, toId: number) =>
      (
        await api<{ id: number }>(token, '/api/ner-tag-relation-types', {
          method: 'POST',
          body: JSON.stringify({ nodeId: spans, name, color, fromId, toId, priority: 3 }),
        })
      ).id;
    ids.laughsAt = await relationType('laughs at', '#0d6efd', ids.laughter, ids.person);
    ids.hears = await relationType('hears', '#198754', ids.person, ids.laughter);
    ids.echoes = await relationType('echoes', '#6f42c1', ids.laughter, ids.laughter);
    ids.answers = await relationType('answers', '#fd7e14', ids.laughter, ids.laughter);
    await addEdges(token, [upload, spans]);
    const sentence = 'the weather is nice today and we go to the park';
    documentId = (await uploadThrough(token, upload, `laughs-${suffix}.wav`, await speech(sentence))).id;
    await eventuallyMatches(
      () =>
        api<{ steps: { nodeId: number; status: string }[] }>(token, `/api/v2/document/${documentId}/state`),
      (s) => s.steps.some((x) => x.nodeId === spans && x.status === 'WAITING'),
      'the span step waits',
    );
    // No parser node: the words with known times spread over the recording (about 3 s).
    const [utterance] = await suite
      .knex('utterances')
      .insert({ document_id: documentId, actor: 'SPEAKER1', prev_id: null, next_id: null })
      .returning('id');
    await suite.knex('utterance_tokens').insert(
      sentence.split(' ').map((value, position) => ({
        utterance_id: utterance.id,
        position,
        value,
        ts_start: position * 250,
        ts_end: position * 250 + 200,
      })),
    );
    page = await signedInPage(suite.browser, suite.contexts, writer);
  }, 180_000);

  it('starts the step; the time spans are drawn as regions', async () => {
    await page.goto(`${BASE_URL}/entity/process/${processId}/document/${documentId}`);
    await page.getByTestId('speech-workspace').waitFor();
    await page.getByTestId('step-action-startWorking').click();
    await page.locator('[data-testid="speech-workspace"][data-editable="true"]').waitFor();
    const us = await api<UtteranceView[]>(token, `/api/asr-documents/${documentId}/utterances`);
    const post = async (body: Record<string, unknown>) =>
      (
        await api<{ id: number }>(writerToken, '/api/ner-tags', {
          method: 'POST',
          body: JSON.stringify({ documentId, ...body }),
        })
      ).id;
    tag.weather = await post({
      nerTagTypeId: ids.person,
      type: 'ASR_NER_TAG',
      utteranceTokens: us[0].tokens.filter((t) => t.value === 'weather').map((t) => ({ id: t.id })),
    });
    const span = (tsStart: number, tsEnd: number) =>
      post({ nerTagTypeId: ids.laughter, type: 'TIMESPAN_TAG', tsStart, tsEnd });
    tag.a = await span(100, 500);
    tag.b = await span(800, 1200);
    tag.c = await span(1500, 1900);
    tag.d = await span(2200, 2600);
    await page.reload();
    await page.locator('[data-testid="audio-player"][data-ready="true"]').waitFor({ timeout: 60000 });
    for (const id of [tag.a, tag.b, tag.c, tag.d]) await region(id).waitFor({ timeout: 60000 });
    await word('weather').waitFor();
    expect(await badge(tag.a).count()).toBe(0);
  });

  it('relates a time span to a token tag: region selected, Alt+click on the word, Create', async () => {
    await clickRegion(tag.a);
    await selected(tag.a);
    await word('weather').click({ modifiers: ['Alt'] });
    await page.getByTestId('relation-draft').waitFor();
    expect(await page.getByTestId('draft-relation').textContent()).toBe(
      '“0.10 s – 0.50 s”laughs at“weather”×',
    );
    // the region counts the relation held in the draft
    expect(await badge(tag.a).textContent()).toBe('↔ 1');
    const saved = await saveDraft(
      page,
      'relation-create',
      graphs,
      (g) => g.length === 1,
      '73-speech-timespan-relation-draft',
    );
    expect(saved[0].relations).toMatchObject([
      { fromId: tag.a, toId: tag.weather, relationTypeId: ids.laughsAt },
    ]);
  });

  it('relates a token tag to a time span: word selected, Ctrl+click on the region, Edit', async () => {
    await word('weather').click();
    await page.locator(`[data-testid="token"][data-tags~="${tag.weather}"].sp-token-tag-selected`).waitFor();
    await clickRegion(tag.b, ['Control']);
    await page.getByTestId('relation-draft').waitFor();
    expect(await page.getByTestId('draft-relation').allTextContents()).toContain(
      '“weather”hears“0.80 s – 1.20 s”×',
    );
    await saveDraft(page, 'relation-edit', graphs, (g) => g.length === 1 && g[0].relations.length === 2);
  });

  it('relates two time spans: region selected, Alt+click on another, two candidates in the menu', async () => {
    await clickRegion(tag.b);
    await selected(tag.b);
    await clickRegion(tag.c, ['Alt']);
    const menu = page.getByTestId('relation-menu');
    await menu.waitFor();
    expect(await menu.getByTestId('relation-menu-pair').textContent()).toBe(
      '“0.80 s – 1.20 s” → “1.50 s – 1.90 s”',
    );
    expect(
      (
        await menu
          .getByTestId('relation-option')
          .evaluateAll((els) => els.map((e) => e.getAttribute('data-type-id')))
      )
        .map(Number)
        .sort(),
    ).toEqual([ids.echoes, ids.answers].sort());
    await shot(page, '74-speech-timespan-relation-menu');
    await menu.locator(`[data-testid="relation-option"][data-type-id="${ids.answers}"]`).click();
    await page.getByTestId('relation-draft').waitFor();
    const saved = await saveDraft(
      page,
      'relation-edit',
      graphs,
      (g) => g.length === 1 && g[0].relations.length === 3,
    );
    expect(
      saved[0].relations
        .map((r) => [r.fromId, r.toId, r.relationTypeId])
        .sort((x, y) => x[2] - y[2] || x[0] - y[0]),
    ).toEqual(
      [
        [tag.a, tag.weather, ids.laughsAt],
        [tag.weather, tag.b, ids.hears],
        [tag.b, tag.c, ids.answers],
      ].sort((x, y) => x[2] - y[2] || x[0] - y[0]),
    );
  });

  it('after a reload: the rows, the badges; a card in the graph view selects its region and shows it', async () => {
    await page.reload();
    await page.locator('[data-testid="audio-player"][data-ready="true"]').waitFor({ timeout: 60000 });
    await badge(tag.b).waitFor();
    expect((await page.getByTestId('relation-row').allTextContents()).sort()).toEqual(
      [
        '“0.10 s – 0.50 s”laughs at“weather”×',
        '“weather”hears“0.80 s – 1.20 s”×',
        '“0.80 s – 1.20 s”answers“1.50 s – 1.90 s”×',
      ].sort(),
    );
    expect(await badge(tag.a).textContent()).toBe('↔ 1');
    expect(await badge(tag.b).textContent()).toBe('↔ 2');
    expect(await badge(tag.b).getAttribute('title')).toBe('Relations: 2');
    expect(await badge(tag.c).textContent()).toBe('↔ 1');
    expect(await badge(tag.d).count()).toBe(0);
    // the regions are not in the transcript: no arc is drawn for their relations
    expect(await page.getByTestId('relation-arc').count()).toBe(0);
    await page.getByTestId('relation-graph-toggle').click();
    await page.locator(`[data-testid="relation-graph-node"][data-tag-id="${tag.c}"]`).click();
    await selected(tag.c);
    // the player moved to the region's start
    await eventuallyMatches(
      () => page.getByTestId('audio-player-time').textContent(),
      (text) => text?.startsWith('00:01:50') ?? false,
      'the player at the region',
    );
    await shot(page, '75-speech-timespan-relations');
  });

  it('outlines the time span without relation; speaks Polish', async () => {
    await page.getByTestId('highlight-unrelated').check();
    await eventuallyMatches(
      () => outline(tag.d),
      (o) => o.includes('dashed'),
      'region D outlined',
    );
    expect(await region(tag.d).getAttribute('data-outlined')).toBe('true');
    for (const id of [tag.a, tag.b]) expect(await region(id).getAttribute('data-outlined')).toBe('false');
    await shot(page, '76-speech-timespan-unrelated');
    await chooseLanguage(page, 'pl');
    await page.getByTestId('speech-mode').getByText('przedziale czasu innego tagu').waitFor();
    await eventuallyMatches(
      () => badge(tag.b).getAttribute('title'),
      (title) => title === 'Relacje: 2',
      'the badge in Polish',
    );
    await chooseLanguage(page, 'en');
    await page.getByTestId('highlight-unrelated').uncheck();
    await eventuallyMatches(
      () => region(tag.d).getAttribute('data-outlined'),
      (o) => o === 'false',
      'no outline',
    );
  });
});
