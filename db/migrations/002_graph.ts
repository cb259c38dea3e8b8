/**
 * The process graph: nodes (common columns plus type-specific settings as JSON), edges and edge predicates.
 * Labels (classifier types, NER tag types) arrive in 003 and add their foreign keys to predicates there.
 */
import type { Knex } from 'knex';

export async function up(knex: Knex): Promise<void> {
  await knex.schema.createTable('nodes', (t) => {
    t.bigIncrements('id');
    t.bigInteger('process_id').notNullable().references('processes.id').onDelete('CASCADE').index();
    t.string('name', 255).notNullable();
    t.text('description');
    t.string('activity_type', 30).notNullable();
    t.double('x').notNullable().defaultTo(0);
    t.double('y').notNullable().defaultTo(0);
    t.boolean('automatic').notNullable().defaultTo(false);
    t.string('auto_step_status', 10).notNullable().defaultTo('WAITING');
    t.boolean('obligatory').notNullable().defaultTo(false);
    t.boolean('mandatory').notNullable().defaultTo(false);
    t.boolean('requires_acceptance').notNullable().defaultTo(false);
    t.integer('priority').notNullable().defaultTo(2);
    t.boolean('handles_relations').notNullable().defaultTo(false);
    t.string('trigger_type', 10).notNullable().defaultTo('ALWAYS');
    t.string('cron', 120);
    t.integer('threshold');
    t.jsonb('external_config');
    t.jsonb('trainable_config');
    t.jsonb('additional_node_submits').notNullable().defaultTo('[]');
    /** Type-specific fields of spec 3 section 3 (prompt, mail, request, drive, SFTP, IPS, HUP endpoint...). */
    t.jsonb('settings').notNullable().defaultTo('{}');
    t.timestamp('created_date', { useTz: true }).defaultTo(knex.fn.now());
  });
  await knex.raw('create unique index nodes_process_name_unique on nodes (process_id, lower(btrim(name)))');
  await knex.schema.createTable('edges', (t) => {
    t.bigIncrements('id');
    t.bigInteger('process_id').notNullable().references('processes.id').onDelete('CASCADE').index();
    t.bigInteger('from_id').notNullable().references('nodes.id').onDelete('CASCADE');
    t.bigInteger('to_id').notNullable().references('nodes.id').onDelete('CASCADE').index();
    t.unique(['from_id', 'to_id']);
  });
  await knex.schema.createTable('predicates', (t) => {
    t.bigIncrements('id');
    t.bigInteger('edge_id').notNullable().references('edges.id').onDelete('CASCADE').index();
    t.bigInteger('parent_id').references('predicates.id').onDelete('CASCADE').index();
    t.string('predicate_type', 10).notNullable();
    t.string('logical_operator', 3);
    t.bigInteger('node_id').references('nodes.id').onDelete('CASCADE');
    t.boolean('equal').notNullable().defaultTo(true);
    t.bigInteger('clf_type_id');
    t.bigInteger('ner_tag_type_id');
  });
}

export async function down(knex: Knex): Promise<void> {
  await knex.schema.dropTableIfExists('predicates');
  await knex.schema.dropTableIfExists('edges');
  await knex.schema.dropTableIfExists('nodes');
}
