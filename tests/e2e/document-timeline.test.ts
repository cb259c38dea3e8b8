/**
 * Issue 29 section 1 in Chromium: an operator opens a document that went through a parser, a rerun and a
 * manual step, and reads on its detail page who did what and when; filters the timeline, follows an entry to
 * its step in the workspace; the same page in Polish.
 */
import {
  addEdges,
  addNode,
  addTextDocument,
  api,
  browserSuite,
  chooseLanguage,
  e2eWorld,
  shot,
  signedInPage,
  tokenFor,
  uploadNodeOf,
  userOnProcess,
  BASE_URL,
  type E2eWorld,
} from './support';
import { eventuallyMatches } from '../support/eventually';
import type { BuiltUser } from '../support/harness';

jest.setTimeout(120_000);

interface StateView {
  steps: { id: number; status: string; nodeDTO: { id: number; activityType: string } }[];
}

describe('a document timeline in the browser', () => {
  const b = browserSuite();
  let world: E2eWorld;
  let operator: BuiltUser;
  let documentId: number;
  let parserStepId: number;

  const stepsOf = (token: string) => api<StateView>(token, `/api/v2/document/${documentId}/state`);
  const waitFor = (token: string, type: string, status: string, what: string) =>
    eventuallyMatches(
      () => stepsOf(token),
      (s) => s.steps.some((x) => x.nodeDTO.activityType === type && x.status === status),
      what,
    );

  beforeAll(async () => {
    world = await e2eWorld(`Timeline E2E ${Date.now()}`);
    const { token, processId } = world;
    operator = await userOnProcess(world.knex, processId, 'WRITE', {
      firstName: 'Olga',
      lastName: 'Operator',
    });
    const upload = await uploadNodeOf(token, processId);
    const parser = await addNode(token, processId, {
      name: 'Parser',
      activityType: 'FILE_PARSER',
      autoStepStatus: 'WAITING',
    });
    const classify = await addNode(token, processId, { name: 'Classify', activityType: 'CLF' });
    await addEdges(token, [upload, parser], [parser, classify]);
    documentId = await addTextDocument(token, processId, 'memo.txt', 'A memo for the timeline.\n');
    const parsed = await waitFor(token, 'FILE_PARSER', 'WAITING', 'the parser step waits');
    parserStepId = parsed.steps.find((x) => x.nodeDTO.activityType === 'FILE_PARSER')!.id;
    // an administrator reruns the parse, the operator proofreads it and completes the step
    await api(token, `/api/steps/${parserStepId}/rerun`, { method: 'PUT' });
    await waitFor(token, 'FILE_PARSER', 'WAITING', 'the rerun parser step waits');
    const operatorToken = await tokenFor(operator.login, operator.password);
    await api(operatorToken, `/api/step/assign?docId=${documentId}&nodeId=${parser}`, { method: 'POST' });
    await api(operatorToken, `/api/steps/${parserStepId}/complete`, { method: 'PUT' });
    await waitFor(token, 'CLF', 'WAITING', 'the classifier step waits');
  });

  afterAll(() => world?.knex.destroy());

  it('lets an operator read who did what and when, filter it, and open a step; in English and Polish', async () => {
    const page = await signedInPage(b.browser, b.contexts, operator);
    await page.goto(`${BASE_URL}/entity/process/${world.processId}/documents/${documentId}`);
    const timeline = page.getByRole('list', { name: 'Timeline' });
    const entries = timeline.getByRole('listitem');
    await timeline.getByText(`${operator.login} completed Parser`).waitFor();
    const headline = async () =>
      (await entries.locator('span.fw-semibold').allInnerTexts()).map((x) => x.trim());
    expect(await headline()).toEqual([
      'Processing started',
      'Reached Upload',
      'Reached Parser',
      'Parser ran',
      `${world.admin.login} reran Parser`,
      'Parser ran',
      `${operator.login} started working on Parser`,
      `${operator.login} completed Parser`,
      'Reached Classify',
    ]);
    await timeline
      .getByText(`${operator.login} completed Parser`)
      .locator('..')
      .getByText(/now Done · took/)
      .waitFor();
    await shot(page, 'document-timeline-en');

    await page.getByLabel('Show').selectOption({ label: 'Reruns' });
    expect(await headline()).toEqual([`${world.admin.login} reran Parser`]);
    await page.getByLabel('Show').selectOption({ label: 'Everything' });
    // no Temporal UI links for an operator
    expect(await page.getByRole('link', { name: 'Run in Temporal' }).count()).toBe(0);

    await entries
      .filter({ hasText: `${operator.login} completed Parser` })
      .getByRole('link', { name: 'Open step: Parser' })
      .click();
    await page.waitForURL(new RegExp(`/document/${documentId}\\?step=${parserStepId}$`));

    await page.goto(`${BASE_URL}/entity/process/${world.processId}/documents/${documentId}`);
    await chooseLanguage(page, 'pl');
    const historia = page.getByRole('list', { name: 'Historia' });
    await historia.getByText(`${operator.login} kończy węzeł Parser`).waitFor();
    await historia.getByText(`${world.admin.login} ponownie uruchamia węzeł Parser`).waitFor();
    await page.getByLabel('Pokaż').selectOption({ label: 'Przypisania' });
    expect(await historia.getByRole('listitem').count()).toBe(1);
    await page.getByLabel('Pokaż').selectOption({ label: 'Wszystko' });
    await shot(page, 'document-timeline-pl');
  });
});
