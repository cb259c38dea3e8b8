/**
 * Migration 035 (issue 31 section 1): today's tags of a multiprocessed node, written into one shared set by any
 * of its steps, become the master step's; afterwards each step may hold its own copy of a class. The migration's
 * down and up run inside a transaction that is rolled back, so the suite's database keeps its schema.
 */
import * as m035 from '../../db/migrations/035_tags_per_step';
import { buildProcess, insertNerTagType, insertNode, setupSuite } from '../support/harness';
import { insertDocument } from '../support/documents';

describe('migration 035: tags per step', () => {
  const s = setupSuite();

  it("moves the tags of a node's non-master steps to its master step, then lets each step have its own", async () => {
    const p = await buildProcess(s.knex);
    const hup = await insertNode(s.knex, p.id, 'HUP');
    const clf = await insertNode(s.knex, p.id, 'CLF');
    const span = await insertNode(s.knex, p.id, 'SPAN');
    const single = await insertNode(s.knex, p.id, 'CLF');
    const [type] = await s
      .knex('classifier_types')
      .insert({ node_id: clf.id, name: 'Invoice', background_color: '#ffffff' })
      .returning('id');
    const [singleType] = await s
      .knex('classifier_types')
      .insert({ node_id: single.id, name: 'Other', background_color: '#ffffff' })
      .returning('id');
    const label = await insertNerTagType(s.knex, span.id, 'PER');
    const doc = await insertDocument(s.knex, p.id, hup.id, 'old.txt');
    const step = async (nodeId: number, order: number, master: boolean) =>
      Number(
        (
          await s
            .knex('steps')
            .insert({ document_id: doc, node_id: nodeId, status: 'DONE', order, master })
            .returning('id')
        )[0].id,
      );
    const clfMaster = await step(clf.id, 1, true);
    const clfOther = await step(clf.id, 2, false);
    const spanMaster = await step(span.id, 3, true);
    const spanOther = await step(span.id, 4, false);
    const singleStep = await step(single.id, 5, false); // a fixture's step never flagged master: left alone

    const rolledBack = new Error('roll back');
    await s.knex
      .transaction(async (trx) => {
        await m035.down(trx);
        // as before: one shared set, written by whichever step of the node
        const [c] = await trx('classifier_tags')
          .insert({ document_id: doc, step_id: clfOther, node_id: clf.id, classifier_type_id: type.id })
          .returning('id');
        const [n] = await trx('ner_tags')
          .insert({
            document_id: doc,
            step_id: spanOther,
            ner_tag_type_id: label.id,
            type: 'SPAN_TAG',
            start_offset: 0,
            end_offset: 3,
          })
          .returning('id');
        const [o] = await trx('classifier_tags')
          .insert({
            document_id: doc,
            step_id: singleStep,
            node_id: single.id,
            classifier_type_id: singleType.id,
          })
          .returning('id');
        await m035.up(trx);
        expect((await trx('classifier_tags').where('id', c.id).first('step_id')).step_id).toBe(clfMaster);
        expect((await trx('ner_tags').where('id', n.id).first('step_id')).step_id).toBe(spanMaster);
        expect((await trx('classifier_tags').where('id', o.id).first('step_id')).step_id).toBe(singleStep);
        // the other annotator's own copy of the class is now possible, a second one in one step is not
        await trx('classifier_tags').insert({
          document_id: doc,
          step_id: clfOther,
          node_id: clf.id,
          classifier_type_id: type.id,
        });
        await expect(
          trx('classifier_tags').insert({
            document_id: doc,
            step_id: clfOther,
            node_id: clf.id,
            classifier_type_id: type.id,
          }),
        ).rejects.toThrow(/classifier_tags_step_type_unique/);
        throw rolledBack;
      })
      .catch((e) => {
        if (e !== rolledBack) throw e;
      });
  });
});
