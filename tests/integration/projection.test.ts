/**
 * The document workflow's projection activity against PostgreSQL: a transition that creates no step is
 * written in one statement (steps, document status, assignee), one that creates steps in a transaction;
 * both write absolute values (a retry changes nothing), touch only the document's own steps, and write
 * nothing for a deleted document. The one-activity transition (`transit`, patch 'transit') plans what the
 * workflow plans from what it returns, re-reads a graph only when its version (migration 028) moved, and
 * writes once on a retry.
 */
import { createProjectionActivities, type TransitInput } from '../../activities/projection';
import {
  applyChange,
  initialDocumentState,
  loadedFlowOf,
  planTransition,
  settleTransition,
  type DocumentWorkflowState,
  type TransitionChange,
} from '../../domain/document-transition';
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

  async function insertDocument(process: number): Promise<number> {
    const [d] = await knex('documents')
      .insert({
        process_id: process,
        filename: `${unique('d')}.txt`,
        path: 'x',
        content_hash: 'h',
        mime_type: 'text/plain',
        size: 1,
        document_type: 'TEXTFILE',
      })
      .returning('id');
    return Number(d.id);
  }

  async function documentWithSteps(count: number): Promise<{ doc: number; steps: number[] }> {
    const d = { id: await insertDocument(processId) };
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

  describe('transit', () => {
    const graphVersion = async (id: number) =>
      Number((await knex('processes').where('id', id).first('graph_version')).graph_version);

    it('the graph version moves on every change of a node, an edge or a predicate, of that process only', async () => {
      const p = (await buildProcess(knex)).id;
      const other = (await buildProcess(knex)).id;
      const otherVersion = await graphVersion(other);
      const versions = [await graphVersion(p)];
      const moved = async () => {
        const v = await graphVersion(p);
        expect(v).toBeGreaterThan(versions[versions.length - 1]);
        versions.push(v);
      };
      const a = (await insertNode(knex, p, 'HUP')).id;
      await moved();
      const b = (await insertNode(knex, p, 'CLF')).id;
      await moved();
      await knex('nodes')
        .where('id', b)
        .update({ settings: { x: 1 } });
      await moved();
      // Moving a node on the graph page, or writing what is there, is no change of the graph.
      await knex('nodes').where('id', b).update({ x: 40, y: 80 });
      await knex('nodes')
        .where('id', b)
        .update({ settings: { x: 1 } });
      expect(await graphVersion(p)).toBe(versions[versions.length - 1]);
      const [edge] = await knex('edges').insert({ process_id: p, from_id: a, to_id: b }).returning('id');
      await moved();
      const [pred] = await knex('predicates')
        .insert({ edge_id: edge.id, predicate_type: 'CLF', node_id: a })
        .returning('id');
      await moved();
      await knex('predicates').where('id', pred.id).update({ equal: false });
      await moved();
      await knex('predicates').where('id', pred.id).delete();
      await moved();
      await knex('edges').where('id', edge.id).delete();
      await moved();
      await knex('nodes').where('id', b).delete();
      await moved();
      expect(await graphVersion(other)).toBe(otherVersion);
    });

    let proc: number;
    let hup: number;
    let clf: number;
    const actor = { userId: 0, nodeMode: 'ADMIN' as const };

    beforeAll(async () => {
      actor.userId = userId;
      proc = (await buildProcess(knex)).id;
      hup = (await insertNode(knex, proc, 'HUP')).id;
      await knex('nodes').where('id', hup).update({ automatic: true, auto_step_status: 'ACCEPTED' });
      clf = (await insertNode(knex, proc, 'CLF')).id;
      await knex('edges').insert({ process_id: proc, from_id: hup, to_id: clf });
    });

    const newDocument = async (processId = proc): Promise<DocumentWorkflowState> =>
      initialDocumentState({ documentId: await insertDocument(processId), processId, uploadNodeId: hup });

    /** transit, then the state as the workflow settles it from what transit returned. */
    async function run(input: TransitInput) {
      const result = await projection.transit(input);
      const flow = result.flow && loadedFlowOf(result.flow, input.held);
      const change: TransitionChange = input.change;
      const plan = planTransition(input.state, flow, (next) => applyChange(next, change, flow));
      return { result, state: settleTransition(plan, result.created) };
    }

    const stepRows = (doc: number) =>
      knex('steps').where('document_id', doc).orderBy('order').select('id', 'node_id', 'order', 'status');
    const documentStatus = async (doc: number) =>
      (await knex('documents').where('id', doc).first('status')).status as string;

    it('starts, completes and activates in one activity each; the graph is re-read only when its version moved', async () => {
      const initial = await newDocument();
      const doc = initial.documentId;
      const start: TransitInput = {
        state: initial,
        change: { kind: 'start' },
        load: true,
        held: null,
        addAssignee: null,
      };
      const started = await run(start);
      // A retry (the worker died before the result was recorded) writes nothing more and answers the same.
      expect(await projection.transit(start)).toEqual(started.result);
      const held = started.result.flow!.graph!;
      expect(held.version).toBe(await graphVersion(proc));
      expect(held.graph.nodes.map((n) => n.id)).toEqual([hup, clf]);
      expect(held.trainingNodeIds).toEqual([]);
      const rows = await stepRows(doc);
      expect(rows.map((r) => [Number(r.node_id), r.order, r.status])).toEqual([
        [hup, 1, 'ACCEPTED'],
        [clf, 2, 'WAITING'],
      ]);
      // What the workflow settles on is what was written.
      expect(started.state.steps.map((s) => [s.id, s.status])).toEqual(
        rows.map((r) => [Number(r.id), r.status]),
      );
      const clfStep = Number(rows[1].id);

      // Unchanged graph: not returned (the workflow plans on the one it holds).
      const complete = (state: DocumentWorkflowState, h = held): TransitInput => ({
        state,
        change: { kind: 'action', action: 'complete', stepId: clfStep, actor },
        load: true,
        held: h,
        addAssignee: null,
      });
      const done = await run(complete(started.state));
      expect(done.result.flow).toEqual({
        documentExists: true,
        filename: expect.any(String),
        tags: { classifier: [], ner: [] },
      });
      expect((await stepRows(doc))[1].status).toBe('DONE');
      expect(await documentStatus(doc)).toBe('DONE');
      expect(done.state.documentStatus).toBe('DONE');

      // Activate does not move the flow: nothing is read.
      const again = await run({
        state: done.state,
        change: { kind: 'action', action: 'activate', stepId: clfStep, actor },
        load: false,
        held,
        addAssignee: null,
      });
      expect(again.result.flow).toBeUndefined();
      expect((await stepRows(doc))[1].status).toBe('WAITING');
      expect(await documentStatus(doc)).toBe('WAITING');

      // Turning automatic training on is a graph change: the next move reads the graph, with the node to train.
      await knex('nodes')
        .where('id', clf)
        .update({
          trainable_config: { model: 'm', requestPath: null, automaticTraining: true, threshold: 10 },
        });
      const retrained = await run(complete(again.state));
      expect(retrained.result.flow!.graph).toMatchObject({
        version: await graphVersion(proc),
        trainingNodeIds: [clf],
      });
      expect(retrained.result.flow!.graph!.version).toBeGreaterThan(held.version);
      expect((await stepRows(doc))[1].status).toBe('DONE');
    });

    it('reads the tags only for a graph with predicates, and follows them', async () => {
      const p = (await buildProcess(knex)).id;
      const up = (await insertNode(knex, p, 'HUP')).id;
      await knex('nodes').where('id', up).update({ automatic: true, auto_step_status: 'ACCEPTED' });
      const yes = (await insertNode(knex, p, 'CLF')).id;
      const no = (await insertNode(knex, p, 'CLF')).id;
      const [toYes] = await knex('edges').insert({ process_id: p, from_id: up, to_id: yes }).returning('id');
      const [toNo] = await knex('edges').insert({ process_id: p, from_id: up, to_id: no }).returning('id');
      const [type] = await knex('classifier_types')
        .insert({ node_id: up, name: unique('c'), background_color: '#111111' })
        .returning('id');
      await knex('predicates').insert({
        edge_id: toYes.id,
        predicate_type: 'CLF',
        node_id: up,
        clf_type_id: type.id,
      });
      await knex('predicates').insert({
        edge_id: toNo.id,
        predicate_type: 'CLF',
        node_id: up,
        clf_type_id: type.id,
        equal: false,
      });
      const initial = { ...(await newDocument(p)), uploadNodeId: up };
      await knex('classifier_tags').insert({
        document_id: initial.documentId,
        node_id: up,
        classifier_type_id: type.id,
      });
      const { result } = await run({
        state: initial,
        change: { kind: 'start' },
        load: true,
        held: null,
        addAssignee: null,
      });
      expect(result.flow!.tags.classifier).toEqual([{ nodeId: up, classifierTypeId: Number(type.id) }]);
      expect((await stepRows(initial.documentId)).map((r) => Number(r.node_id))).toEqual([up, yes]);
    });

    it('writes nothing for a deleted document, nor for a start whose upload node is not in the process', async () => {
      const gone = await newDocument();
      await knex('documents').where('id', gone.documentId).delete();
      const r = await projection.transit({
        state: gone,
        change: { kind: 'start' },
        load: true,
        held: null,
        addAssignee: null,
      });
      expect(r).toEqual({
        documentExists: false,
        created: [],
        flow: { documentExists: false, tags: { classifier: [], ner: [] } },
      });

      const stray = { ...(await newDocument()), uploadNodeId: nodeId };
      const s = await projection.transit({
        state: stray,
        change: { kind: 'start' },
        load: true,
        held: null,
        addAssignee: null,
      });
      expect(s).toMatchObject({ documentExists: true, created: [] });
      expect(await stepRows(stray.documentId)).toEqual([]);
    });
  });
});
