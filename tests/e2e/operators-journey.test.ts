/**
 * Issue 29's "Done when" for integrators and graph designers in Chromium (sections 1 and 2 are proved by
 * tests/e2e/document-timeline.test.ts and tests/e2e/parser-reruns.test.ts): a graph designer sees a
 * predicate's dry-run counts before saving it; an integrator reads an inter-process send's results in the
 * node's panel and sends a failed one again, and sees the document it created in the receiving process;
 * in English and in Polish.
 */
import type { Page } from 'playwright-core';
import {
  addEdges,
  addNode,
  addTextDocument,
  api,
  browserSuite,
  chooseLanguage,
  createProcess,
  e2eWorld,
  shot,
  signedInPage,
  uploadNodeOf,
  BASE_URL,
  stepReaches,
  type E2eWorld,
} from './support';

jest.setTimeout(180_000);

describe('what automatic nodes did, and where a predicate sends documents, in the browser', () => {
  const b = browserSuite();
  let world: E2eWorld;
  afterAll(() => world?.knex.destroy());
  beforeAll(async () => {
    world = await e2eWorld(`Operators E2E ${Date.now()}`);
  });

  const reaches = (documentId: number, nodeId: number, status: string, what: string) =>
    stepReaches(world.token, documentId, nodeId, status, what);

  async function openEdge(page: Page, edgeId: number) {
    await page.goto(`${BASE_URL}/entity/process/${world.processId}/graph`);
    await page.locator(`[data-testid="graph-edge-label"][data-edge-id="${edgeId}"]`).click();
    return page.getByTestId('predicate-modal');
  }

  it("shows a predicate's dry-run counts per branch before it is saved", async () => {
    const upload = await uploadNodeOf(world.token, world.processId);
    const classify = await addNode(world.token, world.processId, { name: 'Classify', activityType: 'CLF' });
    const invoices = await addNode(world.token, world.processId, { name: 'Invoices', activityType: 'SPAN' });
    const letters = await addNode(world.token, world.processId, { name: 'Letters', activityType: 'SPAN' });
    await addEdges(world.token, [upload, classify], [classify, invoices], [classify, letters]);
    const edges = await api<{ id: number; fromId: number; toId: number }[]>(
      world.token,
      `/api/edges?processId=${world.processId}`,
    );
    const toInvoices = edges.find((e) => e.fromId === classify && e.toId === invoices)!;
    const [invoice, letter] = await world
      .knex('classifier_types')
      .insert([
        { node_id: classify, name: 'Invoice', background_color: '#112233' },
        { node_id: classify, name: 'Letter', background_color: '#332211' },
      ])
      .returning('id');
    // five documents at the classifier: three invoices, one letter, one not classified yet
    const tagged: [string, number | null][] = [
      ['invoice-1.txt', invoice.id],
      ['invoice-2.txt', invoice.id],
      ['invoice-3.txt', invoice.id],
      ['letter-1.txt', letter.id],
      ['unread.txt', null],
    ];
    for (const [name, type] of tagged) {
      const id = await addTextDocument(world.token, world.processId, name, `Text of ${name}`);
      await reaches(id, classify, 'WAITING', `${name} at the classifier`);
      if (type !== null)
        await world
          .knex('classifier_tags')
          .insert({ document_id: id, node_id: classify, classifier_type_id: type });
    }

    const page = await signedInPage(b.browser, b.contexts, world.admin);
    const modal = await openEdge(page, toInvoices.id);
    await modal.getByTestId('predicate-add-simple').click();
    await modal.getByLabel('Node').selectOption(String(classify));
    await modal.getByLabel('Equality').selectOption('true');
    await modal.getByLabel('Label').selectOption({ label: 'Invoice' });
    const dry = modal.getByRole('region', { name: 'Dry run before saving' });
    await dry.getByText("With this predicate, the process's last documents (5) would go:").waitFor();
    await dry.getByText(/^this edge, to Invoices: 3/).waitFor();
    // an edge without predicates takes every document
    await dry.getByText(/^to Letters: 5/).waitFor();
    await dry.getByText(/^no branch \(they stay at the node\): 0/).waitFor();
    await dry
      .getByRole('listitem')
      .filter({ hasText: /^this edge/ })
      .getByRole('link', { name: 'invoice-1.txt' })
      .waitFor();
    await shot(page, 'predicate-dry-run-en');
    // "is not" moves the letter and the unclassified document to this edge; nothing is saved meanwhile
    await modal.getByLabel('Equality').selectOption('false');
    await dry.getByText(/^this edge, to Invoices: 2/).waitFor();
    expect(await world.knex('predicates').where('edge_id', toInvoices.id)).toEqual([]);
    await modal.getByTestId('predicate-save').click();
    await modal.getByTestId('predicate-item').filter({ hasText: 'Invoice' }).waitFor();
    await modal.getByTestId('predicate-modal-close').click();

    // in Polish
    await chooseLanguage(page, 'pl');
    const edgesBack = await openEdge(page, toInvoices.id);
    await edgesBack.getByTestId('predicate-edit').click();
    const próba = edgesBack.getByRole('region', { name: 'Próba przed zapisem' });
    await próba.getByText(/^ta krawędź, do Invoices: 2/).waitFor();
    await shot(page, 'predicate-dry-run-pl');
  });

  it("lists an inter-process send's results with the document it created, and sends a failed one again", async () => {
    const receiverProcess = await createProcess(world.token, `Receiving E2E ${Date.now()}`);
    const receiver = await addNode(world.token, receiverProcess, {
      name: 'From senders',
      activityType: 'IPR',
      automatic: true,
      autoStepStatus: 'ACCEPTED',
    });
    const check = await addNode(world.token, receiverProcess, { name: 'Check', activityType: 'CLF' });
    await addEdges(world.token, [receiver, check]);
    const upload = await uploadNodeOf(world.token, world.processId);
    const send = await addNode(world.token, world.processId, {
      name: 'Send on',
      activityType: 'IPS',
      automatic: true,
      autoStepStatus: 'ACCEPTED',
    });
    await addEdges(world.token, [upload, send]);
    const settings = (receivers: number[]) =>
      world
        .knex('nodes')
        .where('id', send)
        .update({
          settings: JSON.stringify({
            receivers: receivers.map((id) => ({ id })),
            preferredDocName: 'forwarded-${document.id}.txt',
            payload: '${document.content}',
          }),
        });
    await settings([check]); // not a receiver: the send fails
    const doc = await addTextDocument(world.token, world.processId, 'to-forward.txt', 'Forward me.');
    await reaches(doc, send, 'ERROR', 'the send fails');
    await settings([receiver]);

    const page = await signedInPage(b.browser, b.contexts, world.admin);
    await chooseLanguage(page, 'en');
    await page.goto(`${BASE_URL}/entity/process/${world.processId}/graph`);
    await page.getByTestId('graph-node').filter({ hasText: 'Send on' }).click();
    const table = page.getByRole('table', { name: 'Execution results' });
    const failed = table.locator('tbody').first();
    await failed.getByText('Failure').waitFor();
    await failed
      .getByText(
        `The node ${check} chosen as a receiver is not an inter-process receiver: choose another in the node's settings.`,
      )
      .waitFor();
    await failed.getByRole('link', { name: 'to-forward.txt' }).waitFor();
    await failed.getByRole('button', { name: 'Send again' }).click();
    await reaches(doc, send, 'ACCEPTED', 'the send goes through');
    await page.getByLabel('Status', { exact: true }).selectOption({ label: 'Success' });
    const delivered = table.locator('tbody').first();
    await delivered.getByText(/^To Receiving E2E \d+ \(From senders\):/).waitFor();
    await delivered.getByRole('link', { name: `forwarded-${doc}.txt` }).waitFor();
    await delivered.getByText('Waiting').waitFor();
    await table.scrollIntoViewIfNeeded();
    await shot(page, 'execution-results-en');

    // the document's timeline tells the send: its failure, the send again, the delivery (issue 29 section 1)
    await page.goto(`${BASE_URL}/entity/process/${world.processId}/documents/${doc}`);
    const timeline = page.getByRole('list', { name: 'Timeline' });
    await timeline.getByText('Send on sent documents to another process').first().waitFor();
    await timeline.getByText(`${world.admin.login} reran Send on`).waitFor();
    await page.getByLabel('Show').selectOption({ label: 'Sent and received' });
    await timeline.getByRole('listitem').first().waitFor();
    expect(
      (await timeline.getByRole('listitem').allInnerTexts()).every((t) => t.includes('sent documents')),
    ).toBe(true);
    await page.getByLabel('Show').selectOption({ label: 'Everything' });

    // a document without a parse to run again refuses a new file, saying why (issue 29 section 2)
    await page.getByRole('button', { name: 'Replace file' }).click();
    const replace = page.getByRole('dialog');
    await replace.getByText(/keeps its id, its history and its other steps/).waitFor();
    await replace.getByLabel('New file').setInputFiles({
      name: 'again.txt',
      mimeType: 'text/plain',
      buffer: Buffer.from('Forward me again.'),
    });
    await replace.getByRole('button', { name: 'Replace file' }).click();
    await replace
      .getByText(/has no parse waiting or failed .* upload the new file as a new document instead/)
      .waitFor();
    await shot(page, 'replace-file-refused-en');
    await replace.getByRole('button', { name: 'Cancel' }).click();

    await chooseLanguage(page, 'pl');
    await page.goto(`${BASE_URL}/entity/process/${world.processId}/graph`);
    await page.getByTestId('graph-node').filter({ hasText: 'Send on' }).click();
    const tabela = page.getByRole('table', { name: 'Wyniki wykonań' });
    await tabela.getByText('Sukces').waitFor();
    await tabela.getByText('Błąd', { exact: true }).waitFor();
    await tabela.scrollIntoViewIfNeeded();
    await shot(page, 'execution-results-pl');
  });

  it('tells on the dashboard how many documents wait for proofreading at a parser, in English and Polish', async () => {
    const processId = await createProcess(world.token, `Proofreading E2E ${Date.now()}`);
    const upload = await uploadNodeOf(world.token, processId);
    const parser = await addNode(world.token, processId, {
      name: 'Scans',
      activityType: 'FILE_PARSER',
      autoStepStatus: 'WAITING',
    });
    const annotate = await addNode(world.token, processId, { name: 'Annotate', activityType: 'CLF' });
    await addEdges(world.token, [upload, parser], [parser, annotate]);
    for (const name of ['held-1.txt', 'held-2.txt']) {
      const id = await addTextDocument(world.token, processId, name, `Text of ${name}`);
      await reaches(id, parser, 'WAITING', `${name} held at the parser`);
    }
    const page = await signedInPage(b.browser, b.contexts, world.admin);
    await chooseLanguage(page, 'en');
    await page.goto(`${BASE_URL}/entity/process/${processId}/dashboard/documents`);
    const notice = page.getByRole('region', { name: 'Documents waiting for proofreading' });
    await notice.getByText('Waiting for proofreading at Scans: 2').waitFor();
    await notice.getByRole('button', { name: 'Show the documents waiting at Scans' }).click();
    // the list is filtered to the parser's waiting steps (the filter count says one node is chosen)
    await page.getByTestId('documents-filters-count').getByText('1').waitFor();
    await page.getByTestId('documents-row').getByText('held-2.txt').waitFor();
    await shot(page, 'dashboard-proofreading-en');
    await chooseLanguage(page, 'pl');
    await page.goto(`${BASE_URL}/entity/process/${processId}/dashboard/documents`);
    await page
      .getByRole('region', { name: 'Dokumenty czekające na korektę' })
      .getByText('Czeka na korektę w Scans: 2')
      .waitFor();
    await shot(page, 'dashboard-proofreading-pl');
  });
});
