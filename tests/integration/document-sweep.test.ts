/**
 * Issue 10 (found by `npm run chaos`): an API process killed between storing an upload and starting its
 * workflow leaves a document that nothing would ever start. The workers' sweep
 * (server/document-workflows.ts startMissingDocumentWorkflows, every DOCUMENT_SWEEP_SECONDS in
 * workflows/worker.ts) starts the workflow of a document with no step stored longer ago than the limit; it
 * leaves alone a younger one (an upload may be starting it right now) and one whose workflow id was used
 * before (running but not yet initialised, or ended), and a second sweep starts nothing again.
 * Scoped to this suite's process: the database is shared with the other suites.
 */
import crypto from 'node:crypto';
import fs from 'node:fs';
import path from 'node:path';
import { WorkflowNotFoundError } from '@temporalio/client';
import { startMissingDocumentWorkflows } from '../../server/document-workflows';
import { DOCUMENT_WORKFLOW, documentWorkflowId } from '../../workflows/document-contract';
import { GraphBuilder, setupEngineSuite, stepReaching, stepsOf } from '../support/engine';

describe('the sweep of documents stored without a workflow', () => {
  const s = setupEngineSuite('document-sweep');

  /** A stored document with no workflow, as an interrupted upload leaves it, `ageSeconds` old. */
  async function storedDocument(g: GraphBuilder, hup: number, ageSeconds: number): Promise<number> {
    const bytes = Buffer.from(`Stored, not started: ${crypto.randomUUID()}\n`);
    const hash = crypto.createHash('sha256').update(bytes).digest('hex');
    const key = path.posix.join(hash.slice(0, 2), hash.slice(2, 4), hash);
    fs.mkdirSync(path.dirname(path.join(s.filesDir, key)), { recursive: true });
    fs.writeFileSync(path.join(s.filesDir, key), bytes);
    const [doc] = await s
      .knex('documents')
      .insert({
        process_id: g.processId,
        upload_node_id: hup,
        filename: `${hash.slice(0, 8)}.txt`,
        path: key,
        content_hash: hash,
        mime_type: 'text/plain',
        size: bytes.length,
        document_type: 'TEXTFILE',
        created_date: s.knex.raw(`now() - make_interval(secs => ?)`, [ageSeconds]),
      })
      .returning('id');
    await s.knex('document_contents').insert({ document_id: doc.id, content: '' });
    return doc.id;
  }

  const status = async (documentId: number) => {
    try {
      return (await s.client.workflow.getHandle(documentWorkflowId(documentId)).describe()).status.name;
    } catch (err) {
      if (err instanceof WorkflowNotFoundError) return 'NONE';
      throw err;
    }
  };

  it('starts the workflow of an old document without one, and nothing else', async () => {
    const g = await GraphBuilder.create(s.knex);
    const hup = await g.node('HUP');
    const parser = await g.node('FILE_PARSER', { autoStepStatus: 'DONE' });
    await g.edge(hup, parser);
    const input = (documentId: number) => ({ documentId, processId: g.processId, uploadNodeId: hup });

    const orphan = await storedDocument(g, hup, 300);
    const young = await storedDocument(g, hup, 0);
    // Old, no step, its workflow started on a queue nobody polls (not initialised yet) ...
    const waiting = await storedDocument(g, hup, 300);
    const idle = `idle-${s.taskQueue}`;
    await s.client.workflow.start(DOCUMENT_WORKFLOW, {
      taskQueue: idle,
      workflowId: documentWorkflowId(waiting),
      args: [input(waiting)],
    });
    // ... and one whose workflow ended before it wrote a step.
    const ended = await storedDocument(g, hup, 300);
    const handle = await s.client.workflow.start(DOCUMENT_WORKFLOW, {
      taskQueue: idle,
      workflowId: documentWorkflowId(ended),
      args: [input(ended)],
    });
    await handle.terminate('ended before its first step');

    const sweep = () =>
      startMissingDocumentWorkflows(s.client, s.knex, s.taskQueue, {
        olderThanMs: 60_000,
        processIds: [g.processId],
      });
    expect(await sweep()).toEqual([orphan]);

    // The orphan goes through the flow like any upload.
    await stepReaching(s.knex, orphan, parser, ['DONE'], 60_000);
    expect((await stepsOf(s.knex, orphan)).map((x) => x.status)).toEqual(['ACCEPTED', 'DONE']);
    const content = await s.knex('document_contents').where('document_id', orphan).select('content');
    expect(content).toHaveLength(1);
    expect(content[0].content).toMatch(/^Stored, not started: /);

    // The others are as they were.
    expect(await status(young)).toBe('NONE');
    expect(await status(waiting)).toBe('RUNNING');
    expect(await status(ended)).toBe('TERMINATED');
    for (const id of [young, waiting, ended]) expect(await stepsOf(s.knex, id)).toEqual([]);

    // Nothing is started twice.
    expect(await sweep()).toEqual([]);
    await s.client.workflow.getHandle(documentWorkflowId(waiting)).terminate('test done');
  });
});
