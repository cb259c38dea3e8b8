/**
 * A document's timeline (issue 29 section 1) reads the action results of one document, and the sends that
 * created it (`details -> 'documents'` of IPS results holds `{ documentId }` per created document): an index
 * for each, so a timeline does not scan every result of every process.
 */
import type { Knex } from 'knex';

export async function up(knex: Knex): Promise<void> {
  await knex.schema.alterTable('action_execution_results', (t) => {
    t.index(['document_id', 'id'], 'action_execution_results_document_idx');
  });
  await knex.raw(
    `create index action_execution_results_sent_documents_idx on action_execution_results
       using gin ((details -> 'documents') jsonb_path_ops)`,
  );
}

export async function down(knex: Knex): Promise<void> {
  await knex.raw('drop index if exists action_execution_results_sent_documents_idx');
  await knex.schema.alterTable('action_execution_results', (t) => {
    t.dropIndex(['document_id', 'id'], 'action_execution_results_document_idx');
  });
}
