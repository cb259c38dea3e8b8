/**
 * Issue 16 "Done when": the insights journey in Chromium, once in English and once in Polish (each language
 * with its own process Upload -> Entities (SPAN: Person, with acceptance) and its own users), against the
 * e2e app run with the rag profile and the local OpenAI-compatible stand-in (it echoes the prompt it got):
 * - ten text documents walk through the real engine to the Entities step;
 * - two writers work in the text workspace on fake clocks (set three hours back): the first labels "Anna"
 *   for three minutes, the second labels "Jan", works four minutes, takes a lunch break longer than the idle
 *   timer (the header says Idle), labels "Warsaw" and works three more; both complete their step; the other
 *   eight steps are done through the API, and the admin accepts all ten so the documents are DONE;
 * - the process admin turns RAG on from the RAG screen's notice (the ten documents are indexed), asks who
 *   keeps the lighthouse, sees the harbour document first with its chunk, follows the chunk into the
 *   workspace and sees that range highlighted in view;
 * - the admin reads the three statistics tabs: Work time counts the second writer without the break, Tags
 *   counts one tag of the first writer and two of the second, Node Activity lists the ten documents and its
 *   link opens the second writer's document in the workspace;
 * - the admin exports the Entities node's results from its panel on the graph page as CSV, JSON and CoNLL,
 *   and the files hold the tags the writers made.
 * Screenshots go to tests/artifacts/ (120-insights-<lang>-*).
 */
import crypto from 'node:crypto';
import type { Page } from 'playwright-core';
import { eventuallyMatches } from '../support/eventually';
import type { BuiltUser } from '../support/harness';
import {
  activityCounts,
  askRag,
  documentsDone,
  downloadExport,
  enableRagFromNotice,
  exportSection,
  followChunk,
  MINUTE,
  openStatistics,
  pageWithClock,
  RAG_ANSWER_TOPIC,
  RAG_QUESTION,
  RAG_TOPICS,
  ragTopicText,
  STATISTICS_ZONE,
  stepOnNode,
  writersTagFigures,
  writersWork,
  writersWorld,
  WRITERS_TEXT,
  zoneDay,
} from './insights-support';
import {
  addTextDocument,
  api,
  BASE_URL,
  browserSuite,
  chooseLanguage,
  e2eWorld,
  settledValue,
  shot,
  signedInPage,
  type E2eWorld,
} from './support';

/** Eight documents beside the writers' two; the harbour notes hold the answer, far down their text. */
const TOPICS = RAG_TOPICS.slice(0, 8);

const STRINGS = {
  en: {
    ragOff: 'RAG is not enabled for this Sphere.',
    ragTitle: 'RAG query',
    score: 'score',
    workTimeTab: 'Work time',
    tagsTab: 'Tags',
    activityTab: 'Node Activity',
    download: 'Download results',
  },
  pl: {
    ragOff: 'RAG nie jest włączony dla tej Sfery.',
    ragTitle: 'Zapytanie RAG',
    score: 'wynik',
    workTimeTab: 'Czas pracy',
    tagsTab: 'Tagi',
    activityTab: 'Aktywność węzłów',
    download: 'Pobierz wyniki',
  },
};

describe.each(['en', 'pl'] as const)('insights journey in Chromium (%s)', (lang) => {
  const t = STRINGS[lang];
  const suite = browserSuite();
  const suffix = crypto.randomBytes(3).toString('hex');
  const processName = `Insights ${lang} ${suffix}`;
  const shotOf = (page: Page, name: string) => shot(page, `120-insights-${lang}-${name}`);
  let world: E2eWorld;
  let spanNodeId: number;
  let personTypeId: number;
  let ann: BuiltUser;
  let bob: BuiltUser;
  let admin: BuiltUser;
  const docs: Record<string, number> = {};
  const today = zoneDay(new Date());
  const yesterday = zoneDay(new Date(Date.now() - 86_400_000));

  const spanStep = (id: number) => stepOnNode(world.token, id, spanNodeId);
  const spanStepIs = (id: number, status: string) =>
    eventuallyMatches(
      () => spanStep(id),
      (s) => s?.status === status,
      `the span step of ${id} is ${status}`,
    );
  const stepAction = (stepId: number, action: string) =>
    api(world.token, `/api/steps/${stepId}/${action}`, { method: 'PUT', body: '{}' });

  /** The writer's page: fake clock three hours back, in the journey's language. */
  async function writerPage(user: BuiltUser): Promise<Page> {
    const page = await pageWithClock(suite.browser, suite.contexts, user, 3 * 60 * MINUTE);
    if (lang === 'pl') await chooseLanguage(page, 'pl');
    return page;
  }

  beforeAll(async () => {
    world = await e2eWorld(processName);
    ({ ann, bob, admin, spanNodeId, personTypeId } = await writersWorld(
      suite.knex,
      world.token,
      world.processId,
      suffix,
    ));
    docs.ann = await addTextDocument(world.token, world.processId, `ann-${suffix}.txt`, WRITERS_TEXT);
    docs.bob = await addTextDocument(world.token, world.processId, `bob-${suffix}.txt`, WRITERS_TEXT);
    for (const topic of TOPICS)
      docs[topic] = await addTextDocument(world.token, world.processId, `${topic}.txt`, ragTopicText(topic));
    for (const id of Object.values(docs)) await spanStepIs(id, 'WAITING');
  });

  afterAll(() => world?.knex.destroy());

  it('two writers label and complete their documents, one with a lunch break; all ten end DONE', async () => {
    await writersWork({
      pages: { ann: await writerPage(ann), bob: await writerPage(bob) },
      processId: world.processId,
      docs: { ann: docs.ann, bob: docs.bob },
      personTypeId,
      done: (id) => spanStepIs(id, 'DONE'),
      shoot: (page) => shotOf(page, '01-writer-workspace'),
    });

    // The other eight through the API (start working, complete); then the admin accepts all ten.
    for (const topic of TOPICS) {
      const step = (await spanStep(docs[topic]))!;
      await api(world.token, `/api/step/assign?docId=${docs[topic]}&nodeId=${spanNodeId}&stepId=${step.id}`, {
        method: 'POST',
      });
      await stepAction(step.id, 'complete');
    }
    for (const id of Object.values(docs)) await stepAction((await spanStep(id))!.id, 'accept');
    await documentsDone(suite.knex, Object.values(docs));
  });

  /** The process admin's page (browser zone STATISTICS_ZONE, the journey's language), kept through the tests. */
  let page: Page;

  it('the admin turns RAG on, asks, sees the matched document and chunk, and follows it into the workspace', async () => {
    page = await signedInPage(suite.browser, suite.contexts, admin, { timezoneId: STATISTICS_ZONE });
    if (lang === 'pl') await chooseLanguage(page, 'pl');

    await enableRagFromNotice(page, suite.knex, world.processId, t.ragOff, 10, () =>
      shotOf(page, '02-rag-off'),
    );
    await page.getByTestId('rag-page').getByRole('heading', { name: t.ragTitle }).waitFor();

    await askRag(page, RAG_QUESTION);
    await page.getByTestId('rag-response').filter({ hasText: 'Wojciech Tarnowski' }).waitFor();
    const answer = (await page.getByTestId('rag-response').textContent()) ?? '';
    expect(answer).toContain(RAG_QUESTION);
    expect(answer).toContain('Wojciech Tarnowski');
    const first = page.getByTestId('rag-match').first();
    expect(await first.getAttribute('data-document-id')).toBe(String(docs[RAG_ANSWER_TOPIC]));
    expect(await first.getByTestId('rag-match-filename').textContent()).toBe(`${RAG_ANSWER_TOPIC}.txt`);
    const chunk = first.getByTestId('rag-chunk').first();
    expect(await chunk.getByTestId('rag-chunk-score').textContent()).toBe(`${t.score} 1.00`);
    await shotOf(page, '03-rag-answer');
    // The chunk holds the fact; it opens the workspace at its range, highlighted in view.
    await followChunk(page, chunk, world.processId, docs[RAG_ANSWER_TOPIC], ragTopicText(RAG_ANSWER_TOPIC));
    await shotOf(page, '04-rag-chunk-in-workspace');
  });

  it('the admin reads the three statistics tabs: the break left out, the tags counted, the documents linked', async () => {
    await openStatistics(page, world.processId, 'WORK_TIMER', yesterday, today);
    expect(await page.getByTestId('statistics-tab-WORK_TIMER').textContent()).toBe(t.workTimeTab);
    const total = (u: BuiltUser) => page.locator(`[data-testid="work-time-total"][data-user-id="${u.id}"]`);
    await total(ann).waitFor();
    await total(bob).waitFor();
    const seconds = async (u: BuiltUser) => Number(await total(u).getAttribute('data-seconds'));
    // Ann: three minutes and a bit; Bob: 4 + 1 (the idle minute) + 3 minutes and a bit, not the 65 of lunch.
    expect(await seconds(ann)).toBeGreaterThanOrEqual(3 * 60);
    expect(await seconds(ann)).toBeLessThan(6 * 60);
    expect(await seconds(bob)).toBeGreaterThanOrEqual(7 * 60);
    expect(await seconds(bob)).toBeLessThan(12 * 60);
    expect(await total(bob).textContent()).toContain(`Bob ${suffix} Baker`);
    expect(
      await page.locator(`[data-testid="work-time-row"][data-user-id="${bob.id}"]`).count(),
    ).toBeGreaterThanOrEqual(2); // before and after the break
    await shotOf(page, '05-statistics-work-time');

    await page.getByTestId('statistics-tab-TAG_USAGE').click();
    expect(await page.getByTestId('statistics-tab-TAG_USAGE').textContent()).toBe(t.tagsTab);
    // One tag of Ann, two of Bob, three on the node.
    expect(await writersTagFigures(page, spanNodeId, { ann, bob })).toEqual(['1', '2', '3']);
    await shotOf(page, '06-statistics-tags');

    await page.getByTestId('statistics-tab-NODE_ACTIVITY').click();
    expect(await page.getByTestId('statistics-tab-NODE_ACTIVITY').textContent()).toBe(t.activityTab);
    const spanRows = page.locator(`[data-testid="activity-row"][data-node-id="${spanNodeId}"]`);
    await spanRows.first().waitFor();
    const counts = await activityCounts(spanRows);
    // One cell (the ten finished today), its documents five a page, newest first.
    expect(counts).toEqual([[10, 3]]);
    await spanRows.getByTestId('activity-documents-toggle').click();
    const listed = () =>
      page
        .getByTestId('activity-document-link')
        .evaluateAll((els) => els.map((e) => Number(e.getAttribute('data-document-id'))));
    const newestFirst = Object.values(docs).sort((a, b) => b - a);
    expect(await settledValue(listed, newestFirst.slice(0, 5))).toEqual(newestFirst.slice(0, 5));
    await page.getByTestId('activity-documents-pager-next').click();
    expect(await settledValue(listed, newestFirst.slice(5))).toEqual(newestFirst.slice(5));
    expect(await page.getByTestId('activity-documents-pager-2').getAttribute('aria-current')).toBe('page');
    await shotOf(page, '07-statistics-node-activity');
    await page.locator(`[data-testid="activity-document-link"][data-document-id="${docs.bob}"]`).click();
    await page.waitForURL(`${BASE_URL}/entity/process/${world.processId}/document/${docs.bob}`);
    await page.locator(`[data-testid="workspace"][data-document-id="${docs.bob}"]`).waitFor();
  });

  it('the admin exports the Entities node’s results as CSV, JSON and CoNLL holding the writers’ tags', async () => {
    await page.goto(`${BASE_URL}/entity/process/${world.processId}/graph`);
    await page.getByTestId('graph-node').filter({ hasText: 'Entities' }).click();
    await page.locator(`[data-testid="node-panel"][data-node-id="${spanNodeId}"]`).waitFor();
    await exportSection(page).getByTestId('step-result-export').scrollIntoViewIfNeeded();
    await exportSection(page).getByText(t.download, { exact: true }).waitFor();
    await shotOf(page, '08-export-panel');

    const csv = await downloadExport(page, 'csv', ';');
    expect(csv.name.endsWith('.csv')).toBe(true);
    const lines = csv.text.split('\r\n').filter(Boolean);
    expect(lines[0]).toBe('stepId;documentId;filename;status;finishedAt;tags;relations');
    expect(lines).toHaveLength(11);
    const annLine = lines.find((l) => l.split(';')[1] === String(docs.ann))!;
    expect(annLine).toContain('""text"":""Anna""');

    const json = await downloadExport(page, 'json');
    expect(json.name.endsWith('.json')).toBe(true);
    const rows = JSON.parse(json.text) as { documentId: number; tags: { label: string; text: string }[] }[];
    const tagsOf = (id: number) =>
      rows.find((r) => r.documentId === id)!.tags.map((tag) => [tag.label, tag.text]);
    expect(rows.map((r) => r.documentId).sort((a, b) => a - b)).toEqual(
      Object.values(docs).sort((a, b) => a - b),
    );
    expect(tagsOf(docs.ann)).toEqual([['Person', 'Anna']]);
    expect(tagsOf(docs.bob)).toEqual([
      ['Person', 'Jan'],
      ['Person', 'Warsaw'],
    ]);
    expect(tagsOf(docs[RAG_ANSWER_TOPIC])).toEqual([]);

    const conll = await downloadExport(page, 'conll');
    expect(conll.name.endsWith('.conll')).toBe(true);
    expect(conll.text).toContain(
      'Anna _ _ B-Person\nmet _ _ O\nJan _ _ O\nin _ _ O\nWarsaw _ _ O\n. _ _ O\n',
    );
    expect(conll.text).toContain(
      'Anna _ _ O\nmet _ _ O\nJan _ _ B-Person\nin _ _ O\nWarsaw _ _ B-Person\n. _ _ O\n',
    );
  });
});
