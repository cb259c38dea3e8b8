/**
 * Issue 11, the rest of the LABELING view in a real browser: a process Upload -> Entities (SPAN) with the tag
 * types Person and Place. A user with WRITE on the process starts the SPAN step, then:
 * - 'Show hidden tokens' marks the tab and line breaks inside the labelled text, without moving the offsets
 *   of the tags (a tag over a tab keeps its range, a label made with the marks on is saved at the right
 *   place);
 * - adds an option under Person from the labelling menu (the restricted dialog of WRITE: parent fixed, the
 *   other settings disabled), the menu stays open behind the dialog and offers the new option at once;
 * - edits an option's name from the menu (Escape closes the dialog first, then the menu), and the tags of
 *   that type show the new name. The root entry has no edit action.
 * Screenshots go to tests/artifacts/.
 */
import crypto from 'node:crypto';
import knexFactory, { type Knex } from 'knex';
import type { Browser, BrowserContext, Page } from 'playwright-core';
import { eventuallyMatches as eventually } from '../support/eventually';
import { buildUser, type BuiltUser } from '../support/harness';
import { api, BASE_URL, createProcess, launch, shot, signedInPage, tokenFor } from './support';
import { textRangeBox } from './text-range';

interface TagView {
  id: number;
  nerTagTypeId: number;
  startOffset: number;
  endOffset: number;
}
interface TagTypeView {
  id: number;
  name: string;
  parentId: number | null;
  selectable: boolean;
}

/** What the test reads of the page's window (the tests' TypeScript has no DOM library). */
interface PageWindow {
  document: {
    querySelectorAll(s: string): ArrayLike<{
      dataset: Record<string, string>;
      childNodes: ArrayLike<{ nodeType: number }>;
    }>;
    createRange(): {
      setStart(n: unknown, o: number): void;
      setEnd(n: unknown, o: number): void;
      getBoundingClientRect(): { left: number; right: number; top: number; bottom: number };
    };
  };
  getSelection(): { removeAllRanges(): void };
}

const TEXT = 'Jan\tNowak lives in Kraków.\nKraków is old.\r\nThe end.\n';
const at = (needle: string, from = 0) => TEXT.indexOf(needle, from);

describe('labelling menu options and hidden tokens in Chromium', () => {
  let knex: Knex;
  let browser: Browser;
  let token: string;
  let writerToken: string;
  let processId: number;
  let documentId: number;
  let writer: BuiltUser;
  let page: Page;
  const ids = { span: 0, person: 0, place: 0 };
  const contexts: BrowserContext[] = [];
  const suffix = crypto.randomBytes(3).toString('hex');

  const tags = () => api<TagView[]>(token, `/api/ner-tags?documentId=${documentId}`);
  const tagTypes = () => api<TagTypeView[]>(token, `/api/node/${ids.span}/ner-tag-type`);
  const text = () => page.getByTestId('document-text');
  const menu = () => page.getByTestId('label-menu');
  const option = (id: number) => page.locator(`[data-testid="label-option"][data-option-id="${id}"]`);

  /** The screen box of the text range [start, end). */
  const rangeBox = (start: number, end: number) => textRangeBox(page, start, end);

  /** Selects [start, end) with the mouse and opens the labelling menu with a right-click. */
  async function menuOn(start: number, end: number) {
    await page.evaluate(() => (globalThis as unknown as PageWindow).getSelection().removeAllRanges());
    const box = await rangeBox(start, end);
    const y = (box.top + box.bottom) / 2;
    await page.mouse.move(box.left + 1, y);
    await page.mouse.down();
    await page.mouse.move((box.left + box.right) / 2, y, { steps: 3 });
    await page.mouse.move(box.right - 1, y, { steps: 3 });
    await page.mouse.up();
    await page.mouse.click(box.right - 2, y, { button: 'right' });
    await menu().waitFor();
  }

  beforeAll(async () => {
    knex = knexFactory({ client: 'pg', connection: process.env.DATABASE_URL, pool: { min: 0, max: 2 } });
    const admin = await buildUser(knex, { roles: ['ROLE_ADMIN', 'ROLE_USER'] });
    token = await tokenFor(admin.login, admin.password);
    processId = await createProcess(token, `Labelling options E2E ${suffix}`);
    writer = await buildUser(knex, {
      authorities: [{ componentId: processId, type: 'PROCESS', mode: 'WRITE' }],
    });
    writerToken = await tokenFor(writer.login, writer.password);
    const nodes = await api<{ id: number; activityType: string }[]>(
      token,
      `/api/nodes?processId=${processId}`,
    );
    const upload = nodes.find((n) => n.activityType === 'HUP')!;
    ids.span = (
      await api<{ id: number }>(token, '/api/nodes', {
        method: 'POST',
        body: JSON.stringify({ processId, name: 'Entities', activityType: 'SPAN' }),
      })
    ).id;
    const tagType = async (body: Record<string, unknown>) =>
      (
        await api<{ id: number }>(token, `/api/node/${ids.span}/ner-tag-type`, {
          method: 'POST',
          body: JSON.stringify({ mandatory: false, selectable: true, disabled: false, ...body }),
        })
      ).id;
    ids.person = await tagType({ name: 'Person', backgroundColor: '#f8d7da', textColor: '#58151c' });
    ids.place = await tagType({ name: 'Place', backgroundColor: '#cfe2ff', textColor: '#052c65' });
    await api(token, '/api/edges', {
      method: 'POST',
      body: JSON.stringify({ fromId: upload.id, toId: ids.span }),
    });
    documentId = (
      await api<{ id: number }>(token, '/api/documents', {
        method: 'POST',
        body: JSON.stringify({ processId, filename: `hidden-${suffix}.txt`, content: TEXT }),
      })
    ).id;
    await eventually(
      () =>
        api<{ steps: { nodeId: number; status: string }[] }>(token, `/api/v2/document/${documentId}/state`),
      (s) => s.steps.some((x) => x.nodeId === ids.span && x.status === 'WAITING'),
      'the span step waits',
    );
    browser = await launch();
    page = await signedInPage(browser, contexts, writer);
    await page.goto(`${BASE_URL}/entity/process/${processId}/document/${documentId}`);
    await page.locator('[data-testid="workspace-mode"][data-mode="LABELING"]').waitFor();
    await page
      .locator('[data-testid="step-row"][data-selected="true"]')
      .getByTestId('step-action-startWorking')
      .click();
    await page.getByTestId('labeling-undo').waitFor();
  });

  afterAll(async () => {
    for (const c of contexts) await c.close().catch(() => undefined);
    await browser?.close();
    await knex?.destroy();
  });

  it('marks the hidden characters of the labelled text without moving the offsets of the tags', async () => {
    // A tag over the tab, written through the API as the writer.
    const janNowak = await api<TagView>(writerToken, '/api/ner-tags', {
      method: 'POST',
      body: JSON.stringify({ documentId, nerTagTypeId: ids.person, startOffset: 0, endOffset: at(' lives') }),
    });
    await page.reload();
    await page.locator('[data-testid="document-text"][data-tag-count="1"]').waitFor();
    expect(await page.locator('[data-testid="document-text"] .ws-hidden-token').count()).toBe(0);

    await page.getByTestId('show-hidden-tokens').check();
    await page.locator('[data-testid="document-text"][data-hidden-shown="true"]').waitFor();
    const marks = page.locator('[data-testid="document-text"] .ws-hidden-token');
    expect(
      await marks.evaluateAll((els) => els.map((e) => (e as unknown as PageNodeLike).dataset.mark)),
    ).toEqual(['→', '¶', '␍', '¶', '¶']);
    // The marks are drawn, not text: the text and every offset are those of the document.
    expect(await text().textContent()).toBe(TEXT);
    const tab = page.locator('[data-testid="document-text"] .ws-hidden-token[data-mark="→"]');
    expect(await tab.getAttribute('data-s')).toBe(String(at('\t')));
    const drawn = await tab.evaluate(
      (e) =>
        (
          globalThis as unknown as { getComputedStyle(e: unknown, pseudo: string): { content: string } }
        ).getComputedStyle(e, '::before').content,
    );
    expect(drawn).toBe('"→"');
    const pieces = page.locator(`[data-testid="tag-segment"][data-tags~="${janNowak.id}"]`);
    expect(await pieces.count()).toBe(3);
    expect(await pieces.first().getAttribute('data-s')).toBe('0');
    expect(await pieces.last().getAttribute('data-e')).toBe(String(at(' lives')));
    expect(await page.locator(`[data-tag-start~="${janNowak.id}"]`).getAttribute('data-s')).toBe('0');

    // A label made with the marks shown lands on the text's offsets.
    const second = at('Kraków', at('\n'));
    await menuOn(second, second + 'Kraków'.length);
    await page.getByTestId('label-menu-search').fill('place');
    await page.keyboard.press('Enter');
    const saved = await eventually(
      tags,
      (t) => t.some((x) => x.nerTagTypeId === ids.place),
      'the place is saved',
    );
    expect(saved.find((x) => x.nerTagTypeId === ids.place)).toMatchObject({
      startOffset: second,
      endOffset: second + 'Kraków'.length,
    });
    await page.locator('[data-testid="document-text"][data-tag-count="2"]').waitFor();
    await shot(page, '45-labelling-hidden-tokens');

    await page.getByTestId('show-hidden-tokens').uncheck();
    await page.locator('[data-testid="document-text"][data-hidden-shown="false"]').waitFor();
    expect(await marks.count()).toBe(0);
    expect(await text().textContent()).toBe(TEXT);
  });

  it('adds an option under Person from the menu, kept open behind the dialog, and labels with it at once', async () => {
    await menuOn(at('Kraków'), at('Kraków') + 'Kraków'.length);
    // The node's root can take a child but is never edited.
    expect(await option(-ids.span).getByTestId('label-option-add').count()).toBe(1);
    expect(await option(-ids.span).getByTestId('label-option-edit').count()).toBe(0);
    expect(await option(ids.person).getByTestId('label-option-edit').count()).toBe(1);
    await shot(page, '47-labelling-menu-actions');

    await option(ids.person).getByTestId('label-option-add').click();
    const dialog = page.getByTestId('ner-label-modal');
    await dialog.waitFor();
    // WRITE gives the restricted variant: the parent is the chosen option, the rest is for admins.
    expect(await page.getByTestId('ner-label-parent').inputValue()).toBe(String(ids.person));
    expect(await page.getByTestId('ner-label-parent').isDisabled()).toBe(true);
    expect(await page.getByTestId('ner-label-selectable').isDisabled()).toBe(true);
    await page.getByTestId('ner-label-restricted').waitFor();
    // A click in the dialog leaves the menu open.
    await page.getByTestId('ner-label-name').click();
    await page.getByTestId('ner-label-name').fill('Nickname');
    expect(await menu().count()).toBe(1);
    await shot(page, '46-labelling-add-option');
    await page.getByTestId('ner-label-save').click();
    await dialog.waitFor({ state: 'detached' });
    expect(await menu().count()).toBe(1);

    const nickname = await eventually(
      tagTypes,
      (list) => list.some((x) => x.name === 'Nickname'),
      'the option is saved',
    );
    const created = nickname.find((x) => x.name === 'Nickname')!;
    expect(created).toMatchObject({ parentId: ids.person, selectable: true });
    // Refetched into the open menu and made the active option: Enter labels with it.
    await page
      .locator(`[data-testid="label-option"][data-option-id="${created.id}"][data-active="true"]`)
      .waitFor();
    await page.keyboard.press('Enter');
    await menu().waitFor({ state: 'detached' });
    const after = await eventually(
      tags,
      (t) => t.some((x) => x.nerTagTypeId === created.id),
      'the new option labels the selection',
    );
    expect(after.find((x) => x.nerTagTypeId === created.id)).toMatchObject({
      startOffset: at('Kraków'),
      endOffset: at('Kraków') + 'Kraków'.length,
    });
  });

  it('edits the name of an option from the menu; Escape closes the dialog before the menu', async () => {
    await menuOn(at('old'), at('old') + 3);
    await option(ids.place).getByTestId('label-option-edit').click();
    await page.getByTestId('ner-label-modal').waitFor();
    expect(await page.getByTestId('ner-label-name').inputValue()).toBe('Place');
    await page.keyboard.press('Escape');
    await page.getByTestId('ner-label-modal').waitFor({ state: 'detached' });
    expect(await menu().count()).toBe(1);

    // A press on the backdrop dismisses the dialog, not the menu.
    await option(ids.place).getByTestId('label-option-edit').click();
    await page.getByTestId('ner-label-modal').waitFor();
    await page.mouse.click(5, 5);
    await page.getByTestId('ner-label-modal').waitFor({ state: 'detached' });
    expect(await menu().count()).toBe(1);

    await option(ids.place).getByTestId('label-option-edit').click();
    await page.getByTestId('ner-label-name').fill('City');
    await page.getByTestId('ner-label-save').click();
    await page.getByTestId('ner-label-modal').waitFor({ state: 'detached' });
    await option(ids.place).getByText('City', { exact: true }).waitFor();
    await page.keyboard.press('Escape');
    await menu().waitFor({ state: 'detached' });
    // The tags of the type show its new name.
    const place = (await tags()).find((x) => x.nerTagTypeId === ids.place)!;
    await page.locator(`[data-tag-start~="${place.id}"][title="City"]`).waitFor();
  });
});

interface PageNodeLike {
  dataset: Record<string, string>;
}
