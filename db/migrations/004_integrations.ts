/** Configuration of integrations: LLM models, process secrets, e-mail / SFTP / cloud-drive connections. */
import type { Knex } from 'knex';

export async function up(knex: Knex): Promise<void> {
  await knex.schema.createTable('llm_models', (t) => {
    t.bigIncrements('id');
    t.string('name', 100).notNullable().unique();
    t.jsonb('modalities').notNullable().defaultTo('[]');
  });
  await knex.schema.createTable('secrets', (t) => {
    t.bigIncrements('id');
    t.bigInteger('process_id').notNullable().references('processes.id').onDelete('CASCADE').index();
    t.string('name', 50).notNullable();
    t.text('value').notNullable();
    t.boolean('active').notNullable().defaultTo(true);
    t.unique(['process_id', 'name']);
  });
  await knex.schema.createTable('email_upload_connections', (t) => {
    t.bigIncrements('id');
    t.bigInteger('node_id').notNullable().references('nodes.id').onDelete('CASCADE').index();
    t.string('imap_host', 255).notNullable();
    t.integer('imap_port').notNullable().defaultTo(993);
    t.string('address', 254).notNullable();
    t.text('password').notNullable();
    t.string('folder', 255).notNullable().defaultTo('INBOX');
    t.string('content_type', 12).notNullable().defaultTo('MESSAGE');
    t.string('cron', 120);
  });
  await knex.schema.createTable('sftp_connections', (t) => {
    t.bigIncrements('id');
    t.bigInteger('node_id').notNullable().references('nodes.id').onDelete('CASCADE').index();
    t.string('name', 100).notNullable();
    t.string('address', 255).notNullable();
    t.integer('port').notNullable().defaultTo(22);
    t.string('folder', 1024).notNullable().defaultTo('/');
    t.boolean('use_key').notNullable().defaultTo(false);
    t.string('username', 255);
    t.text('password');
    t.text('public_key');
    t.text('private_key');
  });
  await knex.schema.createTable('sftp_transfer_rules', (t) => {
    t.bigIncrements('id');
    t.bigInteger('node_id').notNullable().references('nodes.id').onDelete('CASCADE').index();
    t.string('name', 100);
    t.bigInteger('source_id').notNullable().references('sftp_connections.id').onDelete('CASCADE');
    t.bigInteger('target_id').references('sftp_connections.id').onDelete('SET NULL');
    t.boolean('delete_after_transfer').notNullable().defaultTo(false);
  });
  await knex.schema.createTable('drive_connections', (t) => {
    t.bigIncrements('id');
    t.bigInteger('node_id').notNullable().references('nodes.id').onDelete('CASCADE').unique();
    t.string('name', 100).notNullable();
    t.string('folder_id', 255).notNullable();
    t.text('refresh_token');
    t.text('access_token');
    t.timestamp('token_expiry', { useTz: true });
    t.string('granted_scope', 1024);
    t.boolean('authorized').notNullable().defaultTo(false);
  });
  await knex('llm_models').insert([
    { name: 'gpt-4o-mini', modalities: JSON.stringify(['text', 'image']) },
    { name: 'gpt-4o', modalities: JSON.stringify(['text', 'image']) },
    { name: 'llama-3.1-8b-instruct', modalities: JSON.stringify([]) },
  ]);
}

export async function down(knex: Knex): Promise<void> {
  for (const table of [
    'drive_connections',
    'sftp_transfer_rules',
    'sftp_connections',
    'email_upload_connections',
    'secrets',
    'llm_models',
  ]) {
    await knex.schema.dropTableIfExists(table);
  }
}
