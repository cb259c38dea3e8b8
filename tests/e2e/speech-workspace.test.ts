/**
 * The speech workspace in Chromium (issue 14 sections 2 and 3) on an AUDIOFILE document made from an imported JSON
 * transcript (the parser's .json import; fast and deterministic, its "audio" is the JSON file, so the player
 * shows its cannot-play notice). The process: Upload -> Proofread (FILE_PARSER, stays WAITING: the EDITING
 * view) -> Entities (SPAN: the LABELING view). A WRITE user starts Proofread, fixes a word inline (saved after
 * a reload), splits one into two words, changes an utterance's actor with p, extracts tokens with e, marks a
 * word unclear through the editing menu, picks a hint, completes the step; then starts Entities and tags a
 * token through the label menu. Undo and redo (Ctrl+Z, Ctrl+Shift+Z, Ctrl+Y and the buttons) of the
 * extraction, the actor change, the split and an inline fix, the server holding each state and a reload
 * showing the undone transcript; in the span step an option added from the label menu tags a word at once,
 * and Ctrl+Z / Ctrl+Shift+Z remove and bring back that tag. The API is only used to set up and to check what
 * was saved.
 * A second suite uploads an espeak-ng recording into a process without a file parser node (Upload -> Spans), so
 * nothing recognizes it: its words are written to the database with known times (peaks are computed on the
 * first request, the stream plays): Space plays with the spoken word highlighted, and a drag on the waveform
 * tags a time span, drawn after a reload as a region with its type's name. The same on words pocketsphinx
 * recognized through the parser: tests/e2e/speech-journey.test.ts.
 * Screenshots go to tests/artifacts/ (60-...).
 */
import crypto from 'node:crypto';
import knexFactory, { type Knex } from 'knex';
import type { Browser, BrowserContext, Page, Request } from 'playwright-core';
import { eventuallyMatches } from '../support/eventually';
import { buildUser, type BuiltUser } from '../support/harness';
import { speech } from '../support/media';
import {
  dragTimeSpan,
  expectOneChain,
  shownAsSaved as shownWords,
  words,
  type StepView,
  type UtteranceView,
} from './speech-support';
import {
  addNerTagType,
  api,
  BASE_URL,
  createProcess,
  launch,
  shot,
  signedInPage,
  tokenFor,
  uploadThrough,
} from './support';

const TRANSCRIPT = {
  utterances: [
    {
      actor: 'SPEAKER1',
      tokens: [
        { value: 'Hello', tsStart: 0, tsEnd: 400 },
        { value: 'wrold', tsStart: 450, tsEnd: 900, hints: [{ value: 'world', confidence: 0.6 }] },
        { value: 'and', tsStart: 950, tsEnd: 1100 },
        { value: 'icecream', tsStart: 1150, tsEnd: 1600 },
        { value: '.', tsStart: 1600, tsEnd: 1620 },
      ],
    },
    {
      actor: 'SPEAKER1',
      tokens: [
        { value: 'We', tsStart: 2500, tsEnd: 2700 },
        { value: 'meet', tsStart: 2750, tsEnd: 3000 },
        { value: 'Anna', tsStart: 3050, tsEnd: 3400 },
        { value: 'in', tsStart: 3450, tsEnd: 3550 },
        { value: 'Warsaw', tsStart: 3600, tsEnd: 4100 },
        { value: 'today', tsStart: 4150, tsEnd: 4500 },
      ],
    },
    {
      actor: 'SPEAKER2',
      tokens: [
        { value: 'Sounds', tsStart: 5500, tsEnd: 5900 },
        { value: 'grate', tsStart: 5950, tsEnd: 6300, hints: [{ value: 'great', confidence: 0.7 }] },
      ],
    },
  ],
};

describe('speech workspace in Chromium', () => {
  let knex: Knex;
  let browser: Browser;
  let token: string;
  let processId: number;
  let documentId: number;
  let writer: BuiltUser;
  let page: Page;
  const ids = { proofread: 0, entities: 0, person: 0 };
  const contexts: BrowserContext[] = [];
  const suffix = crypto.randomBytes(3).toString('hex');
  const eventually = eventuallyMatches;

  const steps = async () =>
    (await api<{ steps: StepView[] }>(token, `/api/v2/document/${documentId}/state`)).steps;
  const transcript = () => api<UtteranceView[]>(token, `/api/asr-documents/${documentId}/utterances`);
  const workspaceUrl = () => `${BASE_URL}/entity/process/${processId}/document/${documentId}`;
  const tokenEl = (p: Page, value: string) =>
    p.locator('[data-testid="token"]').filter({ hasText: new RegExp(`^${value.replace(/[.?]/g, '\\$&')}$`) });
  const shownAsSaved = (p: Page) => shownWords(p, transcript);
  /** The split of 'icecream.' on the server: its second word from the old end to the old end + 50 ms. */
  async function splitSaved(what: string) {
    const saved = await eventually(transcript, (l) => words(l)[0] === 'Hello world and ice cream.', what);
    const cream = saved[0].tokens.find((t) => t.value === 'cream.')!;
    expect([cream.tsStart, cream.tsEnd]).toEqual([1620, 1670]);
    return cream;
  }
  const idle = (p: Page) => p.locator('[data-testid="speech-workspace"][data-editing-mode="NONE"]').waitFor();
  /**
   * The hints menu stands inside the window beside the word, never over it: below it, or above it when there
   * is no room below. Answers the side.
   */
  const hintsBesideWord = async (p: Page, value: string) => {
    const word = (await tokenEl(p, value).boundingBox())!;
    const menu = (await p.getByTestId('hints-menu').boundingBox())!;
    const viewport = p.viewportSize()!;
    const roomBelow = word.y + word.height + menu.height <= viewport.height;
    expect({
      below: menu.y >= word.y + word.height,
      above: menu.y + menu.height <= word.y,
      inside: menu.y >= 0 && menu.y + menu.height <= viewport.height,
    }).toEqual({ below: roomBelow, above: !roomBelow, inside: true });
    return roomBelow ? 'below' : 'above';
  };

  beforeAll(async () => {
    knex = knexFactory({ client: 'pg', connection: process.env.DATABASE_URL, pool: { min: 0, max: 2 } });
    const admin = await buildUser(knex, { roles: ['ROLE_ADMIN', 'ROLE_USER'] });
    token = await tokenFor(admin.login, admin.password);
    processId = await createProcess(token, `Speech workspace ${suffix}`);
    writer = await buildUser(knex, {
      authorities: [{ componentId: processId, type: 'PROCESS', mode: 'WRITE' }],
    });
    await api(token, `/api/process/${processId}/process-actors`, {
      method: 'PUT',
      body: JSON.stringify([
        { actor: 'SPEAKER1', name: 'Interviewer' },
        { actor: 'SPEAKER2', name: 'Guest' },
      ]),
    });
    const nodes = await api<{ id: number; activityType: string }[]>(
      token,
      `/api/nodes?processId=${processId}`,
    );
    const upload = nodes.find((n) => n.activityType === 'HUP')!;
    const node = async (body: Record<string, unknown>) =>
      (
        await api<{ id: number }>(token, '/api/nodes', {
          method: 'POST',
          body: JSON.stringify({ processId, ...body }),
        })
      ).id;
    ids.proofread = await node({ name: 'Proofread', activityType: 'FILE_PARSER', autoStepStatus: 'WAITING' });
    ids.entities = await node({ name: 'Entities', activityType: 'SPAN' });
    ids.person = await addNerTagType(token, ids.entities, {
      name: 'Person',
      backgroundColor: '#f8d7da',
      textColor: '#58151c',
    });
    for (const [fromId, toId] of [
      [upload.id, ids.proofread],
      [ids.proofread, ids.entities],
    ])
      await api(token, '/api/edges', { method: 'POST', body: JSON.stringify({ fromId, toId }) });

    const created = await uploadThrough(
      token,
      upload.id,
      `interview-${suffix}.json`,
      JSON.stringify(TRANSCRIPT),
    );
    documentId = created.id;
    // A transcript of the JSON import format is typed as a recording's transcript (domain/upload-check.ts).
    expect(created.documentType).toBe('AUDIOFILE');
    await eventually(
      steps,
      (s) => s.some((x) => x.nodeId === ids.proofread && x.status === 'WAITING'),
      'the proofread step waits',
    );
    browser = await launch();
    page = await signedInPage(browser, contexts, writer);
  });

  afterAll(async () => {
    for (const c of contexts) await c.close().catch(() => undefined);
    await browser?.close();
    await knex?.destroy();
  });

  it('opens the transcript with actors, and starts the proofread step', async () => {
    await page.goto(workspaceUrl());
    await page.getByTestId('speech-workspace').waitFor();
    await shownAsSaved(page);
    const actors = await page.getByTestId('utterance-actor').allTextContents();
    expect(actors).toEqual(['Interviewer', 'Interviewer', 'Guest']);
    // Punctuation is drawn with the word before it.
    await tokenEl(page, 'icecream.').waitFor();
    await page.getByTestId('step-action-startWorking').click();
    await page.locator('[data-testid="workspace-mode"][data-mode="EDITING"]').waitFor();
    await page.locator('[data-testid="speech-workspace"][data-editable="true"]').waitFor();
    await page.getByTestId('audio-player').waitFor();
    // a JSON transcript has no recording: said as such, and its length is not claimed to be 00:00:00
    expect(await page.getByTestId('audio-player-notice').textContent()).toBe(
      'This transcript has no recording: there is nothing to play.',
    );
    expect(await page.getByTestId('audio-player-no-peaks').count()).toBe(0);
    expect(await page.getByTestId('audio-player-time').textContent()).toMatch(/^\d\d:\d\d:\d\d \/ --:--:--$/);
    await shot(page, '60-speech-workspace');
  });

  it('fixes a word inline, refuses what the rules refuse, and keeps it after a reload', async () => {
    await tokenEl(page, 'wrold').dblclick();
    const input = page.getByTestId('token-editor-input');
    await input.fill('one two three');
    await page.getByTestId('token-editor-message').getByText('Max two words allowed').waitFor();
    await input.fill('wor!d');
    await page.getByTestId('token-editor-message').getByText('Invalid input').waitFor();
    await input.fill('');
    await page.getByTestId('token-editor-message').getByText('The word will be deleted').waitFor();
    await shot(page, '61-speech-inline-edit');
    await input.fill('world');
    await input.press('Enter');
    await eventually(transcript, (l) => words(l)[0] === 'Hello world and icecream.', 'the word is saved');
    await page.reload();
    await page.getByTestId('speech-workspace').waitFor();
    await tokenEl(page, 'world').waitFor();
    await shownAsSaved(page);
  });

  it('splits a word into two tokens, the second from the old end to the old end + 50 ms', async () => {
    await tokenEl(page, 'icecream.').dblclick();
    await page.getByTestId('token-editor-input').fill('ice cream.');
    await page.getByTestId('token-editor-input').press('Enter');
    await splitSaved('the split is saved');
    await shownAsSaved(page);
  });

  it('changes an utterance actor with p, arrows and Enter', async () => {
    await idle(page);
    await tokenEl(page, 'Sounds').click();
    await page.keyboard.press('p');
    await page.locator('[data-testid="speech-workspace"][data-editing-mode="ACTOR_CHANGE"]').waitFor();
    await page.keyboard.press('ArrowRight'); // SPEAKER2 -> ARTIFACT
    await page.keyboard.press('ArrowRight'); // -> SPEAKER1
    await shot(page, '62-speech-actor-change');
    await page.keyboard.press('Enter');
    await eventually(transcript, (l) => l[2].actor === 'SPEAKER1', 'the actor is saved');
    await idle(page);
    await eventually(
      () => page.getByTestId('utterance-actor').allTextContents(),
      (a) => a[2] === 'Interviewer',
      'the row shows the new actor',
    );
  });

  it('extracts the selected tokens into a new utterance with e and saves it with Enter', async () => {
    await tokenEl(page, 'Anna').click();
    await tokenEl(page, 'in').click({ modifiers: ['Shift'] });
    await page.keyboard.press('e');
    await page
      .locator('[data-testid="speech-workspace"][data-editing-mode="EXTRACT_NEW_UTTERANCE"]')
      .waitFor();
    // The first and last words cannot be extracted: the draft shows three utterances in place of one.
    expect(await page.getByTestId('utterance').count()).toBe(5);
    await shot(page, '63-speech-extract');
    await page.keyboard.press('Enter');
    const saved = await eventually(transcript, (l) => l.length === 5, 'the extraction is saved');
    expect(words(saved).slice(1, 4)).toEqual(['We meet', 'Anna in', 'Warsaw today']);
    // The list stays one chain in order.
    expectOneChain(saved);
    await idle(page);
    await shownAsSaved(page);
  });

  it('undoes and redoes the extraction, the actor change, the split and an inline fix on the server', async () => {
    const undo = () => page.keyboard.press('Control+z');
    const state = (l: UtteranceView[]) => ({ words: words(l), actors: l.map((u) => u.actor) });
    const edited = state(await transcript());
    const tokenIds = (await transcript()).map((u) => u.tokens.map((t) => t.id));
    await idle(page);
    await page.locator('body').click({ position: { x: 5, y: 5 } });
    await undo();
    await eventually(
      transcript,
      (l) =>
        JSON.stringify(words(l)) ===
        JSON.stringify(['Hello world and ice cream.', 'We meet Anna in Warsaw today', 'Sounds grate']),
      'the extraction is undone',
    );
    await shownAsSaved(page);
    await page.getByTestId('speech-undo').click();
    await eventually(transcript, (l) => l[2].actor === 'SPEAKER2', 'the actor change is undone');
    await eventually(
      () => page.getByTestId('utterance-actor').allTextContents(),
      (a) => a[2] === 'Guest',
      'the row shows the actor it had',
    );
    await undo();
    await eventually(transcript, (l) => words(l)[0] === 'Hello world and icecream.', 'the split is undone');
    await tokenEl(page, 'icecream.').waitFor();
    await shot(page, '69-speech-undo');

    // Redo: the split's second word comes back with its times under its own id (the server kept it), then
    // the actor, then the extraction.
    await page.keyboard.press('Control+Shift+z');
    const cream = await splitSaved('the split is redone');
    expect(tokenIds.flat()).toContain(cream.id);
    await page.keyboard.press('Control+y');
    await eventually(transcript, (l) => l[2].actor === 'SPEAKER1', 'the actor change is redone');
    await page.getByTestId('speech-redo').click();
    await eventually(
      transcript,
      (l) => JSON.stringify(state(l)) === JSON.stringify(edited),
      'the extraction is redone',
    );
    await shownAsSaved(page);
    expect(await page.getByTestId('speech-redo').isDisabled()).toBe(true);

    // Back to before the three edits, then an inline fix and its undo.
    for (let i = 0; i < 3; i++) await undo();
    await eventually(
      transcript,
      (l) =>
        JSON.stringify(state(l)) ===
        JSON.stringify({
          words: ['Hello world and icecream.', 'We meet Anna in Warsaw today', 'Sounds grate'],
          actors: ['SPEAKER1', 'SPEAKER1', 'SPEAKER2'],
        }),
      'the three edits are undone',
    );
    await shownAsSaved(page);
    await tokenEl(page, 'today').dblclick();
    await page.getByTestId('token-editor-input').fill('tonight');
    await page.getByTestId('token-editor-input').press('Enter');
    await eventually(transcript, (l) => words(l)[1].endsWith('tonight'), 'the fix is saved');
    await tokenEl(page, 'tonight').waitFor();
    await undo();
    await eventually(transcript, (l) => words(l)[1].endsWith('today'), 'the fix is undone');
    // A reload shows what the server has; the stack is the page's, so there is nothing to undo.
    await page.reload();
    await page.getByTestId('speech-workspace').waitFor();
    const saved = await shownAsSaved(page);
    expect(words(saved)).toEqual([
      'Hello world and icecream.',
      'We meet Anna in Warsaw today',
      'Sounds grate',
    ]);
    expect(await page.getByTestId('utterance-actor').allTextContents()).toEqual([
      'Interviewer',
      'Interviewer',
      'Guest',
    ]);
    expect(await page.getByTestId('speech-undo').isDisabled()).toBe(true);
  });

  it('undoes a word deletion in one request: the word comes back under its id with its token tag and hints', async () => {
    const grate = (await transcript())[2].tokens.find((t) => t.value === 'grate')!;
    // A token tag on the word from an earlier pass of the document (the span step comes later here).
    const [tag] = await knex('ner_tags')
      .insert({
        document_id: documentId,
        ner_tag_type_id: ids.person,
        type: 'ASR_NER_TAG',
        ts_start: grate.tsStart,
        ts_end: grate.tsEnd,
      })
      .returning('id');
    await knex('ner_tag_tokens').insert({ ner_tag_id: tag.id, utterance_token_id: grate.id });
    await tokenEl(page, 'grate').click({ button: 'right' });
    await page.getByTestId('menu-delete').click();
    await eventually(transcript, (l) => words(l)[2] === 'Sounds', 'the word is deleted');
    await tokenEl(page, 'grate').waitFor({ state: 'detached' });
    expect(await knex('ner_tags').where('id', tag.id).first()).toBeUndefined();

    const writes: string[] = [];
    const watch = (r: Request) => {
      if (r.method() !== 'GET' && r.url().includes('/api/'))
        writes.push(`${r.method()} ${new URL(r.url()).pathname}`);
    };
    page.on('request', watch);
    await idle(page);
    await page.locator('body').click({ position: { x: 5, y: 5 } });
    await page.keyboard.press('Control+z');
    const back = await eventually(
      transcript,
      (l) => words(l)[2] === 'Sounds grate',
      'the deletion is undone',
    );
    await tokenEl(page, 'grate').waitFor();
    page.off('request', watch);
    expect(writes).toEqual(['POST /api/utterances/batch']);
    expect(back[2].tokens[1].id).toBe(grate.id);
    expect(await knex('ner_tag_tokens').where('utterance_token_id', grate.id).pluck('ner_tag_id')).toEqual([
      tag.id,
    ]);
    expect(await knex('token_hints').where('utterance_token_id', grate.id).pluck('value')).toEqual(['great']);
    await knex('ner_tags').where('id', tag.id).delete();
  });

  it('marks a word unclear through the editing menu and picks a hint', async () => {
    await tokenEl(page, 'meet').click({ button: 'right' });
    await page.getByTestId('editing-menu').waitFor();
    await page.getByTestId('menu-unclear').click();
    await page.getByTestId('menu-unclear-toggle').click();
    await eventually(
      transcript,
      (l) => l[1].tokens.find((t) => t.value === 'meet')?.unclear === true,
      'the unclear mark is saved',
    );
    await page.locator('[data-testid="token"][data-unclear="true"]').filter({ hasText: 'meet' }).waitFor();

    await tokenEl(page, 'grate').click({ button: 'right' });
    await page.getByTestId('menu-hints').click();
    await page.getByTestId('hints-menu').getByTestId('hint').first().waitFor();
    expect(await page.getByTestId('hint').allTextContents()).toEqual(['great']);
    expect(await hintsBesideWord(page, 'grate')).toBe('below');
    await shot(page, '64-speech-hints');
    // In a short window too (the list scrolls), on whichever side has room; the flip above is unit-tested
    // (web/src/components/floatingMenu.test.ts).
    const viewport = page.viewportSize()!;
    await page.keyboard.press('Escape');
    await page.setViewportSize({ width: viewport.width, height: 560 });
    await tokenEl(page, 'grate').click({ button: 'right' });
    await page.getByTestId('menu-hints').click();
    await page.getByTestId('hints-menu').getByTestId('hint').first().waitFor();
    await hintsBesideWord(page, 'grate');
    await shot(page, '64-speech-hints-short-window');
    await page.setViewportSize(viewport);
    await page.getByTestId('hint').click();
    await eventually(transcript, (l) => words(l).at(-1) === 'Sounds great', 'the hint is saved');
    await tokenEl(page, 'great').waitFor();
  });

  it('completes the proofread step and tags a token in the span step', async () => {
    await page.getByTestId('step-action-complete').click();
    await eventually(
      steps,
      (s) => s.some((x) => x.nodeId === ids.entities && x.status === 'WAITING'),
      'the span step waits',
    );
    await page.reload();
    await page.getByTestId('speech-workspace').waitFor();
    await page.getByTestId('step-action-startWorking').click();
    await page.locator('[data-testid="workspace-mode"][data-mode="LABELING"]').waitFor();
    await page.locator('[data-testid="speech-workspace"][data-editable="true"]').waitFor();
    await tokenEl(page, 'Anna').click({ button: 'right' });
    await page.getByTestId('label-menu').waitFor();
    await page.keyboard.type('Person');
    await page.locator('[data-testid="label-option"][data-active="true"]').waitFor();
    await page.keyboard.press('Enter');
    await eventually(
      () =>
        api<{ type: string; nerTagTypeId: number; utteranceTokens: { id: number }[] }[]>(
          token,
          `/api/ner-tags?documentId=${documentId}`,
        ),
      (tags) => tags.some((t) => t.type === 'ASR_NER_TAG' && t.nerTagTypeId === ids.person),
      'the token tag is saved',
    );
    await page.reload();
    await page.locator('[data-testid="token"][data-tags]').filter({ hasText: 'Anna' }).waitFor();
    await shot(page, '65-speech-token-tag');
  });

  it('adds an option from the label menu, tags with it at once, and undoes and redoes the tag', async () => {
    const place = () => page.locator('[data-testid="token"][data-tags]').filter({ hasText: 'Warsaw' });
    const tagsOf = async (typeId: number) =>
      (
        await api<{ id: number; type: string; nerTagTypeId: number; utteranceTokens: { id: number }[] }[]>(
          token,
          `/api/ner-tags?documentId=${documentId}`,
        )
      ).filter((t) => t.nerTagTypeId === typeId);
    await tokenEl(page, 'Warsaw').click({ button: 'right' });
    await page.getByTestId('label-menu').waitFor();
    // (The node's root is not selectable: its row is aria-disabled, which the driver applies to its buttons.)
    const person = page.locator(`[data-testid="label-option"][data-option-id="${ids.person}"]`);
    await person.getByTestId('label-option-edit').waitFor();
    await person.getByTestId('label-option-add').click();
    await page.getByTestId('ner-label-modal').waitFor();
    await page.getByTestId('ner-label-restricted').waitFor(); // WRITE: name and colours
    await page.getByTestId('ner-label-name').fill('Capital');
    await shot(page, '69-speech-add-option');
    await page.getByTestId('ner-label-save').click();
    await page.getByTestId('ner-label-modal').waitFor({ state: 'detached' });
    const types = await eventually(
      () =>
        api<{ id: number; name: string; parentId: number | null }[]>(
          token,
          `/api/node/${ids.entities}/ner-tag-type`,
        ),
      (list) => list.some((x) => x.name === 'Capital'),
      'the option is saved',
    );
    const capital = types.find((x) => x.name === 'Capital')!;
    expect(capital.parentId).toBe(ids.person);
    const placeId = capital.id;
    await page
      .locator(`[data-testid="label-option"][data-option-id="${placeId}"][data-active="true"]`)
      .waitFor();
    await page.keyboard.press('Enter');
    await page.getByTestId('label-menu').waitFor({ state: 'detached' });
    const warsaw = (await transcript()).flatMap((u) => u.tokens).find((t) => t.value === 'Warsaw')!;
    await eventually(
      () => tagsOf(placeId),
      (list) => list.length === 1 && list[0].utteranceTokens[0]?.id === warsaw.id,
      'the word is tagged with the new option',
    );
    await place().waitFor();
    await page.keyboard.press('Control+z');
    await eventually(
      () => tagsOf(placeId),
      (list) => list.length === 0,
      'the tag is undone',
    );
    await place().waitFor({ state: 'detached' });
    await page.keyboard.press('Control+Shift+z');
    await eventually(
      () => tagsOf(placeId),
      (list) => list.length === 1,
      'the tag is redone',
    );
    await page.reload();
    await place().waitFor();
  });

  it('speaks Polish', async () => {
    // The navbar's language menu (chooseLanguage's wait evaluates a string, which the CSP refuses when it polls).
    const language = async (locale: 'en' | 'pl') => {
      await page.getByTestId('language-menu').click();
      await page.getByTestId(`language-${locale}`).click();
    };
    await language('pl');
    await page.getByTestId('speech-mode').getByText('Zaznacz słowa i kliknij prawym przyciskiem').waitFor();
    await tokenEl(page, 'Anna').click();
    await shot(page, '66-speech-workspace-pl');
    await language('en');
    await page.getByTestId('speech-mode').getByText('Select words and right-click').waitFor();
  });
});

describe('speech workspace on a real recording in Chromium', () => {
  let knex: Knex;
  let browser: Browser;
  let token: string;
  let processId: number;
  let documentId: number;
  let span: number;
  let person: number;
  let applause: number;
  const contexts: BrowserContext[] = [];
  const suffix = crypto.randomBytes(3).toString('hex');

  beforeAll(async () => {
    knex = knexFactory({ client: 'pg', connection: process.env.DATABASE_URL, pool: { min: 0, max: 2 } });
    const admin = await buildUser(knex, { roles: ['ROLE_ADMIN', 'ROLE_USER'] });
    token = await tokenFor(admin.login, admin.password);
    processId = await createProcess(token, `Speech recording ${suffix}`);
    const nodes = await api<{ id: number; activityType: string }[]>(
      token,
      `/api/nodes?processId=${processId}`,
    );
    const upload = nodes.find((n) => n.activityType === 'HUP')!;
    span = (
      await api<{ id: number }>(token, '/api/nodes', {
        method: 'POST',
        body: JSON.stringify({ processId, name: 'Spans', activityType: 'SPAN' }),
      })
    ).id;
    person = await addNerTagType(token, span, {
      name: 'Laughter',
      backgroundColor: '#cfe2ff',
      textColor: '#052c65',
    });
    applause = await addNerTagType(token, span, {
      name: 'Applause',
      backgroundColor: '#d1e7dd',
      textColor: '#0a3622',
    });
    await api(token, '/api/edges', {
      method: 'POST',
      body: JSON.stringify({ fromId: upload.id, toId: span }),
    });
    documentId = (
      await uploadThrough(
        token,
        upload.id,
        `weather-${suffix}.wav`,
        await speech('the weather is nice today and we go to the park'),
      )
    ).id;
    await eventuallyMatches(
      () => api<{ steps: StepView[] }>(token, `/api/v2/document/${documentId}/state`),
      (s) => s.steps.some((x) => x.nodeId === span && x.status === 'WAITING'),
      'the span step waits',
    );
    // No parser node: the words of the sentence with known times spread over the recording.
    const [utterance] = await knex('utterances')
      .insert({ document_id: documentId, actor: 'SPEAKER1', prev_id: null, next_id: null })
      .returning('id');
    const words = 'the weather is nice today and we go to the park'.split(' ');
    await knex('utterance_tokens').insert(
      words.map((value, position) => ({
        utterance_id: utterance.id,
        position,
        value,
        ts_start: position * 250,
        ts_end: position * 250 + 200,
      })),
    );
    browser = await launch();
  }, 180_000);

  afterAll(async () => {
    for (const c of contexts) await c.close().catch(() => undefined);
    await browser?.close();
    await knex?.destroy();
  });

  it('plays with the spoken word highlighted, and tags a time span dragged on the waveform', async () => {
    // the sentence lasts about 3 s; its words are timed 0.25 s apart from the start
    const writer = await buildUser(knex, {
      authorities: [{ componentId: processId, type: 'PROCESS', mode: 'WRITE' }],
    });
    const page = await signedInPage(browser, contexts, writer);
    await page.goto(`${BASE_URL}/entity/process/${processId}/document/${documentId}`);
    await page.getByTestId('speech-workspace').waitFor();
    await page.locator('[data-testid="token"]').first().waitFor();
    await page.locator('[data-testid="audio-player"][data-ready="true"]').waitFor({ timeout: 60000 });
    // Space plays (focus on nothing in particular); the word being spoken is marked.
    await page.locator('body').click({ position: { x: 5, y: 5 } });
    await page.keyboard.press(' ');
    await page.locator('.sp-token-playing').first().waitFor({ timeout: 30000 });
    await shot(page, '67-speech-playing');
    await page.keyboard.press(' ');

    await page.getByTestId('step-action-startWorking').click();
    await page.locator('[data-testid="speech-workspace"][data-editable="true"]').waitFor();
    await dragTimeSpan(page, 'Laughter');
    const tags = await eventuallyMatches(
      () =>
        api<{ id: number; type: string; nerTagTypeId: number; tsStart: number; tsEnd: number }[]>(
          token,
          `/api/ner-tags?documentId=${documentId}`,
        ),
      (list) => list.some((t) => t.type === 'TIMESPAN_TAG' && t.nerTagTypeId === person),
      'the time span is saved',
    );
    const saved = tags.find((t) => t.type === 'TIMESPAN_TAG')!;
    expect(saved.tsStart).toBeLessThan(saved.tsEnd);
    expect(saved.tsStart % 10).toBe(0);
    await page.reload();
    const region = page.locator(`[data-testid="audio-player-waveform"] [data-region-id="${saved.id}"]`);
    await region.waitFor({ state: 'attached', timeout: 60000 });
    expect(await region.textContent()).toBe('Laughter');
    await shot(page, '68-speech-time-span');

    // Resized by its right edge, then Ctrl+Z: its times back on the server; Ctrl+Shift+Z: resized again.
    type Tag = { id: number; nerTagTypeId: number; tsStart: number; tsEnd: number };
    const tagNow = async () =>
      (await api<Tag[]>(token, `/api/ner-tags?documentId=${documentId}`)).find((t) => t.id === saved.id)!;
    const edge = (await region.locator('[part~="region-handle-right"]').boundingBox())!;
    const y = edge.y + edge.height / 2;
    await page.mouse.move(edge.x + edge.width / 2, y);
    await page.mouse.down();
    await page.mouse.move(edge.x + 40, y, { steps: 5 });
    await page.mouse.move(edge.x + 80, y, { steps: 5 });
    await page.mouse.up();
    const resized = await eventuallyMatches(tagNow, (t) => t.tsEnd > saved.tsEnd, 'the resize is saved');
    expect(resized.tsStart).toBe(saved.tsStart);
    await page.keyboard.press('Control+z');
    await eventuallyMatches(
      tagNow,
      (t) => t.tsStart === saved.tsStart && t.tsEnd === saved.tsEnd,
      'the resize is undone on the server',
    );
    await page.keyboard.press('Control+Shift+z');
    await eventuallyMatches(tagNow, (t) => t.tsEnd === resized.tsEnd, 'the resize is redone');

    // Retyped through the label menu (the region selected, l), undone and redone.
    await region.click();
    // the key acts on the selected tag: wait until the click has selected it
    await page.locator(`[data-region-id="${saved.id}"][data-selected="true"]`).waitFor();
    await page.keyboard.press('l');
    await page.getByTestId('label-menu').waitFor();
    await page.keyboard.type('Applause');
    await page
      .locator(`[data-testid="label-option"][data-option-id="${applause}"][data-active="true"]`)
      .waitFor();
    await page.keyboard.press('Enter');
    /** The tag's type on the server and the region's name on the waveform. */
    const typed = async (typeId: number, name: string, what: string) => {
      await eventuallyMatches(
        () => region.textContent(),
        (text) => text === name,
        `${what}: the region`,
      );
      return eventuallyMatches(tagNow, (t) => t.nerTagTypeId === typeId, what);
    };
    await typed(applause, 'Applause', 'the retype is saved');
    await page.keyboard.press('Control+z');
    await typed(person, 'Laughter', 'the retype is undone');
    await page.keyboard.press('Control+Shift+z');
    const last = await typed(applause, 'Applause', 'the retype is redone');
    expect([last.tsStart, last.tsEnd]).toEqual([resized.tsStart, resized.tsEnd]);
  });
});
