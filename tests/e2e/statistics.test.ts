/**
 * Issue 16 section 1 in Chromium: the statistics screen reads figures made by real use. Two writers work in
 * the text workspace on a document each (Upload -> Entities, a SPAN node): they start the step, label words
 * by mouse selection and the label menu, and complete it. The browsers' clocks are Playwright's fake clocks
 * (installed before the first navigation, set three hours back so that the reports are not in the server's
 * future) so that minutes of work pass in a moment: the first writer works three minutes, the second four,
 * takes a lunch break longer than the idle timer (65 minutes without input: the header says Idle) and works
 * three more. A process admin (browser zone Europe/Warsaw) then reads the three tabs: Work time counts the
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
  completeAndLeave,
  dotted,
  labelWord,
  MINUTE,
  openAndStart,
  openStatistics,
  pageWithClock,
  STATISTICS_ZONE,
  takeBreak,
  work,
  zoneDay,
  type StatisticsTab,
} from './insights-support';
import {
  addEdges,
  addNode,
  addTagType,
  addTextDocument,
  api,
  BASE_URL,
  browserSuite,
  chooseLanguage,
  e2eWorld,
  horizontalOverflow,
  shot,
  signIn,
  signedInPage,
  uploadNodeOf,
  userOnProcess,
  type E2eWorld,
} from './support';

interface StateView {
  steps: { id: number; status: string; nodeId: number }[];
}

const TEXT = 'Anna met Jan in Warsaw.\n';
const ZONE = STATISTICS_ZONE;
/** The second writer's lunch: longer than the 60 s idle timer. */
const BREAK_MS = 65 * MINUTE;

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

  const stateOf = (id: number) => api<StateView>(world.token, `/api/v2/document/${id}/state`);
  const spanStep = async (id: number) => (await stateOf(id)).steps.find((s) => s.nodeId === spanNodeId);
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

  const label = (page: Page, word: string, count: number) => labelWord(page, TEXT, word, personTypeId, count);
  const stepDone = (documentId: number) =>
    eventuallyMatches(
      () => spanStep(documentId),
      (s) => s?.status === 'DONE',
      'the span step is done',
    );

  beforeAll(async () => {
    world = await e2eWorld(`Statistics E2E ${suffix}`);
    const named = (first: string, last: string) => ({ firstName: `${first} ${suffix}`, lastName: last });
    [ann, bob, admin] = await Promise.all([
      userOnProcess(suite.knex, world.processId, 'WRITE', named('Ann', 'Archer')),
      userOnProcess(suite.knex, world.processId, 'WRITE', named('Bob', 'Baker')),
      userOnProcess(suite.knex, world.processId, 'ADMIN', named('Ada', 'Admin')),
    ]);
    spanNodeId = await addNode(world.token, world.processId, {
      name: 'Entities',
      activityType: 'SPAN',
      // the writer's Complete is then the step's primary button (Accept is the admin's)
      requiresAcceptance: true,
    });
    await addEdges(world.token, [await uploadNodeOf(world.token, world.processId), spanNodeId]);
    personTypeId = await addTagType(world.token, spanNodeId, {
      name: 'Person',
      backgroundColor: '#f8d7da',
      textColor: '#58151c',
    });
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
    const annPage = await pageWithClock(suite.browser, suite.contexts, ann, 3 * 60 * MINUTE);
    await openAndStart(annPage, world.processId, docs.ann);
    await label(annPage, 'Anna', 1);
    await work(annPage, 3);
    await completeAndLeave(annPage, () => stepDone(docs.ann));

    const bobPage = await pageWithClock(suite.browser, suite.contexts, bob, 3 * 60 * MINUTE);
    await openAndStart(bobPage, world.processId, docs.bob);
    await label(bobPage, 'Jan', 1);
    await work(bobPage, 4);
    // Lunch: no input for longer than the idle timer.
    await takeBreak(bobPage, BREAK_MS);
    await label(bobPage, 'Warsaw', 2);
    await work(bobPage, 3);
    await completeAndLeave(bobPage, () => stepDone(docs.bob));

    // Both stretches of Bob's work are in, the break is not: 4 + 1 (the idle minute) + 3 minutes and a bit.
    const answer = await eventuallyMatches(
      workTime,
      (a) => secondsOf(a, ann.id) >= 3 * 60 && secondsOf(a, bob.id) >= 7 * 60,
      'the work time of both writers is recorded',
    );
    expect(secondsOf(answer, bob.id)).toBeLessThan(12 * 60);
    expect(secondsOf(answer, ann.id)).toBeLessThan(6 * 60);
  });

  /** The admin's page (browser zone Europe/Warsaw), kept through the next tests. */
  let adminPage: Page;
  const total = (u: BuiltUser) =>
    adminPage.locator(`[data-testid="work-time-total"][data-user-id="${u.id}"]`);

  /** The statistics screen at a tab, over yesterday and today. */
  async function openAt(tab: StatisticsTab) {
    if (!adminPage) {
      const context = await suite.browser.newContext({
        viewport: { width: 1440, height: 900 },
        timezoneId: ZONE,
      });
      suite.contexts.push(context);
      adminPage = await context.newPage();
      adminPage.setDefaultTimeout(15000);
      await signIn(adminPage, admin.login, admin.password);
      await adminPage.waitForURL(/\/entity\/process$/);
    }
    return openStatistics(adminPage, world.processId, tab, yesterday, today);
  }

  it('shows an admin the work time per user without the break, the sessions linking to the documents', async () => {
    const page = await openAt('WORK_TIMER');
    expect(await page.getByTestId('statistics-zone').textContent()).toContain(ZONE);
    expect(await page.getByTestId('statistics-process').textContent()).toBe(`Statistics E2E ${suffix}`);
    await total(bob).waitFor();
    await total(ann).waitFor();
    const bobSeconds = Number(await total(bob).getAttribute('data-seconds'));
    expect(bobSeconds).toBeGreaterThanOrEqual(7 * 60);
    expect(bobSeconds).toBeLessThan(BREAK_MS / 1000);
    const hm = (await total(bob).getByTestId('work-time-total-time').textContent())!;
    expect(hm).toMatch(/^0:(0[7-9]|1[01])$/);
    expect(await total(bob).textContent()).toContain(`Bob ${suffix} Baker`);
    expect(Number(await page.getByTestId('work-time-chart').getAttribute('data-total'))).toBeGreaterThan(0);

    const bobRows = page.locator(`[data-testid="work-time-row"][data-user-id="${bob.id}"]`);
    expect(await bobRows.count()).toBeGreaterThanOrEqual(2); // before and after the break
    const rowSeconds = await bobRows.evaluateAll((rows) =>
      rows.map((r) => Number(r.getAttribute('data-seconds'))),
    );
    expect(rowSeconds.reduce((a, b) => a + b, 0)).toBe(bobSeconds);
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
    await tagRow(bob).waitFor();
    expect(await tagRow(ann).getAttribute('data-tags')).toBe('1');
    expect(await tagRow(bob).getAttribute('data-tags')).toBe('2');
    expect(await page.getByTestId('tags-by-node-chart').getAttribute('data-total')).toBe('3');
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
