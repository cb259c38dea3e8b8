/**
 * What the issue 16 browser suites share (statistics, RAG, export and their journey): pages whose clock is
 * Playwright's fake clock so that minutes of work in the text workspace pass in a moment, labelling a word
 * by mouse selection and the label menu, the statistics screen at a tab over a range, the RAG screen's
 * question and the workspace's address-range highlight, and a download from a node panel's Export section.
 */
import fs from 'node:fs';
import type { Browser, BrowserContext, Locator, Page } from 'playwright-core';
import { textRangeBox } from './text-range';
import { BASE_URL, signIn } from './support';

export const MINUTE = 60_000;
/** The zone the statistics are read in. */
export const STATISTICS_ZONE = 'Europe/Warsaw';

/** yyyy-MM-dd of an instant in the statistics zone, and the same day as the date inputs write it. */
export const zoneDay = (at: Date) => at.toLocaleDateString('sv-SE', { timeZone: STATISTICS_ZONE });
export const dotted = (day: string) => `${day.slice(8, 10)}.${day.slice(5, 7)}.${day.slice(0, 4)}`;

/**
 * A signed-in page (new context, 1440x900, kept in `contexts`) whose clock is fake from before its first
 * navigation, `backMs` behind the real one (so that the work reports are not in the server's future).
 */
export async function pageWithClock(
  browser: Browser,
  contexts: BrowserContext[],
  user: { login: string; password: string },
  backMs: number,
): Promise<Page> {
  const context = await browser.newContext({ viewport: { width: 1440, height: 900 } });
  contexts.push(context);
  const page = await context.newPage();
  page.setDefaultTimeout(15000);
  await page.clock.install({ time: new Date(Date.now() - backMs) });
  await signIn(page, user.login, user.password);
  await page.waitForURL(/\/entity\/process$/);
  return page;
}

/** `minutes` of work: an input every 30 s of the page's clock. */
export async function work(page: Page, minutes: number): Promise<void> {
  for (let i = 0; i < minutes * 2; i++) {
    await page.clock.fastForward(30_000);
    await page.mouse.move(300 + (i % 7) * 13, 420 + (i % 3) * 9);
  }
}

/** A break of `ms` without input (longer than the idle timer): the header's clock shows Idle, then resumes. */
export async function takeBreak(page: Page, ms: number): Promise<void> {
  await page.clock.fastForward(ms);
  await page.locator('[data-testid="work-clock"][data-idle="true"]').waitFor();
  await page.mouse.move(500, 500);
  await page.locator('[data-testid="work-clock"][data-idle="false"]').waitFor();
}

const selectedRow = (page: Page) => page.locator('[data-testid="step-row"][data-selected="true"]');

/** Opens the document in the workspace and starts working on its selected step. */
export async function openAndStart(page: Page, processId: number, documentId: number): Promise<void> {
  await page.goto(`${BASE_URL}/entity/process/${processId}/document/${documentId}`);
  await page.locator(`[data-testid="workspace"][data-document-id="${documentId}"]`).waitFor();
  await selectedRow(page).getByTestId('step-action-startWorking').click();
  await page.getByTestId('labeling-undo').waitFor();
}

/**
 * Labels `word` (its first occurrence in the document's `text`) with the label `optionId`: a mouse
 * selection, a right click, the option; waits for the document to show `count` tags.
 */
export async function labelWord(
  page: Page,
  text: string,
  word: string,
  optionId: number,
  count: number,
): Promise<void> {
  const start = text.indexOf(word);
  const box = await textRangeBox(page, start, start + word.length);
  const y = (box.top + box.bottom) / 2;
  await page.mouse.move(box.left + 1, y);
  await page.mouse.down();
  await page.mouse.move(box.right - 1, y, { steps: 4 });
  await page.mouse.up();
  await page.mouse.click(box.right - 2, y, { button: 'right' });
  await page.getByTestId('label-menu').waitFor();
  await page.locator(`[data-testid="label-option"][data-option-id="${optionId}"]`).click();
  await page.locator(`[data-testid="document-text"][data-tag-count="${count}"]`).waitFor();
}

/**
 * Completes the selected step, waits for `done` (the step DONE through the API), and leaves the workspace,
 * which ends the stretch of work (the workspace reports it).
 */
export async function completeAndLeave(page: Page, done: () => Promise<unknown>): Promise<void> {
  await selectedRow(page).getByTestId('step-action-complete').click();
  await done();
  await page.goto(`${BASE_URL}/entity/process`);
  await page.getByTestId('process-table').waitFor();
}

export type StatisticsTab = 'WORK_TIMER' | 'TAG_USAGE' | 'NODE_ACTIVITY';

/** The statistics screen of the process at a tab, over the days `from` to `to` (yyyy-MM-dd). */
export async function openStatistics(
  page: Page,
  processId: number,
  tab: StatisticsTab,
  from: string,
  to: string,
): Promise<Page> {
  await page.goto(`${BASE_URL}/entity/process/${processId}/statistics`);
  await page.locator('[data-testid="statistics-card"][data-tab="WORK_TIMER"]').waitFor();
  await page.getByTestId('statistics-from').fill(dotted(from));
  await page.getByTestId('statistics-to').fill(dotted(to));
  if (tab !== 'WORK_TIMER') await page.getByTestId(`statistics-tab-${tab}`).click();
  await page.locator(`[data-testid="statistics-card"][data-tab="${tab}"]`).waitFor();
  return page;
}

/** The documents-per-row and tags-per-row figures of the node's rows on the Node Activity tab. */
export const activityCounts = (rows: Locator): Promise<number[][]> =>
  rows.evaluateAll((els) =>
    els.map((r) => [Number(r.getAttribute('data-documents')), Number(r.getAttribute('data-tags'))]),
  );

/** Asks the RAG screen a question with the stand-in's gpt-4o-mini. */
export async function askRag(page: Page, question: string): Promise<void> {
  await page.getByTestId('rag-query').fill(question);
  await page.getByTestId('rag-llm-model').selectOption({ label: 'gpt-4o-mini' });
  await page.getByTestId('rag-submit').click();
}

interface PageWindow {
  innerHeight: number;
  CSS: {
    highlights?: Map<
      string,
      Iterable<{ toString(): string; getBoundingClientRect(): { top: number; bottom: number } }>
    >;
  };
}

/** The texts the workspace's address-range highlight paints, and whether its first range is in the window. */
export const highlighted = (page: Page) =>
  page.evaluate(() => {
    const w = globalThis as unknown as PageWindow;
    const ranges = Array.from(w.CSS.highlights?.get('ws-address-range') ?? []);
    const box = ranges[0]?.getBoundingClientRect();
    return {
      texts: ranges.map((r) => r.toString()),
      inView: !!box && box.bottom > 0 && box.top < w.innerHeight,
    };
  });

/** The Export section of the node panel open on the graph page. */
export const exportSection = (page: Page) =>
  page.locator('[data-testid="node-section"][data-section="export"]');

/**
 * Downloads the node's results in `format` from the panel's Export section (with a CSV delimiter when
 * given): the file's name (from content-disposition) and its text.
 */
export async function downloadExport(
  page: Page,
  format: string,
  delimiter?: string,
): Promise<{ name: string; text: string }> {
  const section = exportSection(page);
  await section.getByTestId('step-result-export-format').selectOption(format);
  if (delimiter !== undefined) await section.getByTestId('step-result-export-delimiter').fill(delimiter);
  const [file] = await Promise.all([
    page.waitForEvent('download', { timeout: 60_000 }),
    section.getByTestId('step-result-export-download').click(),
  ]);
  return { name: file.suggestedFilename(), text: fs.readFileSync(await file.path(), 'utf8') };
}
