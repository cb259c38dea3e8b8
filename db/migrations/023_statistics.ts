/**
 * Statistics (issue 16 section 1; spec 3 sections 3, 5 and 8; docs/api-statistics.md): the workspace's work
 * stretches and the rollups `POST api/statistics` reads instead of scanning every step and tag.
 *
 * - `work_times`: one row per browser stretch of a user on a step (unique clientId per user; the workspace
 *   reports it every 60 s and when it ends, so the row grows).
 * - `ner_tags.created_date`, `classifier_tags.created_date`: when a tag was made (tags had no creation time;
 *   existing ones are backfilled from their last change, else their step's, else their document's).
 * - `stat_step_finishes`: one row each time a step becomes finished (DONE or ACCEPTED from another status, or
 *   inserted finished): which documents a node finished on a day (newest first).
 * - Rollups in 15-minute buckets (UTC instants; every IANA zone's offset is a multiple of 15 minutes, so the
 *   buckets sum exactly into the caller's days, DST days included):
 *   `stat_work_buckets` (seconds of work per node, user and bucket: a stretch is split by its overlap with
 *   each bucket, which is the spec's "split in proportion"), `stat_tag_buckets` (tags created per node, user
 *   and bucket; user 0: written by no person, e.g. a lexicon or a model) and `stat_node_buckets` (step
 *   finishes per node and bucket); `stat_document_node_tags` (live tags per document and node).
 *
 * PostgreSQL triggers keep the rollups right whatever path changes the source (the tag API, batch and
 * import, the lexicon, models, training, the projection, cascades of deleting a document, a step, a label
 * or a node): statement-level triggers with transition tables, so a batch of a thousand tags is one
 * aggregated upsert. Increments insert or add; decrements only update existing rows (a cascade may run after
 * the rollup's owner is gone) and rows falling to zero are removed. Upserts are ordered by key so two
 * concurrent writers lock rollup rows in the same order.
 *
 * Deleting a label deletes its tags first (a row trigger before the label goes), so the tags' node is still
 * known when their counts are taken back.
 */
import type { Knex } from 'knex';

const FINISHED = `('DONE', 'ACCEPTED')`;

export interface Rollup {
  table: string;
  keys: string[];
  value: string;
  /** the SQL type of the summed value */
  type: 'int' | 'float8';
  /** a row whose value falls to this or below goes */
  floor: number;
  /** the rollup's rows from the bucket rows (default: as they are; migration 025's UTC days) */
  of?: (deltas: string) => string;
  /**
   * migration 027: the rows also hold `cum`, the running sums of their UTC day's 96 quarters, and the rows of
   * `of` carry the quarter `q` (0..95) of each delta
   */
  quarters?: boolean;
}

/**
 * One statement applying signed deltas (`deltas`: a query of the keys and `n`) to a rollup: increments insert
 * or add (in key order, for a node that still exists), decrements update existing rows and delete those
 * falling to `floor` (they never insert, so a cascade arriving after the rollup's owner went is harmless).
 */
export function applyDeltas(r: Rollup, deltas: string): string {
  if (r.of) deltas = r.of(deltas);
  const keys = r.keys.join(', ');
  const match = r.keys.map((k) => `s.${k} = d.${k}`).join(' and ');
  if (r.quarters)
    // a delta of zero on the day may still move value between its quarters (a tag's time changed)
    return `
    with q as (
      select ${keys}, q, sum(n) as n from (${deltas}) x group by ${keys}, q having sum(n) <> 0
    ), d as (
      select ${keys}, sum(n)::${r.type} as n, stat_cum(array_agg(q), array_agg(n::float8)) as cum
        from q group by ${keys}
    ), up as (
      insert into ${r.table} (${keys}, ${r.value}, cum)
      select ${keys}, n, cum from d
       where n > 0 and exists (select 1 from nodes where nodes.id = d.node_id)
       order by ${keys}
      on conflict (${keys}) do update set ${r.value} = ${r.table}.${r.value} + excluded.${r.value},
                                          cum = stat_cum_add(${r.table}.cum, excluded.cum)
    ), down as (
      update ${r.table} s set ${r.value} = s.${r.value} + d.n, cum = stat_cum_add(s.cum, d.cum)
        from d where d.n <= 0 and ${match} and s.${r.value} + d.n > ${r.floor}
    )
    delete from ${r.table} s using d where d.n < 0 and ${match} and s.${r.value} + d.n <= ${r.floor}`;
  return `
    with d as (
      select ${keys}, sum(n)::${r.type} as n from (${deltas}) x group by ${keys} having sum(n) <> 0
    ), up as (
      insert into ${r.table} (${keys}, ${r.value})
      select ${keys}, n from d
       where n > 0 and exists (select 1 from nodes where nodes.id = d.node_id)
       order by ${keys}
      on conflict (${keys}) do update set ${r.value} = ${r.table}.${r.value} + excluded.${r.value}
    ), down as (
      update ${r.table} s set ${r.value} = s.${r.value} + d.n
        from d where d.n < 0 and ${match} and s.${r.value} + d.n > ${r.floor}
    )
    delete from ${r.table} s using d where d.n < 0 and ${match} and s.${r.value} + d.n <= ${r.floor}`;
}

export const TAG_BUCKETS: Rollup = {
  table: 'stat_tag_buckets',
  keys: ['node_id', 'bucket', 'user_id'],
  value: 'tags',
  type: 'int',
  floor: 0,
};
export const DOCUMENT_TAGS: Rollup = {
  table: 'stat_document_node_tags',
  keys: ['document_id', 'node_id'],
  value: 'tags',
  type: 'int',
  floor: 0,
};
export const WORK_BUCKETS: Rollup = {
  table: 'stat_work_buckets',
  keys: ['node_id', 'bucket', 'user_id'],
  value: 'seconds',
  type: 'float8',
  floor: 0.0005,
};
export const NODE_BUCKETS: Rollup = {
  table: 'stat_node_buckets',
  keys: ['node_id', 'bucket'],
  value: 'documents',
  type: 'int',
  floor: 0,
};

/** The signed rows of a tag table's transition tables: (node, user, bucket, document, n). */
export const nerRows = (table: string, sign: number) => `
  select tt.node_id, coalesce(t.created_by_id, 0) as user_id, stat_bucket(t.created_date) as bucket,
         t.document_id, ${sign} as n
    from ${table} t join ner_tag_types tt on tt.id = t.ner_tag_type_id`;
export const classifierRows = (table: string, sign: number) => `
  select t.node_id, coalesce(t.created_by_id, 0) as user_id, stat_bucket(t.created_date) as bucket,
         t.document_id, ${sign} as n
    from ${table} t`;

/** The rollups each trigger keeps (migration 025 adds the UTC-day ones). */
export interface StatRollups {
  tags: Rollup[];
  work: Rollup[];
  nodes: Rollup[];
}
export const ROLLUPS_023: StatRollups = {
  tags: [TAG_BUCKETS, DOCUMENT_TAGS],
  work: [WORK_BUCKETS],
  nodes: [NODE_BUCKETS],
};

const applyAll = (rollups: Rollup[], deltas: string) =>
  rollups.map((r) => `${applyDeltas(r, deltas)};`).join('\n');

function tagTrigger(rows: (table: string, sign: number) => string, rollups: Rollup[]): string {
  const body = (deltas: string) => applyAll(rollups, deltas);
  return `
    begin
      if tg_op = 'INSERT' then ${body(rows('new_rows', 1))}
      elsif tg_op = 'DELETE' then ${body(rows('old_rows', -1))}
      else ${body(`${rows('old_rows', -1)} union all ${rows('new_rows', 1)}`)}
      end if;
      return null;
    end`;
}

/** Seconds of each 15-minute bucket a stretch overlaps (rows of a work_times transition table). */
export const workRows = (table: string, sign: number) => `
  select w.node_id, w.user_id, b.bucket,
         ${sign} * extract(epoch from least(w.end_time, b.bucket + interval '15 minutes')
                                     - greatest(w.start_time, b.bucket)) as n
    from ${table} w
   cross join lateral generate_series(stat_bucket(w.start_time), w.end_time - interval '1 microsecond',
                                      interval '15 minutes') as b(bucket)
   where w.end_time > w.start_time`;

function workTrigger(rollups: Rollup[]): string {
  const body = (deltas: string) => applyAll(rollups, deltas);
  return `
    begin
      if tg_op = 'INSERT' then ${body(workRows('new_rows', 1))}
      elsif tg_op = 'DELETE' then ${body(workRows('old_rows', -1))}
      else ${body(`${workRows('old_rows', -1)} union all ${workRows('new_rows', 1)}`)}
      end if;
      return null;
    end`;
}

export const finishRows = (table: string, sign: number) =>
  `select node_id, stat_bucket(finished_at) as bucket, ${sign} as n from ${table}`;

function finishTrigger(rollups: Rollup[]): string {
  const body = (table: string, sign: number) => applyAll(rollups, finishRows(table, sign));
  return `
    begin
      if tg_op = 'INSERT' then ${body('new_rows', 1)}
      else ${body('old_rows', -1)}
      end if;
      return null;
    end`;
}

function stepTrigger(): string {
  return `
    begin
      if tg_op = 'INSERT' then
        insert into stat_step_finishes (node_id, document_id, step_id, finished_at)
        select node_id, document_id, id, coalesce(last_modified_date, now())
          from new_rows where status in ${FINISHED};
      else
        insert into stat_step_finishes (node_id, document_id, step_id, finished_at)
        select n.node_id, n.document_id, n.id, coalesce(n.last_modified_date, now())
          from new_rows n join old_rows o on o.id = n.id
         where n.status in ${FINISHED} and o.status not in ${FINISHED};
      end if;
      return null;
    end`;
}

/** The trigger functions of the rollups (name, body). */
export const rollupFunctions = (r: StatRollups): [string, string][] => [
  ['stat_ner_tags_changed', tagTrigger(nerRows, r.tags)],
  ['stat_classifier_tags_changed', tagTrigger(classifierRows, r.tags)],
  ['stat_work_times_changed', workTrigger(r.work)],
  ['stat_step_finishes_changed', finishTrigger(r.nodes)],
];

export const fn = (name: string, body: string) =>
  `create or replace function ${name}() returns trigger language plpgsql as $fn$ ${body} $fn$`;

/** Statement triggers for insert, update and delete (a trigger with transition tables has one event). */
async function statementTriggers(knex: Knex, table: string, func: string, events: string[]): Promise<void> {
  for (const event of events) {
    const refs =
      event === 'insert'
        ? 'new table as new_rows'
        : event === 'delete'
          ? 'old table as old_rows'
          : 'old table as old_rows new table as new_rows';
    await knex.raw(
      `create trigger ${table}_stat_${event} after ${event} on ${table}
         referencing ${refs} for each statement execute function ${func}()`,
    );
  }
}

export async function up(knex: Knex): Promise<void> {
  await knex.raw(`
    create function stat_bucket(t timestamptz) returns timestamptz language sql immutable parallel safe
      as $$ select to_timestamp(floor(extract(epoch from t) / 900) * 900) $$`);

  for (const table of ['ner_tags', 'classifier_tags']) {
    await knex.schema.alterTable(table, (t) => {
      t.timestamp('created_date', { useTz: true });
    });
    await knex.raw(`
      update ${table} t set created_date = coalesce(
        t.last_modified_date,
        (select s.last_modified_date from steps s where s.id = t.step_id),
        (select d.created_date from documents d where d.id = t.document_id))`);
    await knex.raw(`alter table ${table} alter column created_date set default now()`);
    await knex.raw(`alter table ${table} alter column created_date set not null`);
  }

  await knex.schema.createTable('work_times', (t) => {
    t.bigIncrements('id');
    t.string('client_id', 64).notNullable();
    t.bigInteger('user_id').notNullable().references('users.id').onDelete('CASCADE');
    t.bigInteger('process_id').notNullable().references('processes.id').onDelete('CASCADE');
    t.bigInteger('node_id').notNullable().references('nodes.id').onDelete('CASCADE');
    t.bigInteger('step_id').notNullable().references('steps.id').onDelete('CASCADE').index();
    t.bigInteger('document_id').notNullable().references('documents.id').onDelete('CASCADE').index();
    t.timestamp('start_time', { useTz: true }).notNullable();
    t.timestamp('end_time', { useTz: true }).notNullable();
    t.unique(['user_id', 'client_id']);
    t.index(['process_id', 'start_time']);
  });
  await knex.raw('alter table work_times add constraint work_times_order check (end_time > start_time)');

  await knex.schema.createTable('stat_step_finishes', (t) => {
    t.bigIncrements('id');
    t.bigInteger('node_id').notNullable().references('nodes.id').onDelete('CASCADE');
    t.bigInteger('document_id').notNullable();
    t.bigInteger('step_id').notNullable().references('steps.id').onDelete('CASCADE').index();
    t.timestamp('finished_at', { useTz: true }).notNullable();
  });
  await knex.raw(
    'create index stat_step_finishes_node_time on stat_step_finishes (node_id, finished_at desc) include (document_id)',
  );
  await knex.schema.createTable('stat_work_buckets', (t) => {
    t.bigInteger('node_id').notNullable().references('nodes.id').onDelete('CASCADE');
    t.timestamp('bucket', { useTz: true }).notNullable();
    t.bigInteger('user_id').notNullable();
    t.double('seconds').notNullable();
    t.primary(['node_id', 'bucket', 'user_id']);
  });
  await knex.schema.createTable('stat_tag_buckets', (t) => {
    t.bigInteger('node_id').notNullable().references('nodes.id').onDelete('CASCADE');
    t.timestamp('bucket', { useTz: true }).notNullable();
    /** 0: written by no person (lexicon, model) */
    t.bigInteger('user_id').notNullable();
    t.integer('tags').notNullable();
    t.primary(['node_id', 'bucket', 'user_id']);
  });
  await knex.schema.createTable('stat_node_buckets', (t) => {
    t.bigInteger('node_id').notNullable().references('nodes.id').onDelete('CASCADE');
    t.timestamp('bucket', { useTz: true }).notNullable();
    t.integer('documents').notNullable();
    t.primary(['node_id', 'bucket']);
  });
  // increments come from tags of existing documents only; decrements never insert, so a cascade that
  // reaches the tags after the document (or node) went finds nothing left to update
  await knex.schema.createTable('stat_document_node_tags', (t) => {
    t.bigInteger('document_id').notNullable().references('documents.id').onDelete('CASCADE');
    t.bigInteger('node_id').notNullable().references('nodes.id').onDelete('CASCADE').index();
    t.integer('tags').notNullable();
    t.primary(['document_id', 'node_id']);
  });

  for (const [name, body] of rollupFunctions(ROLLUPS_023)) await knex.raw(fn(name, body));
  await knex.raw(fn('stat_steps_changed', stepTrigger()));
  await knex.raw(
    fn(
      'stat_ner_tag_type_deleting',
      `begin delete from ner_tags where ner_tag_type_id = old.id; return old; end`,
    ),
  );
  const all = ['insert', 'update', 'delete'];
  await statementTriggers(knex, 'ner_tags', 'stat_ner_tags_changed', all);
  await statementTriggers(knex, 'classifier_tags', 'stat_classifier_tags_changed', all);
  await statementTriggers(knex, 'work_times', 'stat_work_times_changed', all);
  await statementTriggers(knex, 'stat_step_finishes', 'stat_step_finishes_changed', ['insert', 'delete']);
  await statementTriggers(knex, 'steps', 'stat_steps_changed', ['insert', 'update']);
  await knex.raw(`create trigger ner_tag_types_stat_delete before delete on ner_tag_types
    for each row execute function stat_ner_tag_type_deleting()`);

  // the rollups of what exists already
  await knex.raw(`
    insert into stat_step_finishes (node_id, document_id, step_id, finished_at)
    select node_id, document_id, id, coalesce(last_modified_date, created_date)
      from steps where status in ${FINISHED}`);
  for (const [table, rows] of [
    ['ner_tags', nerRows],
    ['classifier_tags', classifierRows],
  ] as const) {
    await knex.raw(applyDeltas(TAG_BUCKETS, rows(table, 1)));
    await knex.raw(applyDeltas(DOCUMENT_TAGS, rows(table, 1)));
  }
}

export async function down(knex: Knex): Promise<void> {
  await knex.raw('drop trigger if exists ner_tag_types_stat_delete on ner_tag_types');
  for (const [table, events] of [
    ['ner_tags', ['insert', 'update', 'delete']],
    ['classifier_tags', ['insert', 'update', 'delete']],
    ['steps', ['insert', 'update']],
  ] as const)
    for (const event of events) await knex.raw(`drop trigger if exists ${table}_stat_${event} on ${table}`);
  for (const table of [
    'stat_document_node_tags',
    'stat_node_buckets',
    'stat_tag_buckets',
    'stat_work_buckets',
    'stat_step_finishes',
    'work_times',
  ])
    await knex.schema.dropTableIfExists(table);
  for (const f of [
    'stat_ner_tag_type_deleting',
    'stat_steps_changed',
    'stat_step_finishes_changed',
    'stat_work_times_changed',
    'stat_classifier_tags_changed',
    'stat_ner_tags_changed',
  ])
    await knex.raw(`drop function if exists ${f}()`);
  for (const table of ['ner_tags', 'classifier_tags'])
    await knex.schema.alterTable(table, (t) => {
      t.dropColumn('created_date');
    });
  await knex.raw('drop function if exists stat_bucket(timestamptz)');
}
