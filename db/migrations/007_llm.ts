/** Answers of LLM prompt nodes (spec 3 section 7): one row per run of a step, and per rerun with an edited prompt. */
import type { Knex } from 'knex';

export async function up(knex: Knex): Promise<void> {
  await knex.schema.createTable('llm_chat_responses', (t) => {
    t.bigIncrements('id');
    t.bigInteger('step_id').notNullable().references('steps.id').onDelete('CASCADE').index();
    t.bigInteger('node_id').notNullable().references('nodes.id').onDelete('CASCADE');
    t.bigInteger('document_id').notNullable().references('documents.id').onDelete('CASCADE').index();
    t.text('prompt').notNullable();
    t.text('prompt_editor_state');
    t.text('response').notNullable();
    t.timestamp('created_date', { useTz: true }).notNullable().defaultTo(knex.fn.now());
  });
}

export async function down(knex: Knex): Promise<void> {
  await knex.schema.dropTableIfExists('llm_chat_responses');
}
