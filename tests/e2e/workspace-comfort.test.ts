/**
 * The workspace's comfort defects of issue 30 section 3, each checked in Chromium on a SPAN step that
 * handles relations (Person, Place; relation "lives in" Person -> Place), as a WRITE user:
 * - the text is one key from the page top (the skip link) and Alt+Shift+T brings the focus back to it;
 *   Up / Down / Home / End move the caret (Shift extends);
 * - the label menu opened by a right-click never covers the selected text;
 * - toasts stand clear of the work area, and the relation candidate's toast goes once the relation is saved;
 * - the labelling hint is cut at 1024 px and can be read whole;
 * - at 390 px nothing scrolls sideways and Undo is not covered.
 * (The main button, Complete where no acceptance is required, is checked in workspace.test.ts.)
 * Screenshots go to tests/artifacts/ (97-...).
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
  horizontalOverflow,
  shot,
  signedInPage,
  stepWaits,
  tokenFor,
  uploadNodeOf,
} from './support';
import { textRangeBox } from './text-range';

const TEXT =
  'Anna Kowalska lives in Warsaw.\n' +
  'Jan Nowak lives in Krakow and works in Gdansk.\n' +
  'The third line closes the text.\n';
const at = (needle: string) => TEXT.indexOf(needle);

type Box = { left: number; right: number; top: number; bottom: number };
const overlaps = (a: Box, b: Box) =>
  a.left < b.right && b.left < a.right && a.top < b.bottom && b.top < a.bottom;

describe('workspace comfort', () => {
  const suite = browserSuite();
  const suffix = crypto.randomBytes(3).toString('hex');
  let token: string;
  let writer: BuiltUser;
  let page: Page;
  let processId: number;
  let documentId: number;
  const ids = { span: 0, person: 0, place: 0 };
  const url = () => `${BASE_URL}/entity/process/${processId}/document/${documentId}`;
  const selectedRow = () => page.locator('[data-testid="step-row"][data-selected="true"]');
  const selectionText = () =>
    page.evaluate(() => String((globalThis as unknown as { getSelection(): unknown }).getSelection()));
  const focusedIsText = () =>
    page.evaluate(() => {
      const el = (
        globalThis as unknown as { document: { activeElement: { hasAttribute(n: string): boolean } | null } }
      ).document.activeElement;
      return !!el && el.hasAttribute('data-focus-text');
    });

  beforeAll(async () => {
    const admin = await buildUser(suite.knex, { roles: ['ROLE_ADMIN', 'ROLE_USER'] });
    token = await tokenFor(admin.login, admin.password);
    processId = await createProcess(token, `Comfort ${suffix}`);
    writer = await buildUser(suite.knex, {
      authorities: [{ componentId: processId, type: 'PROCESS', mode: 'WRITE' }],
    });
    const upload = await uploadNodeOf(token, processId);
    ids.span = await addNode(token, processId, {
      name: 'Entities',
      activityType: 'SPAN',
      handlesRelations: true,
    });
    ids.person = await addNerTagType(token, ids.span, {
      name: 'Person',
      backgroundColor: '#f8d7da',
      textColor: '#000',
    });
    ids.place = await addNerTagType(token, ids.span, {
      name: 'Place',
      backgroundColor: '#cfe2ff',
      textColor: '#000',
    });
    await api(token, '/api/ner-tag-relation-types', {
      method: 'POST',
      body: JSON.stringify({
        nodeId: ids.span,
        name: 'lives in',
        color: '#0d6efd',
        fromId: ids.person,
        toId: ids.place,
        priority: 3,
      }),
    });
    await addEdges(token, [upload, ids.span]);
    documentId = await addTextDocument(token, processId, `comfort-${suffix}.txt`, TEXT);
    await stepWaits(token, documentId, ids.span);
    page = await signedInPage(suite.browser, suite.contexts, writer);
  });

  it('reaches the text with one key from the page top, and Alt+Shift+T brings the focus back', async () => {
    await page.goto(url());
    await page.locator('[data-testid="workspace-mode"][data-mode="LABELING"]').waitFor();
    await page.getByTestId('document-text').waitFor();
    await page.keyboard.press('Tab');
    const skip = page.getByRole('link', { name: 'Skip to the content' });
    expect(
      await skip.evaluate((el) => el === (el.ownerDocument as { activeElement: unknown }).activeElement),
    ).toBe(true);
    await page.keyboard.press('Enter');
    expect(await focusedIsText()).toBe(true);
    await page.getByRole('button', { name: 'Shortcuts (?)' }).focus();
    expect(await focusedIsText()).toBe(false);
    await page.keyboard.press('Alt+Shift+T');
    expect(await focusedIsText()).toBe(true);
  });

  it('moves the caret with Up, Down, Home and End (Shift extends)', async () => {
    await selectedRow().getByTestId('step-action-startWorking').click();
    await page.getByTestId('labeling-undo').waitFor();
    await page.getByTestId('document-text').focus();
    await page.keyboard.press('Control+Home');
    await page.keyboard.press('Shift+End');
    expect((await selectionText()).trim()).toBe('Anna Kowalska lives in Warsaw.');
    await page.keyboard.press('Home');
    await page.keyboard.press('ArrowDown');
    await page.keyboard.press('Shift+End');
    expect((await selectionText()).trim()).toBe('Jan Nowak lives in Krakow and works in Gdansk.');
    await page.keyboard.press('ArrowUp');
    await page.keyboard.press('Home');
    await page.keyboard.press('Shift+ArrowDown');
    expect(await selectionText()).toContain('Anna Kowalska lives in Warsaw.');
  });

  it('opens the label menu by a right-click beside the selection, never over it', async () => {
    await page.evaluate(() =>
      (globalThis as unknown as { getSelection(): { removeAllRanges(): void } })
        .getSelection()
        .removeAllRanges(),
    );
    // Two lines selected, right-clicked on the first: a menu at the pointer would cover the second.
    const first = await textRangeBox(page, at('Warsaw'), at('Warsaw') + 6);
    const second = await textRangeBox(page, at('Jan'), at(' lives in Krakow'));
    await page.mouse.move(first.left + 1, (first.top + first.bottom) / 2);
    await page.mouse.down();
    await page.mouse.move(second.right - 1, (second.top + second.bottom) / 2, { steps: 5 });
    await page.mouse.up();
    await page.mouse.click(first.left + 10, (first.top + first.bottom) / 2, { button: 'right' });
    const menu = page.getByTestId('label-menu');
    await menu.waitFor();
    const box = (await menu.boundingBox())!;
    const menuBox = { left: box.x, right: box.x + box.width, top: box.y, bottom: box.y + box.height };
    expect(overlaps(menuBox, first)).toBe(false);
    expect(overlaps(menuBox, second)).toBe(false);
    await shot(page, '97-label-menu-beside-selection');
    await page.keyboard.press('Escape');
  });

  it('keeps toasts off the work area, and the candidate toast goes once the relation is saved', async () => {
    const writerToken = await tokenFor(writer.login, writer.password);
    const tagOf = async (nerTagTypeId: number, needle: string) =>
      (
        await api<{ id: number }>(writerToken, '/api/ner-tags', {
          method: 'POST',
          body: JSON.stringify({
            documentId,
            nerTagTypeId,
            type: 'SPAN_TAG',
            startOffset: at(needle),
            endOffset: at(needle) + needle.length,
          }),
        })
      ).id;
    const anna = await tagOf(ids.person, 'Anna Kowalska');
    const warsaw = await tagOf(ids.place, 'Warsaw');
    await page.reload();
    await page.locator('[data-testid="document-text"][data-tag-count="2"]').waitFor();
    await page.locator(`[data-tag-start~="${anna}"]`).click();
    await page.locator(`[data-tag-start~="${warsaw}"]`).click({ modifiers: ['Alt'] });
    const candidate = page.getByRole('status').filter({ hasText: 'lives in' });
    await candidate.waitFor();
    const work = (await page.getByTestId('workspace-main').boundingBox())!;
    const toastBox = (await candidate.boundingBox())!;
    expect(
      overlaps(
        { left: work.x, right: work.x + work.width, top: work.y, bottom: work.y + work.height },
        {
          left: toastBox.x,
          right: toastBox.x + toastBox.width,
          top: toastBox.y,
          bottom: toastBox.y + toastBox.height,
        },
      ),
    ).toBe(false);
    await shot(page, '98-toast-clear-of-work');
    await page.locator('[data-testid="relation-validation"][data-valid="true"]').waitFor();
    await page.getByTestId('relation-create').click();
    await eventuallyMatches(
      () => api<unknown[]>(token, `/api/ner-tag-relation-graphs?documentId=${documentId}`),
      (g) => g.length === 1,
      'the relation is saved',
    );
    await candidate.waitFor({ state: 'detached' });
  });

  it('lets the hint be read whole at 1024 px', async () => {
    await page.setViewportSize({ width: 1024, height: 768 });
    await page.evaluate(() =>
      (globalThis as unknown as { getSelection(): { removeAllRanges(): void } })
        .getSelection()
        .removeAllRanges(),
    );
    await page.keyboard.press('Escape');
    const hint = page.locator('.ws-label-hint');
    const cut = () =>
      hint.evaluate(
        (el) =>
          (el as unknown as { scrollHeight: number; clientHeight: number }).scrollHeight >
          (el as unknown as { clientHeight: number }).clientHeight + 1,
      );
    await hint.waitFor();
    expect(await cut()).toBe(true);
    await page.getByRole('button', { name: 'Show the whole hint' }).click();
    expect(await cut()).toBe(false);
    await shot(page, '99-hint-whole-1024');
    await page.getByRole('button', { name: 'Shorter' }).click();
  });

  it('does not scroll sideways at 390 px, and nothing covers Undo', async () => {
    await page.setViewportSize({ width: 390, height: 844 });
    await page.reload();
    await page.getByTestId('labeling-undo').waitFor();
    await shot(page, '100-workspace-390');
    expect(await horizontalOverflow(page)).toEqual([]);
    const undo = page.getByTestId('labeling-undo');
    await undo.scrollIntoViewIfNeeded();
    // What stands at Undo's centre: Undo, or (a disabled button takes no pointer) the group holding it; not a
    // tab or a toast over it.
    const atUndo = await undo.evaluate((el) => {
      const r = el.getBoundingClientRect();
      type El = { className: string; contains(n: unknown): boolean; parentElement: unknown };
      const hit = (
        el.ownerDocument as unknown as { elementFromPoint(x: number, y: number): El | null }
      ).elementFromPoint(r.left + r.width / 2, r.top + r.height / 2);
      const self = el as unknown as El;
      return hit && (self.contains(hit) || hit === self.parentElement) ? 'undo' : String(hit?.className);
    });
    expect(atUndo).toBe('undo');
    await page.setViewportSize({ width: 1440, height: 900 });
  });
});
