/**
 * Label hotkeys (issue 30, spec 3 section 3) in Chromium. A process Upload -> Entities (SPAN; Person keys
 * `n p`, Place key `w`, two labels saved with the same keys before the rule existed) -> Sort (CLF; Letter
 * key `t`), and for the speech workspace Upload -> Parse (accepted on its own) -> Entities of a second
 * process. A WRITE user:
 * - selects words with the keyboard and types a label's keys: the tag is saved (the keys typed so far of a
 *   two-key sequence are shown); with a tag selected the keys retype it;
 * - sees the keys in the legend, the clashing pair marked; `?` lists every shortcut of the screen;
 * - toggles the class with its key in the CLF step;
 * - in the speech workspace selects words (arrows) and types a label's key: the token tag is saved.
 * Screenshots go to tests/artifacts/ (90-...).
 */
import crypto from 'node:crypto';
import type { Page } from 'playwright-core';
import { eventuallyMatches } from '../support/eventually';
import { buildUser, type BuiltUser } from '../support/harness';
import {
  addEdges,
  addNerTagType,
  addNode,
  addTextDocument,
  api,
  BASE_URL,
  browserSuite,
  createProcess,
  shot,
  signedInPage,
  stepWaits,
  tokenFor,
  uploadNodeOf,
  uploadThrough,
} from './support';

const TEXT = 'Anna Kowalska met Jan Nowak in Warsaw.\n';
const at = (needle: string) => TEXT.indexOf(needle);

interface TagView {
  id: number;
  nerTagTypeId: number;
  startOffset: number | null;
  endOffset: number | null;
  utteranceTokens: { id: number }[];
}

describe('label hotkeys', () => {
  const suite = browserSuite();
  const eventually = eventuallyMatches;
  const suffix = crypto.randomBytes(3).toString('hex');
  let token: string;
  let writer: BuiltUser;
  let page: Page;
  let processId: number;
  let documentId: number;
  const ids = { span: 0, clf: 0, person: 0, place: 0, letter: 0 };

  const tags = async (docId = documentId) =>
    (await api<TagView[]>(token, `/api/ner-tags?documentId=${docId}`)).map((x) => ({
      ...x,
      text: x.startOffset === null ? '' : TEXT.slice(x.startOffset, x.endOffset!),
    }));
  const selectedRow = () => page.locator('[data-testid="step-row"][data-selected="true"]');

  /** Selects [start, end) of the focused text with the keyboard. */
  async function keyboardSelect(start: number, end: number) {
    await page.getByTestId('document-text').focus();
    await page.keyboard.press('Control+Home');
    for (let i = 0; i < start; i++) await page.keyboard.press('ArrowRight');
    for (let i = start; i < end; i++) await page.keyboard.press('Shift+ArrowRight');
  }

  beforeAll(async () => {
    const admin = await buildUser(suite.knex, { roles: ['ROLE_ADMIN', 'ROLE_USER'] });
    token = await tokenFor(admin.login, admin.password);
    processId = await createProcess(token, `Label hotkeys ${suffix}`);
    writer = await buildUser(suite.knex, {
      authorities: [{ componentId: processId, type: 'PROCESS', mode: 'WRITE' }],
    });
    const upload = await uploadNodeOf(token, processId);
    ids.span = await addNode(token, processId, { name: 'Entities', activityType: 'SPAN' });
    ids.clf = await addNode(token, processId, { name: 'Sort', activityType: 'CLF' });
    const keyed = (name: string, prefixKey: string | null, suffixKey: string) =>
      addNerTagType(token, ids.span, {
        name,
        backgroundColor: '#f8d7da',
        textColor: '#000000',
        prefixKey,
        suffixKey,
      });
    ids.person = await keyed('Person', 'n', 'p');
    ids.place = await keyed('Place', null, 'w');
    // Two labels that clash, as saved before the rule (the API refuses the second now).
    const first = await addNerTagType(token, ids.span, {
      name: 'Old A',
      backgroundColor: '#eee',
      textColor: '#000',
    });
    const second = await addNerTagType(token, ids.span, {
      name: 'Old B',
      backgroundColor: '#ddd',
      textColor: '#000',
    });
    await suite
      .knex('ner_tag_types')
      .whereIn('id', [first, second])
      .update({ prefix_key: 'x', suffix_key: 'y' });
    ids.letter = (
      await api<{ id: number }>(token, `/api/node/${ids.clf}/classifier-types`, {
        method: 'POST',
        body: JSON.stringify({ name: 'Letter', backgroundColor: '#d1e7dd', suffixKey: 't' }),
      })
    ).id;
    await addEdges(token, [upload, ids.span], [ids.span, ids.clf]);
    documentId = await addTextDocument(token, processId, `keys-${suffix}.txt`, TEXT);
    await stepWaits(token, documentId, ids.span);
    page = await signedInPage(suite.browser, suite.contexts, writer);
  });

  it('refuses keys that clash with another label of the node when the label is saved', async () => {
    const res = await fetch(`${BASE_URL}/api/node/${ids.span}/ner-tag-type`, {
      method: 'POST',
      headers: { Authorization: token, 'Content-Type': 'application/json' },
      body: JSON.stringify({
        name: 'Nobody',
        backgroundColor: '#eeeeee',
        textColor: '#000000',
        prefixKey: 'n',
        suffixKey: 'p',
      }),
    });
    expect(res.status).toBe(400);
    const body = (await res.json()) as { fieldErrors: { field: string; key: string }[] };
    expect(body.fieldErrors.map((f) => [f.field, f.key])).toEqual([
      ['suffixKey', 'soaApp.label.shortcutConflict'],
    ]);
  });

  it('labels the keyboard selection by its keys, and retypes the selected tag', async () => {
    await page.goto(`${BASE_URL}/entity/process/${processId}/document/${documentId}`);
    await page.locator('[data-testid="workspace-mode"][data-mode="LABELING"]').waitFor();
    await selectedRow().getByTestId('step-action-startWorking').click();
    await page.getByTestId('labeling-undo').waitFor();

    await keyboardSelect(0, at(' met'));
    await page.keyboard.press('n');
    await page.getByRole('status').filter({ hasText: 'Keys typed:' }).waitFor();
    await page.keyboard.press('p');
    const anna = await eventually(tags, (t) => t.some((x) => x.text === 'Anna Kowalska'), 'Person by n p');
    expect(anna.find((x) => x.text === 'Anna Kowalska')!.nerTagTypeId).toBe(ids.person);
    await page.locator('[data-testid="document-text"][data-tag-count="1"]').waitFor();

    await keyboardSelect(at('Warsaw'), at('Warsaw') + 6);
    await page.keyboard.press('w');
    await eventually(
      tags,
      (t) => t.some((x) => x.text === 'Warsaw' && x.nerTagTypeId === ids.place),
      'Place by w',
    );
    await page.locator('[data-testid="document-text"][data-tag-count="2"]').waitFor();

    // A selected tag: the keys retype it (and undo brings the old type back).
    await keyboardSelect(at('Jan'), at(' in'));
    await page.keyboard.press('w');
    await eventually(tags, (t) => t.some((x) => x.text === 'Jan Nowak'), 'Jan Nowak is a Place');
    await page.locator('[data-testid="document-text"][data-tag-count="3"]').waitFor();
    const janTag = (await tags()).find((x) => x.text === 'Jan Nowak')!;
    await page.locator(`[data-tag-start~="${janTag.id}"]`).click();
    await page.keyboard.press('n');
    await page.keyboard.press('p');
    await eventually(
      tags,
      (t) => t.some((x) => x.id === janTag.id && x.nerTagTypeId === ids.person),
      'Jan Nowak retyped to Person',
    );
    await page.keyboard.press('Control+z');
    await eventually(
      tags,
      (t) => t.some((x) => x.id === janTag.id && x.nerTagTypeId === ids.place),
      'the retype is undone',
    );
  });

  it('shows the keys in the legend, the clashing labels marked, and every shortcut under ?', async () => {
    const legend = page.getByTestId('hotkey-legend');
    await legend.getByText('Label keys (4)').click();
    const rows = legend.getByRole('listitem');
    expect(await rows.allTextContents()).toEqual([
      'npPerson',
      'wPlace',
      'xyOld A(keys clash, not applied)',
      'xyOld B(keys clash, not applied)',
    ]);
    await shot(page, '90-label-hotkeys-legend');
    // The clashing keys apply nothing.
    await keyboardSelect(at('met'), at('met') + 3);
    await page.keyboard.press('x');
    await page.keyboard.press('y');
    await page.keyboard.press('?');
    const overlay = page.getByRole('dialog', { name: 'Keyboard shortcuts' });
    await overlay.waitFor();
    await overlay
      .getByRole('cell', { name: 'Open the label menu on the selection or the selected tag' })
      .first()
      .waitFor();
    await overlay.getByRole('cell', { name: 'Person', exact: true }).waitFor();
    await overlay.getByRole('cell', { name: 'Old A (keys clash, not applied)' }).waitFor();
    await shot(page, '91-shortcuts-overlay');
    await page.keyboard.press('Escape');
    await overlay.waitFor({ state: 'detached' });
    expect((await tags()).some((x) => x.text === 'met')).toBe(false);
  });

  it('toggles a class by its key in the CLF step', async () => {
    await selectedRow().getByTestId('step-action-complete').click();
    await page.locator('[data-testid="workspace-mode"][data-mode="CLASSIFYING"]').waitFor();
    await selectedRow().getByTestId('step-action-startWorking').click();
    const panel = page.getByRole('region', { name: 'Classes' });
    await panel.locator(`[data-type-id="${ids.letter}"]:not([disabled])`).waitFor();
    await page.locator('body').press('t');
    await panel.getByRole('button', { name: /Letter/, pressed: true }).waitFor();
    const classes = await api<{ classifierTypeId: number }[]>(
      token,
      `/api/classifier-tags?documentId=${documentId}`,
    );
    expect(classes.map((c) => c.classifierTypeId)).toEqual([ids.letter]);
    await shot(page, '92-classifier-hotkey');
    await page.locator('body').press('t');
    await panel.getByRole('button', { name: /Letter/, pressed: false }).waitFor();
  });

  it('labels the selected words of the speech workspace by a key', async () => {
    const speechProcess = await createProcess(token, `Speech keys ${suffix}`);
    const speechWriter = await buildUser(suite.knex, {
      authorities: [{ componentId: speechProcess, type: 'PROCESS', mode: 'WRITE' }],
    });
    const upload = await uploadNodeOf(token, speechProcess);
    const parse = await addNode(token, speechProcess, {
      name: 'Parse',
      activityType: 'FILE_PARSER',
      autoStepStatus: 'ACCEPTED',
    });
    const entities = await addNode(token, speechProcess, { name: 'Entities', activityType: 'SPAN' });
    const city = await addNerTagType(token, entities, {
      name: 'City',
      backgroundColor: '#cfe2ff',
      textColor: '#000000',
      suffixKey: 'c',
    });
    await addEdges(token, [upload, parse], [parse, entities]);
    const transcript = {
      utterances: [
        {
          actor: 'SPEAKER1',
          tokens: [
            { value: 'She', tsStart: 0, tsEnd: 300 },
            { value: 'lives', tsStart: 350, tsEnd: 700 },
            { value: 'in', tsStart: 750, tsEnd: 900 },
            { value: 'New', tsStart: 950, tsEnd: 1200 },
            { value: 'York', tsStart: 1250, tsEnd: 1600 },
          ],
        },
      ],
    };
    const doc = await uploadThrough(token, upload, `keys-${suffix}.json`, JSON.stringify(transcript));
    await stepWaits(token, doc.id, entities);
    const speechPage = await signedInPage(suite.browser, suite.contexts, speechWriter);
    await speechPage.goto(`${BASE_URL}/entity/process/${speechProcess}/document/${doc.id}`);
    await speechPage.getByTestId('speech-workspace').waitFor();
    await speechPage
      .locator('[data-testid="step-row"][data-selected="true"]')
      .getByTestId('step-action-startWorking')
      .click();
    await speechPage.locator('[data-testid="speech-workspace"][data-editable="true"]').waitFor();
    await speechPage.locator('[data-testid="token"]').filter({ hasText: /^New$/ }).click();
    await speechPage.keyboard.press('Shift+ArrowRight');
    await speechPage.keyboard.press('c');
    const saved = await eventually(
      () => api<TagView[]>(token, `/api/ner-tags?documentId=${doc.id}`),
      (t) => t.some((x) => x.nerTagTypeId === city),
      'City by c',
    );
    const us = await api<{ tokens: { id: number; value: string }[] }[]>(
      token,
      `/api/asr-documents/${doc.id}/utterances`,
    );
    const words = new Map(us.flatMap((u) => u.tokens).map((t) => [t.id, t.value]));
    expect(saved[0].utteranceTokens.map((t) => words.get(t.id))).toEqual(['New', 'York']);
    await speechPage.locator(`[data-testid="token"][data-tags~="${saved[0].id}"]`).first().waitFor();
    await speechPage.getByTestId('hotkey-legend').getByText('Label keys (1)').click();
    await shot(speechPage, '93-speech-label-hotkey');
  });
});
