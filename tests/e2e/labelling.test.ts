/**
 * Issue 11, labelling in a real browser: a process Upload -> Entities (SPAN) -> Sort (CLF) -> Route A / Route B
 * (SPAN, by the CLF predicates). A WRITE user starts the SPAN step and labels a range by mouse selection and
 * the menu, one by keyboard only, one nested inside another, all occurrences of a word at once; resizes one by
 * its handle, deletes one and undoes the delete, retypes a lexicon-written tag (shown with its origin
 * marker); after a reload the tags are as saved; then completes the step, classifies the document in the
 * CLF step's panel and completes it, and the predicate routes the document to Route A.
 * Screenshots go to tests/artifacts/.
 */
import crypto from 'node:crypto';
import knexFactory, { type Knex } from 'knex';
import type { Browser, BrowserContext, Page } from 'playwright-core';
import { eventuallyMatches } from '../support/eventually';
import { buildUser, type BuiltUser } from '../support/harness';
import { api, BASE_URL, createProcess, launch, shot, signedInPage, tokenFor } from './support';
import { textRangeBox } from './text-range';

interface StepView {
  id: number;
  status: string;
  nodeId: number;
  nodeDTO: { activityType: string; name: string };
}
interface StateView {
  steps: StepView[];
}
interface TagView {
  id: number;
  nerTagTypeId: number;
  startOffset: number;
  endOffset: number;
  origin: string;
}

const TEXT =
  'Anna Kowalska met Jan Nowak in Warsaw.\n' +
  'Anna went home. Warsaw is big, said Anna, and Warsaw is loud.\n' +
  'The lexicon found home.\n';
const at = (needle: string, from = 0) => TEXT.indexOf(needle, from);

describe('labelling in Chromium', () => {
  let knex: Knex;
  let browser: Browser;
  let token: string;
  let processId: number;
  let documentId: number;
  let writer: BuiltUser;
  let page: Page;
  const ids = { span: 0, clf: 0, routeA: 0, routeB: 0, person: 0, first: 0, place: 0, classA: 0 };
  const contexts: BrowserContext[] = [];
  const suffix = crypto.randomBytes(3).toString('hex');

  const as = (user: BuiltUser): Promise<string> => tokenFor(user.login, user.password);
  const state = () => api<StateView>(token, `/api/v2/document/${documentId}/state`);
  const tags = async () =>
    (await api<TagView[]>(token, `/api/ner-tags?documentId=${documentId}`)).map((t) => ({
      ...t,
      text: TEXT.slice(t.startOffset, t.endOffset),
    }));

  const eventually = eventuallyMatches;

  const workspaceUrl = () => `${BASE_URL}/entity/process/${processId}/document/${documentId}`;
  const selectedRow = (p: Page) => p.locator('[data-testid="step-row"][data-selected="true"]');
  const text = (p: Page) => p.getByTestId('document-text');
  /** Waits until the page draws `n` tags (the refetch after a change has landed). */
  const shown = (n: number) => page.locator(`[data-testid="document-text"][data-tag-count="${n}"]`).waitFor();

  /** The screen box of the text range [start, end). */
  const rangeBox = textRangeBox;

  /** Selects [start, end) with the mouse (a drag over one line). */
  async function mouseSelect(start: number, end: number) {
    // A press inside an existing selection would drag it: start from none (as a click elsewhere would).
    await page.evaluate(() =>
      (globalThis as unknown as { getSelection(): { removeAllRanges(): void } })
        .getSelection()
        .removeAllRanges(),
    );
    const box = await rangeBox(page, start, end);
    const y = (box.top + box.bottom) / 2;
    await page.mouse.move(box.left + 1, y);
    await page.mouse.down();
    await page.mouse.move((box.left + box.right) / 2, y, { steps: 3 });
    await page.mouse.move(box.right - 1, y, { steps: 3 });
    await page.mouse.up();
    return { x: box.right - 2, y };
  }

  async function chooseInMenu(search: string) {
    const menu = page.getByTestId('label-menu');
    await menu.waitFor();
    await page.getByTestId('label-menu-search').fill(search);
    await page.keyboard.press('Enter');
    await menu.waitFor({ state: 'detached' });
  }

  beforeAll(async () => {
    knex = knexFactory({ client: 'pg', connection: process.env.DATABASE_URL, pool: { min: 0, max: 2 } });
    const admin = await buildUser(knex, { roles: ['ROLE_ADMIN', 'ROLE_USER'] });
    token = await as(admin);
    processId = await createProcess(token, `Labelling E2E ${suffix}`);
    writer = await buildUser(knex, {
      authorities: [{ componentId: processId, type: 'PROCESS', mode: 'WRITE' }],
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
    ids.span = await node({ name: 'Entities', activityType: 'SPAN' });
    ids.clf = await node({ name: 'Sort', activityType: 'CLF' });
    ids.routeA = await node({ name: 'Route A', activityType: 'SPAN' });
    ids.routeB = await node({ name: 'Route B', activityType: 'SPAN' });
    const tagType = async (body: Record<string, unknown>) =>
      (
        await api<{ id: number }>(token, `/api/node/${ids.span}/ner-tag-type`, {
          method: 'POST',
          body: JSON.stringify({ mandatory: false, selectable: true, disabled: false, ...body }),
        })
      ).id;
    ids.person = await tagType({ name: 'Person', backgroundColor: '#f8d7da', textColor: '#58151c' });
    ids.first = await tagType({
      name: 'First_name',
      backgroundColor: '#6f42c1',
      textColor: '#ffffff',
      parentId: ids.person,
    });
    ids.place = await tagType({ name: 'Place', backgroundColor: '#cfe2ff', textColor: '#052c65' });
    const classType = async (name: string, backgroundColor: string) =>
      (
        await api<{ id: number }>(token, `/api/node/${ids.clf}/classifier-types`, {
          method: 'POST',
          body: JSON.stringify({ name, backgroundColor }),
        })
      ).id;
    ids.classA = await classType('Letter', '#d1e7dd');
    const classB = await classType('Invoice', '#fff3cd');
    const edge = async (fromId: number, toId: number) =>
      (
        await api<{ id: number }>(token, '/api/edges', {
          method: 'POST',
          body: JSON.stringify({ fromId, toId }),
        })
      ).id;
    await edge(upload.id, ids.span);
    await edge(ids.span, ids.clf);
    for (const [to, clfTypeId] of [
      [ids.routeA, ids.classA],
      [ids.routeB, classB],
    ])
      await api(token, '/api/predicates', {
        method: 'POST',
        body: JSON.stringify({
          edgeId: await edge(ids.clf, to),
          predicateType: 'CLF',
          nodeId: ids.clf,
          clfTypeId,
        }),
      });
    documentId = (
      await api<{ id: number }>(token, '/api/documents', {
        method: 'POST',
        body: JSON.stringify({ processId, filename: `people-${suffix}.txt`, content: TEXT }),
      })
    ).id;
    const s = await eventually(
      state,
      (v) => v.steps.some((x) => x.nodeId === ids.span && x.status === 'WAITING'),
      'the span step waits',
    );
    // A tag the lexicon wrote on the span step.
    const spanStep = s.steps.find((x) => x.nodeId === ids.span)!;
    const home = at('home', at('lexicon'));
    await knex('ner_tags').insert({
      document_id: documentId,
      step_id: spanStep.id,
      ner_tag_type_id: ids.person,
      type: 'SPAN_TAG',
      start_offset: home,
      end_offset: home + 4,
      origin: 'LEXICON',
    });
    browser = await launch();
    page = await signedInPage(browser, contexts, writer);
  });

  afterAll(async () => {
    for (const c of contexts) await c.close().catch(() => undefined);
    await browser?.close();
    await knex?.destroy();
  });

  it('shows the text with its tags read-only until the writer starts the step', async () => {
    await page.goto(workspaceUrl());
    await page.locator('[data-testid="workspace-mode"][data-mode="LABELING"]').waitFor();
    await page.locator('[data-testid="document-text"][data-tag-count="1"]').waitFor();
    expect(await text(page).textContent()).toBe(TEXT);
    expect(await page.getByTestId('labeling-hint').textContent()).toContain('Start working on the step');
    // The lexicon's tag carries its origin marker.
    const marked = page.locator('.ws-tag-machine');
    expect(await marked.getAttribute('data-origin')).toBe('lexicon');
    expect(await marked.getAttribute('title')).toBe('Person (lexicon)');
    // Not editable: right-click opens no menu.
    const box = await mouseSelect(0, 4);
    await page.mouse.click(box.x, box.y, { button: 'right' });
    expect(await page.getByTestId('label-menu').count()).toBe(0);
    await page.keyboard.press('Escape');
    await selectedRow(page).getByTestId('step-action-startWorking').click();
    await page.getByTestId('labeling-undo').waitFor();
  });

  it('labels a range selected with the mouse through the right-click menu', async () => {
    const box = await mouseSelect(0, at(' met'));
    await page.mouse.click(box.x, box.y, { button: 'right' });
    await page.getByTestId('label-menu').waitFor();
    expect(await page.getByTestId('label-menu-selection').textContent()).toBe('Label “Anna Kowalska”');
    // The tree below 2 characters: the node's root (not selectable), Person, First_name, Place.
    expect(await page.getByTestId('label-option').allTextContents()).toEqual([
      'Entities',
      'Person',
      'First_name',
      'Place',
    ]);
    await page.getByTestId('label-menu-search').fill('zz');
    await page.getByTestId('label-menu-empty').getByText('No options available').waitFor();
    // The search strips _ and matches case-insensitively, with the shortened breadcrumb.
    await page.getByTestId('label-menu-search').fill('firstname');
    expect(await page.getByTestId('label-option').allTextContents()).toEqual([
      'First_name Entities -> Person -> First_name',
    ]);
    await page.getByTestId('label-menu-search').fill('pers');
    await shot(page, '40-labelling-menu');
    await page.locator(`[data-testid="label-option"][data-option-id="${ids.person}"]`).click();
    await eventually(tags, (t) => t.some((x) => x.text === 'Anna Kowalska'), 'the mouse tag is saved');
    await page.locator('[data-testid="document-text"][data-tag-count="2"]').waitFor();
  });

  it('labels a range with the keyboard only, and one nested inside it', async () => {
    await text(page).focus();
    for (let i = 0; i < at('Jan'); i++) await page.keyboard.press('ArrowRight');
    await page.keyboard.press('Control+Shift+ArrowRight');
    await page.keyboard.press('Control+Shift+ArrowRight');
    await page.keyboard.press('Enter');
    expect(await page.getByTestId('label-menu-selection').textContent()).toBe('Label “Jan Nowak”');
    await chooseInMenu('person');
    await eventually(tags, (t) => t.some((x) => x.text === 'Jan Nowak'), 'the keyboard tag is saved');
    await shown(3);

    // Nested: double-click "Jan" and press l.
    const jan = await rangeBox(page, at('Jan'), at('Jan') + 3);
    await page.mouse.dblclick((jan.left + jan.right) / 2, (jan.top + jan.bottom) / 2);
    await page.keyboard.press('l');
    expect(await page.getByTestId('label-menu-selection').textContent()).toBe('Label “Jan”');
    await chooseInMenu('first');
    const saved = await eventually(tags, (t) => t.some((x) => x.text === 'Jan'), 'the nested tag is saved');
    expect(saved.find((x) => x.text === 'Jan')!.nerTagTypeId).toBe(ids.first);
    // "Jan" is drawn with both tags: the inner colour and a band of the outer one.
    const janId = saved.find((x) => x.text === 'Jan')!.id;
    const janSeg = page.locator(`[data-testid="tag-segment"][data-s="${at('Jan')}"][data-tags~="${janId}"]`);
    await janSeg.waitFor();
    expect((await janSeg.getAttribute('data-tags'))!.split(' ')).toHaveLength(2);
    await shot(page, '41-labelling-nested');
  });

  it('labels all occurrences of a word in one action, undone in one step', async () => {
    const box = await mouseSelect(at('Warsaw'), at('Warsaw') + 6);
    await page.mouse.click(box.x, box.y, { button: 'right' });
    await page.getByTestId('label-menu').waitFor();
    await page.getByTestId('label-menu-all').check();
    await chooseInMenu('place');
    const all = await eventually(
      tags,
      (t) => t.filter((x) => x.text === 'Warsaw').length === 3,
      'every Warsaw is a Place',
    );
    expect(all.filter((x) => x.nerTagTypeId === ids.place)).toHaveLength(3);
    await shown(7);
    await page.keyboard.press('Control+z');
    await eventually(tags, (t) => !t.some((x) => x.text === 'Warsaw'), 'the batch is undone');
    await shown(4);
    await page.keyboard.press('Control+Shift+Z');
    await eventually(tags, (t) => t.filter((x) => x.text === 'Warsaw').length === 3, 'the batch is redone');
    await page.locator('[data-testid="document-text"][data-tag-count="7"]').waitFor();
  });

  it('resizes a tag by its handle, deletes one and undoes the delete', async () => {
    const anna = (await tags()).find((x) => x.text === 'Anna Kowalska')!;
    await page.locator(`[data-tag-start~="${anna.id}"]`).click();
    expect(await page.getByTestId('selected-tag').getAttribute('data-tag-id')).toBe(String(anna.id));
    const handle = page.getByTestId('tag-handle-right');
    const h = (await handle.boundingBox())!;
    const target = await rangeBox(page, 3, 4);
    await page.mouse.move(h.x + 3, h.y + h.height / 2);
    await page.mouse.down();
    await page.mouse.move(target.right - 2, (target.top + target.bottom) / 2, { steps: 5 });
    await page.mouse.up();
    await eventually(
      tags,
      (t) => t.some((x) => x.id === anna.id && x.text === 'Anna'),
      'the tag is resized to Anna',
    );
    await page.locator(`[data-tag-start~="${anna.id}"][data-e="4"]`).waitFor();

    const jan = (await tags()).find((x) => x.text === 'Jan Nowak')!;
    const nowak = await rangeBox(page, at('Nowak'), at('Nowak') + 5);
    await page.mouse.click((nowak.left + nowak.right) / 2, (nowak.top + nowak.bottom) / 2);
    expect(await page.getByTestId('selected-tag').getAttribute('data-tag-id')).toBe(String(jan.id));
    await page.keyboard.press('Delete');
    await eventually(tags, (t) => !t.some((x) => x.text === 'Jan Nowak'), 'the tag is deleted');
    await shown(6);
    await page.getByTestId('labeling-undo').click();
    const back = await eventually(tags, (t) => t.some((x) => x.text === 'Jan Nowak'), 'the delete is undone');
    expect(back.find((x) => x.text === 'Jan Nowak')!.nerTagTypeId).toBe(ids.person);
    await shown(7);
  });

  it('retypes the lexicon tag through the menu, keeping its origin', async () => {
    const lex = (await tags()).find((x) => x.origin === 'LEXICON')!;
    const seg = page.locator(`[data-tag-start~="${lex.id}"]`);
    await seg.click({ button: 'right' });
    expect(await page.getByTestId('label-menu-selection').textContent()).toBe('Change the label of “home”');
    await chooseInMenu('place');
    const after = await eventually(
      tags,
      (t) => t.some((x) => x.id === lex.id && x.nerTagTypeId === ids.place),
      'the lexicon tag is a Place',
    );
    expect(after.find((x) => x.id === lex.id)!.origin).toBe('LEXICON');
    await page.locator(`[data-tag-start~="${lex.id}"]`).click();
    await page.getByTestId('selected-tag-origin').getByText('Written by lexicon').waitFor();
    await shot(page, '42-labelling-tags');
  });

  it('shows the tags as saved after a reload', async () => {
    const saved = await tags();
    await page.reload();
    await page.locator(`[data-testid="document-text"][data-tag-count="${saved.length}"]`).waitFor();
    for (const t of saved) {
      const first = page.locator(`[data-tag-start~="${t.id}"]`);
      expect(await first.getAttribute('data-s')).toBe(String(t.startOffset));
    }
    expect(saved.map((x) => x.text).sort()).toEqual(
      ['Anna', 'Jan', 'Jan Nowak', 'Warsaw', 'Warsaw', 'Warsaw', 'home'].sort(),
    );
  });

  it('filters the tags by the legend and finds one through the tag list', async () => {
    // A second child of Person, with a tag on "Kowalska": Person then has two children.
    const lastName = (
      await api<{ id: number }>(token, `/api/node/${ids.span}/ner-tag-type`, {
        method: 'POST',
        body: JSON.stringify({
          name: 'Last_name',
          backgroundColor: '#d1e7dd',
          textColor: '#0a3622',
          parentId: ids.person,
          mandatory: false,
          selectable: true,
          disabled: false,
        }),
      })
    ).id;
    const spanStep = (await state()).steps.find((x) => x.nodeId === ids.span)!;
    const kowalska = at('Kowalska');
    const [{ id: kowId }] = await knex('ner_tags')
      .insert({
        document_id: documentId,
        step_id: spanStep.id,
        ner_tag_type_id: lastName,
        type: 'SPAN_TAG',
        start_offset: kowalska,
        end_offset: kowalska + 8,
      })
      .returning('id');
    await page.reload();
    await shown(8);
    const warsaws = (await tags()).filter((x) => x.text === 'Warsaw');
    expect(warsaws).toHaveLength(3);

    await page.getByTestId('labeling-legend-toggle').click();
    const panel = page.getByTestId('tag-legend-panel');
    await panel.waitFor();
    expect(
      await panel
        .getByTestId('legend-type')
        .evaluateAll((els) => els.map((e) => e.getAttribute('data-name'))),
    ).toEqual(['Person', 'First_name', 'Last_name', 'Place']);
    const check = (name: string) => panel.locator(`[data-testid="legend-type"][data-name="${name}"] input`);
    expect(await check('Person').getAttribute('data-state')).toBe('checked');

    // Hiding one of Person's two children: its tag leaves the text, Person is indeterminate.
    expect(await page.locator(`[data-tag-start~="${kowId}"]`).count()).toBe(1);
    await check('Last_name').click();
    await page.locator(`[data-tag-start~="${kowId}"]`).waitFor({ state: 'detached' });
    expect(await page.locator(`[data-tags~="${kowId}"]`).count()).toBe(0);
    expect(await check('Last_name').getAttribute('data-state')).toBe('unchecked');
    expect(await check('Person').getAttribute('data-state')).toBe('indeterminate');
    expect(
      await check('Person').evaluate((el) => (el as unknown as { indeterminate: boolean }).indeterminate),
    ).toBe(true);
    // Hiding Place: every Warsaw is drawn without a tag.
    await check('Place').click();
    for (const w of warsaws) await page.locator(`[data-tags~="${w.id}"]`).waitFor({ state: 'detached' });
    expect(await page.getByTestId('legend-hidden-count').textContent()).toBe('hidden: 2');

    // The tag list: every tag, then a type-ahead search by the text or the type name.
    const items = panel.getByTestId('tag-list-item');
    expect(await items.count()).toBe(8);
    await panel.getByTestId('tag-list-search').fill('now');
    await panel.locator('[data-testid="tag-list"][data-count="1"]').waitFor();
    expect(await items.first().textContent()).toContain('“Jan Nowak”');
    await panel.getByTestId('tag-list-search').fill('PLA');
    await panel.locator('[data-testid="tag-list"][data-count="4"]').waitFor();
    await shot(page, '45-labelling-legend-and-list');
    // A click on a Warsaw of the hidden Place type shows Place again, and selects the tag.
    await panel.locator(`[data-testid="tag-list-item"][data-tag-id="${warsaws[1].id}"]`).click();
    await page.locator(`[data-testid="selected-tag"][data-tag-id="${warsaws[1].id}"]`).waitFor();
    await page.locator(`.ws-tag-selected[data-tag-start~="${warsaws[1].id}"]`).waitFor();
    expect(await check('Place').getAttribute('data-state')).toBe('checked');
    // Person back on shows both children again.
    await check('Person').click();
    expect(await check('Last_name').getAttribute('data-state')).toBe('checked');
    await page.locator(`[data-tag-start~="${kowId}"]`).waitFor();
    await page.getByTestId('labeling-legend-toggle').click();
    await panel.waitFor({ state: 'detached' });
  });

  it('draws only the blocks near the viewport of a big document', async () => {
    const lines = Array.from({ length: 4000 }, (_, i) => `Line ${i + 1} of the long report mentions Gdansk.`);
    const big = lines.join('\n') + '\n';
    const bigId = (
      await api<{ id: number }>(token, '/api/documents', {
        method: 'POST',
        body: JSON.stringify({ processId, filename: `big-${suffix}.txt`, content: big }),
      })
    ).id;
    const bigState = await eventually(
      () => api<StateView>(token, `/api/v2/document/${bigId}/state`),
      (v) => v.steps.some((x) => x.nodeId === ids.span && x.status === 'WAITING'),
      'the big document waits',
    );
    const stepId = bigState.steps.find((x) => x.nodeId === ids.span)!.id;
    // Every Gdansk is a Place: 4000 tags.
    const rows = lines.map((line, i) => {
      const start = lines.slice(0, i).reduce((n, l) => n + l.length + 1, 0) + line.indexOf('Gdansk');
      return {
        document_id: bigId,
        step_id: stepId,
        ner_tag_type_id: ids.place,
        type: 'SPAN_TAG',
        start_offset: start,
        end_offset: start + 6,
      };
    });
    await knex.batchInsert('ner_tags', rows, 1000);
    await page.goto(`${BASE_URL}/entity/process/${processId}/document/${bigId}`);
    await page.locator('[data-testid="document-text"][data-tag-count="4000"]').waitFor();
    const drawn = () => page.locator('[data-testid="tag-segment"]').count();
    // Far fewer tag segments than tags, and the last line's tag is not drawn until scrolled to.
    expect(await drawn()).toBeLessThan(1000);
    expect(await drawn()).toBeGreaterThan(0);
    const last = page.locator(`[data-testid="tag-segment"][data-s="${rows.at(-1)!.start_offset}"]`);
    expect(await last.count()).toBe(0);
    expect(await text(page).textContent()).toBe(big);
    await text(page).evaluate((el) => {
      (el as unknown as { scrollTop: number; scrollHeight: number }).scrollTop = (
        el as unknown as { scrollHeight: number }
      ).scrollHeight;
    });
    await last.waitFor();
    expect(await drawn()).toBeLessThan(1000);
    await shot(page, '44-labelling-big-document');
    await page.goto(workspaceUrl());
    await page.locator('[data-testid="workspace-mode"][data-mode="LABELING"]').waitFor();
  });

  it('classifies the document in the CLF step, and its predicate routes the document', async () => {
    await selectedRow(page).getByTestId('step-action-complete').click();
    await page.locator('[data-testid="workspace-mode"][data-mode="CLASSIFYING"]').waitFor();
    const panel = page.getByTestId('classifier-panel');
    await panel.waitFor();
    expect(await panel.getByTestId('classifier-type').first().isDisabled()).toBe(true);
    await selectedRow(page).getByTestId('step-action-startWorking').click();
    const letter = panel.locator(`[data-testid="classifier-type"][data-type-id="${ids.classA}"]`);
    await panel.locator(`[data-type-id="${ids.classA}"]:not([disabled])`).waitFor();
    await letter.click();
    await panel.locator(`[data-type-id="${ids.classA}"][data-on="true"]`).waitFor();
    await shot(page, '43-classifier-panel');
    await selectedRow(page).getByTestId('step-action-complete').click();
    const s = await eventually(
      state,
      (v) => v.steps.some((x) => x.nodeId === ids.routeA),
      'the document is routed to Route A',
    );
    expect(s.steps.some((x) => x.nodeId === ids.routeB)).toBe(false);
  });
});
