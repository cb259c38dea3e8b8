/**
 * Who wrote a tag (issue 11 section 3): NER tags and classifier tags get `origin` (USER for a person through
 * the tag API, LEXICON for a lexicon node's matching, LLM / CUSTOM for an external model's pre-annotation,
 * domain/tags.ts TagOrigins), the user who created it and the user and time of its last change, so the
 * workspace shows machine-written tags as such and whether an annotator has kept, resized or retyped them.
 *
 * Existing rows are backfilled from the step that holds them: tags of LEXICON steps are the lexicon's, tags of
 * steps at nodes with an external model are that model's (no person could write tags before this issue).
 *
 * Also indexes `step_id` of both tables: the lexicon replaces a step's tags by step id, and deleting a step
 * cascades to its tags.
 */
import type { Knex } from 'knex';

export async function up(knex: Knex): Promise<void> {
  for (const table of ['ner_tags', 'classifier_tags']) {
    await knex.schema.alterTable(table, (t) => {
      t.string('origin', 10).notNullable().defaultTo('USER');
      t.bigInteger('created_by_id').references('users.id').onDelete('SET NULL');
      t.bigInteger('last_modified_by_id').references('users.id').onDelete('SET NULL');
      t.timestamp('last_modified_date', { useTz: true });
      t.index(['step_id']);
    });
  }
  await knex.raw(`
    update ner_tags t set origin = 'LEXICON'
      from steps s join nodes n on n.id = s.node_id
     where s.id = t.step_id and n.activity_type = 'LEXICON'`);
  for (const table of ['ner_tags', 'classifier_tags']) {
    await knex.raw(`
      update ${table} t set origin = n.external_config->>'configType'
        from steps s join nodes n on n.id = s.node_id
       where s.id = t.step_id
         and n.activity_type in ('CLF', 'SPAN')
         and n.external_config->>'configType' in ('LLM', 'CUSTOM')`);
  }
}

export async function down(knex: Knex): Promise<void> {
  for (const table of ['ner_tags', 'classifier_tags']) {
    await knex.schema.alterTable(table, (t) => {
      t.dropIndex(['step_id']);
      t.dropColumn('last_modified_date');
      t.dropColumn('last_modified_by_id');
      t.dropColumn('created_by_id');
      t.dropColumn('origin');
    });
  }
}
