/**
 * Issue 11's "Done when": one journey through the text workspace in Chromium, through the UI (the API only
 * sets up the process, its graph, the users, their access and the upload). The process: Upload -> Entities
 * (SPAN, acceptance required) -> Sort (CLF) -> Proofread (FILE_PARSER, ends WAITING) when the document is a
 * Letter, or Archive (SPAN) when it is an Invoice.
 * - A WRITE user assigned to two waiting documents opens one from the documents panel of the other (the
 *   workspace has no entry without a document and the documents dashboard is not built), starts the SPAN
 *   step, labels a range by mouse selection and right click, one by keyboard only (shift+arrows, `l`, type
 *   to filter, Enter), one nested inside another, all occurrences of a word; resizes a tag by its handle,
 *   deletes one with the Delete key, undoes that with ctrl+z, and completes the step.
 * - A process admin accepts it; after a reload everything is as saved (UI and API).
 * - A READ user sees the same document read-only.
 * - The writer classifies the document in the CLF step's panel; completing it routes the document to
 *   Proofread, whose FILE_PARSER step in EDITING mode saves new text.
 * - The same screen in Polish.
 * Screenshots go to tests/artifacts/ (50-...).
 */
import crypto from 'node:crypto';
import knexFactory, { type Knex } from 'knex';
import type { Browser, BrowserContext, Page, Request } from 'playwright-core';
import { eventuallyMatches } from '../support/eventually';
import { buildUser, type BuiltUser } from '../support/harness';
import { api, BASE_URL, createProcess, launch, settledCount, shot, signedInPage, tokenFor } from './support';
import { textRangeBox } from './text-range';

interface StepView {
  id: number;
  status: string;
  nodeId: number;
  nodeDTO: { activityType: string; name: string };
}
interface StateView {
  document: { status: string };
  steps: StepView[];
}
interface TagView {
  id: number;
  nerTagTypeId: number;
  startOffset: number;
  endOffset: number;
}

/** What the test reads of the page's window (the tests' TypeScript has no DOM library). */
interface PageWindow {
  document: {
    querySelectorAll(s: string): ArrayLike<PageNode>;
    createRange(): {
      setStart(n: unknown, o: number): void;
      setEnd(n: unknown, o: number): void;
      getBoundingClientRect(): { left: number; right: number; top: number; bottom: number };
    };
  };
  getSelection(): { removeAllRanges(): void; toString(): string };
}
interface PageNode {
  dataset: Record<string, string>;
  childNodes: ArrayLike<{ nodeType: number }>;
}

const TEXT =
  'Anna Kowalska met Jan Nowak in Warsaw.\n' + 'Anna went home. Warsaw is big, and Warsaw is loud.\n';
const ADDED = 'Signed, the proofreader.\n';
const at = (needle: string, from = 0) => TEXT.indexOf(needle, from);

describe('text workspace journey in Chromium', () => {
  let knex: Knex;
  let browser: Browser;
  let token: string;
  let processId: number;
  let documentId: number;
  let coverId: number;
  let writer: BuiltUser;
  let reader: BuiltUser;
  let processAdmin: BuiltUser;
  /** The writer's page, kept through the journey. */
  let page: Page;
  const ids = { span: 0, clf: 0, proofread: 0, archive: 0, person: 0, first: 0, place: 0, letter: 0 };
  const contexts: BrowserContext[] = [];
  const suffix = crypto.randomBytes(3).toString('hex');
  const filename = `people-${suffix}.txt`;

  const as = (user: BuiltUser): Promise<string> => tokenFor(user.login, user.password);
  const eventually = eventuallyMatches;
  const stateOf = (id: number) => api<StateView>(token, `/api/v2/document/${id}/state`);
  const state = () => stateOf(documentId);
  const stepAt = (s: StateView, nodeId: number) => s.steps.find((x) => x.nodeId === nodeId);
  const tags = async () =>
    (await api<TagView[]>(token, `/api/ner-tags?documentId=${documentId}`)).map((t) => ({
      ...t,
      text: TEXT.slice(t.startOffset, t.endOffset),
    }));
  /** The saved tags as "text:type id", sorted (what the journey compares). */
  const summary = (list: { text: string; nerTagTypeId: number }[]) =>
    list.map((x) => `${x.text}:${x.nerTagTypeId}`).sort();

  const workspaceUrl = (id = documentId) => `${BASE_URL}/entity/process/${processId}/document/${id}`;
  const selectedRow = (p: Page) => p.locator('[data-testid="step-row"][data-selected="true"]');
  const mode = (p: Page, m: string) => p.locator(`[data-testid="workspace-mode"][data-mode="${m}"]`);
  const tab = (p: Page, type: string) => p.locator(`[data-testid="step-tab"][data-activity-type="${type}"]`);
  const text = (p: Page) => p.getByTestId('document-text');
  /** Waits until the page draws `n` tags (the refetch after a change has landed). */
  const shown = (p: Page, n: number) =>
    p.locator(`[data-testid="document-text"][data-tag-count="${n}"]`).waitFor({ timeout: 30000 });

  /** The screen box of the text range [start, end). */
  const rangeBox = textRangeBox;

  const clearSelection = (p: Page) =>
    p.evaluate(() => (globalThis as unknown as PageWindow).getSelection().removeAllRanges());
  const selectionText = (p: Page) =>
    p.evaluate(() => (globalThis as unknown as PageWindow).getSelection().toString());

  /** Selects [start, end) with the mouse (a drag over one line); the point to right-click. */
  async function mouseSelect(p: Page, start: number, end: number) {
    // A press inside an existing selection would drag it: start from none (as a click elsewhere would).
    await clearSelection(p);
    const box = await rangeBox(p, start, end);
    const y = (box.top + box.bottom) / 2;
    await p.mouse.move(box.left + 1, y);
    await p.mouse.down();
    await p.mouse.move((box.left + box.right) / 2, y, { steps: 3 });
    await p.mouse.move(box.right - 1, y, { steps: 3 });
    await p.mouse.up();
    return { x: box.right - 2, y };
  }

  /** Types into the open menu's search (focused when it opens) and chooses the first option with Enter. */
  async function chooseInMenu(p: Page, search: string) {
    const menu = p.getByTestId('label-menu');
    await menu.waitFor();
    await p.locator('[data-testid="label-menu-search"]:focus').waitFor();
    await p.keyboard.type(search);
    await p.locator('[data-testid="label-option"][data-active="true"]').waitFor();
    await p.keyboard.press('Enter');
    await menu.waitFor({ state: 'detached' });
  }

  /** Every saved tag drawn over exactly its range, with its type's name in the segments' tooltips. */
  async function expectDrawnAsSaved(p: Page, saved: TagView[], names: Record<number, string>) {
    await shown(p, saved.length);
    for (const t of saved) {
      const segs = p.locator(`[data-testid="tag-segment"][data-tags~="${t.id}"]`);
      const spans = await segs.evaluateAll((els) =>
        els.map((e) => ({
          s: Number(e.getAttribute('data-s')),
          e: Number(e.getAttribute('data-e')),
          title: e.getAttribute('title') ?? '',
        })),
      );
      expect(spans.length).toBeGreaterThan(0);
      expect(Math.min(...spans.map((x) => x.s))).toBe(t.startOffset);
      expect(Math.max(...spans.map((x) => x.e))).toBe(t.endOffset);
      for (const x of spans) expect(x.title.split(' › ')).toContain(names[t.nerTagTypeId]);
    }
  }

  beforeAll(async () => {
    knex = knexFactory({ client: 'pg', connection: process.env.DATABASE_URL, pool: { min: 0, max: 2 } });
    const admin = await buildUser(knex, { roles: ['ROLE_ADMIN', 'ROLE_USER'] });
    token = await as(admin);
    processId = await createProcess(token, `Text workspace journey ${suffix}`);
    const grant = (mode: 'READ' | 'WRITE' | 'ADMIN') =>
      buildUser(knex, { authorities: [{ componentId: processId, type: 'PROCESS', mode }] });
    [writer, reader, processAdmin] = await Promise.all([grant('WRITE'), grant('READ'), grant('ADMIN')]);

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
    ids.span = await node({ name: 'Entities', activityType: 'SPAN', requiresAcceptance: true });
    ids.clf = await node({ name: 'Sort', activityType: 'CLF' });
    ids.proofread = await node({ name: 'Proofread', activityType: 'FILE_PARSER', autoStepStatus: 'WAITING' });
    ids.archive = await node({ name: 'Archive', activityType: 'SPAN' });
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
    ids.letter = await classType('Letter', '#d1e7dd');
    const invoice = await classType('Invoice', '#fff3cd');
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
      [ids.proofread, ids.letter],
      [ids.archive, invoice],
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
    const uploadText = async (name: string, content: string) =>
      (
        await api<{ id: number }>(token, '/api/documents', {
          method: 'POST',
          body: JSON.stringify({ processId, filename: name, content }),
        })
      ).id;
    coverId = await uploadText(`cover-${suffix}.txt`, 'A cover note.\n');
    documentId = await uploadText(filename, TEXT);
    for (const id of [coverId, documentId])
      await eventually(
        () => stateOf(id),
        (s) => stepAt(s, ids.span)?.status === 'WAITING',
        'the span step waits',
      );
    // My documents lists the documents assigned to the user (spec 2 section 6): both are the writer's.
    for (const id of [coverId, documentId])
      await api(token, `/api/v2/document/${id}/assignees/${writer.id}`, { method: 'POST' });
    browser = await launch();
    page = await signedInPage(browser, contexts, writer);
  });

  afterAll(async () => {
    for (const c of contexts) await c.close().catch(() => undefined);
    await browser?.close();
    await knex?.destroy();
  });

  it('lets the writer open the waiting document from the documents panel', async () => {
    // The workspace opens at a document: the writer starts at another one of the process.
    await page.goto(workspaceUrl(coverId));
    await page.locator(`[data-testid="workspace"][data-document-id="${coverId}"]`).waitFor();
    await page.getByTestId('tool-documents').click();
    await page.locator('[data-testid="documents-panel"][data-tab="my"]').waitFor();
    const item = page.locator(`[data-testid="documents-item"][data-document-id="${documentId}"]`);
    await item.waitFor();
    expect(await item.textContent()).toContain(filename);
    expect(await settledCount(page.getByTestId('documents-item'), 2)).toBe(2);
    await shot(page, '50-journey-documents-panel');
    await item.click();
    await page.waitForURL(workspaceUrl());
    await page.locator(`[data-testid="workspace"][data-document-id="${documentId}"]`).waitFor();
    await page.getByTestId('workspace-filename').getByText(filename).waitFor();
    await mode(page, 'LABELING').waitFor();
    expect(await selectedRow(page).getAttribute('data-status')).toBe('WAITING');
    expect(await selectedRow(page).textContent()).toContain('Entities');
    expect(await text(page).textContent()).toBe(TEXT);
    await page
      .locator(`[data-testid="documents-item"][aria-current="page"][data-document-id="${documentId}"]`)
      .waitFor();
    // More room for the text while labelling.
    await page.getByTestId('tools-panel-close').click();
    await page.getByTestId('tools-panel').waitFor({ state: 'detached' });
  });

  it('labels by mouse, by keyboard only, nested and all occurrences once the step is started', async () => {
    // Read-only until started: no undo bar, right click opens no menu.
    expect(await page.getByTestId('labeling-undo').count()).toBe(0);
    await selectedRow(page).getByTestId('step-action-startWorking').click();
    await page.getByTestId('labeling-undo').waitFor();
    // Acceptance is required: the writer may complete, not accept.
    await selectedRow(page).getByTestId('step-action-complete').waitFor();
    expect(await selectedRow(page).getByTestId('step-action-accept').count()).toBe(0);

    // 1. Mouse selection and right click, the option clicked.
    const box = await mouseSelect(page, 0, at(' met'));
    await page.mouse.click(box.x, box.y, { button: 'right' });
    await page.getByTestId('label-menu').waitFor();
    expect(await page.getByTestId('label-menu-selection').textContent()).toBe('Label “Anna Kowalska”');
    await page.getByTestId('label-menu-search').fill('pers');
    await page.locator(`[data-testid="label-option"][data-option-id="${ids.person}"]`).click();
    await eventually(tags, (t) => t.some((x) => x.text === 'Anna Kowalska'), 'the mouse tag is saved');
    await shown(page, 1);

    // 2. Keyboard only: arrows to "Jan", shift+arrows over "Jan Nowak", `l`, type to filter, Enter.
    await clearSelection(page);
    await text(page).focus();
    for (let i = 0; i < at('Jan'); i++) await page.keyboard.press('ArrowRight');
    for (let i = 0; i < 'Jan Nowak'.length; i++) await page.keyboard.press('Shift+ArrowRight');
    expect(await selectionText(page)).toBe('Jan Nowak');
    await page.keyboard.press('l');
    expect(await page.getByTestId('label-menu-selection').textContent()).toBe('Label “Jan Nowak”');
    await chooseInMenu(page, 'person');
    await eventually(tags, (t) => t.some((x) => x.text === 'Jan Nowak'), 'the keyboard tag is saved');
    await shown(page, 2);

    // 3. Nested: "Jan" inside "Jan Nowak", a double click and a right click.
    await clearSelection(page);
    const jan = await rangeBox(page, at('Jan'), at('Jan') + 3);
    await page.mouse.dblclick((jan.left + jan.right) / 2, (jan.top + jan.bottom) / 2);
    await page.mouse.click((jan.left + jan.right) / 2, (jan.top + jan.bottom) / 2, { button: 'right' });
    expect(await page.getByTestId('label-menu-selection').textContent()).toBe('Label “Jan”');
    await chooseInMenu(page, 'first');
    const withJan = await eventually(tags, (t) => t.some((x) => x.text === 'Jan'), 'the nested tag is saved');
    const janTag = withJan.find((x) => x.text === 'Jan')!;
    expect(janTag.nerTagTypeId).toBe(ids.first);
    await shown(page, 3);
    const janSeg = page.locator(
      `[data-testid="tag-segment"][data-s="${at('Jan')}"][data-tags~="${janTag.id}"]`,
    );
    expect((await janSeg.getAttribute('data-tags'))!.split(' ')).toHaveLength(2);

    // 4. All occurrences of "Warsaw" at once.
    const warsaw = await mouseSelect(page, at('Warsaw'), at('Warsaw') + 6);
    await page.mouse.click(warsaw.x, warsaw.y, { button: 'right' });
    await page.getByTestId('label-menu').waitFor();
    await page.getByTestId('label-menu-all').check();
    await page.getByTestId('label-menu-search').focus();
    await chooseInMenu(page, 'place');
    const all = await eventually(
      tags,
      (t) => t.filter((x) => x.text === 'Warsaw' && x.nerTagTypeId === ids.place).length === 3,
      'every Warsaw is a Place',
    );
    expect(all).toHaveLength(6);
    await shown(page, 6);
    await shot(page, '51-journey-labelled');
  });

  it('resizes a tag by its handle, deletes one with Delete and brings it back with ctrl+z', async () => {
    const anna = (await tags()).find((x) => x.text === 'Anna Kowalska')!;
    await clearSelection(page);
    await page.locator(`[data-tag-start~="${anna.id}"]`).click();
    await page.locator(`[data-testid="selected-tag"][data-tag-id="${anna.id}"]`).waitFor();
    const handle = page.getByTestId('tag-handle-right');
    const h = (await handle.boundingBox())!;
    const target = await rangeBox(page, 3, 4);
    // The handle is a zero-width anchor; its grip is drawn from 1 to 7 px right of it.
    await page.mouse.move(h.x + 4, h.y + h.height / 2);
    await page.mouse.down();
    await page.mouse.move(target.right - 2, (target.top + target.bottom) / 2, { steps: 5 });
    await page.mouse.up();
    await eventually(tags, (t) => t.some((x) => x.id === anna.id && x.text === 'Anna'), 'resized to Anna');
    await page.locator(`[data-tag-start~="${anna.id}"][data-e="4"]`).waitFor();

    const janNowak = (await tags()).find((x) => x.text === 'Jan Nowak')!;
    const nowak = await rangeBox(page, at('Nowak'), at('Nowak') + 5);
    await page.mouse.click((nowak.left + nowak.right) / 2, (nowak.top + nowak.bottom) / 2);
    await page.locator(`[data-testid="selected-tag"][data-tag-id="${janNowak.id}"]`).waitFor();
    await shot(page, '52-journey-tag-selected');
    await page.keyboard.press('Delete');
    await eventually(tags, (t) => !t.some((x) => x.text === 'Jan Nowak'), 'the tag is deleted');
    await shown(page, 5);
    await page.keyboard.press('Control+z');
    const back = await eventually(tags, (t) => t.some((x) => x.text === 'Jan Nowak'), 'the delete is undone');
    expect(back.find((x) => x.text === 'Jan Nowak')!.nerTagTypeId).toBe(ids.person);
    await shown(page, 6);
    expect(summary(back)).toEqual(
      summary([
        { text: 'Anna', nerTagTypeId: ids.person },
        { text: 'Jan Nowak', nerTagTypeId: ids.person },
        { text: 'Jan', nerTagTypeId: ids.first },
        { text: 'Warsaw', nerTagTypeId: ids.place },
        { text: 'Warsaw', nerTagTypeId: ids.place },
        { text: 'Warsaw', nerTagTypeId: ids.place },
      ]),
    );
  });

  it('completes the SPAN step, and a process admin accepts it', async () => {
    // The action's answer carries the document's state: the page shows the step DONE without reading the
    // state again.
    const stepId = await selectedRow(page).getAttribute('data-step-id');
    const stateReads: string[] = [];
    const onRequest = (r: Request) => {
      if (r.method() === 'GET' && /\/api\/v2\/document\/\d+\/state/.test(r.url())) stateReads.push(r.url());
    };
    page.on('request', onRequest);
    await selectedRow(page).getByTestId('step-action-complete').click();
    await page.getByText('The step is completed').waitFor();
    await page.locator(`[data-testid="step-row"][data-step-id="${stepId}"][data-status="DONE"]`).waitFor();
    page.off('request', onRequest);
    expect(stateReads).toEqual([]);
    await eventually(state, (s) => stepAt(s, ids.span)?.status === 'DONE', 'the span step is done');
    // Done, not yet accepted: the flow waits at the SPAN node.
    expect(stepAt(await state(), ids.clf)).toBeUndefined();

    const adminPage = await signedInPage(browser, contexts, processAdmin);
    await adminPage.goto(workspaceUrl());
    await mode(adminPage, 'LABELING').waitFor();
    expect(await selectedRow(adminPage).getAttribute('data-status')).toBe('DONE');
    await shown(adminPage, 6);
    await selectedRow(adminPage).getByTestId('step-action-accept').click();
    await adminPage.getByText('The step is accepted').waitFor();
    const accepted = await eventually(
      state,
      (s) => stepAt(s, ids.span)?.status === 'ACCEPTED' && stepAt(s, ids.clf)?.status === 'WAITING',
      'the span step is accepted and the classifier step waits',
    );
    expect(accepted.document.status).toBe('WAITING');
    await adminPage.locator('[data-testid="step-row"][data-status="ACCEPTED"]').waitFor();
    await shot(adminPage, '53-journey-accepted');
  });

  it('finds everything as saved after a reload, in the UI and the API', async () => {
    const saved = await tags();
    expect(saved).toHaveLength(6);
    await page.reload();
    await page.locator(`[data-testid="workspace"][data-document-id="${documentId}"]`).waitFor();
    // The classifier step waits now: it is selected on load.
    await mode(page, 'CLASSIFYING').waitFor();
    expect(await selectedRow(page).textContent()).toContain('Sort');
    await tab(page, 'SPAN').click();
    await mode(page, 'LABELING').waitFor();
    expect(await selectedRow(page).getAttribute('data-status')).toBe('ACCEPTED');
    expect(await text(page).textContent()).toBe(TEXT);
    await expectDrawnAsSaved(page, saved, {
      [ids.person]: 'Person',
      [ids.first]: 'First_name',
      [ids.place]: 'Place',
    });
    // Not editable any more: no undo bar, no undo history to replay.
    expect(await page.getByTestId('labeling-undo').count()).toBe(0);
    expect(summary(await tags())).toEqual(summary(saved));
    const api1 = await api<{ content: { content: string } }>(token, `/api/documents/${documentId}`);
    expect(api1.content.content).toBe(TEXT);
  });

  it('shows a READ user the same document read-only', async () => {
    const readerPage = await signedInPage(browser, contexts, reader);
    await readerPage.goto(workspaceUrl());
    await mode(readerPage, 'CLASSIFYING').waitFor();
    await selectedRow(readerPage).getByTestId('step-read-only').waitFor();
    expect(await readerPage.getByTestId('step-actions').count()).toBe(0);
    const classes = readerPage.getByTestId('classifier-type');
    expect(await settledCount(classes, 2)).toBe(2);
    for (const b of await classes.all()) expect(await b.isDisabled()).toBe(true);
    expect(await readerPage.getByTestId('document-block').isDisabled()).toBe(true);

    await tab(readerPage, 'SPAN').click();
    await mode(readerPage, 'LABELING').waitFor();
    await selectedRow(readerPage).getByTestId('step-read-only').waitFor();
    const saved = await tags();
    await expectDrawnAsSaved(readerPage, saved, {
      [ids.person]: 'Person',
      [ids.first]: 'First_name',
      [ids.place]: 'Place',
    });
    // The hint offers no labelling.
    expect(await readerPage.getByTestId('labeling-hint').textContent()).not.toContain('to label it');
    for (const id of ['labeling-undo', 'labeling-redo', 'labeling-delete'])
      expect(await readerPage.getByTestId(id).count()).toBe(0);
    // A selection and a right click open no menu; a tag can be looked at but has no handles, Delete keeps it.
    const box = await mouseSelect(readerPage, at('Anna went'), at(' went'));
    await readerPage.mouse.click(box.x, box.y, { button: 'right' });
    expect(await readerPage.getByTestId('label-menu').count()).toBe(0);
    await readerPage.keyboard.press('Escape');
    await clearSelection(readerPage);
    const place = saved.find((x) => x.nerTagTypeId === ids.place)!;
    await readerPage.locator(`[data-tag-start~="${place.id}"]`).click();
    await readerPage.locator(`[data-testid="selected-tag"][data-tag-id="${place.id}"]`).waitFor();
    expect(await readerPage.getByTestId('tag-handle-right').count()).toBe(0);
    await readerPage.keyboard.press('l');
    await readerPage.keyboard.press('Delete');
    expect(await readerPage.getByTestId('label-menu').count()).toBe(0);
    await shot(readerPage, '54-journey-read-only');
    expect(summary(await tags())).toEqual(summary(saved));
  });

  it('classifies the document in the CLF step; completing it routes the document to Proofread', async () => {
    await tab(page, 'CLF').click();
    await mode(page, 'CLASSIFYING').waitFor();
    const panel = page.getByTestId('classifier-panel');
    const letter = panel.locator(`[data-testid="classifier-type"][data-type-id="${ids.letter}"]`);
    await letter.waitFor();
    expect(await letter.isDisabled()).toBe(true);
    await selectedRow(page).getByTestId('step-action-startWorking').click();
    await panel.locator(`[data-type-id="${ids.letter}"]:not([disabled])`).waitFor();
    await letter.click();
    await panel.locator(`[data-type-id="${ids.letter}"][data-on="true"]`).waitFor();
    await shot(page, '55-journey-classified');
    // No acceptance required: Complete is the main button (Accept in its split menu).
    await selectedRow(page).getByTestId('step-action-complete').click();
    await page.getByText('The step is completed').waitFor();
    const routed = await eventually(
      state,
      (s) => stepAt(s, ids.proofread)?.status === 'WAITING',
      'the document is routed to Proofread and parsed',
    );
    expect(stepAt(routed, ids.archive)).toBeUndefined();
    expect(stepAt(routed, ids.clf)!.status).toBe('DONE');
  });

  it("saves new text in the FILE_PARSER step's EDITING mode", async () => {
    // The selection follows to the next waiting step: Proofread's.
    await mode(page, 'EDITING').waitFor({ timeout: 30000 });
    await page
      .locator('[data-testid="step-row"][data-selected="true"][data-status="WAITING"]', {
        hasText: 'Proofread',
      })
      .waitFor({ timeout: 30000 });
    const editor = page.getByTestId('editing-text');
    expect(await editor.inputValue()).toBe(TEXT);
    expect(await editor.getAttribute('readonly')).not.toBeNull();
    await selectedRow(page).getByTestId('step-action-startWorking').click();
    await page.locator('[data-testid="editing-text"]:not([readonly])').waitFor();
    expect(await page.getByTestId('editing-submit').isDisabled()).toBe(true);
    // Appended, so the tags' offsets stay on their words.
    await editor.fill(TEXT + ADDED);
    await page.getByTestId('editing-submit').click();
    await page.getByText('The document text is saved').waitFor();
    await shot(page, '56-journey-editing');
    const saved = await api<{ content: { content: string } }>(token, `/api/documents/${documentId}`);
    expect(saved.content.content).toBe(TEXT + ADDED);
    await page.reload();
    await mode(page, 'EDITING').waitFor();
    expect(await page.getByTestId('editing-text').inputValue()).toBe(TEXT + ADDED);
  });

  it('shows the same screen in Polish', async () => {
    await page.getByTestId('language-menu').click();
    await page.getByTestId('language-pl').click();
    await page.locator('html[lang="pl"]').waitFor({ state: 'attached' });
    await page.getByTestId('step-sidebar').getByText('Kroki').waitFor();
    expect(await page.getByTestId('workspace-mode').textContent()).toBe('Edycja');
    expect(await selectedRow(page).getByTestId('step-status').textContent()).toBe('Oczekuje');
    await page.getByTestId('editing-submit').getByText('Edytuj').waitFor();
    expect(await page.getByTestId('step-tab').allTextContents()).toEqual([
      'Fragmenty',
      'Klasyfikator',
      'Parser plików',
    ]);
    await page.getByText('Pokaż ukryte tokeny').waitFor();
    await shot(page, '57-journey-polish-editing');

    await tab(page, 'SPAN').click();
    expect(await page.getByTestId('workspace-mode').textContent()).toBe('Etykietowanie');
    expect(await selectedRow(page).getByTestId('step-status').textContent()).toBe('Zaakceptowany');
    expect(await page.getByTestId('labeling-hint').textContent()).toContain(
      'Rozpocznij pracę nad krokiem, aby oznaczać tekst.',
    );
    await page.getByTestId('labeling-legend-toggle').getByText('Legenda i tagi').waitFor();
    await page.getByTestId('tool-documents').click();
    expect(await page.getByTestId('documents-tab-1').textContent()).toBe('Moje dokumenty');
    await page.getByTestId('documents-next').getByText('Następny').waitFor();
    await shot(page, '58-journey-polish-labelling');

    await tab(page, 'CLF').click();
    expect(await page.getByTestId('workspace-mode').textContent()).toBe('Klasyfikacja');
    await page.getByTestId('classifier-panel').getByText('Klasy', { exact: true }).waitFor();
    expect(await selectedRow(page).getByTestId('step-status').textContent()).toBe('Wykonany');
    await selectedRow(page).getByTestId('step-action-activate').getByText('Aktywuj').waitFor();
    await shot(page, '59-journey-polish-classifier');
  });
});
