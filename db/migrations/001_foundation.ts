/** Accounts, roles, authorities, processes, process tags, actors, external document splitters. */
import type { Knex } from 'knex';

export async function up(knex: Knex): Promise<void> {
  await knex.schema.createTable('users', (t) => {
    t.bigIncrements('id');
    t.string('login', 50).notNullable().unique();
    t.string('email', 254).notNullable().unique();
    t.string('password_hash', 100).notNullable();
    t.string('first_name', 50);
    t.string('last_name', 50);
    t.boolean('activated').notNullable().defaultTo(false);
    t.string('lang_key', 10).notNullable().defaultTo('en');
    t.string('activation_key', 40).index();
    t.string('reset_key', 40).index();
    t.timestamp('reset_date', { useTz: true });
    t.integer('failed_logins').notNullable().defaultTo(0);
    t.timestamp('locked_until', { useTz: true });
    t.string('created_by', 50);
    t.timestamp('created_date', { useTz: true }).defaultTo(knex.fn.now());
    t.string('last_modified_by', 50);
    t.timestamp('last_modified_date', { useTz: true });
  });
  await knex.schema.createTable('roles', (t) => {
    t.bigIncrements('id');
    t.string('name', 50).notNullable().unique();
  });
  await knex.schema.createTable('authorities', (t) => {
    t.bigIncrements('id');
    t.bigInteger('component_id').notNullable();
    t.string('type', 10).notNullable();
    t.string('mode', 10).notNullable();
    t.unique(['component_id', 'type', 'mode']);
  });
  await knex.schema.createTable('user_roles', (t) => {
    t.bigInteger('user_id').notNullable().references('users.id').onDelete('CASCADE');
    t.bigInteger('role_id').notNullable().references('roles.id').onDelete('CASCADE');
    t.primary(['user_id', 'role_id']);
  });
  await knex.schema.createTable('role_authorities', (t) => {
    t.bigInteger('role_id').notNullable().references('roles.id').onDelete('CASCADE');
    t.bigInteger('authority_id').notNullable().references('authorities.id').onDelete('CASCADE');
    t.primary(['role_id', 'authority_id']);
  });
  await knex.schema.createTable('user_authorities', (t) => {
    t.bigInteger('user_id').notNullable().references('users.id').onDelete('CASCADE');
    t.bigInteger('authority_id').notNullable().references('authorities.id').onDelete('CASCADE');
    t.primary(['user_id', 'authority_id']);
  });
  await knex.schema.createTable('external_document_splitters', (t) => {
    t.bigIncrements('id');
    t.string('name', 100).notNullable().unique();
    t.string('description', 255);
  });
  await knex.schema.createTable('processes', (t) => {
    t.bigIncrements('id');
    t.string('name', 255).notNullable();
    t.boolean('is_rag_enabled').notNullable().defaultTo(false);
    t.bigInteger('rag_text_splitter_id').references('external_document_splitters.id').onDelete('SET NULL');
    t.timestamp('created_date', { useTz: true }).defaultTo(knex.fn.now());
  });
  // Names are unique regardless of case and surrounding spaces, like the domain rule.
  await knex.raw('create unique index processes_name_unique on processes (lower(btrim(name)))');
  await knex.schema.createTable('process_tags', (t) => {
    t.bigIncrements('id');
    t.string('name', 50).notNullable();
    t.string('color', 7).notNullable();
    t.boolean('predefined').notNullable().defaultTo(false);
  });
  await knex.raw('create unique index process_tags_name_unique on process_tags (lower(btrim(name)))');
  await knex.schema.createTable('process_process_tags', (t) => {
    t.bigInteger('process_id').notNullable().references('processes.id').onDelete('CASCADE');
    t.bigInteger('process_tag_id').notNullable().references('process_tags.id').onDelete('CASCADE');
    t.primary(['process_id', 'process_tag_id']);
    t.index(['process_tag_id']);
  });
  await knex.schema.createTable('process_actors', (t) => {
    t.bigIncrements('id');
    t.bigInteger('process_id').notNullable().references('processes.id').onDelete('CASCADE').index();
    t.string('actor', 100).notNullable();
    t.string('name', 255).notNullable();
  });
}

export async function down(knex: Knex): Promise<void> {
  for (const table of [
    'process_actors',
    'process_process_tags',
    'process_tags',
    'processes',
    'external_document_splitters',
    'user_authorities',
    'role_authorities',
    'user_roles',
    'authorities',
    'roles',
    'users',
  ]) {
    await knex.schema.dropTableIfExists(table);
  }
}
