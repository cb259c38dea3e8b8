/**
 * Issue 3 in a real browser: build HUP -> FILE_PARSER -> CLF -> SPAN -> SEND_MAIL on the graph page, add a CLF
 * predicate on an edge, configure classifier labels, import NER labels from a file, configure the mail node,
 * reload and find everything as saved. Screenshots of the graph and two panels go to tests/artifacts/.
 */
import crypto from 'node:crypto';
import type { Browser, Page } from 'playwright-core';
import { BASE_URL, api, apiToken, createProcess, launch, settledCount, shot, signIn } from './support';

describe('graph and node configuration in Chromium', () => {
  let browser: Browser;
  let page: Page;
  let token: string;
  let processId: number;
  const suffix = crypto.randomBytes(3).toString('hex');

  const node = (name: string) => page.getByTestId('graph-node').filter({ hasText: name });
  const panel = () => page.getByTestId('node-panel');

  async function addNext(fromName: string, type: string, name: string): Promise<void> {
    // On a loaded machine the graph may redraw (its layout after a refetch) between the chooser's opening and
    // the click, and the chooser the click landed on is gone: open it again, as a user would, a few times.
    // The redraw may also close the chooser before its option is clicked: that is retried the same way.
    for (let attempt = 1; ; attempt++) {
      try {
        await node(fromName).hover();
        await node(fromName).getByTestId('graph-node-add').click();
        await page
          .getByTestId('node-type-chooser')
          .locator(`[data-testid="node-type-option"][data-type="${type}"]`)
          .click({ timeout: 10000 });
        await page.getByTestId('add-node-modal').waitFor({ timeout: 5000 });
        break;
      } catch (err) {
        if (attempt >= 3) throw err;
        await page.keyboard.press('Escape');
      }
    }
    await page.getByTestId('add-node-name').fill(name);
    if (type === 'FILE_PARSER') {
      // a parser's status after its run is chosen explicitly, each choice saying what it means (issue 29)
      expect(await page.getByTestId('add-node-submit').isDisabled()).toBe(true);
      const waits = page.getByRole('radio', {
        name: /^Wait for proofreading Each document stops at this parser/,
      });
      await page.getByRole('radio', { name: /^Go on Each document moves to the next nodes/ }).waitFor();
      await waits.check();
      await shot(page, '03-graph-add-parser');
    }
    await page.getByTestId('add-node-submit').click();
    await node(name).waitFor();
  }

  async function openPanel(name: string): Promise<void> {
    const id = await node(name).getAttribute('data-node-id');
    await node(name).click();
    await page.locator(`[data-testid="node-panel"][data-node-id="${id}"]`).waitFor();
  }

  async function closePanel(): Promise<void> {
    await page.getByTestId('node-panel-close').click();
    await panel().waitFor({ state: 'detached' });
  }

  beforeAll(async () => {
    token = await apiToken();
    processId = await createProcess(token, `Graph E2E ${suffix}`);
    browser = await launch();
    page = await browser.newPage({ viewport: { width: 1440, height: 900 } });
    page.setDefaultTimeout(15000);
    await signIn(page, 'admin', 'admin');
    await page.waitForURL(/\/entity\/process$/);
  });

  afterAll(async () => {
    await browser?.close();
  });

  it('builds Upload -> parser -> classifier -> span -> mail from the node-type chooser', async () => {
    await page.goto(`${BASE_URL}/entity/process/${processId}/graph`);
    await page.getByTestId('graph-canvas').waitFor();
    await node('Upload').waitFor();
    await addNext('Upload', 'FILE_PARSER', 'Parser');
    await addNext('Parser', 'CLF', 'Classify');
    await addNext('Classify', 'SPAN', 'Entities');
    await addNext('Entities', 'SEND_MAIL', 'Notify');
    expect(await settledCount(page.getByTestId('graph-node'), 5)).toBe(5);
    expect(await settledCount(page.getByTestId('graph-edge-label'), 4)).toBe(4);
    expect(await settledCount(page.getByTestId('unconnected-warning'), 0)).toBe(0);
  });

  it('gives the classifier two labels', async () => {
    await openPanel('Classify');
    for (const name of ['Invoice', 'Letter']) {
      await panel().getByTestId('clf-label-create').click();
      await page.getByTestId('clf-label-name').fill(name);
      await page.getByTestId('clf-label-save').click();
      await panel().getByTestId('clf-label-row').filter({ hasText: name }).waitFor();
    }
    await shot(page, '11-classifier-panel');
    await closePanel();
  });

  it('imports span labels from a JSON file', async () => {
    await openPanel('Entities');
    await panel().getByTestId('labels-import').click();
    const file = {
      data: [
        {
          nerTagType: { name: 'Person', backgroundColor: '#1565C0', textColor: '#FFFFFF' },
          matchingRules: [{ expression: 'Kowalski', matchingType: 'EXACT' }],
          children: [{ nerTagType: { name: 'Author', backgroundColor: '#2E7D32', textColor: '#FFFFFF' } }],
        },
        { nerTagType: { name: 'Amount', backgroundColor: '#EF6C00', textColor: '#000000' } },
      ],
    };
    await page.getByTestId('import-file-input').setInputFiles({
      name: 'labels.json',
      mimeType: 'application/json',
      buffer: Buffer.from(JSON.stringify(file)),
    });
    await page.getByTestId('import-submit').click();
    await page.getByTestId('import-confirm').click();
    for (const name of ['Person', 'Author', 'Amount']) {
      await panel().getByTestId('ner-label-row').filter({ hasText: name }).first().waitFor();
    }
    await closePanel();
  });

  it('configures the mail node', async () => {
    await openPanel('Notify');
    await panel().getByTestId('mail-smtp-host').fill('smtp.example.com');
    await panel().getByTestId('mail-smtp-port').fill('2525');
    await panel().getByTestId('mail-username').fill('robot');
    await panel().getByTestId('mail-subject').fill('Document ${document.id} is ready');
    await panel()
      .getByTestId('mail-template')
      .fill('Hello, ${document.filename} went through ${process.name}.');
    await panel().getByTestId('mail-receiver-add').click();
    await panel().getByTestId('mail-receiver-email').last().fill('boss@example.com');
    await panel().getByTestId('mail-receiver-type').last().selectOption('DW');
    await panel().getByTestId('node-save').click();
    // Saved once the panel no longer holds unsaved edits (a toast of an earlier step may still be showing).
    await panel().getByTestId('node-unsaved').waitFor({ state: 'detached' });
    await page.getByTestId('toast').filter({ hasText: 'Notify' }).first().waitFor();
    await shot(page, '12-mail-panel');
    await closePanel();
  });

  it('puts a classifier predicate on the edge from the classifier to the span node', async () => {
    const classify = await node('Classify').getAttribute('data-node-id');
    const edges = await api<{ id: number; fromId: number }[]>(token, `/api/edges?processId=${processId}`);
    const edge = edges.find((e) => String(e.fromId) === classify)!;
    await page.locator(`[data-testid="graph-edge-label"][data-edge-id="${edge.id}"]`).click();
    const modal = page.getByTestId('predicate-modal');
    await modal.waitFor();
    await modal.getByTestId('predicate-add-simple').click();
    await modal.getByTestId('predicate-node').selectOption(classify!);
    await modal.getByTestId('predicate-equality').selectOption('true');
    await modal.getByTestId('predicate-label').selectOption({ label: 'Invoice' });
    await modal.getByTestId('predicate-save').click();
    await modal.getByTestId('predicate-item').filter({ hasText: 'Invoice' }).waitFor();
    await modal.getByTestId('predicate-modal-close').click();
    await shot(page, '10-graph-predicate');
  });

  it('finds everything as saved after a reload', async () => {
    await page.reload();
    await node('Notify').waitFor();
    expect(await settledCount(page.getByTestId('graph-node'), 5)).toBe(5);
    expect(await settledCount(page.getByTestId('graph-edge-label'), 4)).toBe(4);
    expect(await settledCount(page.locator('[data-testid="graph-edge-label"].has-predicates'), 1)).toBe(1);
    await shot(page, '13-graph-reloaded');

    await openPanel('Notify');
    await panel().getByTestId('mail-receiver-email').last().waitFor();
    expect(await panel().getByTestId('mail-subject').inputValue()).toBe('Document ${document.id} is ready');
    expect(await panel().getByTestId('mail-smtp-host').inputValue()).toBe('smtp.example.com');
    expect(await panel().getByTestId('mail-receiver-email').last().inputValue()).toBe('boss@example.com');
    expect(await panel().getByTestId('mail-receiver-type').last().inputValue()).toBe('DW');
    await closePanel();

    await openPanel('Classify');
    await panel().getByTestId('clf-label-row').filter({ hasText: 'Letter' }).waitFor();
    expect(await settledCount(panel().getByTestId('clf-label-row'), 2)).toBe(2);
    await closePanel();
    await openPanel('Entities');
    await panel().getByTestId('ner-label-row').filter({ hasText: 'Amount' }).waitFor();
    expect(await settledCount(panel().getByTestId('ner-label-row'), 3)).toBe(3);
    await closePanel();

    const rules = await api<{ expression: string }[]>(
      token,
      `/api/matching-rules?nodeId=${await node('Entities').getAttribute('data-node-id')}`,
    );
    expect(rules.map((r) => r.expression)).toEqual(['Kowalski']);
  });
});
