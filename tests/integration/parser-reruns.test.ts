/**
 * Fixing failed parses (issue 29 section 2): the FILE_PARSER node's rerun list filtered by status
 * (`POST api/nodes/{id}/steps/rerun?status=`), the rerun of one step (`PUT api/steps/{id}/rerun`), and the
 * replacement of a document's file (`POST api/documents/{id}/file`): the parser runs again on the new file
 * and the document keeps its id, its history and its other steps. Access: ADMIN for both, 403 / 404 / 400 /
 * 409 / 415 for what may not be done.
 */
import crypto from 'node:crypto';
import { textPdf } from '../support/media';
import { MISSING_ID } from '../support/harness';
import {
  GraphBuilder,
  setupEngineSuite,
  startDocument,
  stepReaching,
  stepsOf,
  userWithNodeMode,
} from '../support/engine';
import { stepError } from '../../domain/step-errors';

jest.setTimeout(120_000);

describe('fixing failed parses', () => {
  const s = setupEngineSuite('parser-reruns');
  const damagedPdf = () => Buffer.concat([Buffer.from('%PDF-1.4\n'), crypto.randomBytes(2000)]);
  const list = (nodeId: number, token: string, query = '') =>
    s.send('POST', `/api/nodes/${nodeId}/steps/rerun?page=0&size=10${query}`, token, { paged: true });
  const replace = (
    documentId: number | string,
    token: string | undefined,
    file?: { name: string; bytes: Buffer },
  ) => {
    const form = new FormData();
    if (file) form.append('file', new Blob([new Uint8Array(file.bytes)]), file.name);
    return fetch(`${s.api.baseUrl}/api/documents/${documentId}/file`, {
      method: 'POST',
      headers: token ? { Authorization: `Bearer ${token}` } : {},
      body: form,
    }).then(async (r) => ({ status: r.status, body: (await r.json().catch(() => null)) as any }));
  };

  async function parserWorld() {
    const g = await GraphBuilder.create(s.knex);
    const hup = await g.node('HUP', { name: 'Upload' });
    const parser = await g.node('FILE_PARSER', { autoStepStatus: 'DONE', name: 'Parser' });
    const clf = await g.node('CLF', { name: 'Annotate' });
    await g.edge(hup, parser);
    await g.edge(parser, clf);
    return { g, hup, parser, clf };
  }

  it('lists failed and waiting parses by status, and reruns one, for administrators only', async () => {
    const { g, hup, parser } = await parserWorld();
    const failed = await startDocument(s, g, hup, {
      name: 'broken.pdf',
      content: damagedPdf(),
      mimeType: 'application/pdf',
    });
    const good = await startDocument(s, g, hup, { name: 'fine.txt', content: 'Fine.\n' });
    await stepReaching(s.knex, failed.id, parser, ['ERROR']);
    await stepReaching(s.knex, good.id, parser, ['DONE']);
    const admin = await userWithNodeMode(s, [{ componentId: g.processId, type: 'PROCESS', mode: 'ADMIN' }]);
    const writer = await userWithNodeMode(s, [{ componentId: g.processId, type: 'PROCESS', mode: 'WRITE' }]);

    const all = await list(parser, admin.token);
    expect(all.status).toBe(200);
    expect(all.headers.get('X-Total-Count')).toBe('1');
    expect(all.body).toEqual([
      {
        id: expect.any(Number),
        documentId: failed.id,
        documentName: 'broken.pdf',
        status: 'ERROR',
        master: expect.any(Boolean),
        errorMessage: stepError.pdfDamaged.text({ what: 'pdf' }),
      },
    ]);
    expect((await list(parser, admin.token, '&status=ERROR')).body).toHaveLength(1);
    expect((await list(parser, admin.token, '&status=WAITING')).body).toEqual([]);
    expect((await list(parser, admin.token, '&status=DONE')).status).toBe(400);
    expect((await list(parser, writer.token)).status).toBe(403);
    expect((await list(MISSING_ID, s.admin)).status).toBe(404);

    const stepId = all.body[0].id;
    expect((await s.send('PUT', `/api/steps/${stepId}/rerun`, writer.token)).status).toBe(403);
    const rerun = await s.send('PUT', `/api/steps/${stepId}/rerun`, admin.token);
    expect(rerun.status).toBe(200);
    expect(rerun.body.status).toBe('PROCESSING');
    await stepReaching(s.knex, failed.id, parser, ['ERROR']);
  });

  it('replaces a damaged PDF: the parser reruns on it and the document goes on, keeping its id and history', async () => {
    const { g, hup, parser, clf } = await parserWorld();
    const doc = await startDocument(s, g, hup, {
      name: 'report.pdf',
      content: damagedPdf(),
      mimeType: 'application/pdf',
    });
    const failedStep = await stepReaching(s.knex, doc.id, parser, ['ERROR']);
    const admin = await userWithNodeMode(s, [{ componentId: g.processId, type: 'PROCESS', mode: 'ADMIN' }]);
    const writer = await userWithNodeMode(s, [{ componentId: g.processId, type: 'PROCESS', mode: 'WRITE' }]);
    const stranger = await userWithNodeMode(s, [
      { componentId: (await GraphBuilder.create(s.knex)).processId, type: 'PROCESS', mode: 'ADMIN' },
    ]);
    const fixed = { name: 'report-fixed.pdf', bytes: textPdf([['The fixed report reads well.']]) };

    expect((await replace(doc.id, writer.token, fixed)).status).toBe(403);
    expect((await replace(doc.id, stranger.token, fixed)).status).toBe(403);
    expect((await replace(doc.id, undefined, fixed)).status).toBe(401);
    expect((await replace(MISSING_ID, s.admin, fixed)).status).toBe(404);
    expect((await replace('abc', s.admin, fixed)).status).toBe(400);
    expect((await replace(doc.id, admin.token)).status).toBe(400);
    const refused = await replace(doc.id, admin.token, {
      name: 'a.exe',
      bytes: Buffer.from('MZ\x90\x00binary'),
    });
    expect(refused.status).toBe(415);
    const wav = Buffer.concat([
      Buffer.from('RIFF'),
      Buffer.alloc(4),
      Buffer.from('WAVEfmt '),
      Buffer.alloc(40),
    ]);
    const mismatch = await replace(doc.id, admin.token, { name: 'a.wav', bytes: wav });
    expect([mismatch.status, mismatch.body.message]).toEqual([400, 'error.document.replaceTypeMismatch']);
    // nothing was changed by the refusals
    expect((await s.knex('documents').where('id', doc.id).first()).filename).toBe('report.pdf');

    const res = await replace(doc.id, admin.token, fixed);
    expect(res.status).toBe(200);
    expect(res.body.document).toMatchObject({ id: doc.id, filename: 'report-fixed.pdf' });
    expect(res.body.reruns.map((r: { id: number; status: string }) => [r.id, r.status])).toEqual([
      [failedStep.id, 'PROCESSING'],
    ]);
    await stepReaching(s.knex, doc.id, clf, ['WAITING']);
    const steps = await stepsOf(s.knex, doc.id);
    expect(steps.map((x) => [x.nodeId, x.status])).toEqual([
      [hup, 'ACCEPTED'],
      [parser, 'DONE'],
      [clf, 'WAITING'],
    ]);
    expect(steps[1].id).toBe(failedStep.id);
    const content = await s.knex('document_contents').where('document_id', doc.id).first('content');
    expect(content.content).toContain('The fixed report reads well.');
    const row = await s.knex('documents').where('id', doc.id).first();
    expect(row).toMatchObject({ mime_type: 'application/pdf', size: fixed.bytes.length });
    expect(row.content_hash).toBe(crypto.createHash('sha256').update(fixed.bytes).digest('hex'));

    // the history goes on: the failed run, the rerun by the administrator, the run that parsed the new file
    const timeline = await s.get(`/api/v2/document/${doc.id}/timeline`, admin.token);
    const adminLogin = (await s.knex('users').where('id', admin.id).first('login')).login;
    expect(
      timeline.body.entries
        .filter((e: { nodeName: string }) => e.nodeName === 'Parser')
        .map((e: { type: string; outcome: string; who: string | null }) => [e.type, e.outcome, e.who]),
    ).toEqual([
      ['reached', 'ok', null],
      ['run', 'failed', null],
      ['rerun', 'ok', adminLogin],
      ['run', 'ok', null],
    ]);

    // a parse that is done cannot be rerun: a new file is refused before anything changes
    const again = await replace(doc.id, admin.token, { name: 'other.txt', bytes: Buffer.from('Other.\n') });
    expect(again.status).toBe(409);
    expect(again.body.message).toBe('error.document.noRerunnableParse');
    expect((await s.knex('documents').where('id', doc.id).first()).filename).toBe('report-fixed.pdf');
  });

  it('counts the documents waiting for proofreading at each file parser, for whoever reads the documents', async () => {
    const g = await GraphBuilder.create(s.knex);
    const hup = await g.node('HUP', { name: 'Upload' });
    const proofread = await g.node('FILE_PARSER', { autoStepStatus: 'WAITING', name: 'Proofread' });
    const goesOn = await g.node('FILE_PARSER', { autoStepStatus: 'DONE', name: 'Goes on' });
    const clf = await g.node('CLF', { name: 'Annotate' });
    await g.edge(hup, proofread);
    await g.edge(hup, goesOn);
    await g.edge(goesOn, clf);
    const held = [];
    for (const name of ['one.txt', 'two.txt'])
      held.push(await startDocument(s, g, hup, { name, content: `${name}\n` }));
    for (const d of held) {
      await stepReaching(s.knex, d.id, proofread, ['WAITING']);
      await stepReaching(s.knex, d.id, clf, ['WAITING']);
    }
    const counts = (token: string) => s.get(`/api/processes/${g.processId}/waiting-for-proofreading`, token);
    const res = await counts(s.admin);
    expect(res.status).toBe(200);
    expect(res.body).toEqual([{ nodeId: proofread, nodeName: 'Proofread', count: 2, capped: false }]);
    // a user granted the annotators' node only reads the documents, so the counts too; a stranger does not
    const annotator = await userWithNodeMode(s, [{ componentId: clf, type: 'NODE', mode: 'WRITE' }]);
    expect((await counts(annotator.token)).body).toEqual(res.body);
    const stranger = await userWithNodeMode(s, []);
    expect((await counts(stranger.token)).status).toBe(403);
    // once proofread, a document is no longer counted
    const step = (await stepsOf(s.knex, held[0].id)).find((x) => x.nodeId === proofread)!;
    expect(
      (await s.send('POST', `/api/step/assign?docId=${held[0].id}&nodeId=${proofread}`, s.admin)).status,
    ).toBe(200);
    expect((await s.send('PUT', `/api/steps/${step.id}/complete`, s.admin)).status).toBe(200);
    expect((await counts(s.admin)).body).toEqual([
      { nodeId: proofread, nodeName: 'Proofread', count: 1, capped: false },
    ]);
  });
});
