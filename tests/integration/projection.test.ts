/**
 * The document workflow's projection activity against PostgreSQL: a transition that creates no step is
 * written in one statement (steps, document status, assignee), one that creates steps in a transaction;
 * both write absolute values (a retry changes nothing), touch only the document's own steps, and write
 * nothing for a deleted document.
 */
import { createProjectionActivities } from '../../activities/projection';
import { buildProcess, insertNode, setupSuite, unique } from '../support/harness';

describe('projection activity', () => {
  const suite = setupSuite();
  const { knex } = suite;
  const projection = createProjectionActivities({ knex });
  let processId: number;
  let nodeId: number;
  let userId: number;

  beforeAll(async () => {
    processId = (await buildProcess(knex)).id;
    nodeId = (await insertNode(knex, processId, 'CLF')).id;
    const [user] = await knex('users')
      .insert({
        login: unique('proj').toLowerCase(),
        email: `${unique('p')}@x.test`.toLowerCase(),
        password_hash: 'x',
        activated: true,
      })
      .returning('id');
    userId = Number(user.id);
  });

  async function documentWithSteps(count: number): Promise<{ doc: number; steps: number[] }> {
    const [d] = await knex('documents')
      .insert({
        process_id: processId,
        filename: `${unique('d')}.txt`,
        path: 'x',
        content_hash: 'h',
        mime_type: 'text/plain',
        size: 1,
        document_type: 'TEXTFILE',
      })
      .returning('id');
    const steps: number[] = [];
    for (let i = 1; i <= count; i++) {
      const [s] = await knex('steps')
        .insert({ document_id: d.id, node_id: nodeId, order: i, status: 'WAITING', master: i === 1 })
        .returning('id');
      steps.push(Number(s.id));
    }
    return { doc: Number(d.id), steps };
  }

  const stepRow = (id: number) =>
    knex('steps').where('id', id).first('status', 'master', 'rejected', 'blocked_by_id', 'error_message');

  it('writes changed steps, the status and the assignee in one go, and the same again on a retry', async () => {
    const { doc, steps } = await documentWithSteps(2);
    const other = await documentWithSteps(1);
    const input = {
      documentId: doc,
      documentStatus: 'DONE' as const,
      changes: [
        {
          id: steps[0],
          status: 'DONE' as const,
          master: true,
          rejected: false,
          blockedBy: userId,
          errorMessage: null,
        },
        {
          id: steps[1],
          status: 'ERROR' as const,
          master: false,
          rejected: true,
          blockedBy: null,
          errorMessage: 'no',
        },
        // A step of another document is not this document's to write.
        {
          id: other.steps[0],
          status: 'DONE' as const,
          master: true,
          rejected: false,
          blockedBy: null,
          errorMessage: null,
        },
      ],
      addAssignee: userId,
    };
    for (let attempt = 0; attempt < 2; attempt++) {
      expect(await projection.project(input)).toEqual({ documentExists: true, created: [] });
      expect(await stepRow(steps[0])).toEqual({
        status: 'DONE',
        master: true,
        rejected: false,
        blocked_by_id: userId,
        error_message: null,
      });
      expect(await stepRow(steps[1])).toMatchObject({ status: 'ERROR', rejected: true, error_message: 'no' });
      expect((await knex('documents').where('id', doc).first('status')).status).toBe('DONE');
      expect(await knex('document_assignees').where('document_id', doc).select('user_id')).toEqual([
        { user_id: userId },
      ]);
    }
    expect((await stepRow(other.steps[0])).status).toBe('WAITING');
  });

  it('writes the status alone, and withholds SQL from an error message', async () => {
    const { doc, steps } = await documentWithSteps(1);
    await projection.project({
      documentId: doc,
      documentStatus: 'WAITING',
      changes: [
        {
          id: steps[0],
          status: 'ERROR',
          master: true,
          rejected: false,
          blockedBy: null,
          errorMessage: 'duplicate key value violates unique constraint "x"',
        },
      ],
    });
    expect((await stepRow(steps[0])).error_message).not.toMatch(/duplicate key/);
    await knex('documents').where('id', doc).update({ status: 'DONE' });
    await projection.project({ documentId: doc, documentStatus: 'WAITING' });
    expect((await knex('documents').where('id', doc).first('status')).status).toBe('WAITING');
  });

  it('creates steps once by order, in a transaction', async () => {
    const { doc } = await documentWithSteps(1);
    const input = {
      documentId: doc,
      documentStatus: 'WAITING' as const,
      creates: [{ nodeId, order: 2, status: 'WAITING' as const, master: true }],
    };
    const first = await projection.project(input);
    const again = await projection.project(input);
    expect(first.created).toHaveLength(1);
    expect(again).toEqual(first);
    const count = await knex('steps').where('document_id', doc).count('* as n').first();
    expect(Number(count!.n)).toBe(2);
  });

  it('writes nothing for a deleted document', async () => {
    const { doc, steps } = await documentWithSteps(1);
    await knex('documents').where('id', doc).delete();
    expect(
      await projection.project({
        documentId: doc,
        documentStatus: 'DONE',
        changes: [
          {
            id: steps[0],
            status: 'DONE',
            master: true,
            rejected: false,
            blockedBy: null,
            errorMessage: null,
          },
        ],
        addAssignee: userId,
      }),
    ).toEqual({ documentExists: false, created: [] });
    expect(await knex('document_assignees').where('document_id', doc).select('user_id')).toEqual([]);
  });
});
