/**
 * Relations between NER tags (issue 12 section 1, spec 2 sections 3-5): a relation links two tags of one
 * node by a relation type of that node; relations are kept in graphs (one connected component each, the API
 * refuses a graph that is not connected with error.graph.noCohesive). A graph belongs to the document and to
 * the step and node its tags were written in, like the tags themselves.
 *
 * Deleting a tag cascades to its relations at the database level (a document's or a step's deletion takes
 * everything with it); the rule "a tag that has relations cannot be deleted" is the API's (spec 2 section 5),
 * which answers with the 'cannot remove tag' refusal before it deletes anything.
 */
import type { Knex } from 'knex';

export async function up(knex: Knex): Promise<void> {
  await knex.schema.createTable('ner_tag_relation_graphs', (t) => {
    t.bigIncrements('id');
    t.bigInteger('document_id').notNullable().references('documents.id').onDelete('CASCADE').index();
    t.bigInteger('step_id').references('steps.id').onDelete('CASCADE').index();
    t.bigInteger('node_id').notNullable().references('nodes.id').onDelete('CASCADE');
    t.bigInteger('created_by_id').references('users.id').onDelete('SET NULL');
    t.timestamp('created_date', { useTz: true }).notNullable().defaultTo(knex.fn.now());
    t.bigInteger('last_modified_by_id').references('users.id').onDelete('SET NULL');
    t.timestamp('last_modified_date', { useTz: true });
  });
  await knex.schema.createTable('ner_tag_relations', (t) => {
    t.bigIncrements('id');
    t.bigInteger('graph_id')
      .notNullable()
      .references('ner_tag_relation_graphs.id')
      .onDelete('CASCADE')
      .index();
    t.bigInteger('from_id').notNullable().references('ner_tags.id').onDelete('CASCADE').index();
    t.bigInteger('to_id').notNullable().references('ner_tags.id').onDelete('CASCADE').index();
    t.bigInteger('relation_type_id').notNullable().references('ner_relation_types.id').onDelete('CASCADE');
    t.unique(['graph_id', 'from_id', 'to_id', 'relation_type_id']);
  });
}

export async function down(knex: Knex): Promise<void> {
  await knex.schema.dropTableIfExists('ner_tag_relations');
  await knex.schema.dropTableIfExists('ner_tag_relation_graphs');
}
