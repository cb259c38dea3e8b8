/** Outcomes of action nodes (send mail, send request, ...): one row per execution, SUCCESS or FAILURE. */
import type { Knex } from 'knex';

export async function up(knex: Knex): Promise<void> {
  await knex.schema.createTable('action_execution_results', (t) => {
    t.bigIncrements('id');
    t.bigInteger('node_id').notNullable().references('nodes.id').onDelete('CASCADE');
    t.bigInteger('step_id').references('steps.id').onDelete('CASCADE');
    t.bigInteger('document_id').references('documents.id').onDelete('CASCADE');
    /** The execution's key (step id and attempt, or a schedule run id): a retry does not record twice. */
    t.string('execution_key', 200).notNullable().unique();
    t.string('status', 10).notNullable();
    t.jsonb('details').notNullable().defaultTo('{}');
    t.timestamp('created_date', { useTz: true }).notNullable().defaultTo(knex.fn.now());
    t.index(['node_id', 'id']);
    t.index(['step_id']);
  });
}

export async function down(knex: Knex): Promise<void> {
  await knex.schema.dropTableIfExists('action_execution_results');
}
