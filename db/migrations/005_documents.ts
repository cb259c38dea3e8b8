/**
 * Documents and their steps (the projection the document workflow writes), the parsed content
 * (text, utterances and tokens, page images) and the annotations the edge predicates read
 * (classifier tags and NER tags).
 */
import type { Knex } from 'knex';

export async function up(knex: Knex): Promise<void> {
  await knex.schema.createTable('documents', (t) => {
    t.bigIncrements('id');
    t.bigInteger('process_id').notNullable().references('processes.id').onDelete('CASCADE');
    t.bigInteger('upload_node_id').references('nodes.id').onDelete('SET NULL');
    t.string('filename', 255).notNullable();
    /** Storage key under the files directory: sha256 of the content, sharded (ab/cd/abcd...). */
    t.string('path', 300).notNullable();
    t.string('content_hash', 64).notNullable();
    t.string('mime_type', 100).notNullable();
    t.bigInteger('size').notNullable();
    t.string('document_type', 10).notNullable();
    t.string('status', 10).notNullable().defaultTo('WAITING');
    t.bigInteger('blocked_by_id').references('users.id').onDelete('SET NULL');
    t.bigInteger('created_by_id').references('users.id').onDelete('SET NULL');
    t.timestamp('created_date', { useTz: true }).notNullable().defaultTo(knex.fn.now());
    t.timestamp('last_modified_date', { useTz: true });
    t.index(['process_id', 'id']);
  });
  await knex.schema.createTable('document_contents', (t) => {
    t.bigIncrements('id');
    t.bigInteger('document_id').notNullable().unique().references('documents.id').onDelete('CASCADE');
    t.text('content').notNullable().defaultTo('');
  });
  await knex.schema.createTable('document_assignees', (t) => {
    t.bigInteger('document_id').notNullable().references('documents.id').onDelete('CASCADE');
    t.bigInteger('user_id').notNullable().references('users.id').onDelete('CASCADE').index();
    t.primary(['document_id', 'user_id']);
  });
  await knex.schema.createTable('document_pages', (t) => {
    t.bigInteger('document_id').notNullable().references('documents.id').onDelete('CASCADE');
    t.integer('index').notNullable();
    t.string('path', 300).notNullable();
    t.primary(['document_id', 'index']);
  });
  await knex.schema.createTable('steps', (t) => {
    t.bigIncrements('id');
    t.bigInteger('document_id').notNullable().references('documents.id').onDelete('CASCADE');
    t.bigInteger('node_id').notNullable().references('nodes.id').onDelete('CASCADE').index();
    t.string('status', 12).notNullable().defaultTo('WAITING');
    t.boolean('master').notNullable().defaultTo(false);
    t.boolean('rejected').notNullable().defaultTo(false);
    t.bigInteger('blocked_by_id').references('users.id').onDelete('SET NULL');
    /** Position of the step in the document's walk (1, 2, ...). */
    t.integer('order').notNullable();
    t.text('error_message');
    t.timestamp('created_date', { useTz: true }).notNullable().defaultTo(knex.fn.now());
    t.timestamp('last_modified_date', { useTz: true });
    t.index(['document_id', 'order']);
  });
  await knex.schema.createTable('utterances', (t) => {
    t.bigIncrements('id');
    t.bigInteger('document_id').notNullable().references('documents.id').onDelete('CASCADE').index();
    t.string('actor', 100).notNullable();
    t.bigInteger('prev_id');
    t.bigInteger('next_id');
  });
  await knex.schema.createTable('utterance_tokens', (t) => {
    t.bigIncrements('id');
    t.bigInteger('utterance_id').notNullable().references('utterances.id').onDelete('CASCADE');
    t.integer('position').notNullable();
    t.text('value').notNullable();
    t.integer('ts_start');
    t.integer('ts_end');
    t.double('confidence');
    t.jsonb('properties').notNullable().defaultTo('[]');
    t.boolean('unclear').notNullable().defaultTo(false);
    t.index(['utterance_id', 'position']);
  });
  await knex.schema.createTable('token_hints', (t) => {
    t.bigIncrements('id');
    t.bigInteger('utterance_token_id')
      .notNullable()
      .references('utterance_tokens.id')
      .onDelete('CASCADE')
      .index();
    t.text('value').notNullable();
    t.double('confidence');
  });
  await knex.schema.createTable('classifier_tags', (t) => {
    t.bigIncrements('id');
    t.bigInteger('document_id').notNullable().references('documents.id').onDelete('CASCADE').index();
    t.bigInteger('step_id').references('steps.id').onDelete('CASCADE');
    t.bigInteger('node_id').notNullable().references('nodes.id').onDelete('CASCADE');
    t.bigInteger('classifier_type_id').notNullable().references('classifier_types.id').onDelete('CASCADE');
    t.unique(['document_id', 'node_id', 'classifier_type_id']);
  });
  await knex.schema.createTable('ner_tags', (t) => {
    t.bigIncrements('id');
    t.bigInteger('document_id').notNullable().references('documents.id').onDelete('CASCADE').index();
    t.bigInteger('step_id').references('steps.id').onDelete('CASCADE');
    t.bigInteger('ner_tag_type_id').notNullable().references('ner_tag_types.id').onDelete('CASCADE');
    t.string('type', 15).notNullable().defaultTo('SPAN_TAG');
    t.integer('start_offset');
    t.integer('end_offset');
    t.integer('ts_start');
    t.integer('ts_end');
  });
  await knex.schema.createTable('ner_tag_tokens', (t) => {
    t.bigInteger('ner_tag_id').notNullable().references('ner_tags.id').onDelete('CASCADE');
    t.bigInteger('utterance_token_id').notNullable().references('utterance_tokens.id').onDelete('CASCADE');
    t.primary(['ner_tag_id', 'utterance_token_id']);
  });
}

export async function down(knex: Knex): Promise<void> {
  for (const table of [
    'ner_tag_tokens',
    'ner_tags',
    'classifier_tags',
    'token_hints',
    'utterance_tokens',
    'utterances',
    'steps',
    'document_pages',
    'document_assignees',
    'document_contents',
    'documents',
  ]) {
    await knex.schema.dropTableIfExists(table);
  }
}
