/** Labels of nodes: classifier types, NER tag types (a tree), matching rules, NER relation types. */
import type { Knex } from 'knex';

export async function up(knex: Knex): Promise<void> {
  await knex.schema.createTable('classifier_types', (t) => {
    t.bigIncrements('id');
    t.bigInteger('node_id').notNullable().references('nodes.id').onDelete('CASCADE').index();
    t.string('name', 100).notNullable();
    t.string('description', 255);
    t.string('background_color', 20).notNullable();
    t.string('prefix_key', 1);
    t.string('suffix_key', 1);
  });
  await knex.raw(
    'create unique index classifier_types_node_name_unique on classifier_types (node_id, lower(name))',
  );
  await knex.schema.createTable('ner_tag_types', (t) => {
    t.bigIncrements('id');
    t.bigInteger('node_id').notNullable().references('nodes.id').onDelete('CASCADE').index();
    t.bigInteger('parent_id').references('ner_tag_types.id').onDelete('CASCADE').index();
    t.string('name', 100).notNullable();
    t.string('background_color', 20).notNullable();
    t.string('text_color', 20).notNullable();
    t.boolean('mandatory').notNullable().defaultTo(false);
    t.string('prefix_key', 1);
    t.string('suffix_key', 1);
    t.string('data_format', 10);
    t.boolean('selectable').notNullable().defaultTo(true);
    t.boolean('disabled').notNullable().defaultTo(false);
    t.text('path');
  });
  await knex.raw(
    'create unique index ner_tag_types_node_name_unique on ner_tag_types (node_id, lower(name))',
  );
  await knex.schema.createTable('matching_rules', (t) => {
    t.bigIncrements('id');
    t.bigInteger('ner_tag_type_id').notNullable().references('ner_tag_types.id').onDelete('CASCADE').index();
    t.text('expression').notNullable();
    t.string('matching_type', 10).notNullable();
    t.integer('tolerance');
  });
  await knex.schema.createTable('ner_relation_types', (t) => {
    t.bigIncrements('id');
    t.bigInteger('node_id').notNullable().references('nodes.id').onDelete('CASCADE').index();
    t.string('name', 100).notNullable();
    t.string('color', 20).notNullable();
    t.integer('priority').notNullable().defaultTo(2);
    t.bigInteger('from_id').references('ner_tag_types.id').onDelete('CASCADE');
    t.bigInteger('to_id').references('ner_tag_types.id').onDelete('CASCADE');
    t.boolean('strict').notNullable().defaultTo(false);
    t.boolean('merge').notNullable().defaultTo(false);
  });
  await knex.schema.alterTable('predicates', (t) => {
    t.foreign('clf_type_id').references('classifier_types.id').onDelete('CASCADE');
    t.foreign('ner_tag_type_id').references('ner_tag_types.id').onDelete('CASCADE');
  });
}

export async function down(knex: Knex): Promise<void> {
  await knex.schema.alterTable('predicates', (t) => {
    t.dropForeign(['clf_type_id']);
    t.dropForeign(['ner_tag_type_id']);
  });
  for (const table of ['ner_relation_types', 'matching_rules', 'ner_tag_types', 'classifier_types']) {
    await knex.schema.dropTableIfExists(table);
  }
}
