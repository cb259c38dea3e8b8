/**
 * Tags per step (issue 31 section 1, docs/api-agreement.md): each step of a multiprocessed node keeps its own
 * classes and NER tags, so the annotators' choices can be compared and the master step's are the node's result.
 *
 * - Today every step of a multiprocessed node wrote into one shared set: that set becomes the master step's
 *   (tags of the node's other steps move to the master step of their document).
 * - `classifier_tags` was unique per (document, node, classifier type); it becomes unique per (document, node,
 *   step, classifier type), a tag written by no step (null) counting as one step (NULLS NOT DISTINCT).
 * - `steps (node_id, document_id)` already serves the readers' "is this a non-master step of the tag's node"
 *   probe (by primary key); nothing else is needed.
 */
import type { Knex } from 'knex';

export async function up(knex: Knex): Promise<void> {
  await knex.raw(`
    update ner_tags t set step_id = m.id
      from ner_tag_types tt, steps s, steps m
     where tt.id = t.ner_tag_type_id and s.id = t.step_id and s.node_id = tt.node_id and not s.master
       and m.document_id = s.document_id and m.node_id = s.node_id and m.master`);
  await knex.raw(`
    update classifier_tags c set step_id = m.id
      from steps s, steps m
     where s.id = c.step_id and s.node_id = c.node_id and not s.master
       and m.document_id = s.document_id and m.node_id = s.node_id and m.master`);
  await knex.schema.alterTable('classifier_tags', (t) => {
    t.dropUnique(['document_id', 'node_id', 'classifier_type_id']);
  });
  await knex.raw(`create unique index classifier_tags_step_type_unique
    on classifier_tags (document_id, node_id, step_id, classifier_type_id) nulls not distinct`);
}

export async function down(knex: Knex): Promise<void> {
  await knex.raw('drop index if exists classifier_tags_step_type_unique');
  // the per-step copies cannot all stay: keep the master's (or the oldest) per type
  await knex.raw(`
    delete from classifier_tags c using classifier_tags o
     where o.document_id = c.document_id and o.node_id = c.node_id
       and o.classifier_type_id = c.classifier_type_id and o.id < c.id`);
  await knex.schema.alterTable('classifier_tags', (t) => {
    t.unique(['document_id', 'node_id', 'classifier_type_id']);
  });
}
