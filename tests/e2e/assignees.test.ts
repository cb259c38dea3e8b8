/**
 * Issue 11, the assignees menu of the workspace header in a real browser (spec 2 sections 2, 4, 5, 6): a
 * writer assigns themselves and, through Edit Assignees (search by a prefix of a name or the e-mail, the
 * Assigned and Others groups), a colleague; a save the API refuses keeps the edit view open with its message;
 * a process admin blocks the document, removes an assignee, and removes themselves, the blocker, only after
 * the deletion approval (the document is unblocked); a READ user only reads the list; Polish.
 * Screenshots go to tests/artifacts/.
 */
import crypto from 'node:crypto';
import knexFactory, { type Knex } from 'knex';
import type { Browser, BrowserContext, Page } from 'playwright-core';
import { eventuallyMatches } from '../support/eventually';
import { buildUser, type BuiltUser } from '../support/harness';
import { api, BASE_URL, createProcess, launch, shot, signedInPage, tokenFor } from './support';

interface DocumentView {
  assignees: { id: number }[];
  blockedBy: { id: number } | null;
}
interface StateView {
  steps: { status: string; nodeDTO: { activityType: string } }[];
}

describe('assignees menu in Chromium', () => {
  let knex: Knex;
  let browser: Browser;
  let token: string;
  let processId: number;
  let documentId: number;
  let writer: BuiltUser;
  let reader: BuiltUser;
  let processAdmin: BuiltUser;
  let bob: BuiltUser;
  let lena: BuiltUser;
  const contexts: BrowserContext[] = [];
  const suffix = crypto.randomBytes(3).toString('hex');

  const pageFor = (user: BuiltUser): Promise<Page> => signedInPage(browser, contexts, user);
  const workspaceUrl = () => `${BASE_URL}/entity/process/${processId}/document/${documentId}`;
  const doc = () => api<DocumentView>(token, `/api/documents/${documentId}`);
  const assigneeIds = async () => (await doc()).assignees.map((a) => a.id).sort((a, b) => a - b);
  const entry = (page: Page, user: BuiltUser) =>
    page.locator(`[data-testid="assignee-entry"][data-user-id="${user.id}"]`);
  const menu = (page: Page, view?: string) =>
    page.locator(`[data-testid="assignees-menu"]${view ? `[data-view="${view}"]` : ''}`);
  const option = (page: Page, group: 'assigned' | 'others', user: BuiltUser) =>
    page.getByTestId(`assignees-group-${group}`).locator(`input[data-user-id="${user.id}"]`);

  const openWorkspace = async (user: BuiltUser) => {
    const page = await pageFor(user);
    await page.goto(workspaceUrl());
    await page.getByTestId('workspace').waitFor();
    return page;
  };

  beforeAll(async () => {
    knex = knexFactory({ client: 'pg', connection: process.env.DATABASE_URL, pool: { min: 0, max: 2 } });
    const admin = await buildUser(knex, { roles: ['ROLE_ADMIN', 'ROLE_USER'] });
    token = await tokenFor(admin.login, admin.password);
    processId = await createProcess(token, `Assignees E2E ${suffix}`);
    const grant = async (mode: 'READ' | 'WRITE' | 'ADMIN', firstName: string, lastName: string) => {
      const user = await buildUser(knex, {
        authorities: [{ componentId: processId, type: 'PROCESS', mode }],
      });
      await knex('users').where('id', user.id).update({ first_name: firstName, last_name: lastName });
      return user;
    };
    writer = await grant('WRITE', 'Wanda', `Writer${suffix}`);
    reader = await grant('READ', 'Rita', `Reader${suffix}`);
    processAdmin = await grant('ADMIN', 'Paula', `Admin${suffix}`);
    bob = await grant('WRITE', 'Bob', `Builder${suffix}`);
    lena = await grant('READ', 'Lena', `Leaver${suffix}`);

    const nodes = await api<{ id: number; activityType: string }[]>(
      token,
      `/api/nodes?processId=${processId}`,
    );
    const upload = nodes.find((n) => n.activityType === 'HUP')!;
    const parser = await api<{ id: number }>(token, '/api/nodes', {
      method: 'POST',
      body: JSON.stringify({
        processId,
        name: 'Parser',
        activityType: 'FILE_PARSER',
        autoStepStatus: 'WAITING',
      }),
    });
    await api(token, '/api/edges', {
      method: 'POST',
      body: JSON.stringify({ fromId: upload.id, toId: parser.id }),
    });
    const created = await api<{ id: number }>(token, '/api/documents', {
      method: 'POST',
      body: JSON.stringify({ processId, filename: `memo-${suffix}.txt`, content: 'A memo.\n' }),
    });
    documentId = created.id;
    await eventuallyMatches(
      () => api<StateView>(token, `/api/v2/document/${documentId}/state`),
      (s) => s.steps.some((x) => x.nodeDTO.activityType === 'FILE_PARSER' && x.status === 'WAITING'),
      'the parser step waits',
    );
    browser = await launch();
  });

  afterAll(async () => {
    for (const c of contexts) await c.close().catch(() => undefined);
    await browser?.close();
    await knex?.destroy();
  });

  it('lets a writer assign themselves, then a colleague found by a prefix of the last name', async () => {
    const page = await openWorkspace(writer);
    await page.getByTestId('assignees-toggle').click();
    await menu(page, 'list').getByTestId('assignees-empty').getByText('No assignees').waitFor();
    await page.getByTestId('assign-myself').getByText('Assign myself').click();
    await entry(page, writer).waitFor();
    await page.getByTestId('assign-myself').waitFor({ state: 'detached' });
    expect(await assigneeIds()).toEqual([writer.id]);
    expect(await entry(page, writer).getByTestId('assignee-remove').count()).toBe(1);

    await page.getByTestId('edit-assignees').getByText('Edit Assignees').click();
    await menu(page, 'edit').waitFor();
    await option(page, 'assigned', writer).waitFor();
    expect(await option(page, 'assigned', writer).isChecked()).toBe(true);
    // Prefix of a last name, any case; not a match inside a word.
    await page.getByTestId('assignees-search').fill(`builder${suffix}`.toUpperCase());
    await option(page, 'others', bob).waitFor();
    expect(await page.getByTestId('assignees-group-others').locator('input').count()).toBe(1);
    expect(await page.getByTestId('assignees-group-assigned').locator('input').count()).toBe(0);
    await page.getByTestId('assignees-search').fill('uilder');
    await option(page, 'others', bob).waitFor({ state: 'detached' });
    // ... and a prefix of the e-mail.
    await page.getByTestId('assignees-search').fill(bob.email.slice(0, 6));
    await option(page, 'others', bob).check();
    await shot(page, '40-assignees-edit');
    await page.getByTestId('assignees-save').click();
    await menu(page).waitFor({ state: 'detached' });
    await page.getByText('The assignees are saved').waitFor();
    await page.locator('[data-testid="assignees-count"]', { hasText: '2' }).waitFor();
    expect(await assigneeIds()).toEqual([writer.id, bob.id].sort((a, b) => a - b));

    // The menu opens on the list again; a writer may take off only their own entry.
    await page.getByTestId('assignees-toggle').click();
    await entry(page, bob).waitFor();
    expect(await entry(page, bob).getByTestId('assignee-remove').count()).toBe(0);
    expect(await entry(page, writer).getByTestId('assignee-remove').count()).toBe(1);
    await page.getByTestId('edit-assignees').click();
    expect(await option(page, 'assigned', bob).isDisabled()).toBe(true);
    expect(await option(page, 'assigned', writer).isDisabled()).toBe(false);
  });

  it('keeps the edit view open with the message when the save is refused', async () => {
    const page = await openWorkspace(writer);
    await page.getByTestId('assignees-toggle').click();
    await page.getByTestId('edit-assignees').click();
    await page.getByTestId('assignees-search').fill('lena');
    await option(page, 'others', lena).check();
    // Lena loses her access to the process before the save.
    await knex('user_authorities').where('user_id', lena.id).delete();
    await page.getByTestId('assignees-save').click();
    await page.getByTestId('assignees-error').getByText('The user has no access to this process').waitFor();
    expect(await menu(page, 'edit').count()).toBe(1);
    // A click outside does not close the edit view; Cancel goes back to the list.
    await page.getByTestId('workspace-main').click({ position: { x: 5, y: 5 } });
    expect(await menu(page, 'edit').count()).toBe(1);
    await page.getByTestId('assignees-cancel').click();
    await menu(page, 'list').waitFor();
    expect(await assigneeIds()).toEqual([writer.id, bob.id].sort((a, b) => a - b));
    await page.getByTestId('workspace-main').click({ position: { x: 5, y: 5 } });
    await menu(page).waitFor({ state: 'detached' });
  });

  it('lets a process admin remove anybody, and asks first before removing the one who blocks the document', async () => {
    const page = await openWorkspace(processAdmin);
    await page.getByTestId('document-block').click();
    await page.getByTestId('document-blocked-by').waitFor();
    await page.getByTestId('assignees-toggle').click();
    await entry(page, processAdmin).getByTestId('assignee-blocker').waitFor();
    expect(await entry(page, writer).getByTestId('assignee-blocker').count()).toBe(0);

    // Not the blocker: removed at once.
    await entry(page, bob).getByTestId('assignee-remove').click();
    await entry(page, bob).waitFor({ state: 'detached' });
    expect(await assigneeIds()).toEqual([writer.id, processAdmin.id].sort((a, b) => a - b));

    // The blocker: the deletion approval first; Cancel keeps everything.
    await entry(page, processAdmin).getByTestId('assignee-remove').click();
    await menu(page, 'approve').getByTestId('assignee-delete-approval').waitFor();
    await shot(page, '41-assignees-delete-approval');
    await page.getByTestId('assignee-delete-cancel').click();
    await entry(page, processAdmin).waitFor();
    expect((await doc()).blockedBy?.id).toBe(processAdmin.id);

    await entry(page, processAdmin).getByTestId('assignee-remove').click();
    await page.getByTestId('assignee-delete-confirm').click();
    await entry(page, processAdmin).waitFor({ state: 'detached' });
    await page.getByTestId('document-blocked-by').waitFor({ state: 'detached' });
    const after = await doc();
    expect(after.blockedBy).toBeNull();
    expect(after.assignees.map((a) => a.id)).toEqual([writer.id]);
    await page.getByTestId('assign-myself').waitFor();
    await shot(page, '42-assignees-admin');
  });

  it('shows a READ user the list only', async () => {
    const page = await openWorkspace(reader);
    await page.getByTestId('assignees-toggle').click();
    await entry(page, writer).getByText(`Wanda Writer${suffix}`).waitFor();
    expect(await page.getByTestId('assign-myself').count()).toBe(0);
    expect(await page.getByTestId('edit-assignees').count()).toBe(0);
    expect(await page.getByTestId('assignee-remove').count()).toBe(0);
  });

  it('speaks Polish', async () => {
    const page = await pageFor(processAdmin);
    await page.getByTestId('language-menu').click();
    await page.getByTestId('language-pl').click();
    await page.locator('html[lang="pl"]').waitFor({ state: 'attached' });
    await page.goto(workspaceUrl());
    await page.getByTestId('assignees-toggle').getByText('Przypisani').click();
    await page.getByTestId('assign-myself').getByText('Przypisz mnie').waitFor();
    await page.getByTestId('edit-assignees').getByText('Edytuj przypisanych').click();
    await page.getByTestId('assignees-group-others').getByText('Pozostali').waitFor();
    await page.getByTestId('assignees-save').getByText('Zapisz').waitFor();
  });
});
