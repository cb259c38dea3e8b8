/**
 * RAG (issue 16 section 3): the chunks of the documents of a process with their full-text vectors, the
 * per-process term statistics BM25 needs (kept in step by statement triggers on every insert and delete,
 * FK cascades of deleted documents and processes included), dense vectors of the chunks when an embeddings
 * model is configured, the processes' RAG templates, and the kind of each external document splitter (the
 * three built-in ones are seeded when the table is empty).
 */
import type { Knex } from 'knex';

export async function up(knex: Knex): Promise<void> {
  await knex.schema.alterTable('external_document_splitters', (t) => {
    // PARAGRAPH, SENTENCE or FIXED_WINDOW (domain/rag-split.ts); an unknown kind splits by paragraph.
    t.string('kind', 20).notNullable().defaultTo('PARAGRAPH');
  });
  const [{ count }] = await knex('external_document_splitters').count<{ count: string }[]>({ count: '*' });
  if (Number(count) === 0)
    await knex('external_document_splitters').insert([
      {
        name: 'Paragraph',
        kind: 'PARAGRAPH',
        description: 'Paragraphs (blank-line separated) packed into chunks of up to 1000 characters',
      },
      {
        name: 'Sentence',
        kind: 'SENTENCE',
        description: 'Sentences packed into chunks of up to 400 characters, never across a paragraph',
      },
      {
        name: 'Fixed window',
        kind: 'FIXED_WINDOW',
        description: 'Windows of about 800 characters overlapping by about 200, cut between words',
      },
    ]);

  await knex.schema.createTable('rag_chunks', (t) => {
    t.bigIncrements('id');
    t.bigInteger('process_id').notNullable().references('processes.id').onDelete('CASCADE');
    t.bigInteger('document_id').notNullable().references('documents.id').onDelete('CASCADE');
    t.integer('ordinal').notNullable();
    /** UTF-16 offsets in the document's content, end exclusive: content.slice(start, end) === text. */
    t.integer('start_offset').notNullable();
    t.integer('end_offset').notNullable();
    t.text('text').notNullable();
    /** Words of the chunk (BM25's document length). */
    t.integer('token_length').notNullable();
    t.unique(['document_id', 'ordinal']);
    t.index(['process_id', 'id']);
  });
  // 'simple': no stemming and no stop words, so English and Polish documents are indexed alike; BM25's idf
  // weighs frequent words down.
  await knex.raw(
    `alter table rag_chunks add column tsv tsvector generated always as (to_tsvector('simple', text)) stored`,
  );
  await knex.raw('create index rag_chunks_tsv on rag_chunks using gin (tsv)');

  await knex.schema.createTable('rag_process_stats', (t) => {
    t.bigInteger('process_id').primary().references('processes.id').onDelete('CASCADE');
    t.bigInteger('chunk_count').notNullable().defaultTo(0);
    t.bigInteger('total_length').notNullable().defaultTo(0);
  });
  await knex.schema.createTable('rag_term_stats', (t) => {
    t.bigInteger('process_id').notNullable().references('processes.id').onDelete('CASCADE');
    t.text('lexeme').notNullable();
    /** Chunks of the process that contain the lexeme. */
    t.integer('df').notNullable();
    t.primary(['process_id', 'lexeme']);
  });
  // Statement-level triggers with transition tables: one aggregate per statement (a document's chunks, a
  // cascade of a deleted document), rows upserted in lexeme order so concurrent writers lock alike.
  await knex.raw(`
    create function rag_chunks_counted() returns trigger language plpgsql as $$
    begin
      insert into rag_process_stats as s (process_id, chunk_count, total_length)
        select process_id, count(*), sum(token_length) from new_rows group by process_id order by process_id
        on conflict (process_id) do update
          set chunk_count = s.chunk_count + excluded.chunk_count,
              total_length = s.total_length + excluded.total_length;
      insert into rag_term_stats as s (process_id, lexeme, df)
        select c.process_id, l.lexeme, count(*)
          from new_rows c cross join lateral unnest(tsvector_to_array(c.tsv)) as l(lexeme)
          group by c.process_id, l.lexeme order by c.process_id, l.lexeme
        on conflict (process_id, lexeme) do update set df = s.df + excluded.df;
      return null;
    end $$;
    create function rag_chunks_uncounted() returns trigger language plpgsql as $$
    begin
      update rag_process_stats s
        set chunk_count = s.chunk_count - o.n, total_length = s.total_length - o.len
        from (select process_id, count(*) n, sum(token_length) len from old_rows group by process_id) o
        where s.process_id = o.process_id;
      update rag_term_stats s set df = s.df - o.n
        from (select c.process_id, l.lexeme, count(*) n
                from old_rows c cross join lateral unnest(tsvector_to_array(c.tsv)) as l(lexeme)
                group by c.process_id, l.lexeme) o
        where s.process_id = o.process_id and s.lexeme = o.lexeme;
      delete from rag_term_stats s using (select distinct process_id from old_rows) p
        where s.process_id = p.process_id and s.df <= 0;
      return null;
    end $$;
    create trigger rag_chunks_insert after insert on rag_chunks
      referencing new table as new_rows for each statement execute function rag_chunks_counted();
    create trigger rag_chunks_delete after delete on rag_chunks
      referencing old table as old_rows for each statement execute function rag_chunks_uncounted();
  `);

  await knex.schema.createTable('rag_chunk_vectors', (t) => {
    t.bigInteger('chunk_id').primary().references('rag_chunks.id').onDelete('CASCADE');
    t.bigInteger('process_id').notNullable().references('processes.id').onDelete('CASCADE');
    /** EMBEDDINGS_MODEL that made the vector: a vector of another model is not compared. */
    t.string('model', 200).notNullable();
    t.specificType('vector', 'real[]').notNullable();
    t.index(['process_id', 'model', 'chunk_id']);
  });

  await knex.schema.createTable('rag_templates', (t) => {
    t.bigIncrements('id');
    t.bigInteger('process_id').notNullable().unique().references('processes.id').onDelete('CASCADE');
    t.text('template').notNullable();
    t.text('template_editor_state');
    t.boolean('active').notNullable().defaultTo(true);
  });
}

export async function down(knex: Knex): Promise<void> {
  await knex.schema.dropTableIfExists('rag_templates');
  await knex.schema.dropTableIfExists('rag_chunk_vectors');
  await knex.raw('drop trigger if exists rag_chunks_insert on rag_chunks');
  await knex.raw('drop trigger if exists rag_chunks_delete on rag_chunks');
  await knex.schema.dropTableIfExists('rag_term_stats');
  await knex.schema.dropTableIfExists('rag_process_stats');
  await knex.schema.dropTableIfExists('rag_chunks');
  await knex.raw('drop function if exists rag_chunks_counted()');
  await knex.raw('drop function if exists rag_chunks_uncounted()');
  await knex.schema.alterTable('external_document_splitters', (t) => t.dropColumn('kind'));
}
