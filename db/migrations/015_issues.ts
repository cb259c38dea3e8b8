/**
 * Issues (comment threads) on a document (issue 12 section 2, spec 2 sections 3-4): an issue is raised on
 * tokens (TOKEN), a range of the text (TEXT: start/end offset in UTF-16 units, as tags), one or two tags (TAG:
 * from/to tag) or a relation (RELATION: from tag, to tag and relation type, saved or still a candidate). It is
 * ACTIVE or RESOLVED; each status change adds an automatic reply. `step_id` is the step the issue was raised
 * in (the selected step), used with the tags' steps for the visibility rule of spec 2 section 6.
 *
 * An issue on a tag goes with the tag (cascade): after tag or graph deletion the workspace refetches issues.
 */
import type { Knex } from 'knex';

export async function up(knex: Knex): Promise<void> {
  await knex.schema.createTable('issues', (t) => {
    t.bigIncrements('id');
    t.bigInteger('document_id').notNullable().references('documents.id').onDelete('CASCADE').index();
    t.bigInteger('step_id').references('steps.id').onDelete('SET NULL');
    t.string('type', 10).notNullable();
    t.string('status', 10).notNullable().defaultTo('ACTIVE');
    t.text('title').notNullable();
    t.text('text').notNullable().defaultTo('');
    t.integer('start_offset');
    t.integer('end_offset');
    t.bigInteger('from_tag_id').references('ner_tags.id').onDelete('CASCADE');
    t.bigInteger('to_tag_id').references('ner_tags.id').onDelete('CASCADE');
    t.bigInteger('relation_type_id').references('ner_relation_types.id').onDelete('CASCADE');
    t.bigInteger('user_id').references('users.id').onDelete('SET NULL');
    t.timestamp('created_date', { useTz: true }).notNullable().defaultTo(knex.fn.now());
    t.timestamp('last_modified_date', { useTz: true });
  });
  await knex.schema.createTable('issue_tokens', (t) => {
    t.bigInteger('issue_id').notNullable().references('issues.id').onDelete('CASCADE');
    t.bigInteger('utterance_token_id').notNullable().references('utterance_tokens.id').onDelete('CASCADE');
    t.primary(['issue_id', 'utterance_token_id']);
  });
  await knex.schema.createTable('issue_replies', (t) => {
    t.bigIncrements('id');
    t.bigInteger('issue_id').notNullable().references('issues.id').onDelete('CASCADE').index();
    t.bigInteger('user_id').references('users.id').onDelete('SET NULL');
    t.text('text').notNullable();
    t.boolean('automatic').notNullable().defaultTo(false);
    t.timestamp('created_date', { useTz: true }).notNullable().defaultTo(knex.fn.now());
    t.timestamp('last_modified_date', { useTz: true });
  });
}

export async function down(knex: Knex): Promise<void> {
  await knex.schema.dropTableIfExists('issue_replies');
  await knex.schema.dropTableIfExists('issue_tokens');
  await knex.schema.dropTableIfExists('issues');
}
