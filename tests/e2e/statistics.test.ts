/**
 * Issue 16 section 1 in Chromium: the statistics screen reads figures made by real use. Two writers work in
 * the text workspace on a document each (Upload -> Entities, a SPAN node): they start the step, label words
 * by mouse selection and the label menu, and complete it. The browsers' clocks are Playwright's fake clocks
 * (installed before the first navigation, set three hours back so that the reports are not in the server's
 * future) so that minutes of work pass in a moment: the first writer works three minutes, the second four,
 * takes a lunch break longer than the idle timer (65 minutes without input: the header says Idle) and works
 * three more. A process admin (browser zone STATISTICS_ZONE: about noon when the run starts) then reads the three tabs: Work time counts the
 * second writer's minutes without the break, Tags counts each writer's tags on the node, Node Activity lists
 * both documents on the node and links into the workspace. A range over 365 days is refused; the same screen
 * in Polish; a WRITE user is refused the page. Screenshots go to tests/artifacts/ (80-...).
 */
import crypto from 'node:crypto';
import type { Page } from 'playwright-core';
import type { StatisticsQuery, WorkTimerAnswer } from '../../domain/statistics-types';
import { eventuallyMatches } from '../support/eventually';
import type { BuiltUser } from '../support/harness';
import {
  activityCounts,
  dotted,
  LUNCH_MS,
  MINUTE,
  openStatistics,
  pageWithClock,
  STATISTICS_ZONE,
  stepOnNode,
  WRITERS_TEXT,
  writersTagFigures,
  writersWork,
  writersWorld,
  zoneDay,
  type StatisticsTab,
} from './insights-support';
import {
  addTextDocument,
  api,
  BASE_URL,
  browserSuite,
  chooseLanguage,
  e2eWorld,
  horizontalOverflow,
  shot,
  settledValue,
  signedInPage,
  type E2eWorld,
} from './support';

const TEXT = WRITERS_TEXT;
const ZONE = STATISTICS_ZONE;

describe('statistics screen in Chromium', () => {
  const suite = browserSuite();
  let world: E2eWorld;
  let spanNodeId: number;
  let personTypeId: number;
  let ann: BuiltUser;
  let bob: BuiltUser;
  let admin: BuiltUser;
  const docs = { ann: 0, bob: 0 };
  const suffix = crypto.randomBytes(3).toString('hex');
  // The range the admin reads: yesterday and today in the admin's zone (the fake clocks start 3 h back).
  const today = zoneDay(new Date());
  const yesterday = zoneDay(new Date(Date.now() - 86_400_000));

  const spanStep = (id: number) => stepOnNode(world.token, id, spanNodeId);
  const statisticsUrl = () => `${BASE_URL}/entity/process/${world.processId}/statistics`;

  const workTime = () =>
    api<WorkTimerAnswer>(world.token, '/api/statistics', {
      method: 'POST',
      body: JSON.stringify({
        type: 'WORK_TIMER',
        processId: world.processId,
        dateFrom: yesterday,
        dateTo: today,
        zoneId: ZONE,
      } satisfies StatisticsQuery),
    });
  const secondsOf = (a: WorkTimerAnswer, userId: number) =>
    a.days.filter((d) => d.userId === userId).reduce((sum, d) => sum + d.seconds, 0);

  const stepDone = (documentId: number) =>
    eventuallyMatches(
      () => spanStep(documentId),
      (s) => s?.status === 'DONE',
      'the span step is done',
    );

  beforeAll(async () => {
    world = await e2eWorld(`Statistics E2E ${suffix}`);
    ({ ann, bob, admin, spanNodeId, personTypeId } = await writersWorld(
      suite.knex,
      world.token,
      world.processId,
      suffix,
    ));
    docs.ann = await addTextDocument(world.token, world.processId, `ann-${suffix}.txt`, TEXT);
    docs.bob = await addTextDocument(world.token, world.processId, `bob-${suffix}.txt`, TEXT);
    for (const id of [docs.ann, docs.bob])
      await eventuallyMatches(
        () => spanStep(id),
        (s) => s?.status === 'WAITING',
        'the span step waits',
      );
  });

  afterAll(() => world?.knex.destroy());

  it('records two writers working in the workspace, the lunch break left out', async () => {
    await writersWork({
      pages: {
        ann: await pageWithClock(suite.browser, suite.contexts, ann, 3 * 60 * MINUTE),
        bob: await pageWithClock(suite.browser, suite.contexts, bob, 3 * 60 * MINUTE),
      },
      processId: world.processId,
      docs,
      personTypeId,
      done: stepDone,
    });

    // Both stretches of Bob's work are in, the break is not: 4 + 1 (the idle minute) + 3 minutes and a bit.
    const answer = await eventuallyMatches(
      workTime,
      (a) => secondsOf(a, ann.id) >= 3 * 60 && secondsOf(a, bob.id) >= 7 * 60,
      'the work time of both writers is recorded',
    );
    expect(secondsOf(answer, bob.id)).toBeLessThan(12 * 60);
    expect(secondsOf(answer, ann.id)).toBeLessThan(6 * 60);
  });

  /** The admin's page (browser zone STATISTICS_ZONE), kept through the next tests. */
  let adminPage: Page;
  const total = (u: BuiltUser) =>
    adminPage.locator(`[data-testid="work-time-total"][data-user-id="${u.id}"]`);

  /** The statistics screen at a tab, over yesterday and today. */
  async function openAt(tab: StatisticsTab) {
    adminPage ??= await signedInPage(suite.browser, suite.contexts, admin, { timezoneId: ZONE });
    return openStatistics(adminPage, world.processId, tab, yesterday, today);
  }

  it('shows an admin the work time per user without the break, the sessions linking to the documents', async () => {
    const page = await openAt('WORK_TIMER');
    expect(await page.getByTestId('statistics-zone').textContent()).toContain(ZONE);
    // the process's name arrives with its own query
    const processName = () => page.getByTestId('statistics-process').textContent();
    expect(await settledValue(processName, `Statistics E2E ${suffix}`)).toBe(`Statistics E2E ${suffix}`);
    await total(bob).waitFor();
    await total(ann).waitFor();
    const bobSeconds = Number(await total(bob).getAttribute('data-seconds'));
    expect(bobSeconds).toBeGreaterThanOrEqual(7 * 60);
    expect(bobSeconds).toBeLessThan(LUNCH_MS / 1000);
    const hm = (await total(bob).getByTestId('work-time-total-time').textContent())!;
    expect(hm).toMatch(/^0:(0[7-9]|1[01])$/);
    expect(await total(bob).textContent()).toContain(`Bob ${suffix} Baker`);
    expect(Number(await page.getByTestId('work-time-chart').getAttribute('data-total'))).toBeGreaterThan(0);

    const bobRows = page.locator(`[data-testid="work-time-row"][data-user-id="${bob.id}"]`);
    expect(await bobRows.count()).toBeGreaterThanOrEqual(2); // before and after the break
    const rowSeconds = await bobRows.evaluateAll((rows) =>
      rows.map((r) => Number(r.getAttribute('data-seconds'))),
    );
    // Each row and each day's sum is rounded to whole seconds on its own: they agree to within one second a row.
    expect(Math.abs(rowSeconds.reduce((a, b) => a + b, 0) - bobSeconds)).toBeLessThanOrEqual(rowSeconds.length);
    expect(await bobRows.first().textContent()).toContain('Entities');
    expect(await bobRows.first().getByTestId('work-time-document').getAttribute('href')).toBe(
      `/entity/process/${world.processId}/document/${docs.bob}`,
    );
    expect(await horizontalOverflow(page)).toEqual([]);
    await shot(page, '80-statistics-work-time');

    // The presets: "last week" is a Monday to a Sunday, and the picker names it.
    await page.getByTestId('statistics-presets').click();
    await page.getByTestId('statistics-preset-lastWeek').click();
    await page.locator('[data-testid="statistics-range"][data-preset="lastWeek"]').waitFor();
    const [d, m, y] = (await page.getByTestId('statistics-from').inputValue()).split('.').map(Number);
    expect(new Date(Date.UTC(y, m - 1, d)).getUTCDay()).toBe(1);
  });

  it('counts the tags of each writer on the node, and of the chosen users only', async () => {
    const page = await openAt('TAG_USAGE');
    const tagRow = (u: BuiltUser) =>
      page.locator(`[data-testid="tags-row"][data-node-id="${spanNodeId}"][data-user-id="${u.id}"]`);
    expect(await writersTagFigures(page, spanNodeId, { ann, bob })).toEqual(['1', '2', '3']);
    await shot(page, '81-statistics-tags');
    await page.getByTestId('statistics-users').click();
    await page.locator(`[data-testid="statistics-users-option"][data-id="${bob.id}"]`).check();
    await page.getByTestId('statistics-users').click();
    await tagRow(ann).waitFor({ state: 'detached' });
    expect(await tagRow(bob).getAttribute('data-tags')).toBe('2');
    expect(await page.getByTestId('tags-by-user-chart').getAttribute('data-total')).toBe('2');
  });

  it('lists the documents a node finished, newest first, linking into the workspace', async () => {
    const page = await openAt('NODE_ACTIVITY');
    const spanRows = page.locator(`[data-testid="activity-row"][data-node-id="${spanNodeId}"]`);
    await spanRows.first().waitFor();
    const counts = await activityCounts(spanRows);
    expect(counts.reduce((a, [n]) => a + n, 0)).toBe(2);
    expect(counts.reduce((a, [, n]) => a + n, 0)).toBe(3);
    const row = spanRows.filter({ has: page.getByTestId('activity-documents-toggle') }).first();
    await row.getByTestId('activity-documents-toggle').click();
    const links = page.getByTestId('activity-document-link');
    await links.first().waitFor();
    const listed = await links.evaluateAll((els) =>
      els.map((e) => Number(e.getAttribute('data-document-id'))),
    );
    expect(listed).toEqual([...listed].sort((a, b) => b - a));
    expect(listed).toContain(docs.bob);
    await shot(page, '82-statistics-node-activity');
    await page.locator(`[data-testid="activity-document-link"][data-document-id="${docs.bob}"]`).click();
    await page.waitForURL(`${BASE_URL}/entity/process/${world.processId}/document/${docs.bob}`);
    await page.locator(`[data-testid="workspace"][data-document-id="${docs.bob}"]`).waitFor();
  });

  it('refuses a range over 365 days before asking, in English and in Polish', async () => {
    const page = await openAt('WORK_TIMER');
    const [ty, tm, td] = today.split('-').map(Number);
    const longAgo = new Date(Date.UTC(ty, tm - 1, td) - 366 * 86_400_000).toISOString().slice(0, 10);
    const yearAgo = new Date(Date.UTC(ty, tm - 1, td) - 365 * 86_400_000).toISOString().slice(0, 10);
    await page.getByTestId('statistics-from').fill(dotted(longAgo));
    expect(await page.getByTestId('statistics-range-error').textContent()).toBe(
      'The range may end at most 365 days after its start.',
    );
    await page.getByTestId('statistics-no-range').waitFor();
    expect(await page.getByTestId('work-time-total').count()).toBe(0);
    await shot(page, '83-statistics-range-refused');
    // 365 days after the start is a range it answers.
    await page.getByTestId('statistics-from').fill(dotted(yearAgo));
    await page.getByTestId('statistics-range-error').waitFor({ state: 'detached' });
    await total(bob).waitFor();

    // The same screen in Polish.
    await chooseLanguage(page, 'pl');
    expect(await page.getByTestId('statistics-tab-WORK_TIMER').textContent()).toBe('Czas pracy');
    expect(await page.getByTestId('statistics-tab-NODE_ACTIVITY').textContent()).toBe('Aktywność węzłów');
    await page.getByText('Czas pracy użytkowników (h:mm)').waitFor();
    await shot(page, '84-statistics-polish');
    await page.getByTestId('statistics-from').fill(dotted(longAgo));
    expect(await page.getByTestId('statistics-range-error').textContent()).toBe(
      'Zakres może kończyć się najwyżej 365 dni po swoim początku.',
    );
    await chooseLanguage(page, 'en');
  });

  it('refuses the page to a WRITE user of the process', async () => {
    const page = await signedInPage(suite.browser, suite.contexts, ann);
    await page.goto(statisticsUrl());
    await page.getByTestId('not-authorized').waitFor();
    expect(await page.getByTestId('statistics-page').count()).toBe(0);
  });

  it('shows a process that does not exist as a page that does not exist', async () => {
    const globalAdmin = await signedInPage(suite.browser, suite.contexts, world.admin);
    await globalAdmin.goto(`${BASE_URL}/entity/process/${world.processId + 100000}/statistics`);
    await globalAdmin.getByTestId('not-found').waitFor();
    expect(await globalAdmin.getByTestId('not-found').textContent()).toContain('The page does not exist.');
  });
});
