/**
 * What the issue 16 browser suites share (statistics, RAG, export and their journey): pages whose clock is
 * Playwright's fake clock so that minutes of work in the text workspace pass in a moment, labelling a word
 * by mouse selection and the label menu, the statistics screen at a tab over a range, the RAG screen's
 * question and the workspace's address-range highlight, and a download from a node panel's Export section.
 */
import fs from 'node:fs';
import type { Knex } from 'knex';
import type { Browser, BrowserContext, Locator, Page } from 'playwright-core';
import { eventually } from '../support/eventually';
import { textRangeBox } from './text-range';
import {
  addEdges,
  addNerTagType,
  addNode,
  api,
  BASE_URL,
  signIn,
  uploadNodeOf,
  userOnProcess,
} from './support';

export const MINUTE = 60_000;
/** The writers' documents' text. */
export const WRITERS_TEXT = 'Anna met Jan in Warsaw.\n';
/** The second writer's lunch: longer than the 60 s idle timer. */
export const LUNCH_MS = 65 * MINUTE;
/**
 * The zone the statistics are read in: a whole-hour zone where it is about noon when the suite starts, so the
 * writers' work (its clocks set three hours back) and the steps finished during the run fall on one day of the
 * zone whatever the time of day of the run (a fixed zone would split them at its midnight).
 */
export const STATISTICS_ZONE = noonZone(new Date());

function noonZone(now: Date): string {
  const east = 12 - now.getUTCHours(); // -11..12; Etc/GMT names count the other way round
  return east === 0 ? 'Etc/GMT' : east > 0 ? `Etc/GMT-${east}` : `Etc/GMT+${-east}`;
}

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

/**
 * Writers Ann and Bob (WRITE) and an admin Ada (ADMIN) on the process, named with `suffix`, and an Entities
 * SPAN node after the upload node (with acceptance: the writer's Complete is then the step's primary button,
 * Accept is the admin's) whose selectable label is Person.
 */
export async function writersWorld(knex: Knex, token: string, processId: number, suffix: string) {
  const named = (first: string, last: string) => ({ firstName: `${first} ${suffix}`, lastName: last });
  const [ann, bob, admin] = await Promise.all([
    userOnProcess(knex, processId, 'WRITE', named('Ann', 'Archer')),
    userOnProcess(knex, processId, 'WRITE', named('Bob', 'Baker')),
    userOnProcess(knex, processId, 'ADMIN', named('Ada', 'Admin')),
  ]);
  const spanNodeId = await addNode(token, processId, {
    name: 'Entities',
    activityType: 'SPAN',
    requiresAcceptance: true,
    x: 300,
    y: 100,
  });
  await addEdges(token, [await uploadNodeOf(token, processId), spanNodeId]);
  const personTypeId = await addNerTagType(token, spanNodeId, {
    name: 'Person',
    backgroundColor: '#f8d7da',
    textColor: '#58151c',
  });
  return { ann, bob, admin, spanNodeId, personTypeId };
}

/** The document's step on the node (from the API's document state), if it has one. */
export async function stepOnNode(token: string, documentId: number, nodeId: number) {
  const state = await api<{ steps: { id: number; status: string; nodeId: number }[] }>(
    token,
    `/api/v2/document/${documentId}/state`,
  );
  return state.steps.find((s) => s.nodeId === nodeId);
}

/**
 * The two writers' work on their documents (WRITERS_TEXT), each on its page with a fake clock: Ann labels
 * "Anna" and works three minutes; Bob labels "Jan", works four, takes the lunch break, labels "Warsaw" and
 * works three more; each completes the step (`done` waits for it) and leaves. `shoot` sees Ann's page before
 * she completes.
 */
export async function writersWork(w: {
  pages: { ann: Page; bob: Page };
  processId: number;
  docs: { ann: number; bob: number };
  personTypeId: number;
  done: (documentId: number) => Promise<unknown>;
  shoot?: (page: Page) => Promise<void>;
}): Promise<void> {
  const label = (page: Page, word: string, count: number) =>
    labelWord(page, WRITERS_TEXT, word, w.personTypeId, count);
  const { ann, bob } = w.pages;
  await openAndStart(ann, w.processId, w.docs.ann);
  await label(ann, 'Anna', 1);
  await work(ann, 3);
  await w.shoot?.(ann);
  await completeAndLeave(ann, () => w.done(w.docs.ann));

  await openAndStart(bob, w.processId, w.docs.bob);
  await label(bob, 'Jan', 1);
  await work(bob, 4);
  await takeBreak(bob, LUNCH_MS);
  await label(bob, 'Warsaw', 2);
  await work(bob, 3);
  await completeAndLeave(bob, () => w.done(w.docs.bob));
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

/**
 * The Tags tab's figures of the writers' work, once Bob's row is there: Ann's and Bob's tags on the node and
 * the node's total in the chart.
 */
export async function writersTagFigures(
  page: Page,
  nodeId: number,
  writers: { ann: { id: number }; bob: { id: number } },
): Promise<(string | null)[]> {
  const row = (u: { id: number }) =>
    page.locator(`[data-testid="tags-row"][data-node-id="${nodeId}"][data-user-id="${u.id}"]`);
  await row(writers.bob).waitFor();
  return [
    await row(writers.ann).getAttribute('data-tags'),
    await row(writers.bob).getAttribute('data-tags'),
    await page.getByTestId('tags-by-node-chart').getAttribute('data-total'),
  ];
}

/** The documents-per-row and tags-per-row figures of the node's rows on the Node Activity tab. */
export const activityCounts = (rows: Locator): Promise<number[][]> =>
  rows.evaluateAll((els) =>
    els.map((r) => [Number(r.getAttribute('data-documents')), Number(r.getAttribute('data-tags'))]),
  );

export const RAG_FACT =
  'The lighthouse keeper of Port Ellery is Wojciech Tarnowski, who has tended the lamp since 1987.';
export const RAG_QUESTION = 'Who is the lighthouse keeper of Port Ellery?';
export const RAG_TOPICS = [
  'orchard',
  'violin',
  'glacier',
  'bakery',
  'harbour',
  'telescope',
  'marathon',
  'library',
  'volcano',
  'tramway',
];
/** The document holding the answer, far down its text (the link must scroll to it). */
export const RAG_ANSWER_TOPIC = 'harbour';

/** The text of a topic's document: a few notes, or forty with the fact near the end for the answer's topic. */
export function ragTopicText(topic: string): string {
  const lines = Array.from(
    { length: topic === RAG_ANSWER_TOPIC ? 40 : 6 },
    (_, k) =>
      `Entry ${k + 1} of the ${topic} notes: the ${topic} committee met and filed report ${topic}-${k + 1}.`,
  );
  if (topic === RAG_ANSWER_TOPIC) lines.splice(36, 0, RAG_FACT);
  return lines.join('\n\n');
}

/** Waits (up to two minutes) until all the documents are DONE. */
export const documentsDone = (knex: Knex, ids: number[]) =>
  eventually(
    `the ${ids.length} documents DONE`,
    async () => {
      const rows = await knex('documents').whereIn('id', ids).where('status', 'DONE').count({ n: '*' });
      return Number(rows[0].n) === ids.length;
    },
    120000,
  );

/**
 * Turns the process's RAG on from the RAG screen's notice (`offText`; `onNotice` sees it first) and waits (up
 * to two minutes) until `count` documents are indexed.
 */
export async function enableRagFromNotice(
  page: Page,
  knex: Knex,
  processId: number,
  offText: string,
  count: number,
  onNotice?: () => Promise<void>,
): Promise<void> {
  await page.goto(`${BASE_URL}/entity/process/${processId}/rag`);
  await page.getByTestId('rag-off').getByText(offText).waitFor();
  await onNotice?.();
  await page.getByTestId('rag-enable').click();
  await page.getByTestId('rag-off').waitFor({ state: 'detached' });
  await eventually(
    `${count} documents indexed`,
    async () => {
      const rows = await knex('rag_chunks')
        .where('process_id', processId)
        .countDistinct({ n: 'document_id' });
      return Number(rows[0].n) === count;
    },
    120000,
  );
}

/**
 * Clicks a matched chunk of the document `text` (which holds the fact) and checks that the workspace opens at
 * its range with that range highlighted in view; the chunk's text.
 */
export async function followChunk(
  page: Page,
  chunk: Locator,
  processId: number,
  documentId: number,
  text: string,
): Promise<string> {
  const start = Number(await chunk.getAttribute('data-start'));
  const end = Number(await chunk.getAttribute('data-end'));
  const chunkText = text.slice(start, end);
  if (!chunkText.includes(RAG_FACT)) throw new Error(`the chunk ${start}..${end} misses the fact`);
  await chunk.click();
  await page.waitForURL(
    `${BASE_URL}/entity/process/${processId}/document/${documentId}?start=${start}&end=${end}`,
  );
  await page.getByTestId('document-text').waitFor();
  const seen = await eventually('the chunk highlighted in view', async () => {
    const h = await highlighted(page);
    return h.texts.length === 1 && h.inView ? h : undefined;
  });
  if (JSON.stringify(seen.texts) !== JSON.stringify([chunkText]))
    throw new Error(`highlighted ${JSON.stringify(seen.texts)}, not the chunk`);
  return chunkText;
}

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
