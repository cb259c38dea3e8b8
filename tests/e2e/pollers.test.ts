/**
 * Issue 5 in a real browser: an e-mail upload node whose connection the net guard refuses (the app's
 * OUTBOUND_ALLOWLIST is empty, the connection points at 127.0.0.1). "Fetch mail" in its panel runs a poll on
 * the app's worker: the toast says what came of it and the panel shows the last poll with the error.
 */
import crypto from 'node:crypto';
import type { Browser, Page } from 'playwright-core';
import { BASE_URL, api, apiToken, createProcess, launch, shot, signIn } from './support';

describe('upload pollers in Chromium', () => {
  let browser: Browser;
  let page: Page;
  let processId: number;
  const name = `Mailbox ${crypto.randomBytes(3).toString('hex')}`;

  beforeAll(async () => {
    const token = await apiToken();
    processId = await createProcess(token, `Pollers E2E ${crypto.randomBytes(3).toString('hex')}`);
    const node = await api<{ id: number }>(token, '/api/nodes', {
      method: 'POST',
      body: JSON.stringify({ processId, activityType: 'EMAIL_UPLOAD', name }),
    });
    await api(token, '/api/email-upload-connection-data', {
      method: 'POST',
      body: JSON.stringify({
        nodeId: node.id,
        imapHost: '127.0.0.1',
        imapPort: 143,
        address: 'reader@example.test',
        password: 'secret',
        contentType: 'MESSAGE',
      }),
    });
    browser = await launch();
    page = await browser.newPage({ viewport: { width: 1440, height: 900 } });
    page.setDefaultTimeout(20000);
    await signIn(page, 'admin', 'admin');
    await page.waitForURL(/\/entity\/process$/);
  });

  afterAll(async () => {
    await browser?.close();
  });

  it('fetches now and shows the refused connection as the last poll error', async () => {
    await page.goto(`${BASE_URL}/entity/process/${processId}/graph`);
    const node = page.getByTestId('graph-node').filter({ hasText: name });
    await node.click();
    const panel = page.getByTestId('node-panel');
    // Not polled yet, or (a loaded machine's slow page) already polled once by the node's schedule: either way
    // the status is shown, and "Fetch mail" runs a poll now.
    await panel.getByTestId('node-poller-status').getByText('Last poll').waitFor();
    await panel.getByTestId('node-fetchMail').click();
    await page
      .getByText(/New documents fetched: 0|Fetched 0 new documents; some connections failed/)
      .first()
      .waitFor();
    const error = panel.getByTestId('node-poller-error');
    await error.waitFor();
    expect(await error.innerText()).toMatch(/Connections to 127\.0\.0\.1 are not allowed/);
    await shot(page, '20-email-upload-last-poll');
  });
});
