/**
 * The agreement screen in Chromium (issue 31 section 2): a process admin opens a multiprocessed CLF node's
 * panel on the graph page, asks for the agreement of its two annotators over three documents and reads the
 * figures (matching the measures of domain/agreement.ts on the same choices), the pair heat map, the lowest
 * document first with its link to the workspace, and downloads the CSV. The documents, their finished steps
 * and each annotator's classes are inserted directly. Screenshots in tests/artifacts/.
 */
import fs from 'node:fs';
import type { Browser, BrowserContext, Page } from 'playwright-core';
import { cohenKappa, krippendorffAlphaNominal } from '../../domain/agreement';
import { insertDocument } from '../support/documents';
import {
  addNode,
  BASE_URL,
  closeAll,
  e2eWorld,
  launch,
  shot,
  signedInPage,
  uploadNodeOf,
  userOnProcess,
  type E2eWorld,
} from './support';

describe('agreement screen in Chromium', () => {
  let world: E2eWorld;
  let browser: Browser;
  let page: Page;
  let clf: number;
  const docs: number[] = [];
  const logins: string[] = [];
  const contexts: BrowserContext[] = [];

  beforeAll(async () => {
    world = await e2eWorld(`Agreement E2E ${Date.now()}`);
    const { knex, token, processId } = world;
    const upload = await uploadNodeOf(token, processId);
    clf = await addNode(token, processId, { name: 'Topic', activityType: 'CLF', x: 300, y: 100 });
    const type = async (name: string) =>
      Number(
        (
          await knex('classifier_types')
            .insert({ node_id: clf, name, background_color: '#ffffff' })
            .returning('id')
        )[0].id,
      );
    const x = await type('Invoice');
    const y = await type('Letter');
    const a = await userOnProcess(knex, processId, 'WRITE');
    const b = await userOnProcess(knex, processId, 'WRITE');
    logins.push(a.login, b.login);
    // a: Invoice Invoice Letter, b: Invoice Letter Letter
    const choices: [number, number][] = [
      [x, x],
      [x, y],
      [y, y],
    ];
    for (const [i, pair] of choices.entries()) {
      const id = await insertDocument(knex, processId, upload, `doc-${i + 1}.txt`, {
        steps: [[upload, 'DONE']],
      });
      docs.push(id);
      for (const [k, user] of [a, b].entries()) {
        const [step] = await knex('steps')
          .insert({
            document_id: id,
            node_id: clf,
            status: 'DONE',
            order: k + 2,
            master: k === 0,
            blocked_by_id: user.id,
            last_modified_date: new Date(),
          })
          .returning('id');
        await knex('classifier_tags').insert({
          document_id: id,
          step_id: step.id,
          node_id: clf,
          classifier_type_id: pair[k],
        });
      }
    }
    browser = await launch();
    page = await signedInPage(browser, contexts, await userOnProcess(knex, processId, 'ADMIN'));
  });

  afterAll(() => closeAll(contexts, browser, world?.knex));

  it('shows kappa, alpha, the pair heat map and the lowest document first, and downloads the CSV', async () => {
    await page.goto(`${BASE_URL}/entity/process/${world.processId}/graph`);
    await page.getByTestId('graph-node').filter({ hasText: 'Topic' }).click();
    const section = page.locator('[data-testid="node-section"][data-section="agreement"]');
    await section.getByRole('button', { name: 'Show agreement' }).click();
    const overall = section.getByRole('table', { name: 'Overall figures' });
    await overall.waitFor();
    const units = [
      ['I', 'I'],
      ['I', 'L'],
      ['L', 'L'],
    ];
    const row = (name: string) => overall.getByRole('row', { name: new RegExp(`^${name}`) });
    expect(await row('Documents compared').textContent()).toContain('3');
    expect(await row("Krippendorff's alpha").textContent()).toContain(
      krippendorffAlphaNominal(units)!.toFixed(3),
    );
    const kappa = cohenKappa(units.map(([p, q]) => [p, q] as const))!.toFixed(3);
    expect(kappa).toBe('0.400');
    const heat = section.getByRole('table', { name: 'Pair heat map' });
    // the first annotator's row: the blank diagonal, then kappa with the second
    await heat.getByRole('row', { name: `${logins[0]} ${kappa}`, exact: true }).waitFor();
    const lowest = section.getByRole('table', { name: 'Lowest agreement first' });
    const first = lowest.getByRole('link').first();
    expect(await first.textContent()).toBe('doc-2.txt');
    expect(await first.getAttribute('href')).toBe(`/entity/process/${world.processId}/document/${docs[1]}`);
    await section.scrollIntoViewIfNeeded();
    await shot(page, 'agreement-01-clf-node');

    const [file] = await Promise.all([
      page.waitForEvent('download', { timeout: 60_000 }),
      section.getByRole('button', { name: 'Download CSV' }).click(),
    ]);
    const csv = fs.readFileSync(await file.path(), 'utf8').split('\r\n');
    expect(csv[0]).toBe('section,name,other,value,documents');
    expect(csv).toContain(
      `cohenKappa,${logins[0]},${logins[1]},${cohenKappa(units.map(([p, q]) => [p, q] as const))},3`,
    );
  });
});
