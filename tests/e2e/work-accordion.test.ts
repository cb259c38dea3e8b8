/**
 * The work accordion (issue 30 section 2, spec 2 sections 2 and 4) in Chromium. A process Upload -> Entities
 * (SPAN) -> Drive (send to cloud drive) and -> SFTP (send to SFTP), neither with a connection, so their runs
 * fail. A process administrator:
 * - sees the span section (tags by type, tags and relations counted) and submits the accordion: the step is
 *   DONE (the default submit);
 * - opens the Drive and SFTP tabs: each shows its failed result with the fallbacks 'Unknown file id' and
 *   'Unknown file address'; once a result names the file, its id or address and an 'Open the file' link;
 * - the bracket steps: to do and done as the API groups them;
 * - the header's dashboard menu links to the secrets page.
 * Screenshots go to tests/artifacts/ (96-...).
 */
import crypto from 'node:crypto';
import type { Page } from 'playwright-core';
import { eventuallyMatches } from '../support/eventually';
import { buildUser } from '../support/harness';
import {
  addEdges,
  addNerTagType,
  addNode,
  addTextDocument,
  api,
  BASE_URL,
  browserSuite,
  createProcess,
  shot,
  signedInPage,
  stepWaits,
  tokenFor,
  uploadNodeOf,
} from './support';

interface StateView {
  steps: { id: number; nodeId: number; status: string }[];
}

describe('the work accordion', () => {
  const suite = browserSuite();
  const suffix = crypto.randomBytes(3).toString('hex');
  let token: string;
  let page: Page;
  let processId: number;
  let documentId: number;
  const ids = { span: 0, drive: 0, sftp: 0, person: 0 };
  const state = () => api<StateView>(token, `/api/v2/document/${documentId}/state`);
  const selectedRow = () => page.locator('[data-testid="step-row"][data-selected="true"]');

  beforeAll(async () => {
    const admin = await buildUser(suite.knex, { roles: ['ROLE_ADMIN', 'ROLE_USER'] });
    token = await tokenFor(admin.login, admin.password);
    processId = await createProcess(token, `Work accordion ${suffix}`);
    const upload = await uploadNodeOf(token, processId);
    ids.span = await addNode(token, processId, { name: 'Entities', activityType: 'SPAN' });
    ids.drive = await addNode(token, processId, { name: 'Drive', activityType: 'SEND_TO_GOOGLE_DRIVE' });
    ids.sftp = await addNode(token, processId, { name: 'Sftp out', activityType: 'SEND_TO_SFTP' });
    ids.person = await addNerTagType(token, ids.span, {
      name: 'Person',
      backgroundColor: '#f8d7da',
      textColor: '#000000',
    });
    await addEdges(token, [upload, ids.span], [ids.span, ids.drive], [ids.span, ids.sftp]);
    documentId = await addTextDocument(token, processId, `work-${suffix}.txt`, 'Anna met Jan in Warsaw.');
    await stepWaits(token, documentId, ids.span);
    const owner = await buildUser(suite.knex, {
      authorities: [{ componentId: processId, type: 'PROCESS', mode: 'ADMIN' }],
    });
    page = await signedInPage(suite.browser, suite.contexts, owner);
  });

  it('shows the span section and completes the step by the accordion submit (DONE)', async () => {
    await page.goto(`${BASE_URL}/entity/process/${processId}/document/${documentId}`);
    await page.locator('[data-testid="workspace-mode"][data-mode="LABELING"]').waitFor();
    await selectedRow().getByTestId('step-action-startWorking').click();
    const work = page.getByRole('region', { name: 'Work on the step' });
    await work.getByText('Span tags with relations').waitFor();
    await work.getByText('No tags of this step yet.').waitFor();
    await work.getByText('Tags: 0 · relations: 0').waitFor();
    await work.getByRole('button', { name: 'Submit (done)' }).click();
    const s = await eventuallyMatches(
      state,
      (v) => v.steps.some((x) => x.nodeId === ids.span && x.status === 'DONE'),
      'the span step is DONE',
    );
    expect(s.steps.find((x) => x.nodeId === ids.span)!.status).toBe('DONE');
  });

  it('shows the failed drive and SFTP results with their fallbacks, then the files with open links', async () => {
    const s = await eventuallyMatches(
      state,
      (v) => [ids.drive, ids.sftp].every((n) => v.steps.some((x) => x.nodeId === n && x.status === 'ERROR')),
      'both sends ran and failed',
    );
    await page.reload();
    await page.locator('[data-testid="step-tab"][data-activity-type="SEND_TO_GOOGLE_DRIVE"]').click();
    const work = page.getByRole('region', { name: 'Work on the step' });
    await work.getByText('Send to cloud drive').waitFor();
    await work.getByText('Failure').waitFor();
    await work.getByText('Unknown file id').waitFor();
    await page.locator('[data-testid="step-tab"][data-activity-type="SEND_TO_SFTP"]').click();
    await work.getByText('Send to SFTP').waitFor();
    await work.getByText('Unknown file address').waitFor();

    // Results that name their files.
    const driveStep = s.steps.find((x) => x.nodeId === ids.drive)!.id;
    const sftpStep = s.steps.find((x) => x.nodeId === ids.sftp)!.id;
    await suite
      .knex('action_execution_results')
      .where('step_id', driveStep)
      .update({
        status: 'SUCCESS',
        details: JSON.stringify({ createdFileId: 'f-123', fileUrl: 'https://drive.example/f-123' }),
      });
    await suite
      .knex('action_execution_results')
      .where('step_id', sftpStep)
      .update({
        status: 'SUCCESS',
        details: JSON.stringify({ createdFileAddress: 'sftp://files.example/out/work.txt' }),
      });
    await page.reload();
    await page.locator('[data-testid="step-tab"][data-activity-type="SEND_TO_SFTP"]').click();
    await work.getByText('sftp://files.example/out/work.txt').waitFor();
    expect(await work.getByRole('link', { name: 'Open the file' }).getAttribute('href')).toBe(
      'sftp://files.example/out/work.txt',
    );
    await page.locator('[data-testid="step-tab"][data-activity-type="SEND_TO_GOOGLE_DRIVE"]').click();
    await work.getByText('f-123').waitFor();
    await work.getByText('Success').waitFor();
    expect(await work.getByRole('link', { name: 'Open the file' }).getAttribute('href')).toBe(
      'https://drive.example/f-123',
    );
    await shot(page, '96-work-accordion-drive');
  });

  it('groups the tab steps as the API brackets them, and links the header to the secrets page', async () => {
    await page.locator('[data-testid="step-tab"][data-activity-type="SPAN"]').click();
    await page.getByTestId('step-group-done').getByText('Entities').waitFor();
    expect(await page.getByTestId('step-group-todo').count()).toBe(0);
    await page.getByRole('button', { name: 'Dashboard' }).click();
    await page.getByRole('link', { name: 'Secrets' }).click();
    await page.waitForURL(`**/entity/process/${processId}/secrets`);
  });
});
